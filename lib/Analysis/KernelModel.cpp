//===- KernelModel.cpp - Access relations of a tile.kernel ----------------===//
//
// Reads a tile.kernel into the affine model of KernelModel.h: views, the
// grid, loop and guard scopes, accesses and their tile coordinates. The
// encoding half (emit*) writes instances of ops into LinearSystems for the
// checks.
//
//===----------------------------------------------------------------------===//

#include "kbench/Analysis/KernelModel.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench {

static constexpr int64_t kMaxDim = (int64_t(1) << 31) - 1;

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

KernelModel::KernelModel(KernelOp kernel) : kernel(kernel) {
  for (StringRef name : kernel.getDimNames())
    symbols.push_back(name.str());
  if (DictionaryAttr paramAttr = kernel.getParamsAttr())
    for (NamedAttribute param : paramAttr)
      if (auto value = dyn_cast<IntegerAttr>(param.getValue()))
        params[param.getName().str()] = value.getInt();
  buildFacts();

  SmallVector<KernelParam> abi = getKernelABI(kernel);
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
    view.tensor = abi[view.argIndex].name;
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
    if (isa<LoadOp, StoreOp, AtomicAddOp>(op))
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
  ArrayAttr requires = kernel.getRequiresAttr();
  if (!requires)
    return;
  MLIRContext *ctx = kernel.getContext();
  for (Attribute attr : requires) {
    auto text = dyn_cast<StringAttr>(attr);
    if (!text)
      continue;
    std::string error;
    std::optional<ShapeFact> parsed = ShapeFact::parse(text.str(), error);
    if (!parsed) {
      droppedFacts.push_back({text.str(), error});
      continue;
    }
    ShapeFact fact = parsed->substitute(params);
    allFacts.push_back(fact);
    std::string reason;
    FailureOr<AffineExpr> lhs = toAffine(fact.getLhs(), symbols, ctx, reason);
    FailureOr<AffineExpr> rhs =
        succeeded(lhs) ? toAffine(fact.getRhs(), symbols, ctx, reason)
                       : FailureOr<AffineExpr>(failure());
    if (failed(lhs) || failed(rhs)) {
      droppedFacts.push_back({text.str(), reason});
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
      droppedFacts.push_back({text.str(), "!= is a disjunction"});
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
        FailureOr<AffineExpr> ub =
            succeeded(lb) ? getIndexExpr(forOp.getUpperBound(), reason)
                          : FailureOr<AffineExpr>(failure());
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

/// Conditions of `cond` (then: it holds; else: it does not) as constraints.
static LogicalResult conditionConstraints(const KernelModel &model, Value cond,
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
  if (auto andOp = dyn_cast_or_null<arith::AndIOp>(def)) {
    if (!holds) {
      reason = "the else branch of a conjunction is a disjunction";
      return failure();
    }
    if (failed(conditionConstraints(model, andOp.getLhs(), true, out, reason)))
      return failure();
    return conditionConstraints(model, andOp.getRhs(), true, out, reason);
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
  Value view;
  OperandRange indices = op->getOperands();
  if (auto load = dyn_cast<LoadOp>(op)) {
    access.kind = AccessInfo::Kind::Load;
    view = load.getView();
    indices = load.getIndices();
  } else if (auto store = dyn_cast<StoreOp>(op)) {
    access.kind = AccessInfo::Kind::Store;
    view = store.getView();
    indices = store.getIndices();
  } else {
    auto atomic = cast<AtomicAddOp>(op);
    access.kind = AccessInfo::Kind::AtomicAdd;
    view = atomic.getView();
    indices = atomic.getIndices();
  }
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
// Index expressions
//===----------------------------------------------------------------------===//

FailureOr<AffineExpr> KernelModel::getIndexExpr(Value value,
                                                std::string &reason) const {
  IndexValue result = lookupIndex(value);
  if (!result.error.empty()) {
    reason = result.error;
    return failure();
  }
  return result.expr;
}

KernelModel::IndexValue KernelModel::lookupIndex(Value value) const {
  auto it = indexCache.find(value);
  if (it != indexCache.end())
    return it->second;
  IndexValue computed = computeIndex(value);
  indexCache[value] = computed;
  return computed;
}

KernelModel::IndexValue KernelModel::computeIndex(Value value) const {
  IndexValue result;
  MLIRContext *ctx = kernel.getContext();
  auto fail = [&](const Twine &why) {
    result.error = why.str();
    return result;
  };

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
      if (arg != forOp.getInductionVar())
        return fail("is a loop-carried value (an iter_arg of " +
                    describeOp(forOp) + "), which the verifier cannot bound");
      auto it = loopScope.find(owner);
      if (it == loopScope.end())
        return fail("is the iv of " + describeOp(forOp) +
                    ", which is inside an op the verifier does not model");
      const ScopeInfo &scope = scopes[it->second];
      if (!scope.unsupported.empty())
        return fail("is the iv of a loop the verifier cannot model: " +
                    scope.unsupported);
      result.expr = getAffineDimExpr(scope.dim, ctx);
      return result;
    }
    if (owner == kernel.getOperation())
      return fail("is the kernel's scalar argument #" +
                  Twine(arg.getArgNumber()) +
                  ", a run-time value the verifier cannot bound");
    return fail("is a block argument of " + describeOp(owner));
  }

  Operation *def = value.getDefiningOp();
  auto operand = [&](unsigned i) -> IndexValue {
    return lookupIndex(def->getOperand(i));
  };
  auto propagate = [&](std::initializer_list<unsigned> indices) -> bool {
    for (unsigned i : indices) {
      IndexValue op = operand(i);
      if (!op.error.empty()) {
        result.error = op.error;
        return false;
      }
      result.nonNegative.append(op.nonNegative);
    }
    return true;
  };
  auto constantRhs = [&]() -> std::optional<int64_t> {
    auto c = dyn_cast<AffineConstantExpr>(operand(1).expr);
    if (!c || c.getValue() <= 0)
      return std::nullopt;
    return c.getValue();
  };
  std::string where = describeOp(def);

  if (auto gridOp = dyn_cast<GridOp>(def)) {
    if (gridOp != grid)
      return fail("comes from a second tile.grid");
    result.expr =
        getAffineDimExpr(cast<OpResult>(value).getResultNumber(), ctx);
    return result;
  }
  if (isa<NumTilesOp, ExtentOp>(def)) {
    Value view = def->getOperand(0);
    int64_t dim = isa<NumTilesOp>(def) ? cast<NumTilesOp>(def).getDim()
                                       : cast<ExtentOp>(def).getDim();
    std::optional<unsigned> vi = getViewIndex(view);
    if (!vi)
      return fail("is computed by " + where +
                  " over a view that is not a partition of a kernel argument");
    const ViewInfo &info = views[*vi];
    AffineExpr dimExpr = getAffineSymbolExpr(info.dimSymbols[dim], ctx);
    result.expr = isa<NumTilesOp>(def) ? dimExpr.ceilDiv(info.tileShape[dim])
                                       : dimExpr;
    return result;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<IntegerAttr>(constant.getValue());
    if (!attr)
      return fail("is a non-integer constant");
    result.expr = getAffineConstantExpr(attr.getInt(), ctx);
    return result;
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    if (!propagate({0, 1}))
      return result;
    AffineExpr l = operand(0).expr, r = operand(1).expr;
    if (isa<arith::AddIOp>(def))
      result.expr = l + r;
    else if (isa<arith::SubIOp>(def))
      result.expr = l - r;
    else
      result.expr = l * r;
    if (!result.expr.isPureAffine())
      return fail("is computed by " + where +
                  ", a product of two values that are not constants");
    return result;
  }
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::RemUIOp,
          arith::RemSIOp>(def)) {
    if (!propagate({0, 1}))
      return result;
    std::optional<int64_t> divisor = constantRhs();
    if (!divisor)
      return fail("is computed by " + where +
                  ", a division by a value that is not a positive constant");
    AffineExpr l = operand(0).expr;
    if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(def))
      result.expr = l.floorDiv(*divisor);
    else if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def))
      result.expr = l.ceilDiv(*divisor);
    else
      result.expr = l % *divisor;
    // Truncating and unsigned division equal floor division only for
    // non-negative dividends.
    if (!isa<arith::FloorDivSIOp, arith::CeilDivSIOp>(def))
      result.nonNegative.push_back(l);
    return result;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(def)) {
    if (!propagate({0}))
      return result;
    result.expr = operand(0).expr;
    return result;
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, syms;
    for (unsigned i = 0, e = def->getNumOperands(); i < e; ++i) {
      if (!propagate({i}))
        return result;
      (i < map.getNumDims() ? dims : syms).push_back(operand(i).expr);
    }
    result.expr = map.getResult(0).replaceDimsAndSymbols(dims, syms);
    if (!result.expr.isPureAffine())
      return fail("is computed by " + where + ", which is not affine");
    return result;
  }
  if (isa<arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp,
          arith::SelectOp>(def))
    return fail("is computed by " + where +
                ", a choice between values (a disjunction)");
  return fail("is computed by " + where + ", which the verifier does not model");
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

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

