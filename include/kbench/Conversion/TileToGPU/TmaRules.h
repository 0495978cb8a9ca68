//===- TmaRules.h - When a wgmma K loop copies its operands with TMA -*- C++ -*-===//
//
// Shared by tile-to-gpu (TmaPipeline.cpp, the kernel ABI in TileToGPU.cpp),
// transform.tile.operand_copies and the knob rechecks, so that the op that
// asks for TMA copies and the lowering that emits them apply one rule.
//
// A pipelined wgmma K loop (tile.pipeline_stages = S, 2 <= S <= 4) may carry
// `tile.operand_copies = "tma"`: one thread then copies each step's operand
// tiles with cp.async.bulk.tensor (TMA) into the S stage buffers, and S
// "full" and S "empty" mbarriers pace the copies against the wgmma groups
// (docs/gpu-lowering.md, "TMA operand copies"). The copies read through
// tensor maps (CUtensorMap) that the runner encodes per launch and passes as
// trailing `tma_descriptor` kernel params (docs/bundle.md):
//
//   - B (NxK, transpose_b): one box of BN rows x 64 elements;
//   - A (MxK), a full tile: one box per warpgroup of the staged-rows view
//     (getStagedRowsView), whose box lands the rows in wgmmaStagedRow order;
//   - A, a tile that reaches past M: boxes of 8 rows x 64 elements, one per
//     8-row group below M, each written to the rows wgmmaStagedRow puts
//     that group at (a box lands in one 1024-byte swizzle repeat, so the
//     hardware's 128-byte swizzle is the staging swizzle).
//
// Out-of-bounds rows and columns of a box read as zero, which is what the
// operands' pad(zero) views ask for. TMA needs 16-byte aligned rows: where
// K % 8 != 0 (or a base address is not 16-byte aligned) the runner passes
// zero bytes instead of a map and the kernel copies that step with element
// loads, versioned at run time like the cp.async loop.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_TMARULES_H
#define KBENCH_CONVERSION_TILETOGPU_TMARULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// The loop attribute naming how a pipelined tensor-core K loop copies its
/// operands: "cp_async" (the default, also when absent) or "tma".
inline constexpr llvm::StringLiteral kOperandCopiesAttrName =
    "tile.operand_copies";

/// The ways a pipelined tensor-core K loop may copy its operands.
enum class OperandCopies { CpAsync, Tma };

/// "cp_async" or "tma".
llvm::StringRef stringifyOperandCopies(OperandCopies copies);
/// The value of a spelling, or nullopt.
std::optional<OperandCopies> parseOperandCopies(llvm::StringRef spelling);

/// What `loop` records (CpAsync when it records nothing).
OperandCopies getOperandCopies(mlir::scf::ForOp loop);

/// Rows of one TMA box of A: one 8-row group of wgmmaStagedRow's order.
inline constexpr int64_t kTmaRowsPerABox = 8;
/// Rows a box may have (and a TMA box dim in general).
inline constexpr int64_t kTmaMaxBoxRows = 256;
/// Bytes of one mbarrier object.
inline constexpr int64_t kMbarrierBytes = 8;

/// The rules of whyNotTmaCopies that still hold once tile-to-gpu has moved
/// the kernel body into its gpu.func (all but the operand sources, which
/// the lowering finds through its views).
std::optional<std::string> whyNotTmaPipeline(mlir::scf::ForOp loop,
                                             int64_t numWarps,
                                             int64_t stages);

/// Why the K loop `loop` (pipeline depth `stages`, `numWarps` warps) cannot
/// copy its operands with TMA, or nullopt. Asks for an impl = wgmma tile.mma
/// the wgmma rules accept at that depth (>= 2), whose operand views are
/// partitions of kernel arguments. The text names the value and the fix.
std::optional<std::string> whyNotTmaCopies(mlir::scf::ForOp loop,
                                           int64_t numWarps, int64_t stages);

/// The kernel argument the view `view` is a tile.partition of, or null: what
/// a tensor map is encoded over (operand copies and TMA stores alike).
mlir::BlockArgument getPartitionedKernelArg(mlir::Value view);

/// Whether some tile sizes, warps and pipeline depth would let the K loop
/// `loop` copy its operands with TMA: the rules of whyNotTmaCopies that do
/// not depend on them (a K loop whose tile.mma has wgmma's types, B as NxK
/// and rank-2 operands, each a partition of a kernel argument). What the
/// search asks before it offers operand_copies tma.
bool tmaCopiesFitSomeSizes(mlir::scf::ForOp loop);

