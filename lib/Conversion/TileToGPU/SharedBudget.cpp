//===- SharedBudget.cpp - Shared memory of the mma operand buffers --------===//
//
// The model of SharedBudget.h, kept next to the allocations it mirrors
// (MmaLowering.cpp, TensorCore.cpp, TmaPipeline.cpp, OperandPrefetch.cpp).
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/SharedBudget.h"

#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/PrefetchRules.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

int64_t kbench::gpu_lowering::getSimtStagedRowLength(int64_t length,
                                                     int64_t elementBytes) {
  return length + 16 / elementBytes;
}

/// Bytes of one staging buffer of operand A (`isA`) or B of `mma`; every
/// buffer starts 16-byte aligned (KernelContext::allocShared).
static int64_t getOperandBufferBytes(tile::MmaOp mma, bool isA) {
  RankedTensorType type = isA ? mma.getA().getType() : mma.getB().getType();
  int64_t elementBytes =
      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t align =
      mma.getImplKind() == tile::MmaImpl::wgmma ? kWgmmaBufferAlign : 16;
  return llvm::alignTo(type.getNumElements() * elementBytes, align);
}

/// impl = simt (MmaLowering.cpp) stages A as K rows of M and B as K rows of
/// N accumulator-type elements, rows padded (getSimtStagedRowLength), twice
/// in its double-buffered K loop.
static int64_t getSimtSharedBytes(tile::MmaOp mma, scf::ForOp loop,
                                  int64_t stages) {
  ArrayRef<int64_t> a = mma.getA().getType().getShape();
  ArrayRef<int64_t> acc = mma.getAcc().getType().getShape();
  int64_t k = mma.getTransposeA() ? a[a.size() - 2] : a.back();
  int64_t m = acc[acc.size() - 2], n = acc.back();
  int64_t elementBytes =
      std::max<int64_t>(1, mma.getAcc().getType().getElementTypeBitWidth() / 8);
  int64_t one =
      llvm::alignTo(k * getSimtStagedRowLength(m, elementBytes) * elementBytes,
                    16) +
      llvm::alignTo(k * getSimtStagedRowLength(n, elementBytes) * elementBytes,
                    16);
  bool doubleBuffered = loop && getPipelinableMma(loop) == mma && stages >= 2;
  return doubleBuffered ? 2 * one : one;
}

int64_t kbench::gpu_lowering::getMmaOperandSharedBytes(tile::MmaOp mma,
                                                       int64_t stages) {
  auto loop = dyn_cast_or_null<scf::ForOp>(mma->getParentOp());
  if (!isTensorCoreImpl(mma.getImplKind()))
    return getSimtSharedBytes(mma, loop, stages);
  bool wgmma = mma.getImplKind() == tile::MmaImpl::wgmma;
  if (!loop || stages < 2) {
    // One buffer per operand; wgmma's are 1024-byte aligned at run time.
    return wgmma ? getWgmmaSharedBytes(mma) + kWgmmaBufferAlign
                 : getMmaSyncSharedBytes(mma);
  }
  if (getMmaLoopMma(loop) == mma) {
    if (!wgmma)
      return stages * getMmaSyncSharedBytes(mma);
    int64_t bytes = stages * getWgmmaSharedBytes(mma) + kWgmmaBufferAlign;
    if (getOperandCopies(loop) == OperandCopies::Tma)
      bytes += 2 * stages * kMbarrierBytes;
    return bytes;
  }
  // A loop that prefetches some operands: S buffers for those.
  SmallVector<PrefetchedOperand> prefetched = getPrefetchedOperands(loop);
  int64_t bytes = 0;
  for (bool isA : {true, false}) {
    bool isPrefetched =
        llvm::any_of(prefetched, [&](const PrefetchedOperand &operand) {
          return operand.mma == mma && operand.isA == isA;
        });
    bytes += (isPrefetched ? stages : 1) * getOperandBufferBytes(mma, isA);
  }
  // wgmma's buffers are aligned at run time, which may skip up to one unit.
  if (wgmma)
    bytes += kWgmmaBufferAlign;
  return bytes;
}

int64_t kbench::gpu_lowering::getMmaOperandSharedBytes(tile::MmaOp mma) {
  auto loop = dyn_cast_or_null<scf::ForOp>(mma->getParentOp());
  if (!loop)
    return getMmaOperandSharedBytes(mma, 1);
  // An unmarked simt K loop is double-buffered by the planning pass.
  if (!loop->hasAttr(kPipelineStagesAttrName) && getPipelinableMma(loop) == mma)
    return getMmaOperandSharedBytes(mma, 2);
  return getMmaOperandSharedBytes(mma, getPipelineStages(loop));
}
