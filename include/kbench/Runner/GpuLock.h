//===- GpuLock.h - One timed region at a time per GPU -------------*- C++ -*-===//
//
// Several evaluators may share one GPU (two searches, a search and a
// scripts/gpu-eval.sh run). Their checks may overlap, since a check's result
// does not depend on what else runs, but two timed regions at once would
// each measure the other. So the worker takes an exclusive flock(2) on
// `$KBENCH_GPU_LOCK_DIR/kbench-gpu-<ordinal>.lock` (default dir /tmp) around
// its timing phase only. The kernel drops the lock when the holder dies, so a
// worker killed by the watchdog or a crash never leaves it held.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_GPULOCK_H
#define KBENCH_RUNNER_GPULOCK_H

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <string>

namespace kbench::runner {

class GpuLock {
public:
  /// The lock file of GPU `ordinal`.
  static std::string path(int ordinal);

  /// $KBENCH_GPU_LOCK_ON_HOST in seconds (0 when unset): the host target,
  /// which has nothing to time, then takes the lock anyway and holds it
  /// this long per bundle, so that tests can watch concurrent runs take
  /// turns without a GPU.
  static double hostHoldSeconds();

  /// Blocks until this process holds the lock of GPU `ordinal`, calling
  /// `waiting` about once a second meanwhile (the worker's watchdog wants to
  /// hear from it). Throws InputError when the lock file cannot be opened.
  explicit GpuLock(int ordinal, const std::function<void()> &waiting = {});
  ~GpuLock();
  GpuLock(const GpuLock &) = delete;
  GpuLock &operator=(const GpuLock &) = delete;

  /// Seconds spent waiting for the lock.
  double waitedSeconds() const { return waited; }

  /// Releases the lock (once) and describes the hold: {"file", "waited_s",
  /// "held_s", "acquired_at", "released_at"}, times in seconds since the
  /// epoch so that holds of different processes can be compared.
  nlohmann::json release();

private:
  std::string file;
  int fd = -1;
  double waited = 0;
  std::chrono::system_clock::time_point acquiredAt;
};

} // namespace kbench::runner

#endif // KBENCH_RUNNER_GPULOCK_H
