//===- KernelModel.cpp - Access relations of a tile.kernel ----------------===//
//
// Reads a tile.kernel into the affine model of KernelModel.h: views, the
// grid, requires facts, loop and guard scopes, accesses and their tile
// coordinates, and answers scope queries. IndexExprs.cpp turns index values
// into affine expressions; Encoding.cpp writes the model into LinearSystems.
//
//===----------------------------------------------------------------------===//

#include "kbench/Analysis/KernelModel.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench {

/// `file:line:col` of the first file location in `loc`.
static std::string shortLocation(Location loc) {
  std::string result;
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      result = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
                ":" + Twine(file.getColumn()))
                   .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.empty()) {
    llvm::raw_string_ostream os(result);
    loc.print(os);
  }
  return result;
}

std::string describeOp(Operation *op) {
  return (op->getName().getStringRef() + " at " + shortLocation(op->getLoc()))
      .str();
}

//===----------------------------------------------------------------------===//
// Building the model
//===----------------------------------------------------------------------===//

func::FuncOp findHostEntry(ModuleOp module, unsigned &defined) {
  func::FuncOp entry;
  defined = 0;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isDeclaration()) {
      entry = func;
      ++defined;
    }
  return defined == 1 ? entry : func::FuncOp();
}

void KernelModel::bindTaskNames(ArrayRef<std::string> entryNames) {
  auto module = kernel->getParentOfType<ModuleOp>();
  unsigned defined = 0;
  func::FuncOp entry = module ? findHostEntry(module, defined) : func::FuncOp();
  if (!entry || entryNames.empty())
    return;
  // Kernel argument -> task name; "" once two launches disagree.
  llvm::DenseMap<unsigned, std::string> names;
  Block &body = entry.getBody().front();
  entry.walk([&](LaunchOp launch) {
    if (launch.getKernelAttr().getValue() != kernel.getSymName())
      return;
    for (auto [i, operand] : llvm::enumerate(launch.getArgs())) {
      auto arg = dyn_cast<BlockArgument>(operand);
      std::string name = arg && arg.getOwner() == &body &&
                                 arg.getArgNumber() < entryNames.size()
                             ? entryNames[arg.getArgNumber()]
                             : "";
      auto [it, inserted] = names.try_emplace(i, name);
      if (!inserted && it->second != name)
        it->second.clear();
    }
  });
  for (ViewInfo &view : views)
    view.taskName = names.lookup(view.argIndex);
}

KernelModel::KernelModel(KernelOp kernel) : kernel(kernel) {
  for (StringRef name : kernel.getDimNames())
    symbols.push_back(name.str());
  params = getParamValues(kernel);
  buildFacts();

  auto symbolIndex = [&](StringRef name) -> unsigned {
    return llvm::find(symbols, name.str()) - symbols.begin();
  };
  kernel.walk([&](PartitionOp op) {
    auto arg = dyn_cast<BlockArgument>(op.getSource());
    if (!arg || arg.getOwner()->getParentOp() != kernel.getOperation())
      return;
    ViewInfo view;
    view.op = op;
    view.argIndex = arg.getArgNumber();
    view.tensor = getArgName(kernel, view.argIndex);
    for (StringRef dim : kernel.getArgDimNames(view.argIndex))
      view.dimSymbols.push_back(symbolIndex(dim));
    PartitionType type = op.getResult().getType();
    view.tileShape.assign(type.getShape().begin(), type.getShape().end());
    view.pad = type.getPad();
    if (view.dimSymbols.size() != view.tileShape.size())
      return;
    viewOfOp[op] = views.size();
    views.push_back(std::move(view));
  });

  kernel.walk([&](GridOp op) { grid = op; });
  std::optional<unsigned> gridView =
      grid ? getViewIndex(grid.getView()) : std::nullopt;
  if (!gridView) {
    unsupported = grid ? "the view of tile.grid is not a tile.partition of a "
                         "memref argument of the kernel"
                       : "the kernel has no tile.grid";
    return;
  }
  MLIRContext *ctx = kernel.getContext();
  const ViewInfo &gv = views[*gridView];
  for (int64_t dim : grid.getGridDims())
    gridExtents.push_back(
        getAffineSymbolExpr(gv.dimSymbols[dim], ctx).ceilDiv(gv.tileShape[dim]));
  numDims = gridExtents.size();

  buildScopes(kernel.getBody(), -1);
  kernel.walk([&](Operation *op) {
    if (isa<ViewAccessOpInterface>(op))
      buildAccess(op);
  });
}

