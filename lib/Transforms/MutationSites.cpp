//===- MutationSites.cpp - Fault sites of tile kernels --------------------===//
//
// The operators of each mutation family: where they apply (collectSites) and
// how (applySite). Operators are chosen to be semantic faults of the kind an
// agent writes (F1 indexing, F2 boundary, F4 reduction, F5 arithmetic, F6
// precision) and, for F7, rewrites that keep the semantics (the verifier must
// not flag them). Variants that would be trivially equivalent (`0 * 2`) are not
// offered.
//
//===----------------------------------------------------------------------===//

#include "MutationSites.h"

#include "kbench/Analysis/KernelModel.h"
#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench::mutation {

static Location mutantLoc(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    if (name.getName() == "kbench.mutant")
      return loc;
  return NameLoc::get(StringAttr::get(loc.getContext(), "kbench.mutant"), loc);
}

/// Marks `op` as touched by the mutation.
static void tag(Operation *op) {
  if (op)
    op->setLoc(mutantLoc(op->getLoc()));
}

/// Marks `op` and every user of its results.
static void tagWithUsers(Operation *op) {
  tag(op);
  for (Operation *user : op->getUsers())
    tag(user);
}

static bool isConstantIndex(Value v, int64_t value) {
  APInt c;
  return matchPattern(v, m_ConstantInt(&c)) && c.getSExtValue() == value;
}

static Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// First operand that is a tile coordinate, and the count.
static std::pair<unsigned, unsigned> indexOperands(Operation *op) {
  OperandRange indices = cast<ViewAccessOpInterface>(op).getIndices();
  return {indices.getBeginOperandIndex(), indices.size()};
}

static bool isFloatTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

static bool isFloatBinary(Operation *op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp>(op) &&
         isFloatTensor(op->getResult(0).getType());
}

static bool isCommutative(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp>(op);
}

static bool isFloatUnary(Operation *op) {
  return op->getNumOperands() == 1 && op->getNumResults() == 1 &&
         op->getOperand(0).getType() == op->getResult(0).getType() &&
         isFloatTensor(op->getResult(0).getType()) &&
         (op->getDialect()->getNamespace() == "math" || isa<arith::NegFOp>(op));
}

//===----------------------------------------------------------------------===//
// Sites
//===----------------------------------------------------------------------===//

