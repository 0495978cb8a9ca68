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

#include "kbench/Support/RunnerFlags.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace kbench::runner {

/// The runner flags' settings (RunnerFlags.h) and what the command line
/// adds around them.
struct RunOptions : RunnerSettings {
  std::string taskDir;
  std::string bundleDir;
  std::string outputDir;      ///< -o: where report.json goes ("" = nowhere)
  std::string target;         ///< "" = sm_90a when a GPU driver is present, else host
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
