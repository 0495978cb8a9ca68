//===- CompileCommand.cpp - `kbench compile` and `kbench verify` ----------===//

#include "kbench/Driver/CommandLine.h"
#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Driver/Driver.h"

#include "Stages.h"
#include "kbench/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace kbench::driver {

/// A context with every dialect kbench's kernels and schedules may use.
static std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

static void printJSON(const llvm::json::Value &value) {
  llvm::outs() << llvm::formatv("{0:2}", value) << "\n";
}

int runCompileCommand(llvm::ArrayRef<const char *> args) {
  CompileOptions options;
  bool noVerify = false, noCache = false, json = false;
  std::string cacheDir;
  CommandLine cl("compile",
                 "Apply a schedule to a task's kernel, prove it safe, lower it for "
                 "the target and\nwrite a bundle (docs/bundle.md). Nothing is "
                 "written when a stage fails.");
  cl.addPositional(&options.taskDir, "TASK_DIR", "a task folder (kernel.mlir, task.json, schedules/)");
  cl.addOption("output", &options.outputDir, "DIR", "bundle folder to write (required)", "o");
  cl.addOption("schedule", &options.schedulePath, "FILE",
               "transform script (default: TASK_DIR/schedules/default.mlir; 'none' for none)");
  cl.addOption("kernel", &options.kernelPath, "FILE", "kernel file (default: TASK_DIR/kernel.mlir)");
  cl.addOption("target", &options.target, "TARGET", "sm_90a (default) or host");
  cl.addFlag("no-verify", &noVerify, "skip tile-verify; the manifest records verification: skipped");
  cl.addOption("cache-dir", &cacheDir, "DIR", "bundle cache (default: $KBENCH_CACHE_DIR or ~/.cache/kbench)");
  cl.addFlag("no-cache", &noCache, "neither read nor write the bundle cache");
  cl.addFlag("json", &json, "print the result (manifest, stage times, diagnostics) as JSON");
  switch (cl.parse(args)) {
  case CommandLine::Result::Help:
    return 0;
  case CommandLine::Result::Error:
    return 1;
  case CommandLine::Result::Ok:
    break;
  }
  options.verify = !noVerify;
  options.cacheDir = noCache ? "" : (cacheDir.empty() ? defaultCacheDir() : cacheDir);

  std::unique_ptr<MLIRContext> context = makeContext();
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
      out["manifest"] = std::move(result.manifest);
    }
    if (result.verification.kind() != llvm::json::Value::Null)
      out["verification"] = std::move(result.verification);
    printJSON(std::move(out));
    return ok ? 0 : 1;
  }
  if (!ok) {
    llvm::errs() << "kbench compile: failed; no bundle written\n";
    return 1;
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
  std::string taskDir, schedulePath, kernelPath;
  bool json = false;
  CommandLine cl("verify",
                 "Prove a task's scheduled kernel safe (C1 bounds, C2 coverage, C3 "
                 "write-once,\nC9 reduction coverage, C10 pad neutrality) or print a "
                 "counterexample. Exits 0\nonly when every check is proved.");
  cl.addPositional(&taskDir, "TASK_DIR", "a task folder");
  cl.addOption("schedule", &schedulePath, "FILE",
               "transform script (default: TASK_DIR/schedules/default.mlir; 'none' for none)");
  cl.addOption("kernel", &kernelPath, "FILE", "kernel file (default: TASK_DIR/kernel.mlir)");
  cl.addFlag("json", &json, "print the verifier's report as JSON (VERIFICATION.md)");
  switch (cl.parse(args)) {
  case CommandLine::Result::Help:
    return 0;
  case CommandLine::Result::Error:
    return 1;
  case CommandLine::Result::Ok:
    break;
  }
  namespace path = llvm::sys::path;
  if (kernelPath.empty()) {
    llvm::SmallString<256> p(taskDir);
    path::append(p, "kernel.mlir");
    kernelPath = p.str().str();
  }
  if (schedulePath.empty()) {
    llvm::SmallString<256> p(taskDir);
    path::append(p, "schedules", "default.mlir");
    if (llvm::sys::fs::exists(p))
      schedulePath = p.str().str();
  } else if (schedulePath == "none") {
    schedulePath.clear();
  }

  std::unique_ptr<MLIRContext> context = makeContext();
  DiagnosticCollector diagnostics(*context, /*echo=*/!json);
  llvm::json::Value report = nullptr;
  bool ok = [&] {
    llvm::SourceMgr sourceMgr;
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(kernelPath, sourceMgr, ParserConfig(context.get()));
    if (!module)
      return false;
    if (!schedulePath.empty() &&
        failed(applyScheduleStage(*module, schedulePath)))
      return false;
    return succeeded(verifyStage(*module, report));
  }();
  if (json) {
    llvm::json::Object out{{"status", ok ? "proved" : "failed"},
                           {"diagnostics", diagnostics.toJSON()},
                           {"report", std::move(report)}};
    printJSON(std::move(out));
  } else {
    llvm::outs() << (ok ? "proved: every check holds for all shapes\n"
                        : "not proved: see the diagnostics above\n");
  }
  return ok ? 0 : 1;
}

} // namespace kbench::driver
