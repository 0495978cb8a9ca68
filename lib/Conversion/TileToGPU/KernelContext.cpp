//===- KernelContext.cpp - Per-kernel facts the lowering patterns share ---===//
//
// The prologue (thread ids, hoisted and cached constants, thread
// coordinates, alignment checks) and the shared-memory allocator of one
// kernel (KernelContext.h).
//
//===----------------------------------------------------------------------===//

#include "KernelContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

KernelContext::KernelContext(tile::KernelOp kernel, const KernelKnobs &knobs)
    : mlirContext(kernel.getContext()), loc(kernel.getLoc()),
      numWarps(knobs.numWarps), vectorWidth(knobs.vectorWidth),
      groupM(knobs.groupM), scalarUnalignedRows(knobs.scalarUnalignedRows),
      overlapCopies(knobs.overlapCopies), stageBarriers(knobs.stageBarriers),
      pingPong(knobs.pingPong) {}

void KernelContext::emitPrologue(OpBuilder &b) {
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
  laneId = arith::RemUIOp::create(b, loc, threadId, c32);
  warpId = arith::DivUIOp::create(b, loc, threadId, c32);
  // Hoisted values go before this marker; the pass erases it at the end.
  prologueEnd = ub::PoisonOp::create(b, loc, b.getIndexType());
  indexConstants[32] = c32;
}

Value KernelContext::constIndex(OpBuilder &b, int64_t value) {
  Value &cached = indexConstants[value];
  if (!cached) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(prologueEnd);
    cached = arith::ConstantIndexOp::create(b, loc, value);
  }
  return cached;
}

Value KernelContext::threadCoord(OpBuilder &b, const DimLayout &dim) {
  auto key =
      std::make_tuple(dim.lanes, dim.laneStride, dim.warps, dim.warpStride);
  Value &cached = coords[key];
  if (cached)
    return cached;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueEnd);
  auto part = [&](Value id, int64_t count, int64_t stride) -> Value {
    if (count == 1)
      return constIndex(b, 0);
    Value v = id;
    if (stride > 1)
      v = arith::DivUIOp::create(b, loc, v, constIndex(b, stride));
    if (count * stride < (id == laneId ? 32 : numWarps))
      v = arith::RemUIOp::create(b, loc, v, constIndex(b, count));
    return v;
  };
  Value lane = part(laneId, dim.lanes, dim.laneStride);
  Value warp = part(warpId, dim.warps, dim.warpStride);
  if (dim.warps == 1)
    cached = lane;
  else if (dim.lanes == 1)
    cached = warp;
  else
    cached = arith::AddIOp::create(
        b, loc, lane,
        arith::MulIOp::create(b, loc, warp, constIndex(b, dim.lanes)));
  return cached;
}

Value KernelContext::ownerPredicate(OpBuilder &b, const Layout &layout) {
  int64_t laneReplicas = 31 & ~layout.usedLaneMask();
  int64_t warpReplicas = (numWarps - 1) & ~layout.usedWarpMask();
  Value owner;
  auto require = [&](Value id, int64_t mask) {
    if (!mask)
      return;
    Value bits = arith::AndIOp::create(b, loc, id, constIndex(b, mask));
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits,
                                       constIndex(b, 0));
    owner = owner ? arith::AndIOp::create(b, loc, owner, zero) : zero;
  };
  require(laneId, laneReplicas);
  require(warpId, warpReplicas);
  return owner;
}

Value KernelContext::divisibleBy(OpBuilder &b, Value dim, int64_t divisor) {
  if (Value cached = divisibility.lookup({dim, divisor}))
    return cached;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueEnd);
  // A `requires` fact that makes the extent a multiple of `divisor` decides
  // it here: the fast path alone remains once the branch folds.
  for (const auto &[memref, arg] : globalArgs)
    for (auto [extent, multiple] : llvm::zip(arg.dims, arg.multiples))
      if (extent == dim && multiple % divisor == 0) {
        Value proven = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
        divisibility[{dim, divisor}] = proven;
        return proven;
      }
  Value rem = arith::RemUIOp::create(b, loc, dim, constIndex(b, divisor));
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                   constIndex(b, 0));
  divisibility[{dim, divisor}] = ok;
  return ok;
}

void KernelContext::barrier(OpBuilder &b) {
  if (!producerExited) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  // Barrier 0 is the CTA's (bar.sync 0 counts every thread launched); the
  // consumers use barrier 1 with their own count.
  auto i32 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(v));
  };
  NVVM::BarrierOp::create(b, loc, TypeRange{}, i32(kConsumerBarrierId),
                          i32(32 * numWarps), NVVM::BarrierReductionAttr(),
                          Value());
}

Value KernelContext::allocShared(OpBuilder &b, Type elementType, int64_t count,
                                 int64_t alignment) {
  alignment = std::max<int64_t>(alignment, 16);
  sharedAlignment = std::max(sharedAlignment, alignment);
  int64_t offset = llvm::alignTo(sharedBytes, alignment);
  sharedBytes = offset + count * elementBytes(elementType);
  return viewShared(b, elementType, count, offset);
}

Value KernelContext::viewShared(OpBuilder &b, Type elementType, int64_t count,
                                int64_t offset) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueEnd);
  if (!sharedBase)
    sharedBase = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
  auto type = MemRefType::get({count}, elementType, MemRefLayoutAttrInterface(),
                              workgroup);
  return memref::ViewOp::create(b, loc, type, sharedBase, constIndex(b, offset),
                                ValueRange{});
}

int64_t kbench::gpu_lowering::elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

bool kbench::gpu_lowering::inLoop(Operation *op) {
  for (Operation *parent = op->getParentOp();
       parent && !isa<FunctionOpInterface>(parent);
       parent = parent->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(parent))
      return true;
  return false;
}