SmallVector<Site> collectSites(ModuleOp module, StringRef family) {
  SmallVector<Site> sites;
  auto add = [&](Site::Kind kind, Operation *op, unsigned position,
                 std::string what, SmallVector<std::string> variants) {
    if (!variants.empty())
      sites.push_back({kind, op, position, std::move(what), std::move(variants)});
  };
  module.walk([&](KernelOp kernel) {
    if (RequiresAttr facts = kernel.getRequiresAttr(); facts && family == "F2")
      for (auto [i, fact] : llvm::enumerate(facts.getTexts()))
        add(Site::Kind::Requires, kernel, i,
            describeOp(kernel) + ": requires " + fact, {"drop"});
    kernel.walk([&](Operation *op) {
      if (isa<ViewAccessOpInterface>(op) &&
          (family == "F1" || family == "F7")) {
        auto [first, count] = indexOperands(op);
        for (unsigned i = 0; i < count; ++i) {
          Value idx = op->getOperand(first + i);
          SmallVector<std::string> variants;
          if (family == "F1") {
            variants = {"+1", "-1"};
            if (!isConstantIndex(idx, 0)) {
              variants.push_back("*2");
              variants.push_back("0");
            }
            if (count > 1 && op->getOperand(first + (i + 1) % count) != idx)
              variants.push_back("other coordinate");
          } else {
            variants = {"+1-1", "*3 floordivsi 3", "*3 divui 3"};
          }
          add(Site::Kind::Index, op, first + i,
              describeOp(op) + ": tile coordinate " + std::to_string(i),
              variants);
        }
      }
      if (auto partition = dyn_cast<PartitionOp>(op)) {
        bool loaded = llvm::any_of(op->getUsers(),
                                   [](Operation *u) { return isa<LoadOp>(u); });
        if (family == "F2" && partition.getPadKind() != PadKind::none && loaded)
          add(Site::Kind::PadKind, op, 0, describeOp(op) + ": pad", {"none"});
      }
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        if (family == "F2")
          add(Site::Kind::LoopBounds, op, 0, describeOp(op) + ": bounds",
              {"ub-1", "ub+1", "lb+1"});
        if (family == "F4") {
          add(Site::Kind::LoopStep, op, 0, describeOp(op) + ": step", {"*2"});
          for (unsigned i = 0, e = forOp.getNumRegionIterArgs(); i < e; ++i)
            if (!forOp.getRegionIterArgs()[i].use_empty())
              add(Site::Kind::Carried, op, i,
                  describeOp(op) + ": iter_arg " + std::to_string(i),
                  {"reset each iteration"});
        }
        if (family == "F7" && isConstantIndex(forOp.getStep(), 1))
          add(Site::Kind::Loop, op, 0, describeOp(op) + ": iteration order",
              {"reverse"});
      }
      if (auto grid = dyn_cast<GridOp>(op); grid && family == "F2") {
        SmallVector<std::string> variants;
        for (unsigned a = 0, e = grid.getGridDims().size(); a < e; ++a)
          variants.push_back("coarser view along grid axis " +
                             std::to_string(a));
        if (grid.getView().getDefiningOp<PartitionOp>())
          add(Site::Kind::Grid, op, 0, describeOp(op) + ": grid view", variants);
      }
      if (auto mma = dyn_cast<MmaOp>(op); mma && family == "F4") {
        SmallVector<std::string> variants;
        if (mma.getA().getDefiningOp<LoadOp>())
          variants.push_back("a's k tile +1");
        if (mma.getB().getDefiningOp<LoadOp>())
          variants.push_back("b's k tile +1");
        variants.push_back("double accumulate");
        if (!mma.getAcc().getDefiningOp<arith::ConstantOp>())
          variants.push_back("reset accumulator");
        add(Site::Kind::Mma, op, 0, describeOp(op), variants);
      }
      if (isa<AtomicAddOp>(op) && family == "F4")
        add(Site::Kind::AtomicAdd, op, 0, describeOp(op), {"store"});
      if (isFloatBinary(op)) {
        if (family == "F5")
          add(Site::Kind::FloatBinary, op, 0, describeOp(op),
              {"swap op", "drop (use lhs)"});
        if (family == "F6")
          add(Site::Kind::FloatBinary, op, 0, describeOp(op),
              {"round via f16", "round via bf16"});
        if (family == "F7" && isCommutative(op))
          add(Site::Kind::FloatBinary, op, 0, describeOp(op),
              {"commute operands"});
      }
      if (isFloatUnary(op)) {
        if (family == "F5")
          add(Site::Kind::FloatUnary, op, 0, describeOp(op), {"drop"});
        if (family == "F6")
          add(Site::Kind::FloatUnary, op, 0, describeOp(op),
              {"round via f16", "round via bf16"});
      }
      // A reduction or a scan: the combiner swapped, or its input rounded.
      if (isa<ReduceOp, ScanOp>(op)) {
        if (family == "F5")
          add(Site::Kind::Reduce, op, 0, describeOp(op), {"swap kind"});
        if (family == "F6" && isFloatTensor(op->getOperand(0).getType()))
          add(Site::Kind::Reduce, op, 0, describeOp(op),
              {"round input via f16", "round input via bf16"});
      }
      if (auto constant = dyn_cast<arith::ConstantOp>(op);
          constant && family == "F5") {
        auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
        if (dense && dense.isSplat())
          add(Site::Kind::FloatConstant, op, 0, describeOp(op), {"scale"});
      }
      if (family == "F6" && isa<LoadOp, MmaOp>(op) &&
          isFloatTensor(op->getResult(0).getType()))
        add(Site::Kind::Producer, op, 0, describeOp(op),
            {"round via f16", "round via bf16"});
      if (isa<LoadOp>(op) && family == "F7") {
        Operation *prev = op->getPrevNode();
        bool movable = prev && !isa<StoreOp, AtomicAddOp>(prev) &&
                       prev->getNumRegions() == 0 &&
                       llvm::none_of(op->getOperands(), [&](Value v) {
                         return v.getDefiningOp() == prev;
                       });
        if (movable)
          add(Site::Kind::Hoist, op, 0, describeOp(op), {"move up"});
      }
    });
  });
  return sites;
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

