//===- ManifestTest.cpp - Unit tests for the bundle manifest loader -------===//
//
// The manifest is cross-checked against its task; requires facts and grids
// are evaluated per shape.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Manifest.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace kbench;
using namespace kbench::runner;

namespace {

const char *kTask = R"json({
  "name": "row_sum",
  "inputs": [{"name": "x", "shape": ["M", "N"], "dtype": "f32"}],
  "outputs": [{"name": "y", "shape": ["M"], "dtype": "f32"}],
  "reference": [{"op": "aten::sum.dim_IntList", "args": ["x", [1]], "out": "y"}],
  "shapes": {"tune": [{"M": 64, "N": 64}], "check": [{"M": 7, "N": 63}]}
})json";

const char *kManifest = R"json({
  "format": "kbench-bundle/1", "target": "host", "task": "row_sum",
  "buffers": [
    {"name": "x", "dtype": "f32", "shape": ["M", "N"], "role": "input"},
    {"name": "y", "dtype": "f32", "shape": ["M"], "role": "output"},
    {"name": "partial", "dtype": "f32", "shape": ["M", "ceildiv(N, 32)"], "role": "temporary"}
  ],
  "kernels": [{
    "name": "row_sum", "symbol": "row_sum_k",
    "params": [
      {"name": "X", "kind": "memref", "dtype": "f32", "dims": ["M", "N"]},
      {"name": "Y", "kind": "memref", "dtype": "f32", "dims": ["M"]},
      {"name": "M", "kind": "dim"}, {"name": "N", "kind": "dim"}
    ],
    "grid": ["ceildiv(M, 8)", "1", "1"], "block": [256, 1, 1],
    "requires": ["N % 1 == 0", "M <= 4096"]
  }],
  "launches": [{"kernel": "row_sum", "args": ["x", "y", "M", "N"]}]
})json";

Task task() { return parseTask(nlohmann::json::parse(kTask), "task.json"); }

/// A bundle folder holding `manifest`, an empty kernel.so and an empty
/// kernel.ptx (the files the host and sm_90a checks look for).
std::filesystem::path bundle(const nlohmann::json &manifest, const std::string &name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("kbench-manifest-" + name);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "manifest.json") << manifest.dump();
  std::ofstream(dir / "kernel.so") << "";
  std::ofstream(dir / "kernel.ptx") << "";
  return dir;
}

/// kManifest for sm_90a, with a trailing tensor map param over `x`.
nlohmann::json tmaManifest() {
  nlohmann::json doc = nlohmann::json::parse(kManifest);
  doc["target"] = "sm_90a";
  doc["kernels"][0]["params"].push_back({{"name", "X.tma"},
                                         {"kind", "tma_descriptor"},
                                         {"dtype", "f32"},
                                         {"dims", {"8", "32"}},
                                         {"swizzle", 128}});
  doc["launches"][0]["args"].push_back("x");
  return doc;
}

std::string checkError(const nlohmann::json &manifest, const std::string &target = "host") {
  Task t = task();
  try {
    Manifest m = parseManifest(manifest, "manifest.json");
    m.dir = bundle(manifest, "check");
    checkManifestAgainstTask(m, t, target);
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

TEST(Manifest, ParsesAndMatchesItsTask) {
  nlohmann::json doc = nlohmann::json::parse(kManifest);
  EXPECT_EQ(checkError(doc), "");
  Manifest m = parseManifest(doc, "manifest.json");
  EXPECT_EQ(m.kernels[0].symbol, "row_sum_k");
  ASSERT_EQ(m.kernels[0].requirements.size(), 2u);
  std::vector<ResolvedLaunch> l = resolveLaunches(m, {{"M", 17}, {"N", 5}});
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].grid, (std::array<int64_t, 3>{3, 1, 1}));
  EXPECT_EQ(l[0].args[0].buffer, "x");
  EXPECT_EQ(l[0].args[3].dim, 5);
  EXPECT_EQ(bufferExtents(m.buffers[2], {{"M", 7}, {"N", 65}}), (std::vector<int64_t>{7, 3}));
}

