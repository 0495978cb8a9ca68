//===- BaselineTimingsTest.cpp - Unit tests of the kept baseline timings --===//
//
// An entry is reused only on the GPU, driver and LibTorch that measured it
// and only for a day; recording keeps what another run wrote meanwhile; a
// file that is not one of ours is refused with its name and the field.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/BaselineTimings.h"
#include "kbench/Support/InputError.h"
#include "kbench/Support/Task.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace kbench;
using namespace kbench::runner;

namespace {

const TimingMachine kH100{"GPU-0123", "NVIDIA H100 80GB HBM3", "580.1",
                          "2.11.0"};
const int64_t kNow = 1'796'000'000; // 2026-11-30T00:53:20Z

/// A fresh path (no file there yet) in the temporary folder.
std::string tempPath() {
  static int count = 0;
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("kbench-baseline-timings-" + std::to_string(getpid()) + "-" +
       std::to_string(++count) + ".json");
  std::filesystem::remove(path);
  return path.string();
}

void write(const std::string &path, const std::string &text) {
  std::ofstream(path) << text;
}

nlohmann::json eager(double us) {
  return {{"eager_tf32_off", {{"median_us", us}, {"n", 1000}}}};
}

TEST(BaselineTimings, MissingFileHoldsNothingAndRecordCreatesIt) {
  std::string path = tempPath();
  BaselineTimingFile::check(path); // a missing file is fine
  BaselineTimingFile file(path, kH100, kNow);
  EXPECT_EQ(file.find("k flush=read"), nullptr);
  EXPECT_EQ(file.record("k flush=read", eager(12.5)), "");

  BaselineTimingFile again(path, kH100, kNow + 60);
  const nlohmann::json *found = again.find("k flush=read");
  ASSERT_NE(found, nullptr);
  EXPECT_DOUBLE_EQ((*found)["eager_tf32_off"]["median_us"].get<double>(), 12.5);
  EXPECT_EQ(again.measuredAt("k flush=read"), "2026-11-30T00:53:20Z");
  EXPECT_EQ(again.find("k flush=write"), nullptr);
  std::filesystem::remove(path);
}

TEST(BaselineTimings, OnlyTheSameGpuDriverAndTorchWithinADay) {
  std::string path = tempPath();
  BaselineTimingFile(path, kH100, kNow).record("k", eager(10));

  TimingMachine otherGpu = kH100, otherDriver = kH100, otherTorch = kH100,
                noUuid = kH100;
  otherGpu.gpuUuid = "GPU-4567";
  otherDriver.driver = "590.0";
  otherTorch.torch = "2.12.0";
  noUuid.gpuUuid = "";
  EXPECT_EQ(BaselineTimingFile(path, otherGpu, kNow).find("k"), nullptr);
  EXPECT_EQ(BaselineTimingFile(path, otherDriver, kNow).find("k"), nullptr);
  EXPECT_EQ(BaselineTimingFile(path, otherTorch, kNow).find("k"), nullptr);
  EXPECT_EQ(BaselineTimingFile(path, noUuid, kNow).find("k"), nullptr);
  EXPECT_NE(
      BaselineTimingFile(path, kH100, kNow + BaselineTimingFile::kMaxAgeSeconds)
          .find("k"),
      nullptr);
  EXPECT_EQ(BaselineTimingFile(path, kH100,
                               kNow + BaselineTimingFile::kMaxAgeSeconds + 1)
                .find("k"),
            nullptr);
  // A clock that went backwards is no reason to trust an entry "from the
  // future".
  EXPECT_EQ(BaselineTimingFile(path, kH100, kNow - 10).find("k"), nullptr);
  std::filesystem::remove(path);
}

TEST(BaselineTimings, RecordKeepsOtherRunsEntriesAndReplacesItsOwn) {
  std::string path = tempPath();
  BaselineTimingFile first(path, kH100, kNow);
  TimingMachine other = kH100;
  other.gpuUuid = "GPU-4567";
  BaselineTimingFile second(path, other, kNow);
  EXPECT_EQ(first.record("a", eager(1)), "");
  EXPECT_EQ(second.record("a", eager(2)),
            ""); // written after `first` read the file
  EXPECT_EQ(first.record("a", eager(3)), ""); // replaces first's own entry only

  nlohmann::json doc = nlohmann::json::parse(std::ifstream(path));
  ASSERT_EQ(doc["entries"].size(), 2u);
  EXPECT_DOUBLE_EQ(BaselineTimingFile(path, kH100, kNow)
                       .find("a")
                       ->at("eager_tf32_off")
                       .at("median_us"),
                   3.0);
  EXPECT_DOUBLE_EQ(BaselineTimingFile(path, other, kNow)
                       .find("a")
                       ->at("eager_tf32_off")
                       .at("median_us"),
                   2.0);
  std::filesystem::remove(path);
}

TEST(BaselineTimings, ForeignOrBrokenFilesAreRefusedByName) {
  std::string path = tempPath();
  auto refusal = [&](const std::string &text) {
    write(path, text);
    try {
      BaselineTimingFile::check(path);
    } catch (const InputError &e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal("{"),
            "--baseline-timings " + path +
                ": not JSON (delete it: the baselines are timed again)");
  EXPECT_NE(refusal("{\"format\": \"kbench-report\"}")
                .find("not a baseline timings file"),
            std::string::npos);
  EXPECT_NE(refusal("{\"format\": \"kbench-baseline-timings\", \"version\": 2, "
                    "\"entries\": []}")
                .find("version 2, this runner reads version 1"),
            std::string::npos);
  EXPECT_NE(refusal("{\"format\": \"kbench-baseline-timings\", \"version\": 1}")
                .find("\"entries\" is missing or not an array"),
            std::string::npos);
  EXPECT_NE(
      refusal(
          R"({"format": "kbench-baseline-timings", "version": 1, "entries": [
                {"key": "k", "gpu_uuid": "GPU-1", "driver": "d", "torch": "t",
                 "measured_unix_s": 5, "contestants": {"eager_tf32_off": {}}}]})")
          .find(
              "entries[0].contestants.eager_tf32_off has no numeric median_us"),
      std::string::npos);
  EXPECT_NE(
      refusal(
          R"({"format": "kbench-baseline-timings", "version": 1, "entries": [
                {"key": "k", "driver": "d", "torch": "t", "measured_unix_s": 5,
                 "contestants": {}}]})")
          .find("entries[0].gpu_uuid is missing or not a string"),
      std::string::npos);
  // Opening a broken file throws too (the worker's side of the same check).
  write(path, "{");
  EXPECT_THROW(BaselineTimingFile(path, kH100, kNow), InputError);
  std::filesystem::remove(path);
}

TEST(BaselineTimings, KeyNamesTheReferenceShapeTorchAndFlush) {
  Task task = parseTaskFile(std::string(KBENCH_SOURCE_DIR) + "/tasks/row_sum");
  SymbolValues dims = {{"M", 8}, {"N", 16}};
  std::string key = baselineTimingKey(task, dims, "2.11.0", "read");
  EXPECT_EQ(key.rfind("row_sum-", 0), 0u);
  EXPECT_NE(key.find("-M8_N16-f32-torch2.11.0 flush=read"), std::string::npos)
      << key;
  EXPECT_NE(key,
            baselineTimingKey(task, {{"M", 8}, {"N", 17}}, "2.11.0", "read"));
  EXPECT_NE(key, baselineTimingKey(task, dims, "2.11.0", "write"));
}

} // namespace
