//===- ReduceKinds.cpp - What each tile::ReduceKind computes --------------===//

#include "kbench/Dialect/Tile/IR/ReduceKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;

Value kbench::tile::combineReduceKind(OpBuilder &b, Location loc,
                                      ReduceKind kind, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case ReduceKind::add:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::AddIOp::create(b, loc, lhs, rhs);
  case ReduceKind::mul:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MulIOp::create(b, loc, lhs, rhs);
  case ReduceKind::max:
    return isFloat ? (Value)arith::MaximumFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MaxSIOp::create(b, loc, lhs, rhs);
  case ReduceKind::min:
    return isFloat ? (Value)arith::MinimumFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MinSIOp::create(b, loc, lhs, rhs);
  }
  return {};
}

TypedAttr kbench::tile::getReduceIdentity(ReduceKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    APFloat value = APFloat::getZero(sem, /*Negative=*/true);
    if (kind == ReduceKind::mul)
      value = APFloat::getOne(sem);
    else if (kind == ReduceKind::max)
      value = APFloat::getInf(sem, /*Negative=*/true);
    else if (kind == ReduceKind::min)
      value = APFloat::getInf(sem, /*Negative=*/false);
    return FloatAttr::get(type, value);
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  APInt value = APInt::getZero(width);
  if (kind == ReduceKind::mul)
    value = APInt(width, 1);
  else if (kind == ReduceKind::max)
    value = APInt::getSignedMinValue(width);
  else if (kind == ReduceKind::min)
    value = APInt::getSignedMaxValue(width);
  return IntegerAttr::get(type, value);
}
