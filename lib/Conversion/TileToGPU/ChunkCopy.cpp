//===- ChunkCopy.cpp - 16-byte chunks of a tile, global to shared ---------===//

#include "ChunkCopy.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

ChunkSource kbench::gpu_lowering::getChunkSource(KernelContext &ctx,
                                                 OpBuilder &b, const View &view,
                                                 ArrayRef<Value> starts,
                                                 Value row, Value col,
                                                 Value inRange) {
  Location loc = ctx.loc;
  int64_t rank = starts.size();
  ChunkSource source;
  source.coords.assign(starts.begin(), starts.end());
  source.coords[rank - 2] =
      arith::AddIOp::create(b, loc, starts[rank - 2], row);
  source.coords[rank - 1] =
      arith::AddIOp::create(b, loc, starts[rank - 1], col);
  source.rowValid = inRange;
  for (int64_t d = 0; d + 1 < rank; ++d)
    source.rowValid = arith::AndIOp::create(
        b, loc, source.rowValid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                              source.coords[d], view.dims[d]));
  return source;
}

void kbench::gpu_lowering::emitChunkCopyAsync(KernelContext &ctx, OpBuilder &b,
                                              const View &view,
                                              const ChunkSource &source,
                                              Value buffer, Value dst) {
  Location loc = ctx.loc;
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };
  int64_t rank = source.coords.size();
  Value valid = arith::AndIOp::create(
      b, loc, source.rowValid,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                            source.coords[rank - 1], view.dims[rank - 1]));
  int64_t chunk = getChunkElements(view.elementType);
  Value srcElements = arith::SelectOp::create(b, loc, valid, c(chunk), c(0));
  // A chunk that copies nothing still needs an address in the memref.
  SmallVector<Value> src;
  for (Value coord : source.coords)
    src.push_back(arith::SelectOp::create(b, loc, valid, coord, c(0)));
  nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), buffer,
      ValueRange{dst}, view.memref, src, b.getIndexAttr(chunk), srcElements,
      b.getUnitAttr());
}

void kbench::gpu_lowering::emitChunkCopyByElements(KernelContext &ctx,
                                                   OpBuilder &b,
                                                   const View &view,
                                                   const ChunkSource &source,
                                                   Value buffer, Value dst) {
  Location loc = ctx.loc;
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };
  int64_t rank = source.coords.size();
  Type elementType = view.elementType;
  Value zero = arith::ConstantOp::create(b, loc, elementType,
                                         b.getZeroAttr(elementType));
  SmallVector<Value> src;
  for (int64_t d = 0; d + 1 < rank; ++d)
    src.push_back(arith::SelectOp::create(b, loc, source.rowValid,
                                          source.coords[d], c(0)));
  int64_t chunk = getChunkElements(elementType);
  SmallVector<Value> elements;
  for (int64_t e = 0; e < chunk; ++e) {
    Value column = arith::AddIOp::create(b, loc, source.coords[rank - 1], c(e));
    Value ok = arith::AndIOp::create(
        b, loc, source.rowValid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column,
                              view.dims[rank - 1]));
    SmallVector<Value> at(src);
    at.push_back(arith::SelectOp::create(b, loc, ok, column, c(0)));
    Value value = memref::LoadOp::create(b, loc, view.memref, at);
    elements.push_back(arith::SelectOp::create(b, loc, ok, value, zero));
  }
  vector::StoreOp::create(
      b, loc,
      vector::FromElementsOp::create(
          b, loc, VectorType::get({chunk}, elementType), elements),
      buffer, ValueRange{dst});
}
