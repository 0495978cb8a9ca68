//===- SharedMemory.cpp - Tiles through shared memory ---------------------===//
//
// The element-by-element (or run-by-run) copies between a thread's registers
// and a shared-memory buffer, and the layout conversion built on them
// (SharedMemory.h).
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

SmallVector<Value> kbench::gpu_lowering::runCoords(KernelContext &ctx,
                                                   OpBuilder &b,
                                                   ArrayRef<Value> base,
                                                   ArrayRef<int64_t> offsets,
                                                   Location loc) {
  SmallVector<Value> coords;
  for (auto [value, offset] : llvm::zip(base, offsets))
    coords.push_back(
        offset ? arith::AddIOp::create(b, loc, value, ctx.constIndex(b, offset))
                     .getResult()
               : value);
  return coords;
}

/// Alignment in bytes of runs of `run` elements whose starts are multiples of
/// `run` in a 16-byte aligned buffer.
IntegerAttr kbench::gpu_lowering::sharedAlignment(OpBuilder &b, int64_t run,
                                                  Type type) {
  int64_t bytes = std::min<int64_t>(16, run * elementBytes(type));
  if (run == 1 || !llvm::isPowerOf2_64(bytes))
    return {};
  return b.getI64IntegerAttr(bytes);
}

/// Per dim, t(d) * perThread(d): where this thread's first run starts.
SmallVector<Value> kbench::gpu_lowering::threadBase(KernelContext &ctx,
                                                    OpBuilder &b,
                                                    const Layout &layout) {
  SmallVector<Value> base;
  for (const DimLayout &d : layout.dims) {
    Value t = ctx.threadCoord(b, d);
    base.push_back(d.perThread > 1 && d.threads() > 1
                       ? arith::MulIOp::create(b, ctx.loc, t,
                                               ctx.constIndex(b, d.perThread))
                             .getResult()
                       : t);
  }
  return base;
}

void kbench::gpu_lowering::storeToShared(KernelContext &ctx, OpBuilder &b,
                                         const TileValue &value, Value buffer,
                                         function_ref<Value(ValueRange)> index,
                                         bool innerContiguous) {
  Location loc = ctx.loc;
  const Layout &layout = value.layout;
  int64_t run = layout.innerPerThread();
  int64_t n = layout.numElements();
  Type elementType = cast<VectorType>(value.vec.getType()).getElementType();
  SmallVector<Value> base = threadBase(ctx, b, layout);
  layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
    if (innerContiguous && run > 1) {
      SmallVector<Value> coords = runCoords(ctx, b, base, offsets, loc);
      Value chunk = run == n ? value.vec
                             : vector::ExtractStridedSliceOp::create(
                                   b, loc, value.vec, ArrayRef<int64_t>{flat},
                                   ArrayRef<int64_t>{run}, ArrayRef<int64_t>{1})
                                   .getResult();
      vector::StoreOp::create(b, loc, chunk, buffer, index(coords),
                              /*nontemporal=*/false,
                              sharedAlignment(b, run, elementType));
      return;
    }
    for (int64_t e = 0; e < run; ++e) {
      SmallVector<int64_t> elementOffsets(offsets);
      if (!elementOffsets.empty())
        elementOffsets.back() += e;
      SmallVector<Value> coords = runCoords(ctx, b, base, elementOffsets, loc);
      Value element = vector::ExtractOp::create(b, loc, value.vec,
                                                ArrayRef<int64_t>{flat + e});
      memref::StoreOp::create(b, loc, element, buffer, index(coords));
    }
  });
}