TEST(Manifest, ResolvesTensorMapArgs) {
  nlohmann::json doc = tmaManifest();
  EXPECT_EQ(checkError(doc, "sm_90a"), "");
  Manifest m = parseManifest(doc, "manifest.json");
  std::vector<ResolvedLaunch> l = resolveLaunches(m, {{"M", 17}, {"N", 5}});
  ASSERT_EQ(l.at(0).args.size(), 5u);
  const ResolvedLaunch::Arg &arg = l[0].args[4];
  EXPECT_EQ(arg.kind, KernelParamSpec::Kind::TmaDescriptor);
  EXPECT_EQ(arg.buffer, "x");
  EXPECT_EQ(arg.tensorMap.dtype, DType::F32);
  EXPECT_EQ(arg.tensorMap.shape, (std::vector<int64_t>{17, 5}));
  EXPECT_EQ(arg.tensorMap.strides, (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(arg.tensorMap.bufferElements, 85);
  EXPECT_EQ(arg.tensorMap.box, (std::vector<int64_t>{8, 32}));
  EXPECT_EQ(arg.tensorMap.swizzleBytes, 128);
  // Memref args carry no tensor map.
  EXPECT_TRUE(l[0].args[0].tensorMap.shape.empty());
}

TEST(Manifest, RequiresFactsPerShape) {
  Manifest m = parseManifest(nlohmann::json::parse(kManifest), "manifest.json");
  EXPECT_TRUE(violatedRequires(m, {{"M", 4096}, {"N", 3}}).empty());
  std::vector<std::string> v = violatedRequires(m, {{"M", 4097}, {"N", 3}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("kernel 'row_sum' requires 'M <= 4096', false at M=4097"),
            std::string::npos)
      << v[0];
}

/// kManifest as a dispatch bundle: variant "big" (M >= 64) launches a copy
/// of the kernel with a 64-row grid and requires N % 4 == 0; the fallback
/// "small" launches the original.
nlohmann::json dispatchManifest() {
  nlohmann::json doc = nlohmann::json::parse(kManifest);
  nlohmann::json big = doc["kernels"][0];
  big["name"] = "row_sum__big";
  big["symbol"] = "row_sum__big";
  big["grid"] = {"ceildiv(M, 64)", "1", "1"};
  big["requires"] = {"N % 4 == 0"};
  doc["kernels"].push_back(big);
  nlohmann::json launches = doc["launches"];
  doc.erase("launches");
  nlohmann::json bigLaunches = launches;
  bigLaunches[0]["kernel"] = "row_sum__big";
  doc["dispatch"] = {{{"name", "big"}, {"when", {"M >= 64"}}, {"launches", bigLaunches}},
                     {{"name", "small"}, {"launches", launches}}};
  return doc;
}

TEST(Manifest, DispatchPicksTheFirstVariantWhoseFactsHold) {
  nlohmann::json doc = dispatchManifest();
  EXPECT_EQ(checkError(doc), "");
  Manifest m = parseManifest(doc, "manifest.json");
  EXPECT_EQ(selectVariant(m, {{"M", 64}, {"N", 8}}), 0u);
  EXPECT_EQ(selectVariant(m, {{"M", 63}, {"N", 8}}), 1u);
  std::vector<ResolvedLaunch> big = resolveLaunches(m, {{"M", 130}, {"N", 8}});
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big[0].kernel, 1u);
  EXPECT_EQ(big[0].grid[0], 3);
  std::vector<ResolvedLaunch> small = resolveLaunches(m, {{"M", 17}, {"N", 8}});
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].kernel, 0u);
  EXPECT_EQ(small[0].grid[0], 3);
  // Only the kernels of the chosen variant must hold their requires: N = 3
  // breaks "big"'s N % 4 == 0, which matters at M = 64 and not at M = 7.
  EXPECT_TRUE(violatedRequires(m, {{"M", 7}, {"N", 3}}).empty());
  std::vector<std::string> v = violatedRequires(m, {{"M", 64}, {"N", 3}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("kernel 'row_sum__big' requires 'N % 4 == 0', false at N=3"),
            std::string::npos)
      << v[0];
  // A fact over a dim the shape lacks is an error, not a silent fallback.
  try {
    selectVariant(m, {{"N", 8}});
    ADD_FAILURE() << "no error for a missing dim";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("dispatch[0]: when 'M >= 64' cannot be evaluated"),
              std::string::npos)
        << e.what();
  }
}

TEST(Manifest, EveryDispatchVariantWritesEveryOutput) {
  nlohmann::json doc = dispatchManifest();
  doc["dispatch"][1]["launches"][0]["args"][1] = "partial";
  doc["kernels"][0]["params"][1]["dims"] = {"M", "ceildiv(N, 32)"};
  EXPECT_NE(checkError(doc).find("dispatch[1].launches: output 'y' is never passed to a "
                                 "kernel, so nothing writes it"),
            std::string::npos)
      << checkError(doc);
}

