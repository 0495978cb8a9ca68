//===- Candidate.h - Compile, filter and describe one candidate --*- C++ -*-===//
//
// The service layer under `kbench search` (and, later, `kbench mcp`): a task
// is loaded once (kernel parsed, task.json read), then each candidate
// schedule is applied to a clone of the kernel, checked (transform legality,
// IR-hash dedupe, tile-verify, ptxas spills) and lowered to a bundle through
// the same compileScheduledModule stages as `kbench compile`. The outcome is
// one record that becomes the versioned feedback JSON
// ("schema": "kbench.candidate/1", docs/search.md) an agent or the engine
// reads. Tools stay thin: they build requests and print these records.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_CANDIDATE_H
#define KBENCH_SEARCH_CANDIDATE_H

#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Support/ShapeExpr.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kbench::search {

/// The schema name of the feedback JSON of one candidate.
inline constexpr llvm::StringLiteral kCandidateSchema = "kbench.candidate/1";

/// What the IR and ptxas say about a compiled candidate; the engine's
/// archive cells are built from these.
struct Descriptors {
  int64_t numWarps = 0;
  int64_t vectorWidth = 1;
  /// Bytes of all partition tiles of the kernel per thread (what one CTA
  /// keeps in flight, divided over its threads).
  int64_t bytesPerThread = 0;
  /// Widest global access in bytes (vector_width x element size).
  int64_t accessBytes = 0;
  /// ptxas registers per thread and spills (sm_90a only; -1 elsewhere).
  int64_t registers = -1;
  int64_t spills = -1;
  /// The deepest software pipeline the schedule set on the kernel's loops
  /// (their tile.pipeline_stages attributes; 1 without one).
  int64_t pipelineStages = 1;
  llvm::json::Object toJSON() const;
};

/// How far a candidate got and what it produced.
struct CompiledCandidate {
  /// The last stage reached: "schedule" (a transform op refused it),
  /// "duplicate" (the scheduled IR equals an earlier candidate's), "verify"
  /// (tile-verify refuted it), "lower", "resources" (ptxas spills),
  /// "shapes" (a requires fact fails at a task shape, where the runner would
  /// refuse the bundle), or "compiled" (a bundle was written).
  std::string stage;
  bool ok() const { return stage == "compiled"; }
  std::vector<driver::CollectedDiagnostic> diagnostics;
  std::string irHash, ptxHash, duplicateOf, bundleDir;
  Descriptors descriptors;
  driver::StageTimes times;
  double totalMs = 0;
  llvm::json::Value verification = nullptr;
};

/// The feedback record of a candidate ("schema": kCandidateSchema), without
/// evaluation (the engine adds "evaluation").
llvm::json::Object toFeedbackJSON(const CompiledCandidate &candidate);

/// A task loaded for compiling many candidates in one MLIRContext.
class TaskCompiler {
public:
  /// Parses `kernelPath` (default TASK_DIR/kernel.mlir) once and reads
  /// task.json. Returns null with `error` set on failure.
  static std::unique_ptr<TaskCompiler> create(mlir::MLIRContext &context,
                                              llvm::StringRef taskDir,
                                              llvm::StringRef kernelPath,
                                              llvm::StringRef target,
                                              std::string &error);

  mlir::ModuleOp getKernelModule() const { return kernel.get(); }

  /// The well-formed `requires` facts of the kernel's tile.kernel ops, with
  /// the kernel's own param values (its `params` list) bound: what the kernel
  /// as written requires of a shape. A candidate's schedule may change the
  /// params; its bundle's facts are checked again (compile()).
  std::vector<ShapeFact> getRequiresFacts() const;

  /// Adds the derived scoring shapes of the evaluation task in `evalTaskDir`
  /// (its "heldout" set, Scoring.h) to the shapes a candidate's requires
  /// facts must hold at before it may reach a GPU: the runner checks and
  /// times a candidate there too. Returns false with `error` set when that
  /// task.json cannot be read.
  bool addScoringShapes(llvm::StringRef evalTaskDir, std::string &error);
  llvm::StringRef getTarget() const { return target; }

  /// Applies `schedule` to a clone of the kernel and compiles it into
  /// `bundleDir`. `findDuplicate(irHash)` names an earlier candidate with the
  /// same scheduled IR (which is then not compiled again), or nullopt.
  CompiledCandidate
  compile(mlir::ModuleOp schedule, llvm::StringRef scheduleName,
          llvm::StringRef bundleDir,
          llvm::function_ref<std::optional<std::string>(llvm::StringRef)>
              findDuplicate);

  /// Applies `schedule` to a clone of the kernel, without compiling it:
  /// the scheduled module and its IR hash (the one compile() computes), or
  /// nullopt when the schedule fails (its diagnostics are dropped).
  struct Scheduled {
    mlir::OwningOpRef<mlir::ModuleOp> module;
    std::string irHash;
  };
  std::optional<Scheduled> schedule(mlir::ModuleOp schedule,
                                    llvm::StringRef scheduleName);

private:
  TaskCompiler(mlir::MLIRContext &context) : context(context) {}
  mlir::MLIRContext &context;
  std::string taskDir, target;
  TaskSignature task;
  /// Labelled "heldout[i] {...} (a derived scoring shape)".
  std::vector<std::pair<std::string, SymbolValues>> scoringShapes;
  mlir::OwningOpRef<mlir::ModuleOp> kernel;
};

} // namespace kbench::search

#endif // KBENCH_SEARCH_CANDIDATE_H
