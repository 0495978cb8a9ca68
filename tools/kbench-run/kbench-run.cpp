//===- kbench-run.cpp - The kbench runner's command line ------------------===//
//
// Flags in, RunOptions out; the work is in lib/Runner (Evaluate.h). Links
// LibTorch and, at run time, the CUDA driver; never LLVM or MLIR. The per-run
// flags come from the table kbench eval forwards (Support/RunnerFlags.h).
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Batch.h"
#include "kbench/Runner/BaselinePlan.h"
#include "kbench/Runner/Evaluate.h"
#include "kbench/Support/CommandLine.h"

#include <iostream>

using namespace kbench;
using namespace kbench::runner;

namespace {

const char *kSummary =
    R"(Checks a compiled bundle (manifest.json + kernel.cubin/kernel.ptx or kernel.so)
against a task (TASK_DIR/task.json) and LibTorch, then times it against torch
eager. Protocol, report schema and exit statuses: docs/runner.md.)";

const char *kExitStatus =
    R"(exit status: 0 every check passed, 1 a check failed (mismatch, unwritten output,
modified input, crash, timeout, violated requires, ...), 2 the run could not be
judged (bad task or manifest, wrong target, missing files, no GPU, bad flags).
)";

/// Usage errors exit 2: the run could not be judged.
constexpr int kUsageExit = 2;

} // namespace

int main(int argc, char **argv) {
  RunOptions o;
  bool calibrate = false, version = false;
  std::string batchList;
  cli::CommandLine cl("kbench-run", kSummary, kUsageExit);
  cl.setUsage({"kbench-run TASK_DIR BUNDLE_DIR [flags]",
               "kbench-run --batch LIST.json -o OUTDIR [--target T] [--timeout S] [--json] ...",
               "kbench-run --calibrate [-o DIR] [--device N] [--json]"});
  cl.setEpilog(kExitStatus);
  cl.addPositional(&o.taskDir, "TASK_DIR", "a task folder (task.json)", /*required=*/false);
  cl.addPositional(&o.bundleDir, "BUNDLE_DIR", "a bundle folder (manifest.json)",
                   /*required=*/false);
  cl.addString("output", &o.outputDir, "DIR",
               "write DIR/report.json (--calibrate: DIR/calibration.json)", "o");
  cl.addChoice("target", &o.target, "T", {"host", "sm_90a"},
               "host or sm_90a; the bundle must be for T (default:\n"
               "sm_90a when an NVIDIA driver is present, else host)");
  addRunnerFlags(cl, o);
  cl.addFlag("calibrate", &calibrate, "measure copy bandwidth and GEMM rates, then exit");
  cl.addString("batch", &batchList, "LIST.json",
               "evaluate many bundles of one task in one process:\n"
               "LIST.json = {\"task_dir\", \"bundles\": [{\"id\", \"dir\"}, ...],\n"
               "\"timing\": \"none\"|\"screen\"|\"full\", optional \"shapes\",\n"
               "\"seeds\", \"distributions\"}; writes OUTDIR/<id>/report.json\n"
               "and OUTDIR/batch.jsonl (one line per bundle as it finishes)");
  std::string baselineTimings;
  cl.addString("baseline-timings", &baselineTimings, "FILE",
               "with --batch and \"timing\": \"screen\": reuse the baselines'\n"
               "timings that this GPU (same UUID, driver and LibTorch)\n"
               "measured into FILE in the last 24 hours, and add what\n"
               "this batch measures (docs/runner.md, \"The screening\nprotocol\")");
  cl.addFlag("version", &version, "the runner's version");
  if (std::optional<int> exitCode = cl.parse(argv + 1, argv + argc))
    return *exitCode;
  if (version) {
    std::cout << "kbench-run " << KBENCH_VERSION << " (LibTorch " << linkedTorchVersion()
              << (haveCompiledBaselineLoader() ? ", with" : ", without")
              << " the AOTInductor package loader)\n";
    return 0;
  }
  int operands = !o.taskDir.empty() + !o.bundleDir.empty();

  try {
    if (!batchList.empty()) {
      if (calibrate)
        return cl.usageError("--batch and --calibrate do not go together");
      if (operands)
        return cl.usageError("--batch takes no TASK_DIR or BUNDLE_DIR (LIST.json names them)");
      for (const cli::CommandLine::Given &g : cl.given())
        if (isBatchListFlag(g.name))
          return cl.usageError(g.spelling + ": in --batch mode, LIST.json says this "
                               "(\"shapes\", \"seeds\", \"distributions\", \"timing\")");
      BatchOptions b;
      b.listFile = batchList;
      b.outputDir = o.outputDir;
      b.json = o.json;
      b.target = o.target;
      b.timeoutSeconds = o.timeoutSeconds;
      b.l2Flush = o.l2Flush;
      b.calibrationFile = o.calibrationFile;
      b.compiledBaselinesDir = o.compiledBaselinesDir;
      b.baselineTimingsFile = baselineTimings;
      b.device = o.device;
      return evaluateBatch(b, std::cout);
    }
    if (!baselineTimings.empty())
      return cl.usageError(
          "--baseline-timings goes with --batch (a search's screening "
          "rounds); a single run times its baselines beside the candidate");
    if (calibrate) {
      if (operands)
        return cl.usageError("--calibrate takes no TASK_DIR or BUNDLE_DIR");
      return calibrateDevice(o, std::cout);
    }
    if (operands != 2)
      return cl.usageError("expected TASK_DIR and BUNDLE_DIR, got " +
                           std::to_string(operands) + " operand(s)");
    return evaluate(o, std::cout);
  } catch (const std::exception &e) {
    // Everything expected is reported by evaluate(); this is the last guard
    // that keeps the runner from dying with an uncaught exception.
    std::cerr << "kbench-run: internal error: " << e.what() << "\n";
    return 2;
  }
}
