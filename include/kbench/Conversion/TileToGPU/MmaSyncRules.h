//===- MmaSyncRules.h - When and how tile.mma lowers to mma.sync -*- C++ -*-===//
//
// Shared by tile-to-gpu (MmaSyncLowering.cpp) and transform.tile.mma_impl, so
// that the op that picks `impl = mma_sync` and the lowering that consumes it
// apply one rule, and by the unit test of the fragment and swizzle model.
//
// The model (docs/gpu-lowering.md, "impl = mma_sync"):
//   - the CTA's warps form a warpsM x warpsN grid; each warp owns
//     M / (16 warpsM) x N / (8 warpsN) mma.sync.m16n8k16 tiles;
//   - A (MxK) and B (NxK) are staged in shared memory as rows of K and read
//     with ldmatrix; A given KxM and B given KxN keep their rows of M or N
//     and are read with ldmatrix.trans (a KxN B with N not a multiple of 16
//     is transposed by the register-to-shared store instead);
//   - a row of K 16-bit elements is cut in 16-byte chunks; chunk bits 3..5 of
//     the linear element offset are XORed with a key from the row so that the
//     eight row addresses of one ldmatrix 8x8 matrix hit eight different
//     16-byte bank groups (mmaSyncSwizzle);
//   - a K loop with 2..4 pipeline stages copies the operand tiles with
//     cp.async when A is MxK, B NxK (transpose_b), the views are zero-padded
//     and the 16-byte chunks split evenly over the threads.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_MMASYNCRULES_H
#define KBENCH_CONVERSION_TILETOGPU_MMASYNCRULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// The mma.sync instruction shape (m16n8k16, 16-bit operands).
inline constexpr int64_t kMmaSyncM = 16, kMmaSyncN = 8, kMmaSyncK = 16;
/// The K of the tf32 instruction (m16n8k8, f32 operands rounded to tf32).
inline constexpr int64_t kMmaSyncTf32K = 8;

/// The K of one mma.sync step for operands of `elementType`: 8 for f32
/// (tf32), 16 for bf16 and f16. Either way one step reads 32 bytes of each
/// operand row, so the staging and the ldmatrix addressing are the same in
/// bytes.
inline int64_t getMmaSyncStepK(mlir::Type elementType) {
  return elementType.isF32() ? kMmaSyncTf32K : kMmaSyncK;
}

/// Elements of `elementType` in one 16-byte chunk (one cp.async, one row of
/// an ldmatrix 8x8 matrix): 8 halves or 4 floats.
inline int64_t getChunkElements(mlir::Type elementType) {
  return 128 / elementType.getIntOrFloatBitWidth();
}
/// Pipeline depths an mma_sync K loop may ask for: 1 (register staging) or
/// 2..4 cp.async stages.
inline constexpr int64_t kMmaSyncMaxStages = 4;

/// How the CTA's warps split an M x N accumulator.
struct MmaSyncWarpGrid {
  int64_t warpsM = 1, warpsN = 1;
  /// mma tiles per warp along M and N.
  int64_t tilesM = 1, tilesN = 1;
};

/// The warp grid for an M x N accumulator over `numWarps` warps: M splits in
/// multiples of 16 rows per warp, N in multiples of 8. `balanced` takes, of
/// the splits that fit, the one with the squarest warp tile (fewest ldmatrix
/// per mma); `rows` splits M only (numWarps x 1), so that every warp owns
/// whole rows. nullopt when none fits.
std::optional<MmaSyncWarpGrid>
getMmaSyncWarpGrid(int64_t m, int64_t n, int64_t numWarps,
                   tile::MmaWarpSplit split = tile::MmaWarpSplit::balanced);

/// Shared-memory bytes the lowering stages the operands of `op` in, per
/// stage.
int64_t getMmaSyncSharedBytes(tile::MmaOp op);

/// Why `op`'s operand and accumulator types rule out the tensor-core `impl`
/// (mma_sync or wgmma: both take bf16 x bf16 and f16 x f16 into f32;
/// mma_sync also f32 x f32 into f32 as tf32, when the kernel allows tf32,
/// tile::allowsTf32), or nullopt when they do not.
std::optional<std::string> whyNotTensorCoreTypes(tile::MmaOp op,
                                                 tile::MmaImpl impl);

/// Why tile-to-gpu cannot lower `op` as mma_sync with `numWarps` warps in a
/// K loop of `stages` pipeline stages (1 when the mma is in no pipelined
/// loop), or nullopt when it can. The text names the value and the fix.
std::optional<std::string> whyNotMmaSync(tile::MmaOp op, int64_t numWarps,
                                         int64_t stages = 1);

/// Why the K loop around `op` (mma_sync or wgmma) cannot be a cp.async
/// pipeline: the loop shape of getMmaLoopMma, A as MxK and B as NxK or
/// (rows of N, a multiple of 16) KxN tiles through zero-padded views, and
/// 16-byte chunks that split evenly over the threads.
std::optional<std::string> whyNotCpAsyncPipelined(tile::MmaOp op,
                                                  int64_t numWarps);

/// The swizzled element offset of element (row, col) of a staged operand
/// with `rowElems` 16-bit elements per row (a multiple of 16): the linear
/// offset with its 16-byte chunk index (bits 3..5) XORed with the row's key,
/// so that rows 8r .. 8r+7 at one column chunk fall in distinct bank groups.
/// With `elementBytes` = 4 (tf32) the swizzle is the one of a row of
/// 2 x rowElems halves, each float taking two: the same bytes move, so the
/// argument holds unchanged (rowElems then a multiple of 8).
int64_t mmaSyncSwizzle(int64_t row, int64_t col, int64_t rowElems,
                       int64_t elementBytes = 2);

/// The XOR key of `row` in mmaSyncSwizzle (0..7): the row within 8 when a
/// row spans at least one 128-byte line, else the 128-byte line's index.
int64_t mmaSyncSwizzleKey(int64_t row, int64_t rowElems);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_MMASYNCRULES_H
