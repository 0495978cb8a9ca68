//===- Verification.h - tile-verify as a library -----------------*- C++
//-*-===//
//
// The entry points of the tile-level verifier (docs/verification.md) for the
// `tile-verify` pass and the `kbench verify` / `kbench compile` CLI.
//
// Every check ends in one of three verdicts and never in a silent pass:
//  - proved: the property holds for every shape allowed by the symbol bounds
//    [1, 2^31 - 1] and the kernel's `requires` facts, every block and every
//    loop iteration;
//  - violated: with a witness (the smallest failing shape first, then block,
//    iteration, element), replayed on the constraint system before it is
//    reported;
//  - unsupported: the kernel leaves the affine fragment (the finding names the
//    op and the reason) or the check ran out of its time or size budget.
// C12 and C14 can also be not_applicable, with the reason (no host entry, a
// launch C12 cannot trace, no tile.atomic_add for C14), when they found no
// violation but had nothing to check against; that verdict leaves the
// kernel's status to the other checks.
//
// Checks: C1 bounds, C2 coverage of every output, C3 write-once
// (tile.atomic_add exempt), C9 reduction coverage (every reduction sees each
// tile of its reduced dim exactly once, and the operands of tile.mma agree on
// k), C10 pad neutrality, C11 lane alignment (data keeps its index along a
// named dim), C12 read-only inputs (no kernel writes a memref the host entry
// binds to a task input; runs only when VerifyOptions::readOnlyEntryInputs is
// set), C13 no output read before the block's own store (the cached-output
// cheat), C14 atomic sums start at zero (the host entry's last earlier launch
// storing into the memory a tile.atomic_add adds into stores zeros).
//
// Typical use (the CLI):
//
//   kbench::VerifyOptions options;                   // all checks, 10 s each
//   kbench::VerificationResult result = kbench::verifyKernels(module, options);
//   kbench::emitDiagnostics(result);                 // errors at the ops
//   llvm::outs() << llvm::formatv("{0:2}", result.toJSON());
//   bool ok = result.getStatus() == kbench::CheckStatus::Proved;
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_ANALYSIS_VERIFICATION_H
#define KBENCH_ANALYSIS_VERIFICATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace kbench {
namespace tile {
class KernelOp;
} // namespace tile

/// Verdict of one check (or of a kernel: the worst of its checks, violated
/// before unsupported before proved). NotApplicable is only a check's: the
/// check could not be posed (CheckReport::reason says why), which neither
/// proves nor refutes the kernel.
enum class CheckStatus { NotApplicable, Proved, Unsupported, Violated };

/// "not_applicable", "proved", "unsupported", "violated".
llvm::StringRef stringifyCheckStatus(CheckStatus status);

/// Which checks to run and their budgets.
struct VerifyOptions {
  /// Check ids to run ("C1", "C2", "C3", "C9", "C10", "C11", "C12", "C13",
  /// "C14"); empty runs all.
  llvm::SmallVector<std::string> checks;
  /// C12: how many leading arguments of the module's host entry (its one
  /// defined func.func, as in the bundle manifest) are task inputs, hence
  /// read-only. Unset: C12 does not run (a module verified without its task).
  std::optional<unsigned> readOnlyEntryInputs;
  /// Names of those inputs in task.json order, for messages; may be empty.
  llvm::SmallVector<std::string> inputNames;
  /// Names of the host entry's arguments (task.json's inputs, then its
  /// outputs), for messages: a finding about kernel argument `X` that the
  /// entry binds to the task's `x` says `X (task 'x')`. May be empty.
  std::vector<std::string> entryArgNames;
  /// Deterministic work budget of one check on one kernel, in steps: a
  /// Presburger query costs 2000 plus the size of its constraint matrix
  /// (variables times constraints), every disjunct a set difference or union
  /// builds costs its matrix size too, and every op a dataflow visits or
  /// pair of writes a check considers costs 1. A check past it stops and is
  /// reported unsupported(budget), naming the check; the same kernel stops at
  /// the same step on every machine. Sets stay within it, so it also bounds
  /// the check's memory.
  uint64_t maxSteps = 4000000;
  /// Wall-clock backstop of one check on one kernel, in milliseconds, tested
  /// wherever steps are counted: a check past it is reported
  /// unsupported(timeout). A single Presburger query or one elementary set
  /// difference is not interrupted.
  unsigned timeoutMs = 10000;
  /// Largest query (variables plus constraints) a check builds before it
  /// reports unsupported(size).
  unsigned maxQuerySize = 4000;