/// Rounds every use of `value` (except through the new ops) through `type`.
static void roundThrough(Value value, FloatType narrow, Location loc) {
  auto tensor = cast<RankedTensorType>(value.getType());
  OpBuilder b(value.getContext());
  b.setInsertionPointAfterValue(value);
  Location l = mutantLoc(loc);
  Value down = arith::TruncFOp::create(b, l, tensor.clone(narrow), value);
  Value up = arith::ExtFOp::create(b, l, tensor, down);
  value.replaceAllUsesExcept(up, down.getDefiningOp());
}

static LogicalResult applyIndex(StringRef family, const Site &site,
                                StringRef variant) {
  Operation *op = site.op;
  OpBuilder b(op);
  Location loc = mutantLoc(op->getLoc());
  Value idx = op->getOperand(site.position);
  Value result;
  if (variant == "+1" || variant == "-1") {
    Value one = indexConstant(b, loc, 1);
    result = variant == "+1" ? Value(arith::AddIOp::create(b, loc, idx, one))
                             : Value(arith::SubIOp::create(b, loc, idx, one));
  } else if (variant == "*2") {
    result = arith::MulIOp::create(b, loc, idx, indexConstant(b, loc, 2));
  } else if (variant == "0") {
    result = indexConstant(b, loc, 0);
  } else if (variant == "other coordinate") {
    auto [first, count] = indexOperands(op);
    result = op->getOperand(first + (site.position - first + 1) % count);
  } else if (variant == "+1-1") {
    Value one = indexConstant(b, loc, 1);
    result = arith::SubIOp::create(
        b, loc, arith::AddIOp::create(b, loc, idx, one), one);
  } else {
    Value three = indexConstant(b, loc, 3);
    Value times = arith::MulIOp::create(b, loc, idx, three);
    result = variant == "*3 floordivsi 3"
                 ? Value(arith::FloorDivSIOp::create(b, loc, times, three))
                 : Value(arith::DivUIOp::create(b, loc, times, three));
  }
  op->setOperand(site.position, result);
  tag(op);
  return success();
}

static LogicalResult applyLoop(const Site &site, StringRef variant) {
  auto forOp = cast<scf::ForOp>(site.op);
  OpBuilder b(forOp);
  Location loc = mutantLoc(forOp.getLoc());
  Value one = indexConstant(b, loc, 1);
  if (variant == "ub-1")
    forOp.setUpperBound(arith::SubIOp::create(b, loc, forOp.getUpperBound(), one));
  else if (variant == "ub+1")
    forOp.setUpperBound(arith::AddIOp::create(b, loc, forOp.getUpperBound(), one));
  else if (variant == "lb+1")
    forOp.setLowerBound(arith::AddIOp::create(b, loc, forOp.getLowerBound(), one));
  else if (variant == "*2")
    forOp.setStep(arith::MulIOp::create(b, loc, forOp.getStep(),
                                        indexConstant(b, loc, 2)));
  else if (variant == "reverse") {
    // iv -> lb + ub - 1 - iv; every iteration still runs once.
    Value iv = forOp.getInductionVar();
    b.setInsertionPointToStart(forOp.getBody());
    Value sum = arith::AddIOp::create(b, loc, forOp.getLowerBound(),
                                      forOp.getUpperBound());
    Value last = arith::SubIOp::create(b, loc, sum, indexConstant(b, loc, 1));
    Value reversed = arith::SubIOp::create(b, loc, last, iv);
    iv.replaceAllUsesExcept(reversed, reversed.getDefiningOp());
  } else if (variant == "reset each iteration") {
    Value arg = forOp.getRegionIterArgs()[site.position];
    arg.replaceAllUsesWith(forOp.getInitArgs()[site.position]);
  }
  tag(forOp);
  return success();
}