FailureOr<LinearExpr> KernelModel::flatten(LinearSystem &sys, AffineExpr expr,
                                           ArrayRef<LinearExpr> syms,
                                           const Instance *instance) const {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return LinearExpr::cst(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (!instance || pos >= instance->dims.size() || !instance->dims[pos])
      return failure();
    return *instance->dims[pos];
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    if (pos >= syms.size())
      return failure();
    return syms[pos];
  }
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  FailureOr<LinearExpr> l = flatten(sys, binary.getLHS(), syms, instance);
  FailureOr<LinearExpr> r = flatten(sys, binary.getRHS(), syms, instance);
  if (failed(l) || failed(r))
    return failure();
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return *l + *r;
  case AffineExprKind::Mul:
    if (r->isConstant())
      return *l * r->constant;
    if (l->isConstant())
      return *r * l->constant;
    return failure();
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod:
    if (!r->isConstant() || r->constant <= 0)
      return failure();
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return sys.floorDiv(*l, r->constant);
    if (expr.getKind() == AffineExprKind::CeilDiv)
      return sys.ceilDiv(*l, r->constant);
    return sys.mod(*l, r->constant);
  default:
    return failure();
  }
}

SmallVector<LinearExpr> KernelModel::emitSymbols(LinearSystem &sys) const {
  SmallVector<LinearExpr> syms;
  for (const std::string &name : symbols) {
    LinearExpr s = LinearExpr::var(sys.addVar(name));
    sys.addGE(s - 1);
    sys.addGE(LinearExpr::cst(kMaxDim) - s);
    syms.push_back(s);
  }
  for (const AffineConstraint &fact : facts) {
    FailureOr<LinearExpr> e = flatten(sys, fact.expr, syms, nullptr);
    if (failed(e))
      continue;
    if (fact.isEquality)
      sys.addEQ(*e);
    else
      sys.addGE(*e);
  }
  return syms;
}