/// A requires expression as an affine expression over symbols, or failure
/// with a reason.
static FailureOr<AffineExpr> toAffine(const ShapeExpr &e,
                                      ArrayRef<std::string> symbols,
                                      MLIRContext *ctx, std::string &reason) {
  using Kind = ShapeExpr::Kind;
  switch (e.getKind()) {
  case Kind::Constant:
    return getAffineConstantExpr(e.getConstant(), ctx);
  case Kind::Symbol: {
    auto it = llvm::find(symbols, e.getSymbol());
    if (it == symbols.end()) {
      reason = "'" + e.getSymbol() + "' is neither a dim nor a param";
      return failure();
    }
    return getAffineSymbolExpr(it - symbols.begin(), ctx);
  }
  default:
    break;
  }
  SmallVector<AffineExpr> ops;
  for (const ShapeExpr &operand : e.getOperands()) {
    FailureOr<AffineExpr> op = toAffine(operand, symbols, ctx, reason);
    if (failed(op))
      return failure();
    ops.push_back(*op);
  }
  auto needConstantDivisor = [&]() -> std::optional<int64_t> {
    auto c = dyn_cast<AffineConstantExpr>(ops[1]);
    if (!c || c.getValue() <= 0) {
      reason = "divides by '" + e.getOperands()[1].str() +
               "', which is not a positive constant";
      return std::nullopt;
    }
    return c.getValue();
  };
  switch (e.getKind()) {
  case Kind::Neg:
    return -ops[0];
  case Kind::Add:
    return ops[0] + ops[1];
  case Kind::Sub:
    return ops[0] - ops[1];
  case Kind::Mul: {
    AffineExpr product = ops[0] * ops[1];
    if (!product.isPureAffine()) {
      reason = "multiplies two dims";
      return failure();
    }
    return product;
  }
  case Kind::FloorDiv:
  case Kind::CeilDiv:
  case Kind::Mod: {
    std::optional<int64_t> divisor = needConstantDivisor();
    if (!divisor)
      return failure();
    if (e.getKind() == Kind::FloorDiv)
      return ops[0].floorDiv(*divisor);
    if (e.getKind() == Kind::CeilDiv)
      return ops[0].ceilDiv(*divisor);
    return ops[0] % *divisor;
  }
  case Kind::Min:
  case Kind::Max:
    reason = "min/max is a disjunction";
    return failure();
  default:
    reason = "unknown expression";
    return failure();
  }
}

void KernelModel::buildFacts() {
  MLIRContext *ctx = kernel.getContext();
  for (const tile::RequiresFact &written : tile::getRequiresFacts(kernel)) {
    if (!written.fact) {
      droppedFacts.push_back({written.text, written.error});
      continue;
    }
    ShapeFact fact = written.fact->substitute(params);
    allFacts.push_back(fact);
    std::string reason;
    FailureOr<AffineExpr> lhs = toAffine(fact.getLhs(), symbols, ctx, reason);
    FailureOr<AffineExpr> rhs =
        succeeded(lhs) ? toAffine(fact.getRhs(), symbols, ctx, reason)
                       : FailureOr<AffineExpr>(failure());
    if (failed(lhs) || failed(rhs)) {
      droppedFacts.push_back({written.text, reason});
      continue;
    }
    using Rel = ShapeFact::Relation;
    switch (fact.getRelation()) {
    case Rel::EQ:
      facts.push_back({*lhs - *rhs, true});
      break;
    case Rel::LE:
      facts.push_back({*rhs - *lhs, false});
      break;
    case Rel::LT:
      facts.push_back({*rhs - *lhs - 1, false});
      break;
    case Rel::GE:
      facts.push_back({*lhs - *rhs, false});
      break;
    case Rel::GT:
      facts.push_back({*lhs - *rhs - 1, false});
      break;
    case Rel::NE:
      droppedFacts.push_back({written.text, "!= is a disjunction"});
      break;
    }
  }
}

bool KernelModel::satisfiesAllFacts(const SymbolValues &dims) const {
  SymbolValues values = params;
  values.insert(dims.begin(), dims.end());
  for (const ShapeFact &fact : allFacts) {
    std::string error;
    std::optional<bool> holds = fact.holds(values, error);
    if (!holds || !*holds)
      return false;
  }
  return true;
}