static LogicalResult applyGrid(const Site &site, unsigned axis) {
  auto grid = cast<GridOp>(site.op);
  auto partition = grid.getView().getDefiningOp<PartitionOp>();
  int64_t dim = grid.getGridDims()[axis];
  PartitionType type = partition.getResult().getType();
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] *= 2;
  OpBuilder b(grid);
  SmallVector<Attribute> sizes;
  for (int64_t s : shape)
    sizes.push_back(b.getI64IntegerAttr(s));
  auto coarse = PartitionOp::create(
      b, mutantLoc(partition.getLoc()),
      PartitionType::get(b.getContext(), shape, type.getElementType(),
                         type.getPad()),
      partition.getSource(), b.getArrayAttr(sizes), partition.getPadAttr());
  grid.getViewMutable().assign(coarse);
  tag(grid);
  return success();
}

static LogicalResult applyMma(const Site &site, StringRef variant) {
  auto mma = cast<MmaOp>(site.op);
  OpBuilder b(mma);
  Location loc = mutantLoc(mma.getLoc());
  if (variant == "a's k tile +1" || variant == "b's k tile +1") {
    bool isA = variant.starts_with("a");
    Value operand = isA ? mma.getA() : mma.getB();
    auto load = operand.getDefiningOp<LoadOp>();
    unsigned kAxis = isA ? (mma.getTransposeA() ? 0 : 1)
                         : (mma.getTransposeB() ? 1 : 0);
    Value idx = load.getIndices()[kAxis];
    Value shifted =
        arith::AddIOp::create(b, loc, idx, indexConstant(b, loc, 1));
    auto clone = cast<LoadOp>(b.clone(*load));
    clone->setLoc(mutantLoc(load.getLoc()));
    clone->setOperand(1 + kAxis, shifted);
    mma->setOperand(isA ? 0 : 1, clone.getResult());
  } else if (variant == "double accumulate") {
    b.setInsertionPointAfter(mma);
    auto twice = cast<MmaOp>(b.clone(*mma));
    twice->setLoc(loc);
    mma.getResult().replaceAllUsesExcept(twice.getResult(), twice);
    twice->setOperand(2, mma.getResult());
  } else {
    auto type = cast<RankedTensorType>(mma.getAcc().getType());
    Value zero = arith::ConstantOp::create(
        b, loc, type, cast<TypedAttr>(b.getZeroAttr(type)));
    mma->setOperand(2, zero);
  }
  tag(mma);
  return success();
}

