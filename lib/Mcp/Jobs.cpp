//===- Jobs.cpp - Long tool calls as jobs on worker threads ---------------===//
//
// Programs are started with llvm::sys::ExecuteNoWait (no shell) and watched
// with waitpid(WNOHANG) every 20 ms, so that a cancellation is seen while the
// program runs. kbench-run's supervisor stops its worker on SIGTERM; SIGKILL
// follows two seconds later for a program that does not stop.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Jobs.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"

#include <csignal>
#include <sys/wait.h>

namespace kbench::mcp {

ToolResult ToolResult::error(const llvm::Twine &message) {
  ToolResult result;
  result.isError = true;
  result.text = message.str();
  return result;
}

ToolResult ToolResult::success(llvm::json::Object structured) {
  ToolResult result;
  result.structured = std::move(structured);
  result.text = llvm::formatv("{0:2}", result.structured).str();
  return result;
}

const char *getJobStateName(JobState state) {
  switch (state) {
  case JobState::Running:
    return "running";
  case JobState::Done:
    return "done";
  case JobState::Failed:
    return "failed";
  case JobState::Cancelled:
    return "cancelled";
  }
  return "unknown";
}

void Job::cancel() { cancelled = true; }

void Job::setStage(llvm::StringRef newStage) {
  std::lock_guard<std::mutex> lock(mutex);
  stage = newStage.str();
}

JobState Job::getState() const {
  std::lock_guard<std::mutex> lock(mutex);
  return state;
}

void Job::snapshot(JobState &outState, std::string &outStage,
                   ToolResult &outResult, double &outSeconds) const {
  std::lock_guard<std::mutex> lock(mutex);
  outState = state;
  outStage = stage;
  outResult = result;
  outSeconds = state == JobState::Running
                   ? std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count()
                   : seconds;
}

bool Job::waitFor(double limit, const std::function<bool()> &stop) const {
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(limit);
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (state != JobState::Running)
        return true;
      changed.wait_for(lock, std::chrono::milliseconds(20));
      if (state != JobState::Running)
        return true;
    }
    // Unlocked: stop() may look at the job.
    if (std::chrono::steady_clock::now() >= deadline || (stop && stop()))
      return false;
  }
}

void Job::finish(ToolResult finished) {
  std::lock_guard<std::mutex> lock(mutex);
  result = std::move(finished);
  state = cancelled            ? JobState::Cancelled
          : result.isError     ? JobState::Failed
                               : JobState::Done;
  if (state == JobState::Cancelled) {
    result = ToolResult::error("job " + id + " was cancelled");
  }
  stage = getJobStateName(state);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                .count();
  changed.notify_all();
}

int Job::runProgram(llvm::StringRef program, llvm::ArrayRef<std::string> args,
                    llvm::StringRef outFile, llvm::StringRef errFile,
                    std::string &error) {
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), outFile,
                                                errFile};
  bool failedToStart = false;
  llvm::sys::ProcessInfo process = llvm::sys::ExecuteNoWait(
      program, argRefs, /*Env=*/std::nullopt, redirects, /*MemoryLimit=*/0,
      &error, &failedToStart);
  if (failedToStart || process.Pid <= 0) {
    error = "could not run " + program.str() + ": " + error;
    return -1;
  }
  int status = 0;
  std::optional<std::chrono::steady_clock::time_point> killAt;
  while (true) {
    pid_t done = waitpid(process.Pid, &status, WNOHANG);
    if (done == process.Pid)
      break;
    if (done < 0 && errno != EINTR) {
      error = "lost track of " + program.str();
      return -1;
    }
    if (cancelled && !killAt) {
      kill(process.Pid, SIGTERM);
      killAt = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    } else if (killAt && std::chrono::steady_clock::now() >= *killAt) {
      kill(process.Pid, SIGKILL);
      killAt = std::chrono::steady_clock::time_point::max();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (cancelled) {
    error = "cancelled";
    return -1;
  }
  if (WIFSIGNALED(status)) {
    error = program.str() + " died of signal " + std::to_string(WTERMSIG(status));
    return -1;
  }
  return WEXITSTATUS(status);
}

JobTable::~JobTable() {
  std::map<std::string, std::shared_ptr<Job>> all;
  {
    std::lock_guard<std::mutex> lock(mutex);
    all = jobs;
  }
  for (auto &[id, job] : all)
    job->cancel();
  for (auto &[id, job] : all)
    if (job->thread.joinable())
      job->thread.join();
}

std::shared_ptr<Job> JobTable::start(llvm::StringRef kind, llvm::StringRef prefix,
                                     std::function<ToolResult(Job &)> work,
                                     std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  int64_t running = 0;
  for (auto &[id, job] : jobs)
    running += job->getState() == JobState::Running;
  if (running >= maxRunning) {
    error = llvm::formatv("{0} running job(s) reach this server's limit "
                          "(--max-jobs {1}); wait for one (job_status) or "
                          "cancel one (cancel_job)",
                          running, maxRunning)
                .str();
    return nullptr;
  }
  // Forget finished jobs beyond 64, so the table stays small.
  while (jobs.size() >= 64) {
    auto finished = std::find_if(jobs.begin(), jobs.end(), [](const auto &entry) {
      return entry.second->getState() != JobState::Running;
    });
    if (finished == jobs.end())
      break;
    if (finished->second->thread.joinable())
      finished->second->thread.join();
    jobs.erase(finished);
  }
  auto job = std::make_shared<Job>(prefix.str() + std::to_string(++counter),
                                   kind.str());
  jobs[job->getId()] = job;
  Job *raw = job.get();
  job->thread = std::thread([raw, work = std::move(work)] {
    raw->finish(work(*raw));
  });
  return job;
}

std::shared_ptr<Job> JobTable::find(llvm::StringRef id) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = jobs.find(id.str());
  return it == jobs.end() ? nullptr : it->second;
}

} // namespace kbench::mcp
