//===- Jobs.h - Long tool calls as jobs on worker threads --------*- C++ -*-===//
//
// `evaluate` and `search_start` can run for minutes, longer than an agent
// should hold a request open. They run as jobs: a worker thread each, an id
// the agent polls (job_status, search_status) and may cancel (cancel_job),
// while the server thread keeps answering. A job that runs a program
// (kbench-run, kbench search) runs it with no shell, stdin from /dev/null,
// and stops it (SIGTERM, then SIGKILL) when cancelled.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_JOBS_H
#define KBENCH_MCP_JOBS_H

#include "kbench/Mcp/ToolResult.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace kbench::mcp {

enum class JobState { Running, Done, Failed, Cancelled };
const char *getJobStateName(JobState state);

class Job {
public:
  Job(std::string id, std::string kind) : id(std::move(id)), kind(std::move(kind)) {}
  const std::string &getId() const { return id; }
  const std::string &getKind() const { return kind; }

  bool isCancelled() const { return cancelled; }
  void cancel();
  /// Records what the job is doing ("compile", "run"); job_status shows it.
  void setStage(llvm::StringRef stage);

  JobState getState() const;
  /// The stage, the state and, once finished, the result.
  void snapshot(JobState &state, std::string &stage, ToolResult &result,
                double &seconds) const;
  /// Waits until the job finished or `seconds` passed or `stop()` is true
  /// (checked every 20 ms); returns whether it finished.
  bool waitFor(double seconds, const std::function<bool()> &stop) const;

  /// Runs `program` with `args` (args[0] is the program's name), stdout
  /// into `outFile` and stderr into `errFile` (they may be the same file),
  /// until it exits or the job is cancelled. Returns the exit status, or -1
  /// with `error` set when it could not run, was cancelled or died of a
  /// signal.
  int runProgram(llvm::StringRef program, llvm::ArrayRef<std::string> args,
                 llvm::StringRef outFile, llvm::StringRef errFile,
                 std::string &error);

private:
  friend class JobTable;
  void finish(ToolResult result);
  std::string id, kind;
  std::atomic<bool> cancelled{false};
  mutable std::mutex mutex;
  mutable std::condition_variable changed;
  JobState state = JobState::Running;
  std::string stage = "queued";
  ToolResult result;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds = 0;
  std::thread thread;
};

class JobTable {
public:
  /// Job numbers start after `lastNumber` (the highest of an earlier
  /// server on the same workspace, whose folders stay readable).
  JobTable(int64_t maxRunning, int64_t lastNumber)
      : maxRunning(maxRunning), counter(lastNumber) {}
  /// Cancels every running job and waits for them.
  ~JobTable();

  /// Starts `work` on a new thread as job "<prefix><n>"; null with `error`
  /// set when maxRunning jobs are already running.
  std::shared_ptr<Job> start(llvm::StringRef kind, llvm::StringRef prefix,
                             std::function<ToolResult(Job &)> work,
                             std::string &error);
  std::shared_ptr<Job> find(llvm::StringRef id) const;

private:
  int64_t maxRunning;
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<Job>> jobs;
  int64_t counter;
};

} // namespace kbench::mcp

#endif // KBENCH_MCP_JOBS_H
