//===- kbench-run.cpp - The kbench runner's command line ------------------===//
//
// Flags in, RunOptions out; the work is in lib/Runner (Evaluate.h). Links
// LibTorch and, at run time, the CUDA driver; never LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Batch.h"
#include "kbench/Runner/BaselinePlan.h"
#include "kbench/Runner/Evaluate.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

using namespace kbench;
using namespace kbench::runner;

namespace {

const char *kUsage = R"(usage: kbench-run [options] TASK_DIR BUNDLE_DIR
       kbench-run --batch LIST.json -o OUTDIR [--target T] [--timeout S] [--json] ...
       kbench-run --calibrate [-o DIR] [--device N] [--json]

Checks a compiled bundle (manifest.json + kernel.cubin/kernel.ptx or kernel.so)
against a task (TASK_DIR/task.json) and LibTorch, then times it against torch
eager. Protocol, report schema and exit statuses: docs/runner.md.

options:
  -o, --output DIR        write DIR/report.json (--calibrate: DIR/calibration.json)
  --json                  print the report as JSON instead of the table
  --target T              host or sm_90a; the bundle must be for T
                          (default: sm_90a when an NVIDIA driver is present, else host)
  --shapes LIST           shape sets to check, of check,tune,heldout
                          (default: all three on sm_90a, check on host)
  --seeds N               seeds per shape (default 3)
  --distributions LIST    of randn,negated,small,large,structural (default: all)
  --timeout SECONDS       watchdog: kill the worker after this long without progress
                          (default 60)
  --timing / --no-timing  time the candidate and the eager baselines
                          (default: on for sm_90a; host bundles are never timed)
  --l2-flush MODE         how the L2 is emptied before each timed run: read (default;
                          a read of 2x the L2 size, which leaves it clean) or write
                          (a memset of 2x the L2 size, whose dirty lines are written
                          back during the timed run, as in do_bench-style timers)
  --calibration FILE      ceilings from --calibrate, for % of floor
  --compiled-baselines DIR  AOTInductor packages of the tasks' references
                          (scripts/gpu-aoti-package.py): time torch.compile too;
                          the report says per timed shape whether it was measured,
                          missing or unavailable (docs/runner.md, "Baselines")
  --device N              CUDA device ordinal (default 0)
  --calibrate             measure copy bandwidth and GEMM rates, then exit
  --batch LIST.json       evaluate many bundles of one task in one process:
                          LIST.json = {"task_dir", "bundles": [{"id", "dir"}, ...],
                          "timing": "none"|"screen"|"full", optional "shapes", "seeds",
                          "distributions"}; writes OUTDIR/<id>/report.json and
                          OUTDIR/batch.jsonl (one line per bundle as it finishes)
  -h, --help              this text
  --version               the runner's version

exit status: 0 every check passed, 1 a check failed (mismatch, unwritten output,
modified input, crash, timeout, violated requires, ...), 2 the run could not be
judged (bad task or manifest, wrong target, missing files, no GPU, bad flags).
)";

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> items;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      items.push_back(item);
  return items;
}

[[noreturn]] void usageError(const std::string &message) {
  std::cerr << "kbench-run: " << message << "\n(kbench-run --help lists the flags)\n";
  std::exit(2);
}

int toInt(const std::string &flag, const std::string &value) {
  char *end = nullptr;
  long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end)
    usageError(flag + " takes an integer, got '" + value + "'");
  return static_cast<int>(v);
}

double toSeconds(const std::string &flag, const std::string &value) {
  char *end = nullptr;
  double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end || !(v > 0))
    usageError(flag + " takes a positive number of seconds, got '" + value + "'");
  return v;
}

} // namespace

int main(int argc, char **argv) {
  RunOptions o;
  bool calibrate = false;
  std::string batchList;
  std::vector<std::string> listFlags; // given in LIST.json in --batch mode
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool hasInline = false;
    if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
      hasInline = true;
    }
    auto next = [&]() -> std::string {
      if (hasInline)
        return value;
      if (i + 1 >= argc)
        usageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--version") {
      std::cout << "kbench-run " << KBENCH_VERSION << " (LibTorch " << linkedTorchVersion()
                << (haveCompiledBaselineLoader() ? ", with" : ", without")
                << " the AOTInductor package loader)\n";
      return 0;
    } else if (arg == "-o" || arg == "--output") {
      o.outputDir = next();
    } else if (arg == "--json") {
      o.json = true;
    } else if (arg == "--target") {
      o.target = next();
      if (o.target != "host" && o.target != "sm_90a")
        usageError("--target takes host or sm_90a, got '" + o.target + "'");
    } else if (arg == "--shapes") {
      o.shapeSets = splitList(next());
      listFlags.push_back(arg);
    } else if (arg == "--seeds") {
      o.seeds = toInt(arg, next());
      listFlags.push_back(arg);
    } else if (arg == "--distributions") {
      o.distributions = splitList(next());
      listFlags.push_back(arg);
    } else if (arg == "--timeout") {
      o.timeoutSeconds = toSeconds(arg, next());
    } else if (arg == "--timing") {
      o.timing = 1;
      listFlags.push_back(arg);
    } else if (arg == "--no-timing") {
      o.timing = 0;
      listFlags.push_back(arg);
    } else if (arg == "--l2-flush") {
      o.l2Flush = next();
      if (o.l2Flush != "read" && o.l2Flush != "write")
        usageError("--l2-flush takes read or write, got '" + o.l2Flush + "'");
    } else if (arg == "--calibration") {
      o.calibrationFile = next();
    } else if (arg == "--compiled-baselines") {
      o.compiledBaselinesDir = next();
    } else if (arg == "--device") {
      o.device = toInt(arg, next());
    } else if (arg == "--calibrate") {
      calibrate = true;
    } else if (arg == "--batch") {
      batchList = next();
    } else if (arg.size() > 1 && arg[0] == '-') {
      usageError("unknown flag '" + arg + "'");
    } else {
      positional.push_back(arg);
    }
  }

  try {
    if (!batchList.empty()) {
      if (calibrate)
        usageError("--batch and --calibrate do not go together");
      if (!positional.empty())
        usageError("--batch takes no TASK_DIR or BUNDLE_DIR (LIST.json names them)");
      if (!listFlags.empty())
        usageError(listFlags.front() + ": in --batch mode, LIST.json says this (\"shapes\", "
                   "\"seeds\", \"distributions\", \"timing\")");
      BatchOptions b;
      b.listFile = batchList;
      b.outputDir = o.outputDir;
      b.json = o.json;
      b.target = o.target;
      b.timeoutSeconds = o.timeoutSeconds;
      b.l2Flush = o.l2Flush;
      b.calibrationFile = o.calibrationFile;
      b.compiledBaselinesDir = o.compiledBaselinesDir;
      b.device = o.device;
      return evaluateBatch(b, std::cout);
    }
    if (calibrate) {
      if (!positional.empty())
        usageError("--calibrate takes no TASK_DIR or BUNDLE_DIR");
      return calibrateDevice(o, std::cout);
    }
    if (positional.size() != 2)
      usageError("expected TASK_DIR and BUNDLE_DIR, got " + std::to_string(positional.size()) +
                 " operand(s)");
    o.taskDir = positional[0];
    o.bundleDir = positional[1];
    return evaluate(o, std::cout);
  } catch (const std::exception &e) {
    // Everything expected is reported by evaluate(); this is the last guard
    // that keeps the runner from dying with an uncaught exception.
    std::cerr << "kbench-run: internal error: " << e.what() << "\n";
    return 2;
  }
}
