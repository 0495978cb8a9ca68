//===- Worker.h - An evaluator worker of the archive's queue -----*- C++ -*-===//
//
// The loop behind kbench-worker: claim a job (WorkQueue.h), write its
// bundles and task.json to a scratch folder, evaluate them with one
// `kbench-run --batch` process while heartbeating the claim, and submit one
// result per bundle. A worker that loses its claim (a lease that expired
// while it was cut off) still submits: its result is kept as superseded.
// Plain C++17 (no LLVM): it runs on GPU machines without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_ARCHIVE_WORKER_H
#define KBENCH_ARCHIVE_WORKER_H

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace kbench::search {

struct WorkerOptions {
  /// The archive (an SQLite file or postgresql:NAME).
  std::string archive;
  /// kbench-run's path; unused with recordOnly.
  std::string runner;
  /// The worker's name in the archive (claims, results).
  std::string name;
  /// Scratch folder for jobs (each removed once its result is in).
  std::string workDir;
  double leaseSeconds = 60;
  double heartbeatSeconds = 15;
  /// Exit after this long without a job to claim; < 0: never.
  double idleExitSeconds = -1;
  /// Exit after this many jobs; 0: no limit.
  int64_t maxJobs = 0;
  /// Evaluate nothing: record a passing result at once (measures the
  /// queue's own overhead).
  bool recordOnly = false;
  /// OMP_NUM_THREADS for the runner; 0 leaves the environment alone.
  int threads = 0;
  /// kbench-run --baseline-timings FILE for every job ("" = none).
  std::string baselineTimingsFile;
  /// Appends one JSON line per job (times in ms) when set.
  std::string statsFile;
  /// Testing: after claiming its first job, wait this long without
  /// heartbeats before evaluating it (a worker cut off from the database).
  double testingStallSeconds = 0;
};

/// Runs one worker until it is idle for idleExitSeconds, has done maxJobs,
/// or gets SIGTERM/SIGINT (finishing the job in hand). Progress lines go to
/// `log`. 0 on a normal end, 1 when the archive failed.
int runWorker(const WorkerOptions &options, std::ostream &log);

/// The GPUs a worker per GPU is started for: CUDA_VISIBLE_DEVICES' entries
/// when set, else the driver's GPUs (/proc/driver/nvidia/gpus); empty when
/// there is none.
std::vector<std::string> visibleGpus();

} // namespace kbench::search

#endif // KBENCH_ARCHIVE_WORKER_H
