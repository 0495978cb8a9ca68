//===- CheckSupport.h - Shared machinery of the tile-verify checks -*- C++ -*-===//
//
// Private to lib/Analysis. A CheckRun is one check on one kernel: it owns the
// step budget (every piece of Presburger work and every loop iteration of a
// check is charged through it, so a check stops at the same point on every
// machine), the wall-clock backstop and the query size limit, issues the Presburger queries (lexmin with the shape
// symbols first, then a replay of the witness on the same system), and
// collects findings. The check entry points at the bottom are implemented in
// BoundsChecks.cpp (C1-C3), ReductionCheck.cpp (C9), PadCheck.cpp (C10),
// AlignmentCheck.cpp (C11), ReadOnlyCheck.cpp (C12) and OutputReadCheck.cpp
// (C13).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_ANALYSIS_CHECKSUPPORT_H
#define KBENCH_LIB_ANALYSIS_CHECKSUPPORT_H

#include "kbench/Analysis/KernelModel.h"
#include "kbench/Analysis/Verification.h"

#include "mlir/Analysis/Presburger/PresburgerRelation.h"

#include <chrono>

namespace kbench::detail {

/// One check on one kernel.
class CheckRun {
public:
  CheckRun(const KernelModel &model, const VerifyOptions &options,
           llvm::StringRef check, std::vector<Finding> &findings);

  enum class Outcome { Empty, Found, Stopped };

  /// Lexicographic minimum over the visible variables of `sys` (creation
  /// order, so the shape symbols come first). On Found, `values` holds every
  /// variable of `sys`: the visible ones from the lexmin, the locals from
  /// replaying the point on the materialized system.
  Outcome lexMin(const LinearSystem &sys, llvm::SmallVectorImpl<int64_t> &values);

  /// The smallest point of `set` (over all disjuncts), replayed with
  /// containsPoint.
  Outcome lexMinOfSet(const mlir::presburger::PresburgerSet &set,
                      llvm::SmallVectorImpl<int64_t> &point);

  /// The existential projection of `sys` onto its visible variables, as a set
  /// whose locals are all divisions (what `subtract` needs). Charged.
  mlir::presburger::PresburgerSet toSet(const LinearSystem &sys);

  /// `from \ what`, one disjunct of `what` from one disjunct of `from` at a
  /// time, each step charged before it runs (by a bound on what it can
  /// build) and after (by what it built), empty pieces dropped. Fails once the
  /// budget ran out, before a set can outgrow it.
  mlir::FailureOr<mlir::presburger::PresburgerSet>
  subtract(const mlir::presburger::PresburgerSet &from,
           const mlir::presburger::PresburgerSet &what);
  /// `a u b`, charged by the disjuncts it holds. Fails once the budget ran
  /// out.
  mlir::FailureOr<mlir::presburger::PresburgerSet>
  unite(const mlir::presburger::PresburgerSet &a,
        const mlir::presburger::PresburgerSet &b);

  /// Counts `cost` steps of work; false once the step budget or the
  /// wall-clock backstop ran out (a finding says which), and from then on.
  bool charge(uint64_t cost);

  /// One step (a loop iteration of a check, an op of a dataflow); false once
  /// the budget ran out (a finding says so); checks stop then.
  bool canContinue();

  /// Records unsupported(op, reason).
  void unsupported(mlir::Operation *op, const std::string &message,
                   llvm::StringRef kind = "unsupported");
  /// Records a violation and returns it for the witness to be filled in. If
  /// the witness shape violates a `requires` fact the model could not encode,
  /// call demoteIfFactsViolated afterwards.
  Finding &violation(mlir::Operation *op, llvm::StringRef kind,
                     llvm::StringRef tensor, const std::string &message,
                     llvm::StringRef hint);
  /// Turns `finding` into unsupported when `dims` violates a requires fact
  /// that is outside the linear fragment (the witness may be spurious).
  void demoteIfFactsViolated(Finding &finding, const SymbolValues &dims);

  CheckReport finish();

