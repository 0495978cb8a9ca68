//===- IndexExprs.cpp - Index values as affine expressions ---------------===//
//
// Part of KernelModel: turns an SSA index value (tile coordinates, loop
// bounds, guard operands) into an affine expression over model dims (block
// coordinates, loop ivs) and shape symbols, or into the reason it is outside
// the fragment, naming the op that leaves it.
//
//===----------------------------------------------------------------------===//

#include "kbench/Analysis/KernelModel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench {

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

/// The ops whose index value computeIndex derives from their operands'.
static bool combinesIndexOperands(Operation *op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
             arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
             arith::CeilDivUIOp, arith::RemUIOp, arith::RemSIOp,
             arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp, arith::TruncIOp, affine::AffineApplyOp>(op);
}

KernelModel::IndexValue KernelModel::lookupIndex(Value value) const {
  auto it = indexCache.find(value);
  if (it != indexCache.end())
    return it->second;
  // The operands first, deepest first, with an explicit stack: computeIndex
  // then finds them cached instead of recursing, and an index computed by a
  // chain of 100k ops costs no stack (docs/robustness.md).
  SmallVector<std::pair<Value, bool>> stack = {{value, false}};
  while (!stack.empty()) {
    auto [current, operandsDone] = stack.pop_back_val();
    if (indexCache.count(current))
      continue;
    Operation *def = current.getDefiningOp();
    if (operandsDone || !def || !combinesIndexOperands(def)) {
      IndexValue computed = computeIndex(current);
      indexCache[current] = computed;
      continue;
    }
    stack.push_back({current, true});
    for (Value operand : def->getOperands())
      if (!indexCache.count(operand))
        stack.push_back({operand, false});
  }
  return indexCache.find(value)->second;
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
  if (auto scalar = dyn_cast<ViewScalarOpInterface>(def)) {
    std::optional<unsigned> vi = getViewIndex(scalar.getView());
    if (!vi)
      return fail("is computed by " + where +
                  " over a view that is not a partition of a kernel argument");
    const ViewInfo &info = views[*vi];
    int64_t dim = scalar.getViewDim();
    result.expr = scalar.getValueExpr(
        getAffineSymbolExpr(info.dimSymbols[dim], ctx), info.tileShape[dim]);
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

} // namespace kbench
