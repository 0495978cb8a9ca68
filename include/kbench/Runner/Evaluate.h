//===- Evaluate.h - kbench-run's two commands, as library calls ---*- C++ -*-===//
//
// `evaluate` is one candidate against one task: parse and cross-check task and
// bundle, evaluate the requires facts per shape, run the worker under the
// supervisor, write report.json and print the table. `calibrateDevice` is
// --calibrate. The tool (tools/kbench-run) only parses flags into RunOptions.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_EVALUATE_H
#define KBENCH_RUNNER_EVALUATE_H

#include <iosfwd>
#include <string>
#include <vector>

namespace kbench::runner {

struct RunOptions {
  std::string taskDir;
  std::string bundleDir;
  std::string outputDir;      ///< -o: where report.json goes ("" = nowhere)
  bool json = false;          ///< print the report instead of the table
  std::string target;         ///< "" = sm_90a when a GPU driver is present, else host
  std::vector<std::string> shapeSets; ///< empty = check,tune,heldout (GPU) / check (host)
  int seeds = 3;
  std::vector<std::string> distributions; ///< empty = all five
  double timeoutSeconds = 60;
  int timing = -1;            ///< -1 = on for GPU targets, off for host
  std::string l2Flush = "read"; ///< "read" or "write" (Timing.h)
  std::string calibrationFile;
  std::string compiledBaselinesDir; ///< AOTInductor packages (BaselinePlan.h); "" = none
  int device = 0;
};

/// Exit status: 0 pass, 1 a check failed, 2 could not judge (see Report.h).
int evaluate(const RunOptions &options, std::ostream &out);

/// Measures copy bandwidth and GEMM rates; writes calibration.json into
/// options.outputDir when set. Exit status 0, or 2 without a GPU.
int calibrateDevice(const RunOptions &options, std::ostream &out);

/// True when this machine has an NVIDIA driver (and this runner can use it);
/// does not initialize CUDA, so it is safe before forking a worker.
bool gpuPresent();

} // namespace kbench::runner

#endif // KBENCH_RUNNER_EVALUATE_H