Instance KernelModel::emitInstance(LinearSystem &sys, ArrayRef<LinearExpr> syms,
                                   int scope, StringRef prefix,
                                   bool existential) const {
  Instance inst;
  bindScope(sys, syms, inst, scope, prefix, existential);
  return inst;
}

Instance KernelModel::restrictInstance(const Instance &inst, int scope) const {
  Instance result;
  result.gridBound = inst.gridBound;
  result.valid = inst.valid;
  result.dims.resize(numDims);
  result.vars.assign(numDims, -1);
  for (unsigned g = 0, e = gridExtents.size(); g < e; ++g) {
    result.dims[g] = inst.dims[g];
    result.vars[g] = inst.vars[g];
  }
  for (int s : getScopeChain(scope)) {
    if (!llvm::is_contained(inst.scopes, s))
      continue;
    result.scopes.push_back(s);
    if (scopes[s].kind == ScopeInfo::Kind::Loop) {
      result.dims[scopes[s].dim] = inst.dims[scopes[s].dim];
      result.vars[scopes[s].dim] = inst.vars[scopes[s].dim];
    }
  }
  return result;
}

void KernelModel::bindScope(LinearSystem &sys, ArrayRef<LinearExpr> syms,
                            Instance &inst, int scope, StringRef prefix,
                            bool existential) const {
  if (inst.dims.size() != numDims) {
    inst.dims.resize(numDims);
    inst.vars.assign(numDims, -1);
  }
  auto require = [&](FailureOr<LinearExpr> e) -> LinearExpr {
    if (failed(e)) {
      inst.valid = false;
      return LinearExpr::cst(0);
    }
    return *e;
  };
  if (!inst.gridBound) {
    inst.gridBound = true;
    for (unsigned g = 0, e = gridExtents.size(); g < e; ++g) {
      unsigned var =
          sys.addVar((prefix + "block" + Twine(g)).str(), existential);
      LinearExpr v = LinearExpr::var(var);
      sys.addGE(v);
      sys.addLT(v, require(flatten(sys, gridExtents[g], syms, nullptr)));
      inst.dims[g] = v;
      inst.vars[g] = var;
    }
  }
  for (int s : getScopeChain(scope)) {
    if (llvm::is_contained(inst.scopes, s))
      continue;
    inst.scopes.push_back(s);
    const ScopeInfo &info = scopes[s];
    if (info.kind == ScopeInfo::Kind::Guard) {
      for (const AffineConstraint &c : info.conditions) {
        LinearExpr e = require(flatten(sys, c.expr, syms, &inst));
        if (c.isEquality)
          sys.addEQ(e);
        else
          sys.addGE(e);
      }
      continue;
    }
    unsigned var = sys.addVar(
        (prefix + "iv" + Twine(info.dim - gridExtents.size())).str(),
        existential);
    LinearExpr iv = LinearExpr::var(var);
    LinearExpr lb = require(flatten(sys, info.lb, syms, &inst));
    LinearExpr ub = require(flatten(sys, info.ub, syms, &inst));
    sys.addLE(lb, iv);
    sys.addLT(iv, ub);
    if (info.step > 1)
      sys.addEQ(iv - lb, sys.floorDiv(iv - lb, info.step) * info.step);
    inst.dims[info.dim] = iv;
    inst.vars[info.dim] = var;
  }
}