  const KernelModel &model;
  const VerifyOptions &options;

private:
  std::string check;
  std::vector<Finding> &findings;
  std::chrono::steady_clock::time_point start;
  unsigned queries = 0;
  uint64_t steps = 0;
  bool stopped = false;
  bool checkBudget(unsigned size);
  void stop(const std::string &message, llvm::StringRef kind);
};

/// A load instance and a store instance of one block that share the
/// iterations of their common loops (the load's other loops are free), with
/// the tile coordinate of each along one axis.
struct LoadStoreQuery {
  LinearSystem sys;
  llvm::SmallVector<LinearExpr> syms;
  Instance inst;
  LinearExpr loadTile, storeTile;
};
/// Builds a LoadStoreQuery, or fails when a coordinate cannot be flattened.
mlir::FailureOr<LoadStoreQuery>
buildLoadStoreQuery(const KernelModel &model, const AccessInfo &load,
                    unsigned loadAxis, const AccessInfo &store,
                    unsigned storeAxis);

//===----------------------------------------------------------------------===//
// Witness formatting
//===----------------------------------------------------------------------===//

/// Shape symbol values of a witness (the first symbols.size() variables).
SymbolValues witnessDims(const KernelModel &model, llvm::ArrayRef<int64_t> values,
                         llvm::ArrayRef<LinearExpr> syms);
/// {"M": 1, "N": 129}.
llvm::json::Object dimsJSON(const SymbolValues &dims,
                            llvm::ArrayRef<std::string> order);
/// "M = 1, N = 129".
std::string dimsText(const SymbolValues &dims, llvm::ArrayRef<std::string> order);
/// Adds "block" and "iter" of `inst` under `values` to `object`.
void addInstanceJSON(llvm::json::Object &object, const KernelModel &model,
                     const Instance &inst, llvm::ArrayRef<int64_t> values);
/// "block (0, 1), iv0 = 3".
std::string instanceText(const KernelModel &model, const Instance &inst,
                         llvm::ArrayRef<int64_t> values);
/// Evaluates each expression.
llvm::SmallVector<int64_t> evaluateAll(llvm::ArrayRef<LinearExpr> exprs,
                                       llvm::ArrayRef<int64_t> values);
llvm::json::Array toJSONArray(llvm::ArrayRef<int64_t> values);
/// "(0, 128)".
std::string tupleText(llvm::ArrayRef<int64_t> values);
/// `loc("file":12:5)`: the full location of an op, as in the JSON "op".
std::string locationString(mlir::Operation *op);
/// Adds ops the finding also concerns (loops, loads, the grid) as
/// details["related"], by location.
void addRelated(Finding &finding, llvm::ArrayRef<mlir::Operation *> ops);
/// Spelling of a pad kind ("zero").
std::string padName(tile::PadKind pad);
/// `value` without the arith.truncf / arith.extf around it: casts keep a
/// zero a zero and an infinity an infinity, lane for lane.
mlir::Value stripFloatCasts(mlir::Value value);

//===----------------------------------------------------------------------===//
// The checks
//===----------------------------------------------------------------------===//

/// C1: every tile coordinate within the view's index space; pad(none) loads
/// read full tiles.
void checkBounds(CheckRun &run);
/// C2: every element of every output tensor is written.
void checkCoverage(CheckRun &run);
/// C3: no element is written twice (tile.atomic_add pairs exempt).
void checkWriteOnce(CheckRun &run);
/// C9: reductions see each tile of the reduced dim exactly once; tile.mma
/// operands agree on k.
void checkReductions(CheckRun &run);
/// C10: pad values are neutral for every consumer that observes them.
void checkPads(CheckRun &run);
/// C11: lanes keep their index along a named dim from load to store.
void checkAlignment(CheckRun &run);
/// C13: no tile.load reads an element of an output before a tile.store of
/// the same block wrote it (tile.atomic_add is declared accumulation).
void checkOutputReads(CheckRun &run);
/// C12: no tile.store or tile.atomic_add writes into a kernel argument that
/// the host entry binds to a task input (VerifyOptions::readOnlyEntryInputs
/// must be set). Returns why the check does not apply (no host entry, the
/// kernel is not launched, a launch operand of unknown origin), empty when it
/// applies; a violation found is reported either way.
std::string checkReadOnlyInputs(CheckRun &run);

/// C14: every tile.atomic_add adds into memory that the host entry's last
/// earlier launch storing into it filled with zeros. Returns why the check
/// does not apply (no atomic add, no host entry, the kernel is not launched),
/// empty when it applies.
std::string checkAtomicStarts(CheckRun &run);

} // namespace kbench::detail

#endif // KBENCH_LIB_ANALYSIS_CHECKSUPPORT_H
