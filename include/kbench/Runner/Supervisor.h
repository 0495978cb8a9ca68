//===- Supervisor.h - Run a worker in a child process under a watchdog -*- C++ -*-===//
//
// A candidate kernel can segfault (host), fault the GPU context (illegal
// address) or never return (an infinite loop). None of that may take the runner
// down: the supervisor forks a worker, reads its JSON-line messages, and kills
// it when no message arrives for `timeoutSeconds` (the worker announces every
// step, so the watchdog bounds one step, not the whole run). What the worker
// sent before dying is kept; how it ended becomes a verdict.
//
// The supervisor must not initialize CUDA before forking (a forked child
// cannot use its parent's CUDA state); it only parses JSON and binds schemas.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_SUPERVISOR_H
#define KBENCH_RUNNER_SUPERVISOR_H

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace kbench::runner {

struct WorkerResult {
  enum class End {
    Exited,   ///< returned; `status` is its exit status
    Signaled, ///< died on a signal; `status` is the signal number
    TimedOut, ///< killed by the watchdog
    NotStarted,
  };
  End end = End::NotStarted;
  int status = 0;
  std::vector<nlohmann::json> messages;
  /// The last {"type": "progress"} message (what it was doing when it ended).
  nlohmann::json lastProgress;
  double seconds = 0;
  std::string error; ///< NotStarted: why

  /// "SIGSEGV (Segmentation fault)".
  std::string signalName() const;
};

/// Forks; the child runs `body(fd)` with its stdout redirected to stderr and
/// exits with its return value. The parent collects messages until the child
/// ends or stays silent for `timeoutSeconds`. With `onMessage`, each message
/// goes to it as it arrives (a batch writes each bundle's report as soon as
/// it is done) instead of into `messages`.
WorkerResult superviseWorker(const std::function<int(int fd)> &body, double timeoutSeconds,
                             const std::function<void(const nlohmann::json &)> &onMessage = {});

} // namespace kbench::runner

#endif // KBENCH_RUNNER_SUPERVISOR_H
