//===- WorkQueueTest.cpp - Claims, leases and results on both backends ----===//

#include "kbench/Archive/Archive.h"
#include "kbench/Archive/WorkQueue.h"

#include "Backend.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

using namespace kbench::search;
using kbench::search::testing::BackendTest;

namespace {

class WorkQueueTest : public BackendTest {
protected:
  std::unique_ptr<WorkQueue> openQueue(const std::string &where) {
    std::string error;
    std::unique_ptr<WorkQueue> queue = WorkQueue::open(where, error);
    EXPECT_TRUE(queue) << error;
    return queue;
  }

  static JobSpec job(const std::string &key, std::string bytes = "PTX") {
    JobSpec spec;
    spec.roundName = "round-0000";
    spec.jobKey = key;
    spec.timing = "none";
    spec.target = "host";
    spec.shapes = {"check", "heldout"};
    spec.taskJson = R"({"name": "t"})";
    spec.bundles.push_back({key, {{"manifest.json", "{}"}, {"kernel.so", bytes}}});
    return spec;
  }

  static BundleResult result(const std::string &id, const std::string &report) {
    return {id, "ok", 0, report, 0.5};
  }

  static void sleepSeconds(double seconds) {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }
};

TEST_P(WorkQueueTest, EnqueueIsKeyedAndCarriesEveryByte) {
  std::string where = location(), error;
  std::unique_ptr<WorkQueue> queue = openQueue(where);
  ASSERT_TRUE(queue);
  std::string bytes;
  for (int i = 0; i < 256; ++i)
    bytes += char(i);
  int64_t first = 0, second = 0;
  ASSERT_TRUE(queue->enqueue(job("c0-0", bytes), first, error)) << error;
  ASSERT_TRUE(queue->enqueue(job("c0-0", bytes), second, error)) << error;
  EXPECT_EQ(first, second);
  std::optional<Claim> claim = queue->claim("w1", 30, error);
  ASSERT_TRUE(claim) << error;
  EXPECT_EQ(claim->jobId, first);
  EXPECT_EQ(claim->token, 1);
  EXPECT_EQ(claim->spec.jobKey, "c0-0");
  EXPECT_EQ(claim->spec.shapes, (std::vector<std::string>{"check", "heldout"}));
  ASSERT_EQ(claim->spec.bundles.size(), 1u);
  ASSERT_EQ(claim->spec.bundles[0].files.size(), 2u);
  EXPECT_EQ(claim->spec.bundles[0].files[0].first, "kernel.so");
  EXPECT_EQ(claim->spec.bundles[0].files[0].second, bytes);
  // Only one job was enqueued: nothing more to claim.
  EXPECT_FALSE(queue->claim("w2", 30, error));
  EXPECT_EQ(error, "");
}

TEST_P(WorkQueueTest, ClaimsAreExclusiveAndInOrder) {
  std::string where = location(), error;
  std::unique_ptr<WorkQueue> a = openQueue(where), b = openQueue(where);
  ASSERT_TRUE(a && b);
  int64_t id0 = 0, id1 = 0;
  ASSERT_TRUE(a->enqueue(job("c0-0"), id0, error)) << error;
  ASSERT_TRUE(a->enqueue(job("c0-1"), id1, error)) << error;
  std::optional<Claim> first = a->claim("a", 30, error);
  std::optional<Claim> second = b->claim("b", 30, error);
  ASSERT_TRUE(first && second) << error;
  EXPECT_EQ(first->jobId, id0);
  EXPECT_EQ(second->jobId, id1);
  EXPECT_FALSE(b->claim("b", 30, error));
}

TEST_P(WorkQueueTest, AnExpiredClaimIsRetakenAndItsLateResultSuperseded) {
  std::string where = location(), error;
  std::unique_ptr<WorkQueue> a = openQueue(where), b = openQueue(where);
  ASSERT_TRUE(a && b);
  int64_t id = 0;
  ASSERT_TRUE(a->enqueue(job("c0-0"), id, error)) << error;
  std::optional<Claim> lost = a->claim("a", 0.2, error);
  ASSERT_TRUE(lost) << error;
  // Within the lease nobody else gets it.
  EXPECT_FALSE(b->claim("b", 30, error));
  sleepSeconds(0.5);
  std::optional<Claim> retaken = b->claim("b", 30, error);
  ASSERT_TRUE(retaken) << error;
  EXPECT_EQ(retaken->jobId, id);
  EXPECT_EQ(retaken->token, 2);
  bool ours = true;
  ASSERT_TRUE(a->heartbeat(*lost, 30, ours, error)) << error;
  EXPECT_FALSE(ours);
  ASSERT_TRUE(b->heartbeat(*retaken, 30, ours, error)) << error;
  EXPECT_TRUE(ours);

  bool accepted = true;
  ASSERT_TRUE(a->submit(*lost, "a", {result("c0-0", "late")}, accepted, error)) << error;
  EXPECT_FALSE(accepted);
  ASSERT_TRUE(b->submit(*retaken, "b", {result("c0-0", "current")}, accepted, error))
      << error;
  EXPECT_TRUE(accepted);
  // The same submission again (its answer lost): accepted, nothing added.
  ASSERT_TRUE(b->submit(*retaken, "b", {result("c0-0", "current")}, accepted, error))
      << error;
  EXPECT_TRUE(accepted);

  std::vector<AcceptedResult> results;
  ASSERT_TRUE(a->acceptedResults({id}, results, error)) << error;
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].worker, "b");
  EXPECT_EQ(results[0].result.report, "current");
  EXPECT_EQ(results[0].result.seconds, 0.5);
  std::optional<std::string> rows = a->database().scalar(
      "SELECT COUNT(*) || ' ' || SUM(accepted) FROM results", {}, error);
  ASSERT_TRUE(rows) << error;
  EXPECT_EQ(*rows, "2 1") << "the late result is kept, as superseded";
  // A done job is never claimed again.
  EXPECT_FALSE(a->claim("a", 30, error));
}

