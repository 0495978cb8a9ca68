//===- WorkQueue.h - Jobs for evaluator workers, in the archive --*- C++ -*-===//
//
// The search enqueues its rounds in the archive's database; any number of
// kbench-worker processes, on any machine that reaches the database, claim
// jobs, evaluate them and write results back (docs/search.md, "Search
// across machines"). The database is the only coordinator:
//   - a claim is a row lock taken with SKIP LOCKED (PostgreSQL) or under
//     the single write lock (SQLite), so two workers never get one job;
//   - a claim holds a lease that expires by the database's clock unless the
//     worker heartbeats; an expired claim is taken over by the next worker
//     that asks, with a new claim token;
//   - a result is accepted only from the job's current claim, in the same
//     transaction that marks the job done; a late result from an expired,
//     retaken claim is kept as superseded. The unique index on accepted
//     results makes a second accepted result impossible.
// A job carries its bundles' files and the task.json, so workers need no
// shared file system.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_ARCHIVE_WORKQUEUE_H
#define KBENCH_ARCHIVE_WORKQUEUE_H

#include "kbench/Archive/Database.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kbench::search {

/// One bundle of a job: its request id (the search's name for the
/// candidate, "r0003-c005") and its files (path relative to the bundle
/// folder, bytes).
struct JobBundle {
  std::string requestId;
  std::vector<std::pair<std::string, std::string>> files;
};

/// What a job asks: evaluate `bundles` of one task with one protocol.
struct JobSpec {
  /// The round ("round-0003", "confirm-0004") and the job's key in it (the
  /// request id, or "elites" for a confirm round): enqueuing the same key
  /// again finds the job already there.
  std::string roundName, jobKey;
  /// The runner's batch settings (docs/runner.md, "Batches").
  std::string timing, target, timeout;
  std::vector<std::string> shapes;
  std::string taskJson;
  std::vector<JobBundle> bundles;
};

/// A claimed job: hold the token; results are accepted only with it.
struct Claim {
  int64_t jobId = 0, token = 0;
  JobSpec spec;
};

/// What a worker found for one bundle.
struct BundleResult {
  std::string requestId;
  /// "ok" (a report was written), or why not ("fault", "timeout", ...).
  std::string status;
  int64_t exitCode = -1;
  std::string report; ///< report.json's text ("" without one)
  double seconds = 0;
};

/// An accepted result, as the search reads it back.
struct AcceptedResult {
  int64_t jobId = 0;
  BundleResult result;
  std::string worker;
};

class WorkQueue {
public:
  /// A queue over its own connection to `location` (a worker).
  static std::unique_ptr<WorkQueue> open(const std::string &location,
                                         std::string &error);
  /// A queue over a connection the caller keeps (the search's archive).
  explicit WorkQueue(Database &db) : db(&db) {}

  /// Enqueues `spec` (or finds it, keyed by round and job key); its id.
  bool enqueue(const JobSpec &spec, int64_t &jobId, std::string &error);

  /// The job of round `roundName` that holds bundle `requestId`, if one
  /// was enqueued.
  bool jobOf(const std::string &roundName, const std::string &requestId,
             std::optional<int64_t> &jobId, std::string &error);

  /// Claims the oldest queued job, or one whose lease expired, for
  /// `leaseSeconds`. nullopt with an empty `error` when there is none.
  std::optional<Claim> claim(const std::string &worker, double leaseSeconds,
                             std::string &error);
  /// Extends the lease; `stillOurs` false when the claim was taken over.
  bool heartbeat(const Claim &claim, double leaseSeconds, bool &stillOurs,
                 std::string &error);
  /// Stores `results`: accepted (true in `accepted`) when `claim` is still
  /// the job's current claim, else kept as superseded.
  bool submit(const Claim &claim, const std::string &worker,
              const std::vector<BundleResult> &results, bool &accepted,
              std::string &error);

  /// The accepted results of `jobIds`.
  bool acceptedResults(const std::vector<int64_t> &jobIds,
                       std::vector<AcceptedResult> &results, std::string &error);

  Database &database() { return *db; }

private:
  WorkQueue() = default;

  std::unique_ptr<Database> owned;
  Database *db = nullptr;
};

} // namespace kbench::search

#endif // KBENCH_ARCHIVE_WORKQUEUE_H
