//===- Report.h - report.json and the printed table ---------------*- C++ -*-===//
//
// The supervisor assembles report.json (schema in docs/runner.md) from what it
// checked itself (bad inputs, requires facts) and what the worker sent, adds
// speedups, % of floor and a summary, and decides the exit status:
//   0  every case passed (and at least one ran)
//   1  a check failed: a verdict other than pass/skipped, a crash, a timeout
//   2  the run could not be judged: bad task/manifest/flags, no GPU, ...
// No LibTorch here.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_REPORT_H
#define KBENCH_RUNNER_REPORT_H

#include "kbench/Runner/Manifest.h"
#include "kbench/Runner/Supervisor.h"
#include "kbench/Support/Task.h"

#include <cstdint>
#include <iosfwd>

namespace kbench::runner {

class ReportBuilder {
public:
  explicit ReportBuilder(nlohmann::json invocation);

  void setTask(const Task &task);
  void setManifest(const Manifest &manifest);
  void setCalibration(const nlohmann::json &calibration);
  /// The torch.compile baseline's plan (BaselinePlan.h), before the worker.
  void setCompiledBaselines(nlohmann::json plan);

  /// A problem that prevents judging (exit 2).
  void addError(const std::string &message);
  /// A verdict found by the supervisor (requires facts).
  void addCase(nlohmann::json entry);
  /// Everything the worker sent, and how it ended.
  void absorbWorker(const WorkerResult &worker);
  /// The same in two steps, for a batch, whose messages arrive one by one:
  /// each message of this bundle, then how the worker's run of it ended
  /// (`worker.messages` is not read).
  void absorbMessage(const nlohmann::json &message);
  void absorbEnd(const WorkerResult &worker);

  /// Summary, speedups, floors, verdict and exit code. Call once, last.
  const nlohmann::json &finish();
  int exitCode() const;

  /// The short human table (docs/runner.md shows one).
  void printTable(std::ostream &os) const;

private:
  void addTiming(nlohmann::json timing);

  nlohmann::json report;
  const Task *task = nullptr;
  nlohmann::json calibration;
  bool done = false;    ///< the worker sent "done"
  nlohmann::json fatal; ///< its "fatal" message, if any
};

/// `unixSeconds` as report.json dates are written: ISO 8601, UTC
/// ("2026-12-07T02:30:00Z").
std::string utcTimestamp(int64_t unixSeconds);

/// Writes `report` to `dir/report.json` (creating `dir`). Throws InputError.
std::string writeReport(const nlohmann::json &report, const std::string &dir,
                        const std::string &name = "report.json");

} // namespace kbench::runner

#endif // KBENCH_RUNNER_REPORT_H
