//===- Timing.h - CUDA-event timing and calibration ---------------*- C++ -*-===//
//
// The timing protocol of docs/runner.md, on the legacy default stream that the
// candidate's launches and LibTorch's eager ops share:
//   - 25 warmup rounds; then n timed rounds, n = clamp(ceil(0.5 s / t), 100,
//     2000) where t is the candidate's median over 5 probe runs;
//   - before every timed run, an L2 flush over 2x the L2 size outside the
//     events: a read of a buffer no one writes ("read", the default), which
//     leaves L2 clean, or a cuMemsetD32 ("write", as do_bench-style tools
//     do), which leaves up to an L2 of dirty lines whose write-back then
//     lands inside the timed run; the persisting-L2 carve-out is set to 0;
//   - before every run, outside the events too, the candidate's outputs are
//     poisoned again (Contestant::prepare), so every timed run computes its
//     result from scratch;
//   - contestants interleaved, the order rotated every round (A B C, B C A,
//     ...), so that a noisy machine moves every contestant alike;
//   - median, IQR, min, mean and n per contestant, in microseconds.
// `calibrate` measures the ceilings "% of floor" divides by.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_TIMING_H
#define KBENCH_RUNNER_TIMING_H

#include "kbench/Runner/CudaDriver.h"

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kbench::runner {

/// How the L2 is emptied before each timed run (docs/runner.md, "Timing").
enum class L2Flush { Read, Write };

/// "read", "write".
const char *l2FlushName(L2Flush flush);
std::optional<L2Flush> parseL2Flush(const std::string &name);

/// The protocol's numbers, in one place (docs/runner.md quotes them).
/// Default-constructed, it is the full protocol; `screen()` is the short one
/// a search ranks candidates with (kbench-run --batch, "timing": "screen").
struct TimingProtocol {
  std::string name = "full"; ///< recorded in every timing entry ("protocol")
  L2Flush flush = L2Flush::Read;
  int warmup = 25;
  int probe = 5;
  int minReps = 100;
  int maxReps = 2000;
  double minSeconds = 0.5;
  int batch = 100; ///< rounds between host syncs (bounds the event count)
  /// Screening: the candidate is timed alone and the baselines (eager, ...)
  /// are timed once per shape, alone, under the full protocol, then reused
  /// for every candidate of the batch (timeScreened).
  bool baselinesOnce = false;

  static TimingProtocol full() { return {}; }
  static TimingProtocol screen() {
    TimingProtocol p;
    p.name = "screen";
    p.warmup = 10;
    p.minReps = 20;
    p.maxReps = 500;
    p.minSeconds = 0.05;
    p.baselinesOnce = true;
    return p;
  }
};

/// Order statistics of one contestant, microseconds.
struct TimingStats {
  double median = 0, q1 = 0, q3 = 0, min = 0, mean = 0;
  int n = 0;
};
TimingStats summarize(std::vector<double> samples);
nlohmann::json toJson(const TimingStats &stats);

struct Contestant {
  std::string name;
  std::function<void()> run;
  /// Run before every warmup, probe and timed run, before the L2 flush and
  /// outside the events (may be empty). The candidate's re-poisons its
  /// outputs, so that no timed run finds the last run's result in them and
  /// skips its work (the cached-output cheat; docs/runner.md, "Timing").
  std::function<void()> prepare;
};

/// Times `contestants` (the first is the candidate, whose probe sets n)
/// interleaved with an L2 flush of `flush` (a float buffer of >= 2x the L2
/// size, never written by anything else) before each run. Returns
/// {"reps": n, "flush": "read"|"write", "flush_bytes": .., "contestants":
/// {name: stats}}.
nlohmann::json timeInterleaved(CudaDriver &cu, const std::vector<Contestant> &contestants,
                               const at::Tensor &flush, const TimingProtocol &protocol = {});

/// The screening protocol (`protocol.baselinesOnce`): the candidate
/// (contestants[0]) alone under `protocol`; the baselines (the others) from
/// `baselines` when it holds them, else timed once, alone, under the full
/// protocol and stored there. The result has timeInterleaved's form plus
/// "protocol" and "baseline_timing": "measured once per shape" with their reps.
nlohmann::json timeScreened(CudaDriver &cu, const std::vector<Contestant> &contestants,
                            const at::Tensor &flush, const TimingProtocol &protocol,
                            nlohmann::json &baselines);

/// Device-to-device copy bandwidth (1 GiB, read + write bytes counted) and
/// GEMM rates (8192^3 at::mm in bf16, f16, f32 with TF32 off, f32 with TF32
/// on), each the median of 10+ event-timed runs.
nlohmann::json calibrate(CudaDriver &cu, int device);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_TIMING_H