void KernelModel::buildScopes(Region &region, int parent) {
  for (Block &block : region) {
    for (Operation &op : block) {
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        ScopeInfo scope;
        scope.kind = ScopeInfo::Kind::Loop;
        scope.op = forOp;
        scope.parent = parent;
        scope.dim = numDims++;
        std::string reason;
        FailureOr<AffineExpr> lb = getIndexExpr(forOp.getLowerBound(), reason);
        // An upper bound min(u1, u2, ...) is the conjunction iv < ui.
        SmallVector<Value> ubValues = {forOp.getUpperBound()};
        for (unsigned i = 0; i < ubValues.size();) {
          if (auto min = ubValues[i].getDefiningOp<arith::MinSIOp>()) {
            ubValues[i] = min.getLhs();
            ubValues.push_back(min.getRhs());
            continue;
          }
          ++i;
        }
        SmallVector<AffineExpr> extraUbs;
        FailureOr<AffineExpr> ub =
            succeeded(lb) ? getIndexExpr(ubValues.front(), reason)
                          : FailureOr<AffineExpr>(failure());
        for (Value extra : ArrayRef<Value>(ubValues).drop_front()) {
          if (failed(ub))
            break;
          FailureOr<AffineExpr> e = getIndexExpr(extra, reason);
          if (failed(e))
            ub = failure();
          else
            extraUbs.push_back(*e);
        }
        FailureOr<AffineExpr> step =
            succeeded(ub) ? getIndexExpr(forOp.getStep(), reason)
                          : FailureOr<AffineExpr>(failure());
        auto stepConst = succeeded(step) ? dyn_cast<AffineConstantExpr>(*step)
                                         : AffineConstantExpr();
        if (failed(step)) {
          scope.unsupported = "the bounds of " + describeOp(forOp) +
                              " are outside the affine fragment: " + reason;
        } else if (!stepConst || stepConst.getValue() <= 0) {
          scope.unsupported = "the step of " + describeOp(forOp) +
                              " is not a positive constant";
        } else {
          scope.lb = *lb;
          scope.ub = *ub;
          scope.extraUbs = std::move(extraUbs);
          scope.step = stepConst.getValue();
        }
        unsigned index = scopes.size();
        loopScope[forOp] = index;
        scopes.push_back(std::move(scope));
        buildScopes(forOp.getRegion(), index);
        continue;
      }
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        buildGuard(ifOp, parent);
        continue;
      }
    }
  }
}

/// conditionConstraints of a condition that is not an arith.andi.
static LogicalResult atomConstraints(const KernelModel &model, Value cond,
                                     bool holds,
                                     SmallVectorImpl<AffineConstraint> &out,
                                     std::string &reason) {
  Operation *def = cond.getDefiningOp();
  if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def)) {
    auto value = dyn_cast<BoolAttr>(constant.getValue());
    auto intValue = dyn_cast<IntegerAttr>(constant.getValue());
    bool truth = value ? value.getValue() : (intValue && intValue.getInt());
    if (truth != holds)
      out.push_back({getAffineConstantExpr(-1, cond.getContext()), false});
    return success();
  }
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
  if (!cmp) {
    reason = "the condition is not an arith.cmpi or arith.andi of index values";
    return failure();
  }
  FailureOr<AffineExpr> l = model.getIndexExpr(cmp.getLhs(), reason);
  FailureOr<AffineExpr> r =
      succeeded(l) ? model.getIndexExpr(cmp.getRhs(), reason)
                   : FailureOr<AffineExpr>(failure());
  if (failed(r))
    return failure();
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  if (!holds) {
    switch (pred) {
    case P::eq: pred = P::ne; break;
    case P::ne: pred = P::eq; break;
    case P::slt: pred = P::sge; break;
    case P::sle: pred = P::sgt; break;
    case P::sgt: pred = P::sle; break;
    case P::sge: pred = P::slt; break;
    case P::ult: pred = P::uge; break;
    case P::ule: pred = P::ugt; break;
    case P::ugt: pred = P::ule; break;
    case P::uge: pred = P::ult; break;
    }
  }
  switch (pred) {
  case P::eq:
    out.push_back({*l - *r, true});
    return success();
  case P::ne:
    reason = "a != condition is a disjunction";
    return failure();
  case P::slt:
  case P::ult:
    out.push_back({*r - *l - 1, false});
    return success();
  case P::sle:
  case P::ule:
    out.push_back({*r - *l, false});
    return success();
  case P::sgt:
  case P::ugt:
    out.push_back({*l - *r - 1, false});
    return success();
  case P::sge:
  case P::uge:
    out.push_back({*l - *r, false});
    return success();
  }
  return failure();
}

/// Conditions of `cond` (then: it holds; else: it does not) as constraints.
/// A conjunction is flattened with an explicit stack, left operand first: a
/// chain of 100k arith.andi must not recurse (docs/robustness.md).
static LogicalResult conditionConstraints(const KernelModel &model, Value cond,
                                          bool holds,
                                          SmallVectorImpl<AffineConstraint> &out,
                                          std::string &reason) {
  SmallVector<Value> pending = {cond};
  while (!pending.empty()) {
    Value next = pending.pop_back_val();
    if (auto andOp = next.getDefiningOp<arith::AndIOp>()) {
      if (!holds) {
        reason = "the else branch of a conjunction is a disjunction";
        return failure();
      }
      pending.push_back(andOp.getRhs());
      pending.push_back(andOp.getLhs());
      continue;
    }
    if (failed(atomConstraints(model, next, holds, out, reason)))
      return failure();
  }
  return success();
}