AccessInstance KernelModel::emitAccess(LinearSystem &sys,
                                       ArrayRef<LinearExpr> syms,
                                       const Instance &instance,
                                       const AccessInfo &access,
                                       StringRef prefix, bool existential) const {
  AccessInstance result;
  const ViewInfo &view = views[access.view];
  for (auto [axis, index] : llvm::enumerate(access.indices)) {
    FailureOr<LinearExpr> tileCoord = flatten(sys, index, syms, &instance);
    LinearExpr t = succeeded(tileCoord) ? *tileCoord : LinearExpr::cst(0);
    unsigned var =
        sys.addVar((prefix + "e" + Twine(axis)).str(), existential);
    LinearExpr e = LinearExpr::var(var);
    sys.addGE(e);
    sys.addLT(e, LinearExpr::cst(view.tileShape[axis]));
    result.tile.push_back(t);
    result.elem.push_back(e);
    result.elemVars.push_back(var);
    result.element.push_back(t * view.tileShape[axis] + e);
  }
  return result;
}

AccessRelation KernelModel::getRelation(const AccessInfo &access) const {
  using presburger::VarKind;
  LinearSystem sys;
  SmallVector<LinearExpr> syms = emitSymbols(sys);
  Instance inst = emitInstance(sys, syms, access.scope, "", false);
  AccessInstance ai = emitAccess(sys, syms, inst, access, "", false);
  const ViewInfo &view = views[access.view];
  AccessRelation rel{&access, presburger::IntegerRelation(
                                  presburger::PresburgerSpace::getSetSpace(0)),
                     {}, {}, {}};
  for (unsigned d = 0, e = ai.element.size(); d < e; ++d) {
    LinearExpr x = LinearExpr::var(sys.addVar("x" + std::to_string(d)));
    sys.addEQ(x, ai.element[d]);
    rel.rangeNames.push_back(symbols[view.dimSymbols[d]]);
  }
  SmallVector<VarKind> kinds;
  unsigned numSyms = symbols.size();
  unsigned numRange = ai.element.size();
  SmallVector<unsigned> visible = sys.getVisibleVars();
  for (auto [i, id] : llvm::enumerate(visible)) {
    if (i < numSyms) {
      kinds.push_back(VarKind::Symbol);
      rel.symbolNames.push_back(sys.getName(id));
    } else if (i >= visible.size() - numRange) {
      kinds.push_back(VarKind::Range);
    } else {
      kinds.push_back(VarKind::Domain);
      rel.domainNames.push_back(sys.getName(id));
    }
  }
  rel.relation = sys.toRelation(kinds);
  return rel;
}

} // namespace kbench

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace kbench {

std::string KernelModel::toString(AffineExpr expr) const {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return std::to_string(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (pos < gridExtents.size())
      return "block" + std::to_string(pos);
    return "iv" + std::to_string(pos - gridExtents.size());
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    return pos < symbols.size() ? symbols[pos] : "s" + std::to_string(pos);
  }
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string l = toString(binary.getLHS()), r = toString(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    // b * -1 + a prints as a - b.
    if (auto mul = dyn_cast<AffineBinaryOpExpr>(binary.getLHS());
        mul && mul.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
          c && c.getValue() == -1)
        return "(" + r + " - " + toString(mul.getLHS()) + ")";
    // a + b * -1 prints as a - b.
    if (auto mul = dyn_cast<AffineBinaryOpExpr>(binary.getRHS());
        mul && mul.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
          c && c.getValue() == -1)
        return "(" + l + " - " + toString(mul.getLHS()) + ")";
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS());
        c && c.getValue() < 0)
      return "(" + l + " - " + std::to_string(-c.getValue()) + ")";
    return "(" + l + " + " + r + ")";
  }
  case AffineExprKind::Mul:
    return l + " * " + r;
  case AffineExprKind::FloorDiv:
    return "floordiv(" + l + ", " + r + ")";
  case AffineExprKind::CeilDiv:
    return "ceildiv(" + l + ", " + r + ")";
  case AffineExprKind::Mod:
    return "(" + l + " % " + r + ")";
  default:
    return "?";
  }
}

