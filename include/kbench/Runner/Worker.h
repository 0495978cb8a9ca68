//===- Worker.h - One candidate's checks and timing, in a child process -*- C++ -*-===//
//
// The worker is the only part of kbench-run that touches LibTorch's kernels,
// the GPU and the candidate's code. It runs in a child process (Supervisor.h)
// and streams what it finds as JSON lines on a pipe, one message per event:
//   {"type": "env", ...}          machine and library versions
//   {"type": "module", ...}       what was loaded (cubin, ptx, kernel.so)
//   {"type": "progress", ...}     the case and step about to run (watchdog)
//   {"type": "case", ...}         one shape x seed x distribution verdict
//   {"type": "timing", ...}       one timed shape
//   {"type": "phase", ...}        seconds spent in a phase
//   {"type": "fatal", ...}        why it stopped early (a CUDA fault, ...)
// so that whatever happens to it, the supervisor keeps everything sent before.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_WORKER_H
#define KBENCH_RUNNER_WORKER_H

#include "kbench/Runner/Manifest.h"
#include "kbench/Runner/Protocol.h"
#include "kbench/Runner/Timing.h"

#include <map>
#include <memory>

namespace kbench::runner {

class Reference;

/// What to run; the supervisor builds it from the flags.
struct EvalPlan {
  const Task *task = nullptr;
  const Manifest *manifest = nullptr;
  const Reference *reference = nullptr;
  std::string target;
  /// Shapes to check (those whose requires facts hold), in order.
  std::vector<ShapeCase> shapes;
  /// Shapes timed after the checks (GPU only), unless a check failed there.
  std::vector<ShapeCase> timedShapes;
  /// Shape label -> the torch.compile package found for it (Baselines.h).
  std::map<std::string, std::string> compiledPackages;
  std::vector<uint64_t> seeds;
  /// Shape set -> how many of `seeds` its shapes are checked with (a batch
  /// list's per-set seeds); a set not here uses them all.
  std::map<std::string, size_t> seedsBySet;
  std::vector<Distribution> distributions;
  bool timing = true;
  /// How the L2 is emptied before each timed run.
  L2Flush l2Flush = L2Flush::Read;
  /// The timing protocol's numbers (full, or screen for a search's batch).
  TimingProtocol timingProtocol;
  /// A batch's --baseline-timings FILE ("" = none): the screening
  /// baselines' timings kept across runs (BaselineTimings.h).
  std::string baselineTimingsFile;
  int device = 0;
};

/// Binds the task's reference against the ATen schemas (Reference.h) without
/// exposing LibTorch headers to the caller. Throws InputError.
std::shared_ptr<const Reference> bindReference(const Task &task);

/// Runs `plan`, writing messages to `fd`. Returns the process exit status:
/// 0 when it ran to the end (verdicts are in the messages), 2 on a bad input
/// or environment, 3 after a CUDA fault.
int runWorker(const EvalPlan &plan, int fd);

/// A batch (kbench-run --batch): opens the device once, then runs
/// plans[first], plans[first + 1], ... (one task, one target and device),
/// sharing the inputs and references of every case (CaseCache.h). Each
/// bundle's messages are bracketed by {"type": "bundle", "index": i} and
/// {"type": "bundle_end", "index": i}. A bundle whose own files are bad
/// ends with its "fatal" message and the next one runs; after a CUDA fault
/// or another failure the worker exits (3 or 2) and the supervisor starts a
/// fresh one for the rest. Returns 0 after the last bundle.
int runBatchWorker(const std::vector<EvalPlan> &plans, size_t first, int fd);

/// --calibrate: measures the ceilings on `device` and writes one
/// {"type": "calibration", ...} message. Same exit statuses.
int runCalibration(int device, int fd);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_WORKER_H
