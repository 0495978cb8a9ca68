//===- MmaOverlapRules.h - Loops whose two mmas overlap ---------*- C++ -*-===//
//
// Shared by transform.tile.mma_overlap (its rule), the tile-overlap-mma pass
// (the rotation) and tile-to-gpu (the waits), so that all three read one
// definition of the loops the knob rotates.
//
// Attention's key loop runs, per key tile j: S_j = Q K_j^T (the first
// tile.mma), the online softmax of S_j, the rescale of the output O by
// alpha_j, and O += P_j V_j (the second tile.mma). In that order the tensor
// cores idle while the warps compute the softmax. The rotation runs the
// second mma (with the load of its B tile) one iteration late:
//
//   prologue:   iteration 0 without the second mma (S_0, softmax, P_0 and
//               the rescaled O_0)
//   iteration j (from 1): the body up to and including the first mma (S_j
//               issued), the second mma of iteration j - 1 (P_{j-1} V_{j-1}
//               issued), then the rest of the body (the softmax of S_j,
//               the rescale of O, P_j), which reads the accumulator as the
//               second mma of iteration j - 1 left it
//   epilogue:   the second mma of the last iteration
//
// The operands the late mma reads from its own iteration (P and the
// rescaled O) are carried to the next iteration as extra iter_args, and
// loops of no iteration skip all of it. With both mmas on wgmma,
// tile-to-gpu then waits for each group just before the first use of its
// result (getOverlapWaits): the softmax of S_j waits for S_j alone while
// P_{j-1} V_{j-1} is still running, and the rescale waits for that. No
// group stays in flight past its iteration, and no register a wgmma reads
// is written while a group is in flight (ptxas would serialize the wgmma
// otherwise): P_j and the rescaled O are computed after both waits.
//
// The rotation computes what the loop computed, operation for operation;
// only the order of independent work changes. tile-verify proves the loop
// as written, before the rotation (docs/gpu-lowering.md, "Attention
// overlap").
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_MMAOVERLAPRULES_H
#define KBENCH_CONVERSION_TILETOGPU_MMAOVERLAPRULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// Marks a loop the rotation produced (a unit attribute on its scf.for), so
/// that tile-to-gpu waits for its wgmma groups at their results' first use.
inline constexpr llvm::StringLiteral kMmaOverlapAttrName = "tile.mma_overlap";

/// How one loop splits into the two stages.
struct MmaOverlapPlan {
  tile::MmaOp first, second;
  /// The iter_arg that carries the second mma's accumulator.
  unsigned accumulatorIndex = 0;
  /// The body ops that run one iteration late, in body order: the second
  /// mma and the tile.load (and tile.squeeze ops) of its B tile.
  llvm::SetVector<mlir::Operation *> secondStage;
};

/// Splits `loop` as the header describes, or says why it cannot (the text
/// names the op and what to change). Required: exactly two tile.mma in the
/// body, both directly in it and impl = wgmma; a body that only reads
/// memory; the second mma's result feeds only the scf.yield, and the
/// iter_arg at that position is read only after the first mma.
std::optional<std::string> planMmaOverlap(mlir::scf::ForOp loop,
                                          MmaOverlapPlan &plan);

/// Why the mma_overlap knob has nothing to rotate in `kernel`, or nullopt
/// when some scf.for of it is accepted by planMmaOverlap.
struct MmaOverlapRefusal {
  std::string reason;
  /// The first scf.for with a tile.mma that planMmaOverlap refused, or the
  /// kernel when it has none.
  mlir::Operation *at;
};
std::optional<MmaOverlapRefusal> whyNotMmaOverlap(tile::KernelOp kernel);

/// One wait of a rotated loop: before `before` (an op of the body), until at
/// most `pending` wgmma groups are in flight.
struct WgmmaWait {
  mlir::Operation *before;
  int64_t pending;
};

/// Where tile-to-gpu waits for the wgmma groups of a rotated loop (marked
/// kMmaOverlapAttrName) whose operands it prefetches in `stages` stages:
/// each tile.mma's group stays in flight until the first use of its result
/// in the body; groups complete in order, so the wait leaves the groups
/// issued after it pending. Empty, and the groups are waited for as usual,
/// unless `stages` >= 2, the loop prefetches its operands, and its body
/// holds exactly two wgmma tile.mma, directly, each result read in the
/// body.
llvm::SmallVector<WgmmaWait> getOverlapWaits(mlir::scf::ForOp loop,
                                             int64_t stages);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_MMAOVERLAPRULES_H