void KernelModel::print(llvm::raw_ostream &os) const {
  os << "kernel @" << kernel.getSymName() << "\n";
  if (!unsupported.empty()) {
    os << "  unsupported: " << unsupported << "\n";
    return;
  }
  os << "  symbols:";
  for (const std::string &s : symbols)
    os << " " << s;
  os << " in [1, " << kMaxDim << "]\n";
  for (const AffineConstraint &fact : facts)
    os << "  fact: " << toString(fact.expr)
       << (fact.isEquality ? " == 0" : " >= 0") << "\n";
  for (const auto &[text, reason] : droppedFacts)
    os << "  dropped fact: \"" << text << "\": " << reason << "\n";
  for (auto [g, extent] : llvm::enumerate(gridExtents))
    os << "  block" << g << " in [0, " << toString(extent) << ")\n";
  for (auto [i, scope] : llvm::enumerate(scopes)) {
    os << "  scope " << i << " (parent " << scope.parent << "): ";
    if (!scope.unsupported.empty()) {
      os << "unsupported: " << scope.unsupported << "\n";
      continue;
    }
    if (scope.kind == ScopeInfo::Kind::Loop) {
      os << "iv" << scope.dim - gridExtents.size() << " in ["
         << toString(scope.lb) << ", " << toString(scope.ub) << ") step "
         << scope.step << "\n";
      continue;
    }
    os << (scope.thenBranch ? "then" : "else") << " branch of "
       << describeOp(scope.op) << ":";
    for (const AffineConstraint &c : scope.conditions)
      os << " " << toString(c.expr) << (c.isEquality ? " == 0" : " >= 0");
    os << "\n";
  }
  for (const AccessInfo &access : accesses) {
    os << "  " << describeOp(access.op) << ": ";
    if (!access.unsupported.empty()) {
      os << "unsupported: " << access.unsupported << "\n";
      continue;
    }
    const ViewInfo &view = views[access.view];
    os << view.tensor << "[";
    llvm::interleaveComma(view.dimSymbols, os,
                          [&](unsigned s) { os << symbols[s]; });
    os << "] tile ";
    llvm::interleave(view.tileShape, os, "x");
    os << " pad " << tile::stringifyPadKind(view.pad) << " scope "
       << access.scope << " at (";
    llvm::interleaveComma(access.indices, os,
                          [&](AffineExpr e) { os << toString(e); });
    os << ")\n";
    AccessRelation rel = getRelation(access);
    os << "    relation: (";
    llvm::interleaveComma(rel.domainNames, os);
    os << ") -> (";
    llvm::interleaveComma(rel.rangeNames, os);
    os << ") symbols (";
    llvm::interleaveComma(rel.symbolNames, os);
    os << "), " << rel.relation.getNumLocalVars() << " locals, "
       << rel.relation.getNumEqualities() << " equalities, "
       << rel.relation.getNumInequalities() << " inequalities\n";
  }
}

} // namespace kbench
