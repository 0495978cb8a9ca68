//===- QueueEvaluator.cpp - Rounds through the archive's work queue -------===//
//
// The search side of WorkQueue.h: a round's bundles (files and task.json)
// go into the database as jobs, and next() polls for accepted results,
// writing each report where readReport() reads local ones. Polling starts
// at 5 ms and backs off to 200 ms while nothing comes, so a waiting search
// costs the database a few queries a second.
//
//===----------------------------------------------------------------------===//

#include "kbench/Archive/WorkQueue.h"
#include "kbench/Search/Evaluator.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <set>
#include <thread>

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace kbench::search {
namespace {

std::optional<std::string> readBytes(llvm::StringRef file) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

/// Every regular file under `dir`, with its path relative to `dir`.
bool readBundle(llvm::StringRef dir, JobBundle &bundle, std::string &error) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (it->type() != fs::file_type::regular_file)
      continue;
    std::optional<std::string> bytes = readBytes(it->path());
    if (!bytes) {
      error = "cannot read " + it->path() + " of the bundle " + dir.str();
      return false;
    }
    llvm::StringRef relative = llvm::StringRef(it->path()).drop_front(dir.size());
    relative = relative.ltrim('/');
    bundle.files.emplace_back(relative.str(), std::move(*bytes));
  }
  if (ec) {
    error = "cannot list the bundle " + dir.str() + ": " + ec.message();
    return false;
  }
  return true;
}

class QueueEvaluator : public Evaluator {
public:
  QueueEvaluator(const EvaluatorOptions &options, Database &db,
                 llvm::StringRef workDir, double waitSeconds, size_t bundlesPerJob)
      : options(options), queue(db), workDir(workDir.str()),
        waitSeconds(waitSeconds), bundlesPerJob(std::max<size_t>(1, bundlesPerJob)),
        description("kbench-worker processes through the queue in " + db.describe()) {}

  std::string describe() const override { return description; }

  bool submit(const EvalRound &round, llvm::ArrayRef<EvalRequest> requests,
              std::string &error) override {
    jobOf.clear();
    unreturned.clear();
    expected.clear();
    returned.clear();
    ready.clear();
    isPending = false;
    llvm::SmallString<256> dir(workDir);
    path::append(dir, round.name);
    roundDir = dir.str().str();
    llvm::SmallString<256> taskFile(options.taskDir);
    path::append(taskFile, "task.json");
    std::optional<std::string> taskJson = readBytes(taskFile);
    if (!taskJson) {
      error = "cannot read " + taskFile.str().str();
      return false;
    }
    auto newJob = [&](const std::string &key) {
      JobSpec spec;
      spec.roundName = round.name;
      spec.jobKey = key;
      spec.timing = round.timing;
      spec.target = options.target;
      spec.timeout = options.timeout;
      spec.shapes = options.shapeSets;
      spec.taskJson = *taskJson;
      return spec;
    };
    // A bundle enqueued before (a search resumed after a kill) stays in its
    // job; the others go into jobs of bundlesPerJob, or, for the full
    // protocol's re-measurement of the elites, into one job (one GPU).
    std::vector<const EvalRequest *> fresh;
    for (const EvalRequest &request : requests) {
      expected.insert(request.id);
      std::optional<int64_t> existing;
      if (!queue.jobOf(round.name, request.id, existing, error))
        return false;
      if (existing) {
        jobOf[request.id] = *existing;
        ++unreturned[*existing];
      } else {
        fresh.push_back(&request);
      }
    }
    bool together = round.timing == "full";
    size_t perJob = together ? std::max<size_t>(1, fresh.size()) : bundlesPerJob;
    std::vector<JobSpec> jobs;
    for (size_t i = 0; i < fresh.size(); ++i) {
      if (i % perJob == 0)
        jobs.push_back(newJob(together ? "elites" : fresh[i]->id));
      JobBundle bundle;
      bundle.requestId = fresh[i]->id;
      if (!readBundle(fresh[i]->bundleDir, bundle, error))
        return false;
      jobs.back().bundles.push_back(std::move(bundle));
    }
    for (const JobSpec &spec : jobs) {
      int64_t id = 0;
      if (!queue.enqueue(spec, id, error))
        return false;
      for (const JobBundle &bundle : spec.bundles)
        jobOf[bundle.requestId] = id;
      unreturned[id] = spec.bundles.size();
    }
    return true;
  }

  std::optional<EvalReport> next() override {
    auto lastNews = std::chrono::steady_clock::now();
    std::chrono::milliseconds pause(5);
    while (ready.empty()) {
      if (returned.size() >= expected.size())
        return std::nullopt;
      // Only the jobs with results still to come: a poll never fetches a
      // report twice.
      std::vector<int64_t> waiting;
      for (const auto &[id, count] : unreturned)
        if (count > 0)
          waiting.push_back(id);
      std::vector<AcceptedResult> results;
      std::string error;
      if (!queue.acceptedResults(waiting, results, error)) {
        llvm::errs() << "kbench search: " << error << "\n";
        isPending = true;
        return std::nullopt;
      }
      for (AcceptedResult &accepted : results) {
        const std::string &id = accepted.result.requestId;
        if (!expected.count(id) || returned.count(id))
          continue;
        returned.insert(id);
        --unreturned[jobOf[id]];
        ready.push_back(toReport(accepted.result));
      }
      if (!ready.empty())
        break;
      if (waitSeconds > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - lastNews)
                  .count() > waitSeconds) {
        isPending = true;
        return std::nullopt;
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(200));
    }
    EvalReport report = std::move(ready.front());
    ready.pop_front();
    return report;
  }

  bool pending() const override { return isPending; }

private:
  EvalReport toReport(const BundleResult &result) {
    llvm::SmallString<256> dir(roundDir), file;
    path::append(dir, result.requestId);
    file = dir;
    path::append(file, "report.json");
    EvalReport report;
    fs::remove(file); // an earlier attempt's
    if (!result.report.empty() && !fs::create_directories(dir)) {
      std::error_code ec;
      llvm::raw_fd_ostream os(file, ec);
      if (!ec)
        os << result.report;
    }
    report = readReport(result.requestId, file);
    if (result.report.empty())
      report.status = result.status.empty() ? "missing" : result.status;
    if (report.exitCode < 0)
      report.exitCode = int(result.exitCode);
    report.seconds = result.seconds;
    return report;
  }

  EvaluatorOptions options;
  WorkQueue queue;
  std::string workDir, roundDir;
  double waitSeconds;
  size_t bundlesPerJob;
  std::string description;
  std::map<std::string, int64_t> jobOf;  ///< request id -> its job
  std::map<int64_t, size_t> unreturned;  ///< job -> results not yet read
  std::set<std::string> expected, returned;
  std::deque<EvalReport> ready;
  bool isPending = false;
};

} // namespace

std::unique_ptr<Evaluator> createQueueEvaluator(const EvaluatorOptions &options,
                                                Database &db,
                                                llvm::StringRef workDir,
                                                double waitSeconds,
                                                size_t bundlesPerJob) {
  return std::make_unique<QueueEvaluator>(options, db, workDir, waitSeconds,
                                          bundlesPerJob);
}

} // namespace kbench::search
