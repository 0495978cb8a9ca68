//===- CompilePipeline.h - From a task folder to a bundle --------*- C++ -*-===//
//
// The whole compile path in one readable place (Triton's compiler.py idea):
// parse the kernel, apply the schedule, verify, lower for the target, write
// the bundle. `kbench compile` and `kbench eval` call compileTask; `kbench
// verify` calls it with stopAfterVerify.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DRIVER_COMPILEPIPELINE_H
#define KBENCH_DRIVER_COMPILEPIPELINE_H

#include "kbench/Driver/Diagnostics.h"
#include "kbench/Support/BundleSchema.h"
#include "kbench/Support/TaskSignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <string>

namespace kbench::driver {

struct CompileOptions {
  std::string taskDir;
  /// Defaults to <taskDir>/kernel.mlir.
  std::string kernelPath;
  /// Defaults to <taskDir>/schedules/default.mlir when that file exists and
  /// the task has no dispatch file; "none" applies no schedule.
  std::string schedulePath;
  /// A dispatch file (docs/schedules.md, "Dispatch by shape"): one variant
  /// per schedule in one bundle, chosen by shape at launch. Defaults to
  /// <taskDir>/schedules/dispatch.json when it exists and no schedule is
  /// given; excludes schedulePath.
  std::string dispatchPath;
  /// "sm_90a" or "host".
  std::string target = "sm_90a";
  bool verify = true;
  /// Stop once tile-verify has run: no lowering, no bundle, no outputDir
  /// needed (`kbench verify`).
  bool stopAfterVerify = false;
  std::string outputDir;
  /// Content-addressed cache of bundles keyed by the IR hash, task.json, the
  /// target, the flags and the compiler build; "" disables it.
  std::string cacheDir;
};

/// The stages of compileTask, in order.
enum class CompileStage { Setup, Parse, Schedule, Verify, Lower, Bundle };

/// "setup", "parse", "schedule", "verify", "lower", "bundle".
const char *getStageName(CompileStage stage);

/// Wall-clock milliseconds per stage.
struct StageTimes {
  double parse = 0, schedule = 0, verify = 0, lower = 0, assemble = 0;
  llvm::json::Object toJSON() const;
};

struct CompileResult {
  bundle::BundleManifest manifest;
  StageTimes times;
  bool cacheHit = false;
  /// The stage that failed, when compileTask failed.
  CompileStage failedStage = CompileStage::Setup;
  /// task.json was present but invalid (the commands then exit with
  /// kInvalidTaskExitCode, as kbench-run does).
  bool invalidTask = false;
  /// Verification report (VERIFICATION.md JSON), when verification ran.
  llvm::json::Value verification = nullptr;
};

/// The exit status of a failed compileTask: kInvalidTaskExitCode for an
/// invalid task.json, else 1.
int failureExitCode(const CompileResult &result);

/// Compiles one task into `options.outputDir`. On failure the diagnostics are
/// in `diagnostics`, `result.failedStage` says which stage failed,
/// `result.verification` holds the verifier's findings when it refuted the
/// kernel, and no bundle is left behind.
mlir::LogicalResult compileTask(mlir::MLIRContext &context,
                                const CompileOptions &options,
                                DiagnosticCollector &diagnostics,
                                CompileResult &result);

/// The stages of compileTask after the schedule: verify (unless
/// `options.verify` is off), hash, cache, lower for `options.target` and write
/// the bundle to `options.outputDir`. `module` is the scheduled kernel module
/// (the search applies its own schedules to a kernel parsed once); it may be
/// modified by the lowering.
mlir::LogicalResult compileScheduledModule(mlir::ModuleOp module,
                                           const TaskSignature &task,
                                           const CompileOptions &options,
                                           DiagnosticCollector &diagnostics,
                                           CompileResult &result);

/// Fills in the defaults of `options`: kernelPath <taskDir>/kernel.mlir;
/// when neither a schedule nor a dispatch file is given, dispatchPath
/// <taskDir>/schedules/dispatch.json when it exists, else schedulePath
/// <taskDir>/schedules/default.mlir when that exists; schedule "none"
/// clears both.
void resolveTaskPaths(CompileOptions &options);

/// A context with every dialect and extension kernels and schedules may use.
std::unique_ptr<mlir::MLIRContext> createCompilerContext();

/// Default cache folder: $KBENCH_CACHE_DIR, else $XDG_CACHE_HOME/kbench, else
/// ~/.cache/kbench.
std::string defaultCacheDir();

/// The compiler's version string, recorded in every manifest.
const char *compilerVersion();

/// Identity of this compiler binary (a hash of its path, size and
/// modification time; "unknown" when the executable cannot be found). Part
/// of the compile cache's key, so that rebuilding kbench invalidates it.
const std::string &compilerBuildId();

} // namespace kbench::driver

#endif // KBENCH_DRIVER_COMPILEPIPELINE_H
