//===- CompileCommand.cpp - `kbench compile` and `kbench verify` ----------===//

#include "kbench/Support/CommandLine.h"
#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Driver/Driver.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace kbench::driver {

static void printJSON(const llvm::json::Value &value) {
  llvm::outs() << llvm::formatv("{0:2}", value) << "\n";
}

int runCompileCommand(llvm::ArrayRef<const char *> args) {
  CompileOptions options;
  bool noVerify = false, noCache = false, json = false;
  std::string cacheDir;
  cli::CommandLine cl("kbench compile",
                 "Apply a schedule to a task's kernel, prove it safe, lower it for "
                 "the target and\nwrite a bundle (docs/bundle.md). Nothing is "
                 "written when a stage fails.");
  cl.addPositional(&options.taskDir, "TASK_DIR", "a task folder (kernel.mlir, task.json, schedules/)");
  cl.addString("output", &options.outputDir, "DIR", "bundle folder to write (required)", "o");
  cl.addString("schedule", &options.schedulePath, "FILE",
               "transform script (default: TASK_DIR/schedules/dispatch.json when it\n"
               "exists, else TASK_DIR/schedules/default.mlir; 'none' for none)");
  cl.addString("dispatch", &options.dispatchPath, "FILE",
               "dispatch file: one variant per schedule, chosen by shape at launch\n"
               "(docs/schedules.md, \"Dispatch by shape\"); excludes --schedule");
  cl.addString("kernel", &options.kernelPath, "FILE", "kernel file (default: TASK_DIR/kernel.mlir)");
  cl.addString("target", &options.target, "TARGET", "sm_90a (default) or host");
  cl.addFlag("no-verify", &noVerify, "skip tile-verify; the manifest records verification: skipped");
  cl.addString("cache-dir", &cacheDir, "DIR", "bundle cache (default: $KBENCH_CACHE_DIR or ~/.cache/kbench)");
  cl.addFlag("no-cache", &noCache, "neither read nor write the bundle cache");
  cl.addFlag("json", &json, "print the result (manifest, stage times, diagnostics) as JSON");
  if (std::optional<int> exitCode = cl.parse(args.begin(), args.end()))
    return *exitCode;
  options.verify = !noVerify;
  options.cacheDir = noCache ? "" : (cacheDir.empty() ? defaultCacheDir() : cacheDir);

  std::unique_ptr<MLIRContext> context = createCompilerContext();
  DiagnosticCollector diagnostics(*context, /*echo=*/!json);
  CompileResult result;
  bool ok = succeeded(compileTask(*context, options, diagnostics, result));
  if (json) {
    llvm::json::Object out{{"status", ok ? "ok" : "error"},
                           {"diagnostics", diagnostics.toJSON()},
                           {"times_ms", result.times.toJSON()}};
    if (ok) {
      out["bundle"] = options.outputDir;
      out["cache"] = result.cacheHit ? "hit" : "miss";
      out["manifest"] = llvm::cantFail(
          llvm::json::parse(bundle::renderManifest(result.manifest)));
    }
    if (result.verification.kind() != llvm::json::Value::Null)
      out["verification"] = std::move(result.verification);
    printJSON(std::move(out));
    return ok ? 0 : failureExitCode(result);
  }
  if (!ok) {
    llvm::errs() << "kbench compile: failed; no bundle written\n";
    return failureExitCode(result);
  }
  const StageTimes &t = result.times;
  llvm::outs() << llvm::formatv(
      "wrote {0} (target {1}, {2})\n"
      "  parse {3:F1} ms, schedule {4:F1} ms, verify {5:F1} ms, lower {6:F1} ms, "
      "assemble {7:F1} ms\n",
      options.outputDir, options.target,
      result.cacheHit ? "cache hit" : "compiled", t.parse, t.schedule, t.verify,
      t.lower, t.assemble);
  return 0;
}

int runVerifyCommand(llvm::ArrayRef<const char *> args) {
  CompileOptions options;
  bool json = false;
  cli::CommandLine cl(
      "kbench verify",
      "Prove a task's scheduled kernel safe (C1 bounds, C2 coverage, C3 "
      "write-once,\nC9 reduction coverage, C10 pad neutrality, C11 lane "
      "alignment, C12 read-only\ninputs, C13 no output read before its "
      "store, C14 atomic sums start at zero)\nor print a "
      "counterexample: the compile pipeline up to tile-verify.\n"
      "Exits 0 only when every check is proved.");
  cl.addPositional(&options.taskDir, "TASK_DIR", "a task folder");
  cl.addString("schedule", &options.schedulePath, "FILE",
               "transform script (default: TASK_DIR/schedules/dispatch.json when it\n"
               "exists, else TASK_DIR/schedules/default.mlir; 'none' for none)");
  cl.addString("dispatch", &options.dispatchPath, "FILE",
               "dispatch file: every variant is proved (docs/schedules.md); excludes "
               "--schedule");
  cl.addString("kernel", &options.kernelPath, "FILE", "kernel file (default: TASK_DIR/kernel.mlir)");
  cl.addFlag("json", &json, "print the verifier's report as JSON (docs/verification.md)");
  if (std::optional<int> exitCode = cl.parse(args.begin(), args.end()))
    return *exitCode;
  options.stopAfterVerify = true;

  std::unique_ptr<MLIRContext> context = createCompilerContext();
  DiagnosticCollector diagnostics(*context, /*echo=*/!json);
  CompileResult result;
  bool ok = succeeded(compileTask(*context, options, diagnostics, result));
  // Only a verifier that ran can have proved or refuted anything.
  bool checked = ok || result.failedStage == CompileStage::Verify;
  if (json) {
    llvm::json::Object out{{"status", ok ? "proved" : "failed"},
                           {"diagnostics", diagnostics.toJSON()},
                           {"report", std::move(result.verification)}};
    if (!ok)
      out["stage"] = getStageName(result.failedStage);
    printJSON(std::move(out));
  } else if (ok) {
    llvm::outs() << "proved: every check holds for all shapes\n";
  } else if (checked) {
    llvm::outs() << "not proved: see the diagnostics above\n";
  } else if (result.failedStage == CompileStage::Schedule) {
    llvm::outs() << "not verified: the schedule failed (see the diagnostics "
                    "above); nothing was checked\n";
  } else {
    llvm::outs() << "not verified: the " << getStageName(result.failedStage)
                 << " stage failed (see the diagnostics above); nothing was "
                    "checked\n";
  }
  return ok ? 0 : failureExitCode(result);
}

} // namespace kbench::driver
