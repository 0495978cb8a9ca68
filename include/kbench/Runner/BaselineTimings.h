//===- BaselineTimings.h - Screening baselines kept across runs ---*- C++
//-*-===//
//
// The screening protocol (Timing.h, timeScreened) times the baselines (torch
// eager, torch.compile) once per shape and worker under the full protocol,
// about 2-3 s at a large tune shape. A search evaluates round after round of
// the same task on the same GPU, and each round is a new kbench-run process,
// so each paid those seconds again: the largest part of a round of 16 on an
// H100 machine. `kbench-run --batch LIST --baseline-timings FILE` keeps them
// in FILE instead: a screening batch reuses the entries that the same GPU
// (by UUID), driver and LibTorch measured less than kMaxAgeSeconds ago, and
// adds what it measures. The full protocol never reads FILE: its baselines
// are timed interleaved with the candidate, in the same run.
//
// FILE: {"format": "kbench-baseline-timings", "version": 1, "entries": [
//   {"key", "gpu_uuid", "gpu", "driver", "torch", "measured_at",
//    "measured_unix_s", "contestants": {name: stats (Timing.h toJson)}}]}
// where key names the task's reference, the shape, the dtypes and the L2
// flush (baselineTimingKey). Written to a temporary beside FILE and renamed
// over it, so that a killed run leaves the last complete file.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_BASELINETIMINGS_H
#define KBENCH_RUNNER_BASELINETIMINGS_H

#include "kbench/Support/Task.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace kbench::runner {

/// Where the baselines were timed: entries of another GPU, driver or
/// LibTorch are kept in the file but never reused.
struct TimingMachine {
  std::string gpuUuid, gpu, driver, torch;
};

/// The key of one shape's baselines: the torch.compile package name of
/// `task` at `dims` (BaselinePlan.h: the reference's hash, the shape, the
/// dtypes, the torch version) without ".pt2", then " flush=<mode>".
std::string baselineTimingKey(const Task &task, const SymbolValues &dims,
                              const std::string &torchVersion,
                              const std::string &flush);

class BaselineTimingFile {
public:
  /// Entries older than this (a day) are timed again: a search's rounds
  /// come minutes apart, a day covers a session and keeps a driver update,
  /// a cooling change or a different load on the machine from lingering.
  static constexpr int64_t kMaxAgeSeconds = 24 * 3600;

  /// Reads `path` (a missing file holds nothing) for `machine` at time
  /// `nowUnix`. Throws InputError naming the file and what is wrong with it.
  BaselineTimingFile(std::string path, TimingMachine machine, int64_t nowUnix);

  /// Checks that `path` is missing or a file of this format; throws
  /// InputError otherwise (before a batch starts, so a bad file stops
  /// nothing halfway).
  static void check(const std::string &path);

  /// The stats by contestant name measured on this machine under `key`
  /// within kMaxAgeSeconds, or null.
  const nlohmann::json *find(const std::string &key) const;
  /// When the entry that find(key) returns was measured (ISO 8601, UTC).
  std::string measuredAt(const std::string &key) const;

  /// Records `contestants` measured now under `key` and writes the file,
  /// merged with what another run wrote to it since it was read. Returns ""
  /// or why the file could not be written (the timing itself stands).
  std::string record(const std::string &key, const nlohmann::json &contestants);

  const std::string &path() const { return file; }

private:
  std::string file;
  TimingMachine machine;
  int64_t now;
  nlohmann::json entries = nlohmann::json::array();
  const nlohmann::json *entry(const std::string &key) const;
};

} // namespace kbench::runner

#endif // KBENCH_RUNNER_BASELINETIMINGS_H
