//===- EvalCommand.cpp - `kbench eval`: compile, then run -----------------===//
//
// Compiles a task into a bundle and hands it to kbench-run, which lives in a
// separate process on purpose: a kernel that faults poisons its CUDA context,
// and the runner never links MLIR. Without a GPU the host target is used, and
// the command says so. Every runner flag (Support/RunnerFlags.h) is also an
// eval flag: checked here, before compiling, and forwarded as given.
//
//===----------------------------------------------------------------------===//

#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Driver/Driver.h"
#include "kbench/Support/CommandLine.h"
#include "kbench/Support/RunnerFlags.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace kbench::driver {

std::string findRunner(const char *argv0) {
  std::string self = fs::getMainExecutable(argv0, (void *)&findRunner);
  llvm::SmallString<256> runner(path::parent_path(self));
  path::append(runner, "kbench-run");
  if (fs::can_execute(runner))
    return runner.str().str();
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("kbench-run"))
    return *onPath;
  return "";
}

bool hasNvidiaGpu() { return fs::exists("/dev/nvidiactl"); }

int runEvalCommand(llvm::ArrayRef<const char *> args, const char *argv0) {
  CompileOptions options;
  options.target.clear();
  bool noVerify = false;
  // Only checked here; kbench-run gets the flags as given.
  RunnerSettings runnerSettings;
  cli::CommandLine cl("kbench eval",
                 "Compile a task (like kbench compile), then check it against "
                 "PyTorch and time it\nwith kbench-run. Without a GPU the host "
                 "target runs, checks only. The exit\nstatus is kbench-run's: 0 "
                 "when every check passed.");
  cl.addPositional(&options.taskDir, "TASK_DIR", "a task folder");
  cl.addString("output", &options.outputDir, "DIR",
               "folder for the bundle (DIR/bundle) and report\n"
               "(DIR/report.json); default: $TMPDIR/kbench-eval/<task>-<target>",
               "o");
  cl.addString("schedule", &options.schedulePath, "FILE",
               "transform script (default: TASK_DIR/schedules/dispatch.json when it\n"
               "exists, else TASK_DIR/schedules/default.mlir)");
  cl.addString("dispatch", &options.dispatchPath, "FILE",
               "dispatch file: one variant per schedule, chosen by shape at launch;\n"
               "excludes --schedule");
  cl.addString("kernel", &options.kernelPath, "FILE", "kernel file (default: TASK_DIR/kernel.mlir)");
  cl.addString("target", &options.target, "TARGET",
               "sm_90a or host (default: sm_90a when a GPU is present,\nelse host)");
  cl.addFlag("no-verify", &noVerify, "skip tile-verify");
  addRunnerFlags(cl, runnerSettings,
                 "flags forwarded to kbench-run (docs/runner.md):");
  if (std::optional<int> exitCode = cl.parse(args.begin(), args.end()))
    return *exitCode;
  if (options.target.empty()) {
    options.target = hasNvidiaGpu() ? "sm_90a" : "host";
    if (options.target == "host")
      llvm::errs() << "kbench eval: no NVIDIA GPU here; evaluating the host "
                      "target (correctness only, no timing)\n";
  }
  options.verify = !noVerify;
  options.cacheDir = defaultCacheDir();
  std::string outDir = options.outputDir;
  if (outDir.empty()) {
    llvm::SmallString<256> tmp;
    path::system_temp_directory(/*ErasedOnReboot=*/true, tmp);
    path::append(tmp, "kbench-eval",
                 path::filename(path::remove_leading_dotslash(options.taskDir)) +
                     "-" + options.target);
    outDir = tmp.str().str();
  }
  llvm::SmallString<256> bundle(outDir);
  path::append(bundle, "bundle");
  options.outputDir = bundle.str().str();

  std::string runner = findRunner(argv0);
  if (runner.empty()) {
    llvm::errs() << "kbench eval: kbench-run was not built (it needs LibTorch); "
                    "run scripts/setup.sh and rebuild\n";
    return 1;
  }

  {
    std::unique_ptr<MLIRContext> context = createCompilerContext();
    DiagnosticCollector diagnostics(*context, /*echo=*/true);
    CompileResult result;
    if (failed(compileTask(*context, options, diagnostics, result))) {
      llvm::errs() << "kbench eval: compile failed; nothing was run\n";
      return failureExitCode(result);
    }
    llvm::errs() << "kbench eval: bundle " << options.outputDir
                 << (result.cacheHit ? " (cache hit)\n" : "\n");
  }

  std::vector<std::string> runnerArgs = {runner, options.taskDir, options.outputDir,
                                         "--target", options.target, "-o", outDir};
  for (std::string &arg : cl.argumentsOf(kRunnerFlagGroup))
    runnerArgs.push_back(std::move(arg));
  std::vector<llvm::StringRef> argRefs(runnerArgs.begin(), runnerArgs.end());
  std::string error;
  int status = llvm::sys::ExecuteAndWait(runner, argRefs, /*Env=*/std::nullopt,
                                         /*Redirects=*/{}, /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &error);
  if (status < 0) {
    llvm::errs() << "kbench eval: could not run " << runner << ": " << error << "\n";
    return 1;
  }
  return status;
}

} // namespace kbench::driver
