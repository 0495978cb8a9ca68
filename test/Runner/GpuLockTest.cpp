//===- GpuLockTest.cpp - Unit tests of the per-GPU timing lock ------------===//
//
// Two processes and one lock file: while a child holds GPU 0's lock, the
// parent's acquisition waits until the child lets go, and GPU 1's lock does
// not wait at all. The child is a fork, as the runner's workers are.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/GpuLock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace kbench;
using namespace kbench::runner;

namespace {

class GpuLockTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("kbench-gpulock-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    setenv("KBENCH_GPU_LOCK_DIR", dir.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("KBENCH_GPU_LOCK_DIR");
    std::filesystem::remove_all(dir);
  }
  std::filesystem::path dir;
};

TEST_F(GpuLockTest, PathFollowsTheEnvironment) {
  EXPECT_EQ(GpuLock::path(3), (dir / "kbench-gpu-3.lock").string());
  unsetenv("KBENCH_GPU_LOCK_DIR");
  EXPECT_EQ(GpuLock::path(0), "/tmp/kbench-gpu-0.lock");
}

TEST_F(GpuLockTest, SecondHolderWaitsForTheFirst) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    GpuLock lock(0);
    char c = 1;
    (void)!write(ready[1], &c, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    _exit(0); // exiting drops the lock, as a killed worker's would be
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1); // the child holds it now

  // Another GPU's lock is independent.
  auto t0 = std::chrono::steady_clock::now();
  {
    GpuLock other(1);
    EXPECT_LT(other.waitedSeconds(), 0.2);
  }

  int heartbeats = 0;
  GpuLock lock(0, [&] { ++heartbeats; });
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(waited, 0.3);
  EXPECT_GE(lock.waitedSeconds(), 0.25);
  nlohmann::json hold = lock.release();
  EXPECT_EQ(hold["file"], GpuLock::path(0));
  EXPECT_GE(hold["released_at"].get<double>(), hold["acquired_at"].get<double>());
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_F(GpuLockTest, HeartbeatWhileWaiting) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    GpuLock lock(0);
    char c = 1;
    (void)!write(ready[1], &c, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(2300));
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  int heartbeats = 0;
  GpuLock lock(0, [&] { ++heartbeats; });
  EXPECT_GE(heartbeats, 2); // about one a second, so the watchdog hears from us
  waitpid(child, nullptr, 0);
}

TEST_F(GpuLockTest, UnwritableFolderIsAnError) {
  setenv("KBENCH_GPU_LOCK_DIR", (dir / "missing" / "deeper").c_str(), 1);
  try {
    GpuLock lock(0);
    FAIL() << "expected an InputError";
  } catch (const std::exception &e) {
    EXPECT_NE(std::string(e.what()).find("cannot open the GPU timing lock"), std::string::npos);
  }
}

TEST(GpuLockHost, HoldFromTheEnvironment) {
  unsetenv("KBENCH_GPU_LOCK_ON_HOST");
  EXPECT_EQ(GpuLock::hostHoldSeconds(), 0);
  setenv("KBENCH_GPU_LOCK_ON_HOST", "0.25", 1);
  EXPECT_DOUBLE_EQ(GpuLock::hostHoldSeconds(), 0.25);
  setenv("KBENCH_GPU_LOCK_ON_HOST", "soon", 1);
  EXPECT_EQ(GpuLock::hostHoldSeconds(), 0);
  unsetenv("KBENCH_GPU_LOCK_ON_HOST");
}

} // namespace