void KernelModel::buildGuard(Operation *op, int parent) {
  auto ifOp = cast<scf::IfOp>(op);
  for (bool thenBranch : {true, false}) {
    Region &region = thenBranch ? ifOp.getThenRegion() : ifOp.getElseRegion();
    if (region.empty())
      continue;
    ScopeInfo scope;
    scope.kind = ScopeInfo::Kind::Guard;
    scope.op = op;
    scope.parent = parent;
    scope.thenBranch = thenBranch;
    std::string reason;
    if (failed(conditionConstraints(*this, ifOp.getCondition(), thenBranch,
                                    scope.conditions, reason)))
      scope.unsupported = "the condition of " + describeOp(op) +
                          " is outside the affine fragment: " + reason;
    unsigned index = scopes.size();
    guardScope[&region] = index;
    scopes.push_back(std::move(scope));
    buildScopes(region, index);
  }
}

void KernelModel::buildAccess(Operation *op) {
  AccessInfo access;
  access.op = op;
  auto accessOp = cast<ViewAccessOpInterface>(op);
  access.kind = !accessOp.writesView()  ? AccessInfo::Kind::Load
                : accessOp.accumulates() ? AccessInfo::Kind::AtomicAdd
                                         : AccessInfo::Kind::Store;
  Value view = accessOp.getView();
  OperandRange indices = accessOp.getIndices();
  accessOfOp[op] = accesses.size();

  std::optional<unsigned> viewIndex = getViewIndex(view);
  if (viewIndex) {
    access.view = *viewIndex;
    access.hasView = true;
  }
  std::string reason;
  FailureOr<int> scope = getScope(op, &reason);
  if (!viewIndex) {
    access.unsupported = "its view is not a tile.partition of a memref "
                         "argument of the kernel";
  } else if (failed(scope)) {
    access.unsupported = reason;
  } else {
    access.scope = *scope;
    access.unsupported = getScopeUnsupported(*scope);
  }
  if (access.unsupported.empty()) {
    for (auto [axis, index] : llvm::enumerate(indices)) {
      IndexValue value = lookupIndex(index);
      if (!value.error.empty()) {
        access.unsupported = "tile coordinate " + std::to_string(axis) + " " +
                             value.error;
        break;
      }
      access.indices.push_back(value.expr);
      access.nonNegative.append(value.nonNegative);
    }
  }
  if (!access.unsupported.empty())
    access.indices.clear();
  accesses.push_back(std::move(access));
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const AccessInfo *KernelModel::getAccess(Operation *op) const {
  auto it = accessOfOp.find(op);
  return it == accessOfOp.end() ? nullptr : &accesses[it->second];
}

std::optional<unsigned> KernelModel::getViewIndex(Value view) const {
  auto it = viewOfOp.find(view.getDefiningOp());
  if (it == viewOfOp.end())
    return std::nullopt;
  return it->second;
}

FailureOr<int> KernelModel::getScope(Operation *op, std::string *reason) const {
  int innermost = -2;
  for (Operation *cur = op;;) {
    Operation *parent = cur->getParentOp();
    if (!parent) {
      if (reason)
        *reason = "it is not inside the kernel";
      return failure();
    }
    if (parent == kernel.getOperation())
      break;
    int scope;
    if (isa<scf::ForOp>(parent)) {
      scope = loopScope.lookup(parent);
    } else if (isa<scf::IfOp>(parent)) {
      auto it = guardScope.find(cur->getParentRegion());
      if (it == guardScope.end()) {
        if (reason)
          *reason = "it is inside " + describeOp(parent) +
                    ", which is inside an op the verifier does not model";
        return failure();
      }
      scope = it->second;
    } else {
      if (reason)
        *reason = "it is inside " + describeOp(parent) +
                  ", which the verifier does not model (only scf.for and "
                  "scf.if)";
      return failure();
    }
    if (innermost == -2)
      innermost = scope;
    cur = parent;
  }
  return innermost == -2 ? -1 : innermost;
}

SmallVector<int> KernelModel::getScopeChain(int scope) const {
  SmallVector<int> chain;
  for (int s = scope; s >= 0; s = scopes[s].parent)
    chain.push_back(s);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

int KernelModel::getCommonScope(int a, int b) const {
  SmallVector<int> ca = getScopeChain(a), cb = getScopeChain(b);
  int common = -1;
  for (size_t i = 0; i < ca.size() && i < cb.size() && ca[i] == cb[i]; ++i)
    common = ca[i];
  return common;
}

std::string KernelModel::getScopeUnsupported(int scope) const {
  for (int s : getScopeChain(scope))
    if (!scopes[s].unsupported.empty())
      return scopes[s].unsupported;
  return "";
}

std::optional<int> KernelModel::getLoopScope(Operation *forOp) const {
  auto it = loopScope.find(forOp);
  if (it == loopScope.end())
    return std::nullopt;
  return it->second;
}

} // namespace kbench
