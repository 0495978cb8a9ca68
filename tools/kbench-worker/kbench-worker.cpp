//===- kbench-worker.cpp - Evaluator workers of a search's archive --------===//
//
// Thin: flags in, one worker per GPU (or --workers N) out, each a child
// process running runWorker() (Worker.h) with its own CUDA_VISIBLE_DEVICES.
//
//===----------------------------------------------------------------------===//

#include "kbench/Archive/Database.h"
#include "kbench/Archive/Worker.h"
#include "kbench/Support/CommandLine.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>
#include <iostream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace kbench;

/// The workers of a multi-worker kbench-worker, told to finish their job in
/// hand and stop when the parent gets SIGTERM or SIGINT.
static std::vector<pid_t> children;
static void forwardStop(int signal) {
  for (pid_t child : children)
    kill(child, signal);
}

/// kbench-run next to this binary, else on PATH.
static std::string defaultRunner(const char *argv0) {
  std::error_code ec;
  fs::path self = fs::canonical("/proc/self/exe", ec);
  if (ec)
    self = fs::path(argv0);
  fs::path sibling = self.parent_path() / "kbench-run";
  if (fs::exists(sibling))
    return sibling.string();
  return "";
}

static std::string hostName() {
  char name[256] = {0};
  gethostname(name, sizeof(name) - 1);
  return name;
}

