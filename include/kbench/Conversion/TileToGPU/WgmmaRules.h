//===- WgmmaRules.h - When and how tile.mma lowers to wgmma ------*- C++
//-*-===//
//
// Shared by tile-to-gpu (WgmmaLowering.cpp, TensorCore.cpp), the
// transform ops that pick `impl = wgmma` or recheck it after later edits, and
// the unit test of the row model, so that all of them apply one rule.
//
// The model (docs/gpu-lowering.md, "impl = wgmma"):
//   - the CTA's warps form numWarps / 4 warpgroups stacked along M; each
//     warpgroup owns M / warpgroups rows, issued as wgmma.mma_async
//     m64nNk16 instructions (N = the whole accumulator width, 8..256) whose
//     A and B are read by the tensor cores straight from shared memory
//     through 64-bit matrix descriptors;
//   - A (MxK) and B (NxK, transpose_b) are staged as rows of K in blocks of
//     64 elements, 128 bytes (block j holds every row's K elements 64 j ..
//     64 j + 63), in the 128-byte swizzle the descriptors name (16-byte
//     chunk c of row r at chunk c ^ (r % 8)), in buffers aligned to 1024
//     bytes (the swizzle's repeat, so that the address bits the hardware
//     swizzles on are the row's); a KxN B (no transpose_b, N a
//     multiple of 64) is staged N-major: N / 64 columns, one after the
//     other, each its K rows of 64 N elements in the same swizzle, which
//     wgmma reads transposed (imm-trans-b);
//   - the accumulator is the mma.sync C fragment with every warp along M
//     (getWgmmaLayout): row repeat 2t + h of warp w holds rows g + 8h of
//     warp w % 4's 16-row slab of its warpgroup's t-th 64-row wgmma tile.
//     The rows of A are staged in that order (wgmmaStagedRow), so the
//     hardware's fixed D fragment lands in the tile's blocked layout.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_WGMMARULES_H
#define KBENCH_CONVERSION_TILETOGPU_WGMMARULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// The wgmma instruction shape for 16-bit operands: m64nNk16 per warpgroup.
inline constexpr int64_t kWgmmaM = 64, kWgmmaK = 16, kWgmmaMaxN = 256;
/// K elements per staged row block (the K tile is a multiple): one 128-byte
/// swizzle row of 16-bit elements.
inline constexpr int64_t kWgmmaRowElems = 64;
/// Alignment of a staged operand buffer: the 128-byte swizzle's repeat.
inline constexpr int64_t kWgmmaBufferAlign = 1024;
/// Pipeline depths a wgmma K loop may ask for: 1 (register staging) or 2..4
/// cp.async stages.
inline constexpr int64_t kWgmmaMaxStages = 4;

/// Shared-memory bytes the lowering stages the operands of `op` in, per
/// stage (A and B, each 1024-byte aligned).
int64_t getWgmmaSharedBytes(tile::MmaOp op);

/// Why tile-to-gpu cannot lower `op` as wgmma with `numWarps` warps in a K
/// loop of `stages` pipeline stages (1 when the mma is in no pipelined loop),
/// or nullopt when it can. The text names the value and the fix.
std::optional<std::string> whyNotWgmma(tile::MmaOp op, int64_t numWarps,
                                       int64_t stages = 1);

/// Whether `impl` stages its operands in shared memory for tensor cores
/// (mma_sync or wgmma), so that its K loop may be a cp.async pipeline.
bool isTensorCoreImpl(tile::MmaImpl impl);

/// whyNotMmaSync or whyNotWgmma, by `impl` (nullopt for simt, whose rules
/// are the SIMT lowering's own).
std::optional<std::string> whyNotTensorCore(tile::MmaOp op,
                                            tile::MmaImpl impl,
                                            int64_t numWarps,
                                            int64_t stages = 1);

/// The shared-memory row of A's tile row `row` for an `m`-row accumulator
/// over `numWarps` warps: tile row 8 (W r + w) + g (row repeat r, warp w, g
/// < 8) is the wgmma row 64 (warpgroup's first tile + r / 2) + 16 (w % 4) +
/// 8 (r % 2) + g. A bijection of [0, m).
int64_t wgmmaStagedRow(int64_t row, int64_t m, int64_t numWarps);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_WGMMARULES_H
