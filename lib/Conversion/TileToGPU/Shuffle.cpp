//===- Shuffle.cpp - Moving a scalar between the lanes of a warp ----------===//
//
// gpu.shuffle moves 32-bit values; the lowering moves any scalar it has
// (index, 64-bit and narrow types too) through it.
//
//===----------------------------------------------------------------------===//

#include "Shuffle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

Value kbench::gpu_lowering::shuffleFrom(OpBuilder &b, Location loc, Value value,
                                        Value srcLane) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  Value lane = arith::IndexCastOp::create(b, loc, i32, srcLane);
  Value width = arith::ConstantIntOp::create(b, loc, i32, 32);
  auto move = [&](Value v) -> Value {
    return gpu::ShuffleOp::create(b, loc, v, lane, width,
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  };
  if (type.isF32() || type.isInteger(32))
    return move(value);
  if (auto floatType = dyn_cast<FloatType>(type); floatType &&
                                                  floatType.getWidth() < 32)
    return arith::TruncFOp::create(
        b, loc, type,
        move(arith::ExtFOp::create(b, loc, b.getF32Type(), value)));
  if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
    return arith::TruncIOp::create(
        b, loc, type, move(arith::ExtSIOp::create(b, loc, i32, value)));
  // 64 bits: index and i64 as integers, f64 through its bits.
  Type i64 = b.getI64Type();
  Value bits = value;
  if (type.isIndex())
    bits = arith::IndexCastOp::create(b, loc, i64, value);
  else if (type.isF64())
    bits = arith::BitcastOp::create(b, loc, i64, value);
  Value low = move(arith::TruncIOp::create(b, loc, i32, bits));
  Value high = move(arith::TruncIOp::create(
      b, loc, i32,
      arith::ShRUIOp::create(b, loc, bits,
                             arith::ConstantIntOp::create(b, loc, i64, 32))));
  Value joined = arith::OrIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, i64, low),
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, high),
                            arith::ConstantIntOp::create(b, loc, i64, 32)));
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, joined);
  if (type.isF64())
    return arith::BitcastOp::create(b, loc, type, joined);
  return joined;
}