int main(int argc, char **argv) {
  search::WorkerOptions options;
  int workers = 0;
  cli::CommandLine cl(
      "kbench-worker",
      "Evaluate the candidates a search queued in its archive (kbench search\n"
      "--queue): claim a job, run kbench-run --batch on its bundles, write one\n"
      "result per bundle, heartbeat while it runs. Any number of workers on any\n"
      "number of machines serve one search; a worker that dies loses its claim\n"
      "when the lease runs out, by the database's clock, and another takes the\n"
      "job over. PostgreSQL's server and credentials come from the environment\n"
      "only (PGHOST, PGPORT, PGUSER, PGPASSWORD or ~/.pgpass, PGDATABASE).\n"
      "docs/search.md, \"Search across machines\".");
  cl.addString("archive", &options.archive, "ARCHIVE",
               "the search's archive: an SQLite file, or postgresql:NAME");
  cl.addInt("workers", &workers, "N",
            "worker processes (default: one per GPU in CUDA_VISIBLE_DEVICES, "
            "else per GPU of the driver; 1 without a GPU)",
            1);
  cl.addString("runner", &options.runner, "PATH",
               "kbench-run (default: the one next to kbench-worker)");
  cl.addString("name", &options.name, "NAME",
               "this worker's name in the archive (default: HOST:PID, with :gpuN)");
  cl.addString("work-dir", &options.workDir, "DIR",
               "scratch folder for jobs (default: $TMPDIR/kbench-worker-PID)");
  cl.addPositiveNumber("lease", &options.leaseSeconds, "SECONDS",
                       "how long a claim holds without a heartbeat (default 60)",
                       "seconds");
  cl.addPositiveNumber("heartbeat", &options.heartbeatSeconds, "SECONDS",
                       "seconds between heartbeats (default: a quarter of --lease)",
                       "seconds");
  double idleExit = 0;
  cl.addPositiveNumber("exit-when-idle", &idleExit, "SECONDS",
                       "exit after this long without a job (default: wait forever)",
                       "seconds");
  cl.addInt("max-jobs", &options.maxJobs, "N", "exit after N jobs (default: no limit)", 1);
  cl.addInt("threads", &options.threads, "N",
            "OMP_NUM_THREADS for the runner (default: the cores divided among "
            "--workers)",
            1);
  cl.addString(
      "baseline-timings", &options.baselineTimingsFile, "FILE",
      "kbench-run --baseline-timings FILE: keep the baselines' screening "
      "timings from job to job (workers may share FILE)");
  cl.addFlag("record-only", &options.recordOnly,
             "evaluate nothing, record a passing result at once (measures the "
             "queue's own overhead)");
  cl.addString("stats", &options.statsFile, "FILE",
               "append one JSON line per job: claim, materialize, evaluate and "
               "submit times in ms");
  cl.addPositiveNumber("testing-stall", &options.testingStallSeconds, "SECONDS",
                       "testing: after the first claim, wait this long without "
                       "heartbeats (a worker cut off from the database)",
                       "seconds");
  cl.setEpilog("exit status: 0 when every worker ended normally (idle, --max-jobs, "
               "SIGTERM), 1 when the archive\nfailed or a worker died, 2 on bad flags.\n");
  if (std::optional<int> exit = cl.parse(argv + 1, argv + argc))
    return *exit;
  if (options.archive.empty())
    return cl.usageError("--archive ARCHIVE is required (an SQLite file or postgresql:NAME)");
  if (!search::Database::isPostgres(options.archive) && !fs::exists(options.archive))
    return cl.usageError("there is no archive " + options.archive +
                         " (start the search with --queue first, or give postgresql:NAME)");
  if (!options.recordOnly) {
    if (options.runner.empty())
      options.runner = defaultRunner(argv[0]);
    if (options.runner.empty())
      return cl.usageError("no kbench-run next to kbench-worker; give --runner PATH");
    if (access(options.runner.c_str(), X_OK) != 0)
      return cl.usageError("--runner " + options.runner + " is not an executable file");
  }
  if (!options.baselineTimingsFile.empty())
    options.baselineTimingsFile =
        fs::absolute(options.baselineTimingsFile).string();
  if (!cl.wasGiven("heartbeat"))
    options.heartbeatSeconds = options.leaseSeconds / 4;
  if (options.heartbeatSeconds >= options.leaseSeconds)
    return cl.usageError("--heartbeat must be shorter than --lease");
  options.idleExitSeconds = cl.wasGiven("exit-when-idle") ? idleExit : -1;

  std::vector<std::string> gpus = search::visibleGpus();
  if (workers == 0)
    workers = gpus.empty() ? 1 : int(gpus.size());
  if (options.threads == 0) {
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    options.threads = std::max(1, int(cores) / workers);
  }
  std::string baseName = options.name.empty()
                             ? hostName() + ":" + std::to_string(getpid())
                             : options.name;
  if (options.workDir.empty()) {
    const char *tmp = std::getenv("TMPDIR");
    options.workDir = std::string(tmp ? tmp : "/tmp") + "/kbench-worker-" +
                      std::to_string(getpid());
  }

  if (workers == 1) {
    options.name = baseName;
    if (!gpus.empty() && !std::getenv("CUDA_VISIBLE_DEVICES"))
      setenv("CUDA_VISIBLE_DEVICES", gpus[0].c_str(), 1);
    return search::runWorker(options, std::cerr);
  }
  // One child per worker; the GPUs are dealt round-robin when there are
  // more workers than GPUs.
  std::signal(SIGTERM, forwardStop);
  std::signal(SIGINT, forwardStop);
  for (int i = 0; i < workers; ++i) {
    pid_t child = fork();
    if (child < 0) {
      std::cerr << "kbench-worker: cannot start worker " << i << "\n";
      break;
    }
    if (child == 0) {
      search::WorkerOptions mine = options;
      mine.name = baseName + "#" + std::to_string(i);
      mine.workDir = options.workDir + "/" + std::to_string(i);
      if (!gpus.empty()) {
        const std::string &gpu = gpus[size_t(i) % gpus.size()];
        setenv("CUDA_VISIBLE_DEVICES", gpu.c_str(), 1);
        mine.name += ":gpu" + gpu;
      }
      _exit(search::runWorker(mine, std::cerr));
    }
    children.push_back(child);
  }
  int exitCode = int(children.size()) == workers ? 0 : 1;
  for (pid_t child : children) {
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      exitCode = 1;
  }
  return exitCode;
}