TEST(Manifest, ErrorsNameTheField) {
  struct Case {
    const char *pointer;
    nlohmann::json value;
    const char *expected;
  };
  const Case cases[] = {
      {"/format", "kbench-bundle/2", "format: unsupported bundle format"},
      {"/target", "sm_80", "target: unknown target 'sm_80'"},
      {"/kernels/0/grid", {"1", "1"}, "kernels[0].grid: needs 3 expressions"},
      {"/kernels/0/grid/0", "ceildiv(M,", "kernels[0].grid[0]: 'ceildiv(M,' is not a shape"},
      {"/kernels/0/block/0", 2048, "kernels[0].block[0]: block sizes are 1..1024"},
      {"/kernels/0/block", {256, 8, 1}, "kernels[0].block: a block of 2048 threads exceeds the 1024 of sm_90a"},
      {"/kernels/0/dynamic_shared_memory", 300000,
       "kernels[0].dynamic_shared_memory: 300000 bytes is outside 0..232448"},
      {"/kernels/0/requires/0", "N %", "kernels[0].requires[0]: 'N %' is not a fact"},
      {"/kernels/0/params/0/kind", "pointer", "kernels[0].params[0].kind: unknown kind"},
      {"/launches/0/kernel", "other", "launches[0].kernel: no kernel named 'other'"},
      {"/launches/0/args", {"x", "y", "M"}, "launches[0].args: 3 arguments for kernel 'row_sum'"},
      {"/buffers/0/role", "scratch", "buffers[0].role: unknown role 'scratch'"},
  };
  for (const Case &c : cases) {
    nlohmann::json doc = nlohmann::json::parse(kManifest);
    doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    std::string error = checkError(doc);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.pointer << ": got '" << error << "'";
  }
}

TEST(Manifest, MustImplementItsTask) {
  struct Case {
    const char *pointer;
    nlohmann::json value;
    const char *expected;
  };
  const Case cases[] = {
      {"/task", "row_max", "task: the bundle is for task 'row_max', not 'row_sum'"},
      {"/buffers/0/dtype", "f16", "buffer 'x': dtype f16 but the task's inputs[0] is f32"},
      {"/buffers/0/name", "xx", "buffers: no buffer named 'x'"},
      {"/buffers/1/shape", {"N"}, "buffer 'y': shape[0] 'N' is 63 at check[0] {M=7, N=63}"},
      {"/buffers/1/role", "input", "buffer 'y': role must be 'output'"},
      {"/kernels/0/params/1/dims", {"N"},
       "launches[0].args[1] 'y' (kernel 'row_sum' param 'Y'): dims[0] 'N' is 63 but the "
       "buffer has 7 at check[0] {M=7, N=63}"},
      {"/launches/0/args/2", "K", "launches[0].args[2] 'K' (kernel 'row_sum' param 'M'): is not "
                                  "a dim"},
  };
  for (const Case &c : cases) {
    nlohmann::json doc = nlohmann::json::parse(kManifest);
    doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    std::string error = checkError(doc);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.pointer << ": got '" << error << "'";
  }
  nlohmann::json unwritten = nlohmann::json::parse(kManifest);
  unwritten["launches"][0]["args"][1] = "x";
  unwritten["kernels"][0]["params"][1]["dims"] = {"M", "N"};
  EXPECT_NE(checkError(unwritten).find("launches: output 'y' is never passed to a kernel"),
            std::string::npos)
      << checkError(unwritten);
  EXPECT_NE(checkError(nlohmann::json::parse(kManifest), "sm_90a")
                .find("the bundle is for target 'host' but the runner was asked for 'sm_90a'"),
            std::string::npos);
}

TEST(Manifest, MissingFiles) {
  try {
    parseManifestFile("/nonexistent/bundle");
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("no such bundle folder"), std::string::npos);
  }
  std::filesystem::path dir = bundle(nlohmann::json::parse(kManifest), "nokernel");
  std::filesystem::remove(dir / "kernel.so");
  Manifest m = parseManifestFile(dir);
  try {
    checkManifestAgainstTask(m, task(), "host");
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("kernel.so: no such file"), std::string::npos)
        << e.what();
  }
}

} // namespace
