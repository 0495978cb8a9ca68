//===- WgmmaRules.cpp - When and how tile.mma lowers to wgmma -------------===//
//
// The legality rules and the row model of impl = wgmma (WgmmaRules.h), free
// of IR building so that the transform ops, the lowering and the unit test
// read one definition.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/WgmmaRules.h"

#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"
#include "kbench/Support/KernelConfig.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

int64_t kbench::gpu_lowering::getWgmmaSharedBytes(tile::MmaOp op) {
  RankedTensorType a = op.getA().getType(), b = op.getB().getType();
  int64_t bytes = a.getElementTypeBitWidth() / 8;
  return llvm::alignTo(a.getNumElements() * bytes, kWgmmaBufferAlign) +
         llvm::alignTo(b.getNumElements() * bytes, kWgmmaBufferAlign);
}

std::optional<std::string>
kbench::gpu_lowering::whyNotWgmma(tile::MmaOp op, int64_t numWarps,
                                  int64_t stages) {
  RankedTensorType a = op.getA().getType(), acc = op.getAcc().getType();
  if (std::optional<std::string> why =
          whyNotTensorCoreTypes(op, tile::MmaImpl::wgmma))
    return why;
  if (op.getTransposeA())
    return std::string(
        "impl = wgmma reads A from shared memory as rows of K, so A must be "
        "MxK (no transpose_a); use impl = mma_sync for a KxM A");
  ArrayRef<int64_t> c = acc.getShape();
  int64_t m = c[0], n = c[1];
  if (!op.getTransposeB() && n % kWgmmaRowElems != 0)
    return llvm::formatv("impl = wgmma stages a KxN B (no transpose_b) in "
                         "columns of {0} N elements (one 128-byte swizzle "
                         "row each), so N must be a multiple of {0}, got "
                         "N = {1}; change BN, or use transpose_b",
                         kWgmmaRowElems, n)
        .str();
  int64_t k = a.getDimSize(1);
  if (k % kWgmmaRowElems != 0)
    return llvm::formatv("impl = wgmma stages rows of K in blocks of {0} "
                         "elements (one 128-byte swizzle row each), got a K "
                         "tile of {1}; set BK to a multiple of {0}",
                         kWgmmaRowElems, k)
        .str();
  int64_t warpgroupWarps = kSm90aLimits.warpgroupWarps;
  if (numWarps % warpgroupWarps != 0)
    return llvm::formatv("impl = wgmma runs on whole warpgroups of {0} "
                         "warps, got num_warps = {1}; use a multiple of {0}",
                         warpgroupWarps, numWarps)
        .str();
  int64_t warpgroups = numWarps / warpgroupWarps;
  if (m % (kWgmmaM * warpgroups) != 0)
    return llvm::formatv("impl = wgmma gives each of the {0} warpgroups "
                         "(num_warps = {1}) whole 64-row wgmma tiles, so M "
                         "must be a multiple of {2}, got {3}; change BM or "
                         "num_warps",
                         warpgroups, numWarps, kWgmmaM * warpgroups, m)
        .str();
  if (n % 8 != 0 || n > kWgmmaMaxN)
    return llvm::formatv("impl = wgmma issues m64nNk16 with N the whole "
                         "accumulator width, a multiple of 8 up to {0}, got "
                         "N = {1}; change BN",
                         kWgmmaMaxN, n)
        .str();
  if (stages < 1 || stages > kWgmmaMaxStages)
    return llvm::formatv("tile.pipeline_stages = {0} is out of range for "
                         "impl = wgmma: use 1 to {1}",
                         stages, kWgmmaMaxStages)
        .str();
  if (stages > 1)
    if (std::optional<std::string> why = whyNotCpAsyncPipelined(op, numWarps))
      return llvm::formatv("tile.pipeline_stages = {0}: {1}; use stages 1",
                           stages, *why)
          .str();
  // One set of buffers per stage; the base is aligned at run time, which may
  // skip up to one alignment unit.
  int64_t bytes = getWgmmaSharedBytes(op) * stages + kWgmmaBufferAlign;
  int64_t limit = kSm90aLimits.sharedMemoryPerBlock;
  if (bytes > limit)
    return llvm::formatv("impl = wgmma stages its operands in {0} bytes of "
                         "shared memory, over the {1}-byte limit of one CTA; "
                         "lower BM, BN or the pipeline stages",
                         bytes, limit)
        .str();
  return std::nullopt;
}

bool kbench::gpu_lowering::isTensorCoreImpl(tile::MmaImpl impl) {
  return impl == tile::MmaImpl::mma_sync || impl == tile::MmaImpl::wgmma;
}

std::optional<std::string>
kbench::gpu_lowering::whyNotTensorCore(tile::MmaOp op, tile::MmaImpl impl,
                                       int64_t numWarps, int64_t stages) {
  switch (impl) {
  case tile::MmaImpl::mma_sync:
    return whyNotMmaSync(op, numWarps, stages);
  case tile::MmaImpl::wgmma:
    return whyNotWgmma(op, numWarps, stages);
  default:
    return std::nullopt;
  }
}

int64_t kbench::gpu_lowering::wgmmaStagedRow(int64_t row, int64_t m,
                                             int64_t numWarps) {
  int64_t g = row % 8, warp = (row / 8) % numWarps, rep = row / (8 * numWarps);
  int64_t warpgroupWarps = kSm90aLimits.warpgroupWarps;
  int64_t tilesPerWarpgroup = m / (kWgmmaM * (numWarps / warpgroupWarps));
  int64_t warpgroup = warp / warpgroupWarps;
  return kWgmmaM * (warpgroup * tilesPerWarpgroup + rep / 2) +
         16 * (warp % warpgroupWarps) + 8 * (rep % 2) + g;
}
