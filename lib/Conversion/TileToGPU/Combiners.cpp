//===- Combiners.cpp - The combiners of tile.reduce and tile.scan ---------===//

#include "Combiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kbench;

Value kbench::gpu_lowering::combine(OpBuilder &b, Location loc,
                                   tile::ReduceKind kind, Value lhs,
                                   Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case tile::ReduceKind::add:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::AddIOp::create(b, loc, lhs, rhs);
  case tile::ReduceKind::mul:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MulIOp::create(b, loc, lhs, rhs);
  case tile::ReduceKind::max:
    return isFloat ? (Value)arith::MaximumFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MaxSIOp::create(b, loc, lhs, rhs);
  case tile::ReduceKind::min:
    return isFloat ? (Value)arith::MinimumFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MinSIOp::create(b, loc, lhs, rhs);
  }
  return {};
}

Value kbench::gpu_lowering::identity(OpBuilder &b, Location loc,
                                    tile::ReduceKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    APFloat value = APFloat::getZero(sem, /*Negative=*/true);
    if (kind == tile::ReduceKind::mul)
      value = APFloat::getOne(sem);
    else if (kind == tile::ReduceKind::max)
      value = APFloat::getInf(sem, /*Negative=*/true);
    else if (kind == tile::ReduceKind::min)
      value = APFloat::getInf(sem, /*Negative=*/false);
    return arith::ConstantOp::create(b, loc, FloatAttr::get(type, value));
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  APInt value = APInt::getZero(width);
  if (kind == tile::ReduceKind::mul)
    value = APInt(width, 1);
  else if (kind == tile::ReduceKind::max)
    value = APInt::getSignedMinValue(width);
  else if (kind == tile::ReduceKind::min)
    value = APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value));
}
