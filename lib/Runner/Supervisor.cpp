//===- Supervisor.cpp - fork, pipe, poll, watchdog ------------------------===//
//
// POSIX only. The child leaves through _exit so that LibTorch's static
// destructors, which belong to the parent's image, never run twice.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Supervisor.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kbench::runner {

namespace {

volatile sig_atomic_t childPid = 0;

/// Ctrl-C or a kill of the runner takes the worker (and its GPU work) along.
void forwardAndExit(int sig) {
  if (childPid > 0)
    kill(childPid, SIGKILL);
  _exit(128 + sig);
}

} // namespace

std::string WorkerResult::signalName() const {
  const char *abbrev = nullptr;
  switch (status) {
  case SIGSEGV:
    abbrev = "SIGSEGV";
    break;
  case SIGBUS:
    abbrev = "SIGBUS";
    break;
  case SIGFPE:
    abbrev = "SIGFPE";
    break;
  case SIGILL:
    abbrev = "SIGILL";
    break;
  case SIGABRT:
    abbrev = "SIGABRT";
    break;
  case SIGKILL:
    abbrev = "SIGKILL";
    break;
  default:
    break;
  }
  std::string text = strsignal(status) ? strsignal(status) : "unknown signal";
  return (abbrev ? std::string(abbrev) : "signal " + std::to_string(status)) + " (" + text + ")";
}

WorkerResult superviseWorker(const std::function<int(int fd)> &body, double timeoutSeconds,
                             const std::function<void(const nlohmann::json &)> &onMessage) {
  WorkerResult result;
  auto t0 = std::chrono::steady_clock::now();
  int fds[2];
  if (pipe(fds) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return result;
  }
  if (pid == 0) {
    close(fds[0]);
    dup2(STDERR_FILENO, STDOUT_FILENO); // stdout belongs to the parent's report
    int status = body(fds[1]);
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(status);
  }
  close(fds[1]);
  childPid = pid;
  struct sigaction sa = {}, oldInt = {}, oldTerm = {};
  sa.sa_handler = forwardAndExit;
  sigaction(SIGINT, &sa, &oldInt);
  sigaction(SIGTERM, &sa, &oldTerm);

  std::string buffer;
  auto lastHeard = std::chrono::steady_clock::now();
  bool timedOut = false;
  char chunk[65536];
  while (true) {
    double silent = std::chrono::duration<double>(std::chrono::steady_clock::now() - lastHeard).count();
    double left = timeoutSeconds - silent;
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min(left, 1.0) * 1000) + 1);
    if (ready < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (ready == 0)
      continue;
    ssize_t n = read(fds[0], chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // EOF: the child closed the pipe (exited or died)
    lastHeard = std::chrono::steady_clock::now();
    buffer.append(chunk, static_cast<size_t>(n));
    size_t newline;
    while ((newline = buffer.find('\n')) != std::string::npos) {
      std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      nlohmann::json message = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (message.is_discarded())
        continue; // a torn line from a dying worker
      if (message.value("type", "") == "progress")
        result.lastProgress = message;
      if (onMessage)
        onMessage(message);
      else
        result.messages.push_back(std::move(message));
    }
  }
  if (timedOut)
    kill(pid, SIGKILL);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  childPid = 0;
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGTERM, &oldTerm, nullptr);

  if (timedOut) {
    result.end = WorkerResult::End::TimedOut;
  } else if (WIFSIGNALED(status)) {
    result.end = WorkerResult::End::Signaled;
    result.status = WTERMSIG(status);
  } else {
    result.end = WorkerResult::End::Exited;
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

} // namespace kbench::runner
