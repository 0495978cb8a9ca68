//===- ReductionTrace.h - The reductions of a kernel -------------*- C++ -*-===//
//
// Private to lib/Analysis, for C9 (ReductionCheck.cpp): what feeds a
// reduction (the source loads of its reduced axis and the loops that carry
// them) and where its result goes (the loops that accumulate it, atomic adds,
// the mma accumulators it feeds).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_ANALYSIS_REDUCTIONTRACE_H
#define KBENCH_LIB_ANALYSIS_REDUCTIONTRACE_H

#include "kbench/Analysis/KernelModel.h"

#include <string>

namespace kbench::detail {

/// A load feeding the reduced axis.
struct Source {
  const AccessInfo *load;
  unsigned axis;
};

/// One reduction op and what the analysis found about it.
struct Member {
  mlir::Operation *op = nullptr;
  int scope = -1;
  llvm::SmallVector<Source> sources;
  /// Loops (scope indices) around sources whose last iteration alone feeds
  /// the reduction.
  llvm::SmallVector<int> lastOnlyLoops;
  /// Loops (scope indices) enclosing the op that accumulate its result.
  llvm::SmallVector<int> carriedLoops;
  /// Loops enclosing the op with a slot that the result reaches but that is
  /// overwritten each iteration.
  llvm::SmallVector<int> overwrittenLoops;
  /// The ops that combine the result across blocks: tile.atomic_add, and
  /// tile.store into partial results (an argument marked tile.partials,
  /// which a later kernel combines).
  llvm::SmallVector<mlir::Operation *> atomics;
  llvm::SmallVector<mlir::Operation *> accLinks;
  /// Conditions of the arith.selects (through float casts) that give the
  /// reduced operand the reduction's identity (zero for sums and products,
  /// -inf for max, +inf for min) where they are false. A k tile on whose
  /// every lane one of them is false adds nothing: a loop may skip it (the
  /// key tiles above the diagonal of causal attention).
  llvm::SmallVector<mlir::Value> maskConds;
  /// When the reduced operand is an scf.if result whose one branch yields
  /// that chain of selects (a kernel that masks only its boundary tiles):
  /// the if's condition, and the branch (true: then) that masks; lanes of
  /// the other branch are not masked.
  mlir::Value maskGuard;
  bool maskGuardThen = true;
  /// Whether the result reaches a store or an atomic add (else it is dead).
  bool reachesOutput = false;
  /// The reduced dim comes from no tile.load (constants): nothing to cover.
  bool noSources = false;
  std::string unsupported;
};

/// The dim of partial results that `op` (a tile.store) writes along: its
/// view's kernel argument is marked tile.partials. None for other ops and
/// for accesses outside the model.
std::optional<unsigned> getPartialsDim(const KernelModel &model,
                                       mlir::Operation *op);

/// Analyses one tile.mma or tile.reduce: its sources, the loops that carry or
/// overwrite it, its sinks. Sets `unsupported` when a step leaves what C9
/// models.
Member analyseReduction(const KernelModel &model, mlir::Operation *op);

} // namespace kbench::detail

#endif // KBENCH_LIB_ANALYSIS_REDUCTIONTRACE_H
