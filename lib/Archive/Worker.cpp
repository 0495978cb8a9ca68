//===- Worker.cpp - An evaluator worker of the archive's queue ------------===//

#include "kbench/Archive/Worker.h"

#include "kbench/Archive/WorkQueue.h"
#include "kbench/Support/RunnerFlags.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace kbench::search {

static std::atomic<bool> stopRequested{false};

static double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<std::string> visibleGpus() {
  std::vector<std::string> gpus;
  if (const char *set = std::getenv("CUDA_VISIBLE_DEVICES")) {
    std::stringstream list(set);
    std::string item;
    while (std::getline(list, item, ','))
      if (!item.empty())
        gpus.push_back(item);
    return gpus;
  }
  std::error_code ec;
  size_t count = 0;
  for (fs::directory_iterator it("/proc/driver/nvidia/gpus", ec), end; !ec && it != end;
       it.increment(ec))
    ++count;
  for (size_t i = 0; i < count; ++i)
    gpus.push_back(std::to_string(i));
  return gpus;
}

namespace {

bool writeFile(const fs::path &file, const std::string &bytes) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::binary);
  out << bytes;
  return bool(out);
}

std::optional<std::string> readFile(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A bundle file's path must stay inside its folder: the archive is shared,
/// so a job is data from elsewhere.
bool safeRelativePath(const std::string &path) {
  fs::path p(path);
  if (path.empty() || p.is_absolute())
    return false;
  for (const fs::path &part : p)
    if (part == ".." || part == ".")
      return false;
  return true;
}

/// Why a job's bundle names or file paths are unsafe to write, or "".
std::string unsafeName(const JobSpec &spec) {
  for (const JobBundle &bundle : spec.bundles) {
    if (!safeRelativePath(bundle.requestId) ||
        bundle.requestId.find('/') != std::string::npos)
      return "a bundle named '" + bundle.requestId + "', not a plain folder name";
    for (const auto &file : bundle.files)
      if (!safeRelativePath(file.first))
        return "a file '" + file.first + "' of bundle " + bundle.requestId +
               " that would leave its folder";
  }
  return "";
}

class Worker {
public:
  Worker(const WorkerOptions &options, WorkQueue &queue, std::ostream &log)
      : options(options), queue(queue), log(log) {}

  int run() {
    Clock::time_point idleSince = Clock::now();
    std::chrono::milliseconds pause(5);
    int64_t done = 0;
    while (!stopRequested) {
      if (options.maxJobs > 0 && done >= options.maxJobs)
        break;
      Clock::time_point claimStart = Clock::now();
      std::string error;
      std::optional<Claim> claim = queue.claim(options.name, options.leaseSeconds, error);
      if (!claim) {
        if (!error.empty()) {
          say(error);
          return 1;
        }
        if (options.idleExitSeconds >= 0 &&
            msSince(idleSince) >= options.idleExitSeconds * 1000)
          break;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(250));
        continue;
      }
      pause = std::chrono::milliseconds(5);
      if (!handle(*claim, claimStart, error)) {
        say(error);
        return 1;
      }
      ++done;
      idleSince = Clock::now();
    }
    say("stopping after " + std::to_string(done) + " job(s)");
    return 0;
  }

private:
  /// One progress line, written in one piece: the workers of one
  /// kbench-worker share its stderr.
  void say(const std::string &line) {
    log << ("kbench-worker " + options.name + ": " + line + "\n");
    log.flush();
  }

  bool handle(const Claim &claim, Clock::time_point claimStart, std::string &error) {
    double claimMs = msSince(claimStart);
    const JobSpec &spec = claim.spec;
    say("claimed job " + std::to_string(claim.jobId) + " (" + spec.roundName + " " +
        spec.jobKey + ", claim " + std::to_string(claim.token) + ", " +
        std::to_string(spec.bundles.size()) + " bundle(s))");
    if (options.testingStallSeconds > 0 && !stalled) {
      stalled = true;
      std::this_thread::sleep_for(
          std::chrono::duration<double>(options.testingStallSeconds));
    }
    Clock::time_point evaluateStart = Clock::now();
    std::vector<BundleResult> results;
    if (options.recordOnly) {
      for (const JobBundle &bundle : spec.bundles)
        results.push_back({bundle.requestId, "ok", 0,
                           R"({"verdict": "pass", "record_only": true})", 0});
    } else if (!evaluate(claim, results, error)) {
      return false;
    }
    double evaluateMs = msSince(evaluateStart);
    Clock::time_point submitStart = Clock::now();
    bool accepted = false;
    if (!queue.submit(claim, options.name, results, accepted, error))
      return false;
    double submitMs = msSince(submitStart);
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%.2f s", evaluateMs / 1000);
    say("job " + std::to_string(claim.jobId) + " " +
        (accepted ? "accepted" : "superseded (the claim expired and was retaken)") +
        ", " + seconds);
    if (!options.statsFile.empty()) {
      nlohmann::json line = {{"job", claim.jobId},      {"worker", options.name},
                             {"accepted", accepted},    {"claim_ms", claimMs},
                             {"evaluate_ms", evaluateMs}, {"submit_ms", submitMs},
                             {"overhead_ms", claimMs + submitMs + materializeMs},
                             {"materialize_ms", materializeMs}};
      std::ofstream(options.statsFile, std::ios::app) << line.dump() << "\n";
    }
    return true;
  }

  /// Writes the job to a scratch folder, runs `kbench-run --batch` on it
  /// (heartbeating meanwhile) and reads one result per bundle.
  bool evaluate(const Claim &claim, std::vector<BundleResult> &results,
                std::string &error) {
    materializeMs = 0;
    Clock::time_point start = Clock::now();
    const JobSpec &spec = claim.spec;
    fs::path folder = fs::absolute(fs::path(options.workDir) /
                                   ("job-" + std::to_string(claim.jobId) + "-" +
                                    std::to_string(claim.token)));
    std::error_code ec;
    fs::remove_all(folder, ec);
    // A job is data from a shared database: one whose names would leave
    // the scratch folder is answered "bad-job" for each of its bundles, and
    // the worker goes on (it must not take the fleet down with it).
    if (std::string why = unsafeName(spec); !why.empty()) {
      say("job " + std::to_string(claim.jobId) + " is refused: " + why);
      for (const JobBundle &bundle : spec.bundles)
        results.push_back({bundle.requestId, "bad-job", -1, "", 0});
      return true;
    }
    nlohmann::json bundles = nlohmann::json::array();
    for (const JobBundle &bundle : spec.bundles) {
      fs::path dir = folder / "bundles" / bundle.requestId;
      for (const auto &[path, bytes] : bundle.files)
        if (!writeFile(dir / path, bytes)) {
          error = "cannot write " + (dir / path).string() + " of job " +
                  std::to_string(claim.jobId);
          return false;
        }
      bundles.push_back({{"id", bundle.requestId}, {"dir", dir.string()}});
    }
    fs::path task = folder / "task";
    if (!writeFile(task / "task.json", spec.taskJson)) {
      error = "cannot write " + (task / "task.json").string();
      return false;
    }
    nlohmann::json list = {{"task_dir", task.string()}, {"target", spec.target},
                           {"timing", spec.timing},     {"shapes", spec.shapes},
                           {"bundles", bundles}};
    if (std::map<std::string, int> seeds =
            searchSeedsBySet(spec.timing, spec.shapes);
        !seeds.empty())
      list["seeds"] = seeds;
    fs::path batch = folder / "batch.json", out = folder / "out";
    writeFile(batch, list.dump(2) + "\n");
    materializeMs = msSince(start);

    std::vector<std::string> args = {options.runner, "--batch", batch.string(),
                                     "-o",           out.string(), "--target",
                                     spec.target};
    if (!spec.timeout.empty())
      args.insert(args.end(), {"--timeout", spec.timeout});
    if (!options.baselineTimingsFile.empty())
      args.insert(args.end(),
                  {"--baseline-timings", options.baselineTimingsFile});
    Clock::time_point runStart = Clock::now();
    int exitCode = runRunner(claim, args, folder / "runner.log", error);
    if (exitCode == -2)
      return false;
    double seconds = msSince(runStart) / 1000 / std::max<size_t>(1, spec.bundles.size());

    std::map<std::string, std::pair<std::string, int64_t>> lines;
    if (std::optional<std::string> text = readFile(out / "batch.jsonl")) {
      std::stringstream stream(*text);
      std::string line;
      while (std::getline(stream, line)) {
        nlohmann::json value = nlohmann::json::parse(line, nullptr, false);
        if (value.is_object() && value.contains("id") && value["id"].is_string())
          lines[value["id"]] = {value.value("status", std::string()),
                                value.value("exit", int64_t(-1))};
      }
    }
    for (const JobBundle &bundle : spec.bundles) {
      BundleResult result{bundle.requestId, "missing", -1, "", seconds};
      if (std::optional<std::string> report =
              readFile(out / bundle.requestId / "report.json")) {
        result.status = "ok";
        result.report = *report;
      }
      auto line = lines.find(bundle.requestId);
      if (line != lines.end()) {
        if (result.report.empty() && !line->second.first.empty())
          result.status = line->second.first;
        result.exitCode = line->second.second;
      } else if (result.report.empty() && exitCode != 0) {
        result.status = exitCode == -1 ? "crash" : "runner-exit-" + std::to_string(exitCode);
        result.exitCode = exitCode;
      }
      results.push_back(std::move(result));
    }
    fs::remove_all(folder, ec);
    return true;
  }

  /// Runs the runner to completion, heartbeating every heartbeatSeconds.
  /// Its exit status; -1 when it died of a signal; -2 (with `error`) when
  /// it could not be started or the archive failed.
  int runRunner(const Claim &claim, const std::vector<std::string> &args,
                const fs::path &logFile, std::string &error) {
    std::vector<char *> argv;
    for (const std::string &arg : args)
      argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t child = fork();
    if (child < 0) {
      error = "cannot start " + options.runner;
      return -2;
    }
    if (child == 0) {
      int fd = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
      }
      if (options.threads > 0)
        setenv("OMP_NUM_THREADS", std::to_string(options.threads).c_str(), 1);
      execv(argv[0], argv.data());
      _exit(127);
    }
    Clock::time_point lastBeat = Clock::now();
    int status = 0;
    while (true) {
      pid_t done = waitpid(child, &status, WNOHANG);
      if (done == child)
        break;
      if (done < 0 && errno != EINTR) {
        error = "lost the runner process";
        return -2;
      }
      if (msSince(lastBeat) >= options.heartbeatSeconds * 1000) {
        bool ours = true;
        if (!queue.heartbeat(claim, options.leaseSeconds, ours, error)) {
          kill(child, SIGKILL);
          waitpid(child, &status, 0);
          return -2;
        }
        if (!ours && !warnedLost) {
          warnedLost = true;
          say("the claim on job " + std::to_string(claim.jobId) +
              " was taken over; its result will be kept as superseded");
        }
        lastBeat = Clock::now();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (WIFEXITED(status)) {
      if (WEXITSTATUS(status) == 127) {
        error = "cannot run the runner " + options.runner + " (see " +
                logFile.string() + ")";
        return -2;
      }
      return WEXITSTATUS(status);
    }
    return -1;
  }

  const WorkerOptions &options;
  WorkQueue &queue;
  std::ostream &log;
  double materializeMs = 0;
  bool stalled = false, warnedLost = false;
};

void requestStop(int) { stopRequested = true; }

} // namespace

int runWorker(const WorkerOptions &options, std::ostream &log) {
  std::signal(SIGTERM, requestStop);
  std::signal(SIGINT, requestStop);
  std::string error;
  std::unique_ptr<WorkQueue> queue = WorkQueue::open(options.archive, error);
  if (!queue) {
    log << ("kbench-worker " + options.name + ": " + error + "\n");
    return 1;
  }
  log << ("kbench-worker " + options.name + ": serving " +
          queue->database().describe() + "\n");
  log.flush();
  return Worker(options, *queue, log).run();
}

} // namespace kbench::search
