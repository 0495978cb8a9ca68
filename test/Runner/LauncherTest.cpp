//===- LauncherTest.cpp - Unit tests for binding kernel arguments ---------===//
//
// bind() without a GPU: a module that records the tensor maps it is asked to
// encode stands in for the driver, so the argument slots, the geometry of
// dense buffers and views, the zero-bytes rules of tma_descriptor params and
// the refusal messages are pinned on CI.
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
    TensorMapGeometry geometry;
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
  bool encodeTensorMap(const ResolvedLaunch::TensorMapSpec &map,
                       const TensorMapGeometry &geometry, void *address, void *map128,
                       std::string &error) const override {
    encoded.push_back({map, geometry, address, map128});
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

TEST(Launcher, TensorMapGeometryIsInnermostFirst) {
  // Dense bf16 [4, 64, 128]: row-major strides [8192, 128, 1].
  TensorMapGeometry dense =
      tensorMapGeometry(DType::BF16, {4, 64, 128}, {8192, 128, 1}, {2, 8, 64});
  EXPECT_EQ(dense.globalDim, (std::vector<uint64_t>{128, 64, 4}));
  EXPECT_EQ(dense.globalStrides, (std::vector<uint64_t>{256, 16384}));
  EXPECT_EQ(dense.boxDim, (std::vector<uint32_t>{64, 8, 2}));
  EXPECT_EQ(tensorMapGeometry(DType::F32, {3, 5}, {5, 1}, {1, 4}).globalStrides,
            (std::vector<uint64_t>{20}));
  EXPECT_TRUE(tensorMapGeometry(DType::F32, {777}, {1}, {4}).globalStrides.empty());
}

TEST(Launcher, TensorMapNeeds16ByteAddressAndStrides) {
  const void *aligned = reinterpret_cast<const void *>(0x10000);
  auto dense = [](DType dtype, std::vector<int64_t> extents) {
    std::vector<int64_t> strides(extents.size(), 1);
    for (size_t d = extents.size(); d-- > 1;)
      strides[d - 1] = strides[d] * extents[d];
    return tensorMapGeometry(dtype, extents, strides, extents);
  };
  EXPECT_TRUE(tensorMapCanAddress(aligned, dense(DType::BF16, {64, 128})));
  // A bf16 row of 777 elements is 1554 bytes.
  EXPECT_FALSE(tensorMapCanAddress(aligned, dense(DType::BF16, {64, 777})));
  EXPECT_FALSE(tensorMapCanAddress(reinterpret_cast<const void *>(0x10008),
                                   dense(DType::BF16, {64, 128})));
  // Only the outer axes have strides: one axis needs only the address.
  EXPECT_TRUE(tensorMapCanAddress(aligned, dense(DType::BF16, {777})));
  // f32 [2, 3, 4] has strides of 16 and 48 bytes; f32 [2, 4, 3] of 12 and 48.
  EXPECT_TRUE(tensorMapCanAddress(aligned, dense(DType::F32, {2, 3, 4})));
  EXPECT_FALSE(tensorMapCanAddress(aligned, dense(DType::F32, {2, 4, 3})));
  // A view's strides, not its extents, decide: rows 8 bf16 (16 bytes) apart
  // pass even though the view's extents (3, 5) would not as a dense buffer.
  EXPECT_TRUE(tensorMapCanAddress(aligned, tensorMapGeometry(DType::BF16, {3, 5}, {8, 1}, {1, 8})));
  EXPECT_FALSE(tensorMapCanAddress(aligned, tensorMapGeometry(DType::BF16, {3, 5}, {5, 1}, {1, 8})));
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
  EXPECT_EQ(call.map.shape, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(call.map.strides, (std::vector<int64_t>{128, 1}));
  EXPECT_EQ(call.map.box, (std::vector<int64_t>{8, 64}));
  EXPECT_EQ(call.geometry.globalDim, (std::vector<uint64_t>{128, 64}));
  EXPECT_EQ(call.geometry.globalStrides, (std::vector<uint64_t>{256}));
  EXPECT_EQ(call.geometry.boxDim, (std::vector<uint32_t>{64, 8}));
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

/// kManifest with X.tma a 5-D view of x: rows regrouped so that one box
/// lands them in a permuted order. `outerStride` is the stride of axis 0.
Manifest viewManifest(const std::string &outerStride = "64 * K") {
  nlohmann::json doc = nlohmann::json::parse(kManifest);
  doc["kernels"][0]["params"][kTensorMapArg] = {
      {"name", "X.tma.view"},
      {"kind", "tma_descriptor"},
      {"dtype", "bf16"},
      {"dims", {4, 2, 4, 8, 64}},
      {"swizzle", 128},
      {"view",
       {{"shape", {"floordiv(M, 64)", "4", "2", "8", "K"}},
        {"strides", {outerStride, "8 * K", "32 * K", "K", "1"}}}}};
  return parseManifest(doc, "manifest.json");
}

TEST(Launcher, BindEncodesAViewOfTheBuffer) {
  Manifest m = viewManifest();
  RecordingModule module(m);
  // M = 128, K = 64: view [2, 4, 2, 8, 64], strides [4096, 512, 2048, 64, 1];
  // its last element is 4096 + 3 * 512 + 2048 + 7 * 64 + 63 = 8191, the
  // buffer's last.
  LaunchSequence seq = bindAt(module, m, 128, 64, 0x10000);
  ASSERT_EQ(module.encoded.size(), 1u);
  const RecordingModule::Encoded &call = module.encoded[0];
  EXPECT_EQ(call.address, reinterpret_cast<void *>(0x10000));
  EXPECT_EQ(call.map.shape, (std::vector<int64_t>{2, 4, 2, 8, 64}));
  EXPECT_EQ(call.map.strides, (std::vector<int64_t>{4096, 512, 2048, 64, 1}));
  EXPECT_EQ(call.map.bufferElements, 128 * 64);
  // The driver's order: innermost first, strides in bytes without the
  // innermost axis.
  EXPECT_EQ(call.geometry.globalDim, (std::vector<uint64_t>{64, 8, 2, 4, 2}));
  EXPECT_EQ(call.geometry.globalStrides, (std::vector<uint64_t>{128, 4096, 1024, 8192}));
  EXPECT_EQ(call.geometry.boxDim, (std::vector<uint32_t>{64, 8, 4, 2, 4}));
  EXPECT_TRUE(allBytesAre(seq.entries[0].params[kTensorMapArg], 0xab));
}

TEST(Launcher, BindPassesZerosForAnEmptyView) {
  Manifest m = viewManifest();
  RecordingModule module(m);
  // floordiv(16, 64) = 0 rows of groups: the kernel has no box to load.
  LaunchSequence seq = bindAt(module, m, 16, 64, 0x10000);
  EXPECT_TRUE(allBytesAre(seq.entries[0].params[kTensorMapArg], 0));
  EXPECT_TRUE(module.encoded.empty());
}

TEST(Launcher, BindRefusesAViewPastItsBuffer) {
  Manifest m = viewManifest("65 * K");
  RecordingModule module(m);
  try {
    // Even where TMA could not address it (odd address): never encoded.
    bindAt(module, m, 128, 64, 0x10008);
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'mm' param 'X.tma.view': the view of buffer 'x' (shape [2, 4, 2, 8, "
              "64], strides [4160, 512, 2048, 64, 1]) reaches elements 0..8255, but the "
              "buffer has 8192 elements (0..8191); the view must stay inside its buffer at "
              "every shape the kernel runs");
  }
  EXPECT_TRUE(module.encoded.empty());
}

} // namespace
