//===- LaneIndex.cpp - Index tiles as affine functions of their lanes -----===//

#include "LaneIndex.h"

#include "kbench/Dialect/Tile/IR/Tile.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench::detail {

void LaneIndex::visit(Operation *op) {
  MLIRContext *ctx = op->getContext();
  auto setIf = [&](Value v, AffineExpr e) {
    if (e)
      exprs[v] = e;
  };
  if (auto iota = dyn_cast<IotaOp>(op)) {
    setIf(iota.getResult(),
          getAffineDimExpr(model.getNumDims() + iota.getDim(), ctx));
  } else if (auto splat = dyn_cast<SplatOp>(op)) {
    std::string reason;
    FailureOr<AffineExpr> e = model.getIndexExpr(splat.getValue(), reason);
    if (succeeded(e))
      setIf(splat.getResult(), *e);
  } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (dense && dense.isSplat())
      setIf(constant.getResult(),
            getAffineConstantExpr(dense.getSplatValue<APInt>().getSExtValue(),
                                  ctx));
  } else if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) {
    AffineExpr l = lookup(op->getOperand(0)), r = lookup(op->getOperand(1));
    if (!l || !r)
      return;
    AffineExpr e = isa<arith::AddIOp>(op)   ? l + r
                   : isa<arith::SubIOp>(op) ? l - r
                                            : l * r;
    if (e.isPureAffine())
      setIf(op->getResult(0), e);
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
    setIf(op->getResult(0), lookup(op->getOperand(0)));
  }
}

LogicalResult laneConstraints(arith::CmpIOp cmp, AffineExpr l, AffineExpr r,
                              bool condTrue,
                              SmallVectorImpl<AffineConstraint> &out) {
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  if (!condTrue)
    pred = arith::invertPredicate(pred);
  switch (pred) {
  case P::eq:
    out.push_back({l - r, true});
    return success();
  case P::slt:
  case P::ult:
    out.push_back({r - l - 1, false});
    return success();
  case P::sle:
  case P::ule:
    out.push_back({r - l, false});
    return success();
  case P::sgt:
  case P::ugt:
    out.push_back({l - r - 1, false});
    return success();
  case P::sge:
  case P::uge:
    out.push_back({l - r, false});
    return success();
  case P::ne:
    return failure();
  }
  return failure();
}

LogicalResult
conditionCases(Value cond, bool value, function_ref<AffineExpr(Value)> lookup,
               SmallVectorImpl<SmallVector<AffineConstraint>> &cases) {
  Operation *def = cond.getDefiningOp();
  if (!def)
    return failure();
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto flag = dyn_cast<BoolAttr>(constant.getValue());
    auto integer = dyn_cast<IntegerAttr>(constant.getValue());
    if (!flag && !(integer && integer.getType().isInteger(1)))
      return failure();
    bool holds = flag ? flag.getValue() : integer.getValue().getBoolValue();
    if (holds == value)
      cases.push_back({});
    return success();
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    AffineExpr lhs = lookup(cmp.getLhs()), rhs = lookup(cmp.getRhs());
    SmallVector<AffineConstraint> constraints;
    if (!lhs || !rhs ||
        failed(laneConstraints(cmp, lhs, rhs, value, constraints)))
      return failure();
    cases.push_back(std::move(constraints));
    return success();
  }
  if (!isa<arith::AndIOp, arith::OrIOp>(def))
    return failure();
  SmallVector<SmallVector<AffineConstraint>> a, b;
  if (failed(conditionCases(def->getOperand(0), value, lookup, a)) ||
      failed(conditionCases(def->getOperand(1), value, lookup, b)))
    return failure();
  // Both hold (and = true, or = false): every pair of cases; either holds:
  // the cases of both.
  if (isa<arith::AndIOp>(def) == value) {
    for (const auto &x : a)
      for (const auto &y : b) {
        SmallVector<AffineConstraint> both(x);
        both.append(y.begin(), y.end());
        cases.push_back(std::move(both));
      }
  } else {
    cases.append(a.begin(), a.end());
    cases.append(b.begin(), b.end());
  }
  return success();
}

} // namespace kbench::detail
