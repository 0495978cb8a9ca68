//===- CaseCache.h - Inputs and references shared across bundles -*- C++ -*-===//
//
// A case's inputs and its fp32 and fp64 references depend on the task, the
// shape, the seed and the distribution, never on the candidate. A batch
// (kbench-run --batch) evaluates many candidates of one task in one worker
// process, so it prepares each case once and keeps it here; so are the
// baselines' timings of the screening protocol (Timing.h, timeScreened), and
// the file that keeps those across runs (BaselineTimings.h), when given.
//
// Memory: a memory-bound task at its tune shape needs 100-300 MB per input
// set on the GPU, so the cache holds a byte budget. Every bundle visits the
// cases in the same order, so the cache keeps what came first and computes
// the rest afresh each time (a least-recently-used policy would evict each
// case just before the next bundle needs it, and so never hit).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_CASECACHE_H
#define KBENCH_RUNNER_CASECACHE_H

#include "kbench/Runner/BaselineTimings.h"
#include "kbench/Runner/Inputs.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace kbench::runner {

/// One case, before any candidate runs on it.
struct PreparedCase {
  /// The inputs as drawn and transformed; never handed to a candidate (it
  /// gets clones, which are then compared bitwise with these).
  TensorMap inputs;
  /// Set once the references below are computed.
  bool referenced = false;
  TensorMap ref, ref64;
  /// Per output: {"ref_vs_fp64": {...}}, as report.json shows it.
  nlohmann::json outputs = nlohmann::json::object();
  /// Why a gated distribution is skipped here ("" = it is not).
  std::string gate;

  /// Bytes of every tensor held (shared storage counted once per tensor).
  size_t bytes() const;
};

class CaseCache {
public:
  /// Keeps at most `budgetBytes` of prepared cases; 0 keeps nothing (one
  /// kbench-run call, which has no later bundle to share them with).
  explicit CaseCache(size_t budgetBytes) : budget(budgetBytes) {}

  /// $KBENCH_CASE_CACHE_MB megabytes when set; else a quarter of the GPU's
  /// memory (`deviceMemoryBytes`, 0 on the host target), and never less than
  /// 4 GiB. A large-shape task's cases outgrow 4 GiB (log_softmax_backward's
  /// 4096 x 32000 and derived shapes take 20-25 GB with their references),
  /// and each bundle then redraws on the CPU and re-references every case
  /// past the budget. A quarter of an H200 (35 GB) holds them all, of an H100
  /// (20 GB) most, and leaves the rest to the candidates, the baselines and a
  /// second evaluator sharing the GPU.
  static size_t defaultBudget(size_t deviceMemoryBytes = 0);

  /// The case under `key`, or null (counted as a hit or a miss).
  std::shared_ptr<PreparedCase> find(const std::string &key);

  /// Keeps `entry` under `key` when it fits in what the budget has left.
  /// Offered again after it grew (its references computed), the same entry
  /// is counted again, and dropped when it no longer fits; another entry
  /// under a kept key is ignored.
  void offer(const std::string &key, std::shared_ptr<PreparedCase> entry);

  /// The baselines' timings at one shape (an object, empty until measured).
  nlohmann::json &baselines(const std::string &shapeKey) { return timings[shapeKey]; }

  /// The file that keeps the baselines' timings across runs (null: none).
  BaselineTimingFile *timingFile() { return keptTimings.get(); }
  void keepTimingsIn(std::unique_ptr<BaselineTimingFile> file) {
    keptTimings = std::move(file);
  }

  /// False for a single run's cache, which keeps nothing.
  bool retains() const { return budget > 0; }

  size_t hits = 0, misses = 0;
  size_t budgetBytes() const { return budget; }
  size_t retainedBytes() const { return used; }
  size_t retainedCases() const { return cases.size(); }

private:
  size_t budget;
  size_t used = 0;
  struct Kept {
    std::shared_ptr<PreparedCase> entry;
    size_t bytes = 0; ///< as counted when last offered
  };
  std::map<std::string, Kept> cases;
  std::map<std::string, nlohmann::json> timings;
  std::unique_ptr<BaselineTimingFile> keptTimings;
};

} // namespace kbench::runner

#endif // KBENCH_RUNNER_CASECACHE_H
