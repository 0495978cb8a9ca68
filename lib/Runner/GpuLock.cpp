//===- GpuLock.cpp - One timed region at a time per GPU -------------------===//
//
// A non-blocking flock polled every 10 ms rather than a blocking one: the
// worker must keep telling its supervisor that it is alive while it waits.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/GpuLock.h"

#include "kbench/Support/InputError.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace kbench::runner {

namespace {

double epochSeconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

} // namespace

std::string GpuLock::path(int ordinal) {
  const char *dir = std::getenv("KBENCH_GPU_LOCK_DIR");
  std::string base = dir && *dir ? dir : "/tmp";
  return base + "/kbench-gpu-" + std::to_string(ordinal) + ".lock";
}

double GpuLock::hostHoldSeconds() {
  const char *s = std::getenv("KBENCH_GPU_LOCK_ON_HOST");
  if (!s || !*s)
    return 0;
  char *end = nullptr;
  double v = std::strtod(s, &end);
  return end && *end == '\0' && v > 0 ? v : 0;
}

GpuLock::GpuLock(int ordinal, const std::function<void()> &waitingFn) : file(path(ordinal)) {
  fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0)
    throw InputError(file + ": cannot open the GPU timing lock: " + std::strerror(errno) +
                     " (set KBENCH_GPU_LOCK_DIR to a writable folder)");
  auto t0 = std::chrono::steady_clock::now();
  auto lastSaid = t0;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      std::string why = std::strerror(errno);
      ::close(fd);
      throw InputError(file + ": cannot take the GPU timing lock: " + why);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto now = std::chrono::steady_clock::now();
    if (waitingFn && now - lastSaid >= std::chrono::seconds(1)) {
      waitingFn();
      lastSaid = now;
    }
  }
  waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  acquiredAt = std::chrono::system_clock::now();
}

GpuLock::~GpuLock() {
  if (fd >= 0)
    ::close(fd); // closing the only descriptor drops the flock
}

nlohmann::json GpuLock::release() {
  auto releasedAt = std::chrono::system_clock::now();
  if (fd >= 0) {
    ::flock(fd, LOCK_UN);
    ::close(fd);
    fd = -1;
  }
  return {{"file", file},
          {"waited_s", waited},
          {"held_s", std::chrono::duration<double>(releasedAt - acquiredAt).count()},
          {"acquired_at", epochSeconds(acquiredAt)},
          {"released_at", epochSeconds(releasedAt)}};
}

} // namespace kbench::runner