/// One tensor map a kernel takes, over kernel argument `argIndex` (a rank-2
/// memref of `elementType`) with box `box` (outermost axis first) and the
/// 128-byte swizzle. With `stagedRowsWarps` = W > 0 the map is over the 5-D
/// view of the memref [R, C] whose box lands A's rows in wgmmaStagedRow
/// order for one warpgroup (getStagedRowsView); else over the memref.
struct TmaDescriptorRequest {
  unsigned argIndex;
  mlir::Type elementType;
  llvm::SmallVector<int64_t> box;
  int64_t stagedRowsWarps = 0;
  int64_t swizzleBytes = 128;

  bool operator==(const TmaDescriptorRequest &other) const {
    return argIndex == other.argIndex && box == other.box &&
           stagedRowsWarps == other.stagedRowsWarps &&
           swizzleBytes == other.swizzleBytes;
  }
};

/// The view of a row-major [rows, cols] memref that a staged-rows map reads
/// (outermost axis first, strides in elements, as shape expressions over
/// the dim names `rows` and `cols`): with W = `numWarps`, axes (rh, w, rl,
/// g, k) of extents (floordiv(rows, 16 W), W, 2, 8, cols) address row
/// 16 W rh + 8 W rl + 8 w + g. A box (T, 4, 2, 8, 64) at (T mIdx, 4 wg, 0,
/// 0, k) copies warpgroup wg's rows of a full BM = 16 W T row tile in the
/// order (rh, w % 4, rl, g), which is wgmmaStagedRow's.
struct StagedRowsView {
  llvm::SmallVector<std::string> shape, strides;
};
StagedRowsView getStagedRowsView(llvm::StringRef rows, llvm::StringRef cols,
                                 int64_t numWarps);

/// The tensor maps the TMA K loops of `kernel` read and its TMA stores
/// (EpilogueRules.h) write, without duplicates, in the order of first use. A
/// loop or store the rules refuse contributes none (the lowering reports
/// it).
llvm::SmallVector<TmaDescriptorRequest>
collectTmaDescriptors(tile::KernelOp kernel, int64_t numWarps);

/// The boxes (outermost axis first) of the maps of the TMA K loop around
/// `mma` with `numWarps` warps.
struct TmaOperandBoxes {
  llvm::SmallVector<int64_t> aRows, aStaged, b;
};
TmaOperandBoxes getTmaOperandBoxes(tile::MmaOp mma, int64_t numWarps);

/// The maps of the TMA K loop around `mma` with `numWarps` warps: A in
/// 8-row boxes (tiles that reach past M), A's staged-rows view (full tiles),
/// B in one box. Needs the operands' kernel arguments (before tile-to-gpu
/// moves the body).
struct TmaOperandRequests {
  TmaDescriptorRequest aRows, aStaged, b;
};
TmaOperandRequests getTmaOperandRequests(tile::MmaOp mma, int64_t numWarps);

//===--- Warp specialization (tile.warp_specialized on the kernel) --------===//
//
// The kernel is launched with a producer warpgroup beside its num_warps
// consumer warps. Every thread runs the scalar code before the TMA K loop;
// there the producer warpgroup lowers its register limit (setmaxnreg), its
// first warp issues every step's copies as soon as the consumers release a
// stage, and the producer warpgroup exits; the consumers raise their limit
// and run the loop and everything after it, synchronizing through a named
// barrier that counts only them.

/// The TMA K loop of a warp-specialized kernel, or null when the kernel has
/// none or several.
mlir::scf::ForOp getWarpSpecializedLoop(tile::KernelOp kernel);

/// Why `kernel` cannot be warp-specialized, or nullopt: it needs exactly one
/// TMA K loop (transform.tile.operand_copies tma), at the top level of the
/// kernel body, only scalar code before it (index arithmetic, constants,
/// views, the grid: the producer warpgroup runs it and has no place in the
/// layouts), and room for 4 more warps in a CTA. The text names the op and
/// the fix.
std::optional<std::string> whyNotWarpSpecialized(tile::KernelOp kernel);

/// The rules of whyNotWarpSpecialized about where the K loop `loop` of
/// `kernel` sits: at the top level, only scalar code before it.
std::optional<std::string> whyNotProducerLoop(tile::KernelOp kernel,
                                              mlir::scf::ForOp loop);

/// Per-thread register limits of a warp-specialized kernel of `numWarps`
/// consumer warps: the kernel's (`.maxnreg`, so that the CTA fits its share
/// of the SM's 64K registers at launch: half for one consumer warpgroup, so
/// that two CTAs share an SM, all of them for more), the producer's after
/// setmaxnreg.dec, and the consumers' after setmaxnreg.inc (what the
/// producer gave up, shared among them). All multiples of 8, as setmaxnreg
/// asks.
struct WarpSpecializedRegisters {
  int64_t kernel, producer, consumer;
};
WarpSpecializedRegisters getWarpSpecializedRegisters(int64_t numWarps);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_TMARULES_H