static LogicalResult applyFloat(StringRef family, const Site &site,
                                StringRef variant) {
  Operation *op = site.op;
  if (variant.starts_with("round")) {
    MLIRContext *ctx = op->getContext();
    FloatType narrow = variant.ends_with("bf16") ? FloatType(BFloat16Type::get(ctx))
                                                 : FloatType(Float16Type::get(ctx));
    if (variant.starts_with("round input")) {
      OpBuilder b(op);
      Value in = op->getOperand(0);
      auto tensor = cast<RankedTensorType>(in.getType());
      Location l = mutantLoc(op->getLoc());
      Value down = arith::TruncFOp::create(b, l, tensor.clone(narrow), in);
      op->setOperand(0, arith::ExtFOp::create(b, l, tensor, down));
    } else {
      roundThrough(op->getResult(0), narrow, op->getLoc());
    }
    tag(op);
    return success();
  }
  if (variant == "commute operands") {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    op->setOperand(0, rhs);
    op->setOperand(1, lhs);
    tag(op);
    return success();
  }
  if (variant.starts_with("drop")) {
    tagWithUsers(op);
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
    return success();
  }
  if (variant == "swap kind") {
    auto swapped = [](ReduceKind kind) {
      return kind == ReduceKind::add ? ReduceKind::max : ReduceKind::add;
    };
    if (auto reduce = dyn_cast<ReduceOp>(op))
      reduce.setKind(swapped(reduce.getKind()));
    else if (auto scan = dyn_cast<ScanOp>(op))
      scan.setKind(swapped(scan.getKind()));
    tag(op);
    return success();
  }
  if (variant == "scale") {
    auto constant = cast<arith::ConstantOp>(op);
    auto dense = cast<DenseFPElementsAttr>(constant.getValue());
    APFloat value = dense.getSplatValue<APFloat>();
    APFloat two(value.getSemantics(), 2);
    if (value.isZero() || value.isInfinity())
      value = APFloat(value.getSemantics(), 1);
    else
      value.multiply(two, APFloat::rmNearestTiesToEven);
    constant.setValueAttr(DenseElementsAttr::get(dense.getType(), value));
    tag(op);
    return success();
  }
  // swap op
  OpBuilder b(op);
  Location loc = mutantLoc(op->getLoc());
  Value l = op->getOperand(0), r = op->getOperand(1);
  Value replacement =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case([&](arith::AddFOp) { return arith::SubFOp::create(b, loc, l, r); })
          .Case([&](arith::SubFOp) { return arith::AddFOp::create(b, loc, l, r); })
          .Case([&](arith::MulFOp) { return arith::AddFOp::create(b, loc, l, r); })
          .Case([&](arith::DivFOp) { return arith::MulFOp::create(b, loc, l, r); })
          .Case([&](arith::MaximumFOp) {
            return arith::MinimumFOp::create(b, loc, l, r);
          })
          .Case([&](arith::MinimumFOp) {
            return arith::MaximumFOp::create(b, loc, l, r);
          })
          .Case([&](arith::MaxNumFOp) {
            return arith::MinNumFOp::create(b, loc, l, r);
          })
          .Case([&](arith::MinNumFOp) {
            return arith::MaxNumFOp::create(b, loc, l, r);
          })
          .Default([](Operation *) { return Value(); });
  if (!replacement)
    return op->emitError("tile-mutate: cannot swap ") << op->getName();
  op->getResult(0).replaceAllUsesWith(replacement);
  op->erase();
  return success();
}

LogicalResult applySite(StringRef family, const Site &site, unsigned variant) {
  StringRef name = site.variants[variant % site.variants.size()];
  switch (site.kind) {
  case Site::Kind::Index:
    return applyIndex(family, site, name);
  case Site::Kind::PadKind: {
    auto partition = cast<PartitionOp>(site.op);
    PartitionType type = partition.getResult().getType();
    partition.removePadAttr();
    partition.getResult().setType(PartitionType::get(
        type.getContext(), type.getShape(), type.getElementType(),
        PadKind::none));
    tagWithUsers(partition);
    return success();
  }
  case Site::Kind::LoopBounds:
  case Site::Kind::LoopStep:
  case Site::Kind::Carried:
  case Site::Kind::Loop:
    return applyLoop(site, name);
  case Site::Kind::Grid:
    return applyGrid(site, variant % site.variants.size());
  case Site::Kind::Requires: {
    auto kernel = cast<KernelOp>(site.op);
    SmallVector<std::string> facts(kernel.getRequiresAttr().getTexts());
    facts.erase(facts.begin() + site.position);
    if (facts.empty())
      kernel.removeRequiresAttr();
    else
      kernel.setRequiresAttr(RequiresAttr::get(kernel.getContext(), facts));
    tag(kernel);
    return success();
  }
  case Site::Kind::Mma:
    return applyMma(site, name);
  case Site::Kind::AtomicAdd: {
    auto atomic = cast<AtomicAddOp>(site.op);
    OpBuilder b(atomic);
    StoreOp::create(b, mutantLoc(atomic.getLoc()), atomic.getValue(),
                    atomic.getView(), atomic.getIndices());
    atomic.erase();
    return success();
  }
  case Site::Kind::Hoist: {
    Operation *prev = site.op->getPrevNode();
    site.op->moveBefore(prev);
    tag(site.op);
    return success();
  }
  case Site::Kind::FloatBinary:
  case Site::Kind::FloatUnary:
  case Site::Kind::Reduce:
  case Site::Kind::FloatConstant:
  case Site::Kind::Producer:
    return applyFloat(family, site, name);
  }
  return failure();
}

} // namespace kbench::mutation