TEST_P(WorkQueueTest, TheDatabaseRefusesASecondAcceptedResult) {
  std::string where = location(), error;
  std::unique_ptr<WorkQueue> queue = openQueue(where);
  ASSERT_TRUE(queue);
  int64_t id = 0;
  ASSERT_TRUE(queue->enqueue(job("c0-0"), id, error)) << error;
  Database &db = queue->database();
  std::string insert = "INSERT INTO results (job_id, request_id, claim_token, "
                       "worker, accepted, status, exit_code) VALUES (?, 'c0-0', "
                       "1, 'w', 1, 'ok', 0)";
  ASSERT_TRUE(db.query(insert, {id}, nullptr, error)) << error;
  EXPECT_FALSE(db.query(insert, {id}, nullptr, error));
}

TEST_P(WorkQueueTest, AnExpiredClaimNobodyRetookStillCounts) {
  std::string where = location(), error;
  std::unique_ptr<WorkQueue> queue = openQueue(where);
  ASSERT_TRUE(queue);
  int64_t id = 0;
  ASSERT_TRUE(queue->enqueue(job("c0-0"), id, error)) << error;
  std::optional<Claim> claim = queue->claim("a", 0.1, error);
  ASSERT_TRUE(claim) << error;
  sleepSeconds(0.3);
  bool accepted = false;
  ASSERT_TRUE(queue->submit(*claim, "a", {result("c0-0", "r")}, accepted, error)) << error;
  EXPECT_TRUE(accepted) << "the claim is still the job's current one";
}

TEST_P(WorkQueueTest, ManyConcurrentWorkersClaimEveryJobOnce) {
  std::string where = location(), error;
  std::unique_ptr<WorkQueue> producer = openQueue(where);
  ASSERT_TRUE(producer);
  const int jobs = 40, workers = 6;
  std::vector<int64_t> ids;
  for (int i = 0; i < jobs; ++i) {
    int64_t id = 0;
    ASSERT_TRUE(producer->enqueue(job("c0-" + std::to_string(i)), id, error)) << error;
    ids.push_back(id);
  }
  std::mutex mutex;
  std::map<int64_t, int> claimedBy;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      std::string error;
      std::unique_ptr<WorkQueue> queue = WorkQueue::open(where, error);
      if (!queue) {
        ++failures;
        return;
      }
      std::string name = "w" + std::to_string(w);
      while (std::optional<Claim> claim = queue->claim(name, 30, error)) {
        bool accepted = false;
        if (!queue->submit(*claim, name, {result(claim->spec.jobKey, "r")}, accepted,
                           error) ||
            !accepted)
          ++failures;
        std::lock_guard<std::mutex> lock(mutex);
        ++claimedBy[claim->jobId];
      }
      if (!error.empty())
        ++failures;
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(claimedBy.size(), size_t(jobs));
  for (const auto &[id, times] : claimedBy)
    EXPECT_EQ(times, 1) << "job " << id;
  std::vector<AcceptedResult> results;
  ASSERT_TRUE(producer->acceptedResults(ids, results, error)) << error;
  EXPECT_EQ(results.size(), size_t(jobs));
}

KBENCH_BOTH_BACKENDS(WorkQueueTest);

} // namespace