  bool runs(llvm::StringRef check) const;
};

/// One diagnostic: a violation with its witness, or an unsupported verdict
/// with its reason.
struct Finding {
  /// "C1", "C2", "C3", "C9", "C10", "C11", "C12".
  std::string check;
  /// Violated or Unsupported.
  CheckStatus status = CheckStatus::Violated;
  /// "oob", "tail_read", "uncovered", "double_write", "k_gap", "k_dup",
  /// "k_mismatch", "pad_not_neutral", "misaligned", "input_write",
  /// "output_read", "unsupported", "budget", "timeout", "size".
  std::string kind;
  /// The op the finding is about (diagnostics attach to its location).
  mlir::Operation *op = nullptr;
  /// Memref argument concerned (ABI name, kbench::tile::getKernelABI), if any.
  std::string tensor;
  /// One sentence an agent can act on.
  std::string message;
  /// Fix classes, "|"-separated ("grid_ceildiv|tail_mask").
  std::string hint;
  /// The concrete counterexample: "dims" (shape), "block", "iter" (loop ivs by
  /// name, iv0 the outermost loop of the kernel in source order), "element",
  /// and check-specific fields. Empty for unsupported findings.
  llvm::json::Object witness;
  /// Check-specific facts outside the witness ("dim", "side", "pad", ...).
  llvm::json::Object details;
};

/// Verdict and cost of one check on one kernel.
struct CheckReport {
  std::string check;
  CheckStatus status = CheckStatus::Proved;
  double milliseconds = 0;
  /// Presburger queries issued.
  unsigned queries = 0;
  /// Work done, in the steps of VerifyOptions::maxSteps.
  uint64_t steps = 0;
  /// Why the check does not apply (status NotApplicable); empty otherwise.
  std::string reason;
};

/// All checks of one tile.kernel.
struct KernelReport {
  std::string kernel;
  mlir::Operation *op = nullptr;
  CheckStatus status = CheckStatus::Proved;
  llvm::SmallVector<CheckReport> checks;
  std::vector<Finding> findings;
  double milliseconds = 0;
};

/// The verdicts of every tile.kernel in a module.
struct VerificationResult {
  std::vector<KernelReport> kernels;

  /// Worst verdict over all kernels (proved for a module without kernels).
  CheckStatus getStatus() const;

  /// The stable JSON of docs/verification.md:
  /// {"status": ..., "kernels": [{"kernel", "status", "time_ms",
  ///  "checks": {"C1": {"status", "time_ms", "queries", ["reason"]}, ...},
  ///  "diagnostics": [{"check", "status", "kind", "op", "tensor", "witness",
  ///                   "message", "hint", ...}]}]}
  llvm::json::Value toJSON() const;
};

/// Runs the selected checks on one kernel.
KernelReport verifyKernel(tile::KernelOp kernel, const VerifyOptions &options);

/// Runs the selected checks on every tile.kernel of `module`, in order.
VerificationResult verifyKernels(mlir::ModuleOp module,
                                 const VerifyOptions &options);

/// Emits every finding through MLIR's diagnostic engine as an error at its
/// op: "[C1] oob: ...". Returns failure when any finding was emitted.
mlir::LogicalResult emitDiagnostics(const VerificationResult &result);

/// JSON of one finding (as in VerificationResult::toJSON).
llvm::json::Value toJSON(const Finding &finding);

} // namespace kbench

#endif // KBENCH_ANALYSIS_VERIFICATION_H
