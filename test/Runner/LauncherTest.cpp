//===- LauncherTest.cpp - Unit tests for binding kernel arguments ---------===//
//
// bind() without a GPU: a module that records the tensor maps it is asked to
// encode stands in for the driver, so the argument slots, the zero-bytes rule
// of tma_descriptor params and the refusal message are pinned on CI.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/CudaDriver.h"
#include "kbench/Runner/Launcher.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace kbench;
using namespace kbench::runner;

namespace {

const char *kManifest = R"json({
  "format": "kbench-bundle/1", "target": "sm_90a", "task": "matmul",
  "buffers": [
    {"name": "x", "dtype": "bf16", "shape": ["M", "K"], "role": "input"},
    {"name": "y", "dtype": "f32", "shape": ["M"], "role": "output"}
  ],
  "kernels": [{
    "name": "mm",
    "params": [
      {"name": "X", "kind": "memref", "dtype": "bf16", "dims": ["M", "K"]},
      {"name": "M", "kind": "dim"},
      {"name": "X.tma", "kind": "tma_descriptor", "dtype": "bf16", "dims": [8, 64],
       "swizzle": 128}
    ],
    "grid": ["1", "1", "1"], "block": [128, 1, 1]
  }],
  "launches": [{"kernel": "mm", "args": ["x", "M", "x"]}]
})json";

constexpr size_t kTensorMapArg = 2;

/// A GPU module whose "driver" records every tensor map it encodes and
/// fills it with 0xab (or refuses, when told to).
class RecordingModule : public KernelModule {
public:
  struct Encoded {
    ResolvedLaunch::TensorMapSpec map;
    void *address;
    void *map128;
  };

  explicit RecordingModule(const Manifest &m) { manifest = &m; }
  std::string loadedFrom() const override { return "recording"; }

  mutable std::vector<Encoded> encoded;
  bool refuse = false;

protected:
  void *function(size_t) const override { return nullptr; }
  bool onGpu() const override { return true; }
  bool encodeTensorMap(const ResolvedLaunch::TensorMapSpec &map, void *address, void *map128,
                       std::string &error) const override {
    encoded.push_back({map, address, map128});
    if (refuse) {
      error = "CUDA_ERROR_INVALID_VALUE (invalid argument)";
      return false;
    }
    std::memset(map128, 0xab, 128);
    return true;
  }
};

/// bind() at M x K with buffer x at `address`.
LaunchSequence bindAt(const RecordingModule &module, const Manifest &m, int64_t rows,
                      int64_t cols, uintptr_t address) {
  std::vector<ResolvedLaunch> launches = resolveLaunches(m, {{"M", rows}, {"K", cols}});
  std::map<std::string, void *> pointers = {{"x", reinterpret_cast<void *>(address)},
                                            {"y", reinterpret_cast<void *>(0x20000)}};
  return module.bind(launches, pointers, {});
}

bool allBytesAre(const void *slot, unsigned char value) {
  const auto *bytes = static_cast<const unsigned char *>(slot);
  for (size_t i = 0; i < 128; ++i)
    if (bytes[i] != value)
      return false;
  return true;
}

TEST(Launcher, DenseTensorMapStridesAreInnermostFirst) {
  EXPECT_EQ(denseTensorMapStrides(DType::BF16, {4, 64, 128}),
            (std::vector<uint64_t>{256, 16384}));
  EXPECT_EQ(denseTensorMapStrides(DType::F32, {3, 5}), (std::vector<uint64_t>{20}));
  EXPECT_TRUE(denseTensorMapStrides(DType::F32, {777}).empty());
}

TEST(Launcher, TensorMapNeeds16ByteAddressAndStrides) {
  const void *aligned = reinterpret_cast<const void *>(0x10000);
  EXPECT_TRUE(tensorMapCanAddress(aligned, DType::BF16, {64, 128}));
  // A bf16 row of 777 elements is 1554 bytes.
  EXPECT_FALSE(tensorMapCanAddress(aligned, DType::BF16, {64, 777}));
  EXPECT_FALSE(tensorMapCanAddress(reinterpret_cast<const void *>(0x10008), DType::BF16,
                                   {64, 128}));
  // Only the outer axes have strides: one axis needs only the address.
  EXPECT_TRUE(tensorMapCanAddress(aligned, DType::BF16, {777}));
  // f32 [2, 3, 4] has strides of 16 and 48 bytes; f32 [2, 4, 3] of 12 and 48.
  EXPECT_TRUE(tensorMapCanAddress(aligned, DType::F32, {2, 3, 4}));
  EXPECT_FALSE(tensorMapCanAddress(aligned, DType::F32, {2, 4, 3}));
}

TEST(Launcher, BindEncodesTensorMapsInAlignedSlots) {
  Manifest m = parseManifest(nlohmann::json::parse(kManifest), "manifest.json");
  RecordingModule module(m);
  LaunchSequence seq = bindAt(module, m, 64, 128, 0x10000);
  ASSERT_EQ(seq.entries.size(), 1u);
  const LaunchSequence::Entry &e = seq.entries[0];
  ASSERT_EQ(e.params.size(), 3u);
  for (size_t i = 0; i < e.params.size(); ++i) {
    EXPECT_EQ(e.params[i], static_cast<const void *>(e.storage[i].bytes)) << i;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(e.params[i]) % 64, 0u) << i;
  }

  ASSERT_EQ(module.encoded.size(), 1u);
  const RecordingModule::Encoded &call = module.encoded[0];
  EXPECT_EQ(call.address, reinterpret_cast<void *>(0x10000));
  EXPECT_EQ(call.map128, e.params[kTensorMapArg]);
  EXPECT_EQ(call.map.dtype, DType::BF16);
  EXPECT_EQ(call.map.extents, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(call.map.box, (std::vector<int64_t>{8, 64}));
  EXPECT_EQ(call.map.swizzleBytes, 128);
  EXPECT_TRUE(allBytesAre(e.params[kTensorMapArg], 0xab));

  // The 8-byte kinds are unchanged: the pointer, then the dim.
  void *pointer = nullptr;
  std::memcpy(&pointer, e.params[0], sizeof(pointer));
  EXPECT_EQ(pointer, reinterpret_cast<void *>(0x10000));
  int64_t dim = 0;
  std::memcpy(&dim, e.params[1], sizeof(dim));
  EXPECT_EQ(dim, 64);
}

TEST(Launcher, BindPassesZerosWhereTmaCannotAddressTheBuffer) {
  Manifest m = parseManifest(nlohmann::json::parse(kManifest), "manifest.json");
  RecordingModule module(m);
  // A row of 777 bf16 is not a multiple of 16 bytes.
  LaunchSequence oddRow = bindAt(module, m, 64, 777, 0x10000);
  EXPECT_TRUE(allBytesAre(oddRow.entries[0].params[kTensorMapArg], 0));
  // Nor is an address 8 bytes past a 16-byte boundary.
  LaunchSequence oddAddress = bindAt(module, m, 64, 128, 0x10008);
  EXPECT_TRUE(allBytesAre(oddAddress.entries[0].params[kTensorMapArg], 0));
  EXPECT_TRUE(module.encoded.empty());
}

TEST(Launcher, DriverRefusalNamesKernelParamAndBuffer) {
  Manifest m = parseManifest(nlohmann::json::parse(kManifest), "manifest.json");
  RecordingModule module(m);
  module.refuse = true;
  try {
    bindAt(module, m, 64, 128, 0x10000);
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'mm' param 'X.tma': cannot encode the tensor map over buffer 'x': "
              "CUDA_ERROR_INVALID_VALUE (invalid argument)");
  }
}

} // namespace