Value kbench::gpu_lowering::loadFromShared(
    KernelContext &ctx, OpBuilder &b, const Layout &layout, Type elementType,
    Value buffer, function_ref<Value(ValueRange)> index, bool innerContiguous) {
  Location loc = ctx.loc;
  int64_t run = layout.innerPerThread();
  VectorType vt = vectorType(layout, elementType);
  VectorType runType = VectorType::get({run}, elementType);
  SmallVector<Value> base = threadBase(ctx, b, layout);
  SmallVector<Value> elements;
  Value result;
  layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
    if (innerContiguous && run > 1) {
      SmallVector<Value> coords = runCoords(ctx, b, base, offsets, loc);
      Value chunk = vector::LoadOp::create(
          b, loc, runType, buffer, index(coords), /*nontemporal=*/false,
          sharedAlignment(b, run, elementType));
      if (run == vt.getNumElements()) {
        result = chunk;
        return;
      }
      if (!result)
        result = ub::PoisonOp::create(b, loc, vt);
      result = vector::InsertStridedSliceOp::create(
          b, loc, chunk, result, ArrayRef<int64_t>{flat}, ArrayRef<int64_t>{1});
      return;
    }
    for (int64_t e = 0; e < run; ++e) {
      SmallVector<int64_t> elementOffsets(offsets);
      if (!elementOffsets.empty())
        elementOffsets.back() += e;
      SmallVector<Value> coords = runCoords(ctx, b, base, elementOffsets, loc);
      elements.push_back(memref::LoadOp::create(b, loc, buffer, index(coords)));
    }
  });
  if (!elements.empty())
    return vector::FromElementsOp::create(b, loc, vt, elements);
  return result;
}

TileValue kbench::gpu_lowering::convertLayout(KernelContext &ctx, OpBuilder &b,
                                              const TileValue &value,
                                              const Layout &to, Operation *user,
                                              bool padRows) {
  if (value.layout == to)
    return value;
  Location loc = ctx.loc;
  Type elementType = cast<VectorType>(value.vec.getType()).getElementType();
  SmallVector<int64_t> shape;
  for (const DimLayout &d : to.dims)
    shape.push_back(d.size);
  // Row-major strides; padded rows are one element longer.
  padRows = padRows && shape.size() >= 2;
  SmallVector<int64_t> strides(shape.size(), 1);
  int64_t count = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    strides[d] = count;
    count *= shape[d] + (padRows && d == int64_t(shape.size()) - 1 ? 1 : 0);
  }
  Value buffer = ctx.allocShared(b, elementType, count);
  auto linear = [&](ValueRange coords) -> Value {
    Value index;
    for (int64_t d = coords.size() - 1; d >= 0; --d) {
      Value term = strides[d] == 1
                       ? coords[d]
                       : arith::MulIOp::create(b, loc, coords[d],
                                               ctx.constIndex(b, strides[d]))
                             .getResult();
      index =
          index ? arith::AddIOp::create(b, loc, index, term).getResult() : term;
    }
    return index ? index : ctx.constIndex(b, 0);
  };
  // Padded rows break the alignment of vector runs: scalar accesses.
  storeToShared(ctx, b, value, buffer, linear, /*innerContiguous=*/!padRows);
  ctx.barrier(b);
  Value vec = loadFromShared(ctx, b, to, elementType, buffer, linear,
                             /*innerContiguous=*/!padRows);
  if (inLoop(user))
    ctx.barrier(b);
  return {vec, to};
}

void kbench::gpu_lowering::emitMbarrierWaitParity(OpBuilder &b, Location loc,
                                                  Value barrier, Value parity) {
  // A hint in nanoseconds; the wait loops until the phase completes.
  constexpr int64_t kWaitHintNs = 1000000;
  NVVM::MBarrierTryWaitParityOp::create(
      b, loc, barrier, parity,
      arith::ConstantOp::create(b, loc, b.getI32Type(),
                                b.getI32IntegerAttr(kWaitHintNs)));
}

Value kbench::gpu_lowering::sharedPointer(OpBuilder &b, Location loc,
                                          Value buffer, Value element,
                                          int64_t elementBytes) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  address = arith::AddIOp::create(
      b, loc, address,
      arith::MulIOp::create(
          b, loc, element,
          arith::ConstantIndexOp::create(b, loc, elementBytes)));
  Value word = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), word);
}
