//===- PrefetchRules.h - Loops that prefetch mma operands -------*- C++ -*-===//
//
// Shared by tile-to-gpu (OperandPrefetch.cpp) and transform.tile.pipeline,
// so that the op that asks for the prefetch and the lowering apply one rule.
//
// A loop that is not a K loop (getMmaLoopMma: only two loads, their
// squeezes and one mma) but whose tensor-core (mma_sync or wgmma) tile.mma
// ops read operands loaded in the loop (attention: the key tile of the
// scores, the value tile of the output) can still be pipelined: with
// `tile.pipeline_stages = S` (2..4) the lowering copies those tiles straight
// from global to shared memory with cp.async, S - 1 iterations ahead, into S
// swizzled buffers per operand, and the mma reads the current iteration's
// buffer. The rest of the body lowers as usual. One barrier per iteration both
// publishes the tiles that landed and frees the buffer the next copies
// overwrite (docs/gpu-lowering.md, "Operand prefetch").
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_PREFETCHRULES_H
#define KBENCH_CONVERSION_TILETOGPU_PREFETCHRULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// One operand the loop prefetches: the mma, which operand, the load
/// (directly in the loop body; unit dims squeezed away between them).
struct PrefetchedOperand {
  tile::MmaOp mma;
  bool isA = false;
  tile::LoadOp load;
  /// Rows of the tile as it is staged (its second-innermost dim) and
  /// elements per row (its innermost dim, a multiple of 16).
  int64_t rows = 0, rowElems = 0;
};

/// Whether `value` is the induction variable of `loop`, defined outside it,
/// or computed in its body by pure scalar arith ops from such values: what
/// a lowering can recompute for another iteration by cloning those ops.
bool isStepComputable(mlir::Value value, mlir::scf::ForOp loop);

/// The mma operands `loop` would prefetch: each A and B of every mma_sync
/// or wgmma tile.mma directly in the body that is (a squeeze of) a
/// tile.load directly in the body. Both are copied as their rows are in
/// memory, to where the impl reads them (emitStagedOffset): every operand
/// order of mma_sync but a KxN B with N not a multiple of 16 (refused), and
/// the operand orders wgmma's own rules admit. Empty when there is none or
/// `loop` is a K loop.
llvm::SmallVector<PrefetchedOperand>
getPrefetchedOperands(mlir::scf::ForOp loop);

/// Why tile-to-gpu cannot prefetch the mma operands of `loop` in `stages`
/// stages with `numWarps` warps, or nullopt when it can. The text names the
/// op and the fix.
std::optional<std::string>
whyNotOperandPrefetch(mlir::scf::ForOp loop, int64_t numWarps, int64_t stages);

/// The tile.mma ops of `loop` in body order when every one of them is a
/// wgmma directly in the body, else empty: the loops whose wgmma groups the
/// lowering may leave in flight (getDeferredWaitMma, getOverlapWaits).
llvm::SmallVector<tile::MmaOp> getBodyWgmmas(mlir::scf::ForOp loop);

/// The wgmma tile.mma of a prefetched loop whose wait moves to the next
/// iteration, or null. With S >= 3 stages the last tile.mma of the body may
/// leave its group in flight when its result only feeds the next iteration,
/// and the first tile.mma comes before every read of it: that one's wait
/// for 0 groups then covers both (groups complete in order), and the
/// tensor cores run the deferred group while the warps wait for the copies,
/// meet at the barrier and issue the next ones. Its shared operands are
/// still being read past the iteration's end, so the lowering prefetches
/// S - 2 iterations ahead instead of S - 1: the copies of iteration k + 1
/// then write the buffers of iteration k - 1, whose deferred group every
/// warp waited for before the barrier at the head of k + 1. Attention's
/// `P @ V` (docs/gpu-lowering.md, "Operand prefetch").
///
/// Required: `stages` >= 3; every tile.mma of the body wgmma, directly in
/// the body, at least two; the last one's result used only by the
/// scf.yield; every use of that iter_arg after the first tile.mma.
tile::MmaOp getDeferredWaitMma(mlir::scf::ForOp loop, int64_t stages);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_PREFETCHRULES_H
