//===- BundleSchemaTest.cpp - Unit tests for the manifest schema ----------===//

#include "kbench/Support/BundleSchema.h"
#include "kbench/Support/JsonField.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>

#include <unistd.h>

using namespace kbench;
using namespace kbench::bundle;

namespace {

ShapeExpr expr(const std::string &text) {
  std::string error;
  std::optional<ShapeExpr> e = ShapeExpr::parse(text, error);
  EXPECT_TRUE(e) << text << ": " << error;
  return e.value_or(ShapeExpr::constant(0));
}

/// A manifest that uses every field, the reserved ones included.
BundleManifest sample() {
  BundleManifest m;
  m.target = "sm_90a";
  m.task = "row_sum";
  m.compiler = CompilerInfo{"kbench", "0.1.0"};
  m.irHash = "abc123";
  m.verification = "proved";
  m.buffers = {{"x", DType::F32, {expr("M"), expr("N")}, BufferSpec::Role::Input},
               {"y", DType::F32, {expr("M")}, BufferSpec::Role::Output},
               {"tmp0", DType::F16, {expr("M")}, BufferSpec::Role::Temporary}};
  m.workspaces = {{"ws0", expr("ceildiv(M, 64) * 4"), true}};
  KernelSpec k;
  k.name = "row_sum";
  k.symbol = "row_sum_sym";
  k.params = {{"X", KernelParamSpec::Kind::Memref, DType::F32, {expr("M"), expr("N")}},
              {"Y", KernelParamSpec::Kind::Memref, DType::F32, {expr("M")}},
              {"alpha", KernelParamSpec::Kind::Scalar, DType::F32, {}},
              {"desc", KernelParamSpec::Kind::TmaDescriptor, DType::F16, {expr("64"), expr("32")},
               /*swizzleBytes=*/64, /*viewShape=*/{expr("M / 2"), expr("N")},
               /*viewStrides=*/{expr("2 * N"), expr("1")}},
              {"scratch", KernelParamSpec::Kind::Workspace, DType::F32, {}},
              {"M", KernelParamSpec::Kind::Dim, DType::I64, {}},
              {"N", KernelParamSpec::Kind::Dim, DType::I64, {}}};
  k.grid = {expr("ceildiv(M, 4)"), expr("1"), expr("1")};
  k.block = {128, 1, 1};
  k.dynamicSharedMemory = 65536;
  std::string error;
  k.requirements = {*ShapeFact::parse("N % 4 == 0", error)};
  k.resources = ResourceUsage{40, 0, 0, 0, 1024};
  m.kernels = {k};
  m.launches = {{0, {"x", "y", "alpha", "x", "ws0", "M", "N"}, ""}};
  return m;
}

std::string parseError(const nlohmann::json &doc) {
  try {
    parseManifest(doc, "manifest.json");
  } catch (const InputError &e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BundleSchema, FormatTag) {
  EXPECT_EQ(formatTag(), "kbench-bundle/1");
  EXPECT_EQ(toJson(sample())["format"], "kbench-bundle/1");
}

TEST(BundleSchema, RoundTripThroughJson) {
  BundleManifest m = sample();
  nlohmann::json written = toJson(m);
  BundleManifest read = parseManifest(written, "manifest.json");
  // Writing what was read gives the same document: nothing is lost.
  EXPECT_EQ(toJson(read), written);
  EXPECT_EQ(read.target, "sm_90a");
  EXPECT_EQ(read.compiler->version, "0.1.0");
  ASSERT_EQ(read.buffers.size(), 3u);
  EXPECT_EQ(read.buffers[2].role, BufferSpec::Role::Temporary);
  EXPECT_EQ(read.buffers[2].dtype, DType::F16);
  EXPECT_EQ(read.buffers[0].shape[1].str(), "N");
  ASSERT_EQ(read.workspaces.size(), 1u);
  EXPECT_EQ(read.workspaces[0].bytes.str(), m.workspaces[0].bytes.str());
  const KernelSpec &k = read.kernels.at(0);
  EXPECT_EQ(k.symbol, "row_sum_sym");
  EXPECT_EQ(k.params[3].kind, KernelParamSpec::Kind::TmaDescriptor);
  EXPECT_EQ(k.params[3].dims.size(), 2u);
  EXPECT_EQ(k.params[3].swizzleBytes, 64);
  ASSERT_EQ(k.params[3].viewShape.size(), 2u);
  EXPECT_EQ(k.params[3].viewShape[0].str(), "M / 2");
  ASSERT_EQ(k.params[3].viewStrides.size(), 2u);
  EXPECT_EQ(k.params[3].viewStrides[0].str(), "2 * N");
  EXPECT_EQ(k.params[3].viewStrides[1].str(), "1");
  EXPECT_EQ(k.params[4].kind, KernelParamSpec::Kind::Workspace);
  EXPECT_EQ(k.params[5].dtype, DType::I64);
  EXPECT_EQ(k.grid[0].str(), "ceildiv(M, 4)");
  EXPECT_EQ(k.dynamicSharedMemory, 65536);
  EXPECT_EQ(k.requirements.at(0).str(), "N % 4 == 0");
  EXPECT_EQ(k.resources->registers, 40);
  EXPECT_EQ(read.launches.at(0).args.size(), 7u);
  EXPECT_EQ(read.launches.at(0).field, "launches[0]");
}

TEST(BundleSchema, RoundTripThroughAFile) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("kbench-schema-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string error;
  ASSERT_TRUE(tryWriteManifestFile(dir, sample(), error)) << error;
  std::optional<BundleManifest> read = tryParseManifestFile(dir, error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->dir, dir);
  EXPECT_EQ(renderManifest(*read), renderManifest(sample()));
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(tryParseManifestFile(dir, error));
  EXPECT_NE(error.find("no such bundle folder"), std::string::npos) << error;
}

TEST(BundleSchema, OptionalFieldsStayOut) {
  BundleManifest m = sample();
  m.compiler.reset();
  m.irHash.clear();
  m.workspaces.clear();
  m.kernels[0].resources.reset();
  nlohmann::json doc = toJson(m);
  EXPECT_FALSE(doc.contains("compiler"));
  EXPECT_FALSE(doc.contains("ir_hash"));
  EXPECT_FALSE(doc.contains("workspaces"));
  EXPECT_FALSE(doc["kernels"][0].contains("resources"));
  EXPECT_EQ(toJson(parseManifest(doc, "m")), doc);
}

TEST(BundleSchema, InjectedWgmmaWaitsAreWrittenOnlyWhenSome) {
  BundleManifest m = sample();
  EXPECT_FALSE(
      toJson(m)["kernels"][0]["resources"].contains("injected_wgmma_waits"));
  m.kernels[0].resources->injectedWgmmaWaits = 2;
  nlohmann::json doc = toJson(m);
  EXPECT_EQ(doc["kernels"][0]["resources"]["injected_wgmma_waits"], 2);
  BundleManifest back = parseManifest(doc, "m");
  EXPECT_EQ(back.kernels[0].resources->injectedWgmmaWaits, 2);
  EXPECT_EQ(toJson(back), doc);
}

TEST(BundleSchema, SwizzleBelongsToTmaDescriptorsOnly) {
  nlohmann::json doc = toJson(sample());
  const nlohmann::json &params = doc["kernels"][0]["params"];
  EXPECT_EQ(params[3]["swizzle"], 64);
  for (size_t i : {0, 2, 4, 5})
    EXPECT_FALSE(params[i].contains("swizzle")) << params[i].dump();
  // Absent means no swizzle, and a tma_descriptor always writes its own.
  doc["kernels"][0]["params"][3].erase("swizzle");
  BundleManifest read = parseManifest(doc, "manifest.json");
  EXPECT_EQ(read.kernels[0].params[3].swizzleBytes, 0);
  EXPECT_EQ(toJson(read)["kernels"][0]["params"][3]["swizzle"], 0);
}

TEST(BundleSchema, ViewIsOptionalAndWrittenOnlyWhenSet) {
  nlohmann::json doc = toJson(sample());
  const nlohmann::json &params = doc["kernels"][0]["params"];
  EXPECT_EQ(params[3]["view"],
            nlohmann::json::parse(
                R"j({"shape": ["M / 2", "N"], "strides": ["2 * N", "1"]})j"));
  for (size_t i : {0, 1, 2, 4, 5, 6})
    EXPECT_FALSE(params[i].contains("view")) << params[i].dump();
  // Absent means the dense buffer, and then nothing is written.
  doc["kernels"][0]["params"][3].erase("view");
  BundleManifest read = parseManifest(doc, "manifest.json");
  EXPECT_TRUE(read.kernels[0].params[3].viewShape.empty());
  EXPECT_TRUE(read.kernels[0].params[3].viewStrides.empty());
  EXPECT_EQ(toJson(read), doc);
}

TEST(BundleSchema, BadFieldsAreNamed) {
  struct Case {
    const char *pointer;
    nlohmann::json value;
    const char *expected;
  };
  const Case cases[] = {
      {"/format", "kbench-bundle/2",
       "manifest.json: format: unsupported bundle format 'kbench-bundle/2'; this build reads "
       "kbench-bundle/1"},
      {"/target", "sm_80", "target: unknown target 'sm_80' (sm_90a, host)"},
      {"/verification", "maybe", "verification: unknown verification 'maybe'"},
      {"/buffers/0/role", "scratch",
       "buffers[0].role: unknown role 'scratch' (input, output, temporary)"},
      {"/buffers/0/dtype", "f8", "buffers[0].dtype: unknown dtype 'f8' (f32, f16"},
      {"/buffers/1/name", "x", "buffers[1].name: buffer 'x' is declared twice"},
      {"/workspaces/0/name", "x", "workspaces[0].name: 'x' names a buffer or workspace"},
      {"/workspaces/0/bytes", "M *", "workspaces[0].bytes: 'M *' is not a shape expression"},
      {"/kernels/0/params/0/kind", "pointer",
       "kernels[0].params[0].kind: unknown kind 'pointer' (memref, dim, scalar, "
       "tma_descriptor, workspace)"},
      {"/kernels/0/params/1/name", "X", "kernels[0].params[1].name: param 'X' is declared twice"},
      {"/kernels/0/params/3/swizzle", 48,
       "kernels[0].params[3].swizzle: 48 is not a swizzle span; use 0 (none), 32, 64 or 128 "
       "(bytes)"},
      {"/kernels/0/params/3/swizzle", "128B",
       "kernels[0].params[3].swizzle: expected an integer"},
      {"/kernels/0/params/0/swizzle", 128,
       "kernels[0].params[0].swizzle: only a tma_descriptor param has a swizzle, not a memref "
       "param"},
      {"/kernels/0/params/0/view", {{"shape", {"M"}}, {"strides", {"1"}}},
       "kernels[0].params[0].view: only a tma_descriptor param has a view, not a memref "
       "param"},
      {"/kernels/0/params/3/view/strides", {"1"},
       "kernels[0].params[3].view.strides: 1 strides for 2 shape axes; a view has one stride "
       "per axis"},
      {"/kernels/0/params/3/view/shape", nlohmann::json::array(),
       "kernels[0].params[3].view.shape: a view has at least one axis; leave 'view' out for "
       "the dense buffer"},
      {"/kernels/0/params/3/view/shape/0", "M *",
       "kernels[0].params[3].view.shape[0]: 'M *' is not a shape expression"},
      {"/kernels/0/params/3/view/strides/0", "2 *",
       "kernels[0].params[3].view.strides[0]: '2 *' is not a shape expression"},
      {"/kernels/0/params/3/view/offset", 0, "kernels[0].params[3].view.offset: unknown field"},
      {"/kernels/0/params/3/view", "N", "kernels[0].params[3].view: expected an object"},
      {"/kernels/0/grid", {"1", "1"}, "kernels[0].grid: needs 3 expressions (x, y, z), got 2"},
      {"/kernels/0/block/0", 2048, "kernels[0].block[0]: block sizes are 1..1024, got 2048"},
      {"/kernels/0/block", {64, 32, 1},
       "kernels[0].block: a block of 2048 threads exceeds the 1024 of sm_90a"},
      {"/kernels/0/dynamic_shared_memory", 300000,
       "kernels[0].dynamic_shared_memory: 300000 bytes is outside 0..232448"},
      {"/kernels/0/requires/0", "N %",
       "kernels[0].requires[0]: 'N %' is not a fact such as 'K % 8 == 0'"},
      {"/kernels/0/resources/registers", "many",
       "kernels[0].resources.registers: expected an integer"},
      {"/kernels/0/colour", "red", "kernels[0].colour: unknown field"},
      {"/launches/0/kernel", "other", "launches[0].kernel: no kernel named 'other'"},
      {"/launches/0/args", {"x"}, "launches[0].args: 1 arguments for kernel 'row_sum', which "
                                  "takes 7"},
      {"/kernels", nlohmann::json::array(), "kernels: a bundle needs at least one kernel"},
  };
  for (const Case &c : cases) {
    nlohmann::json doc = toJson(sample());
    doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    std::string error = parseError(doc);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.pointer << ": got '" << error << "'";
  }
  nlohmann::json doc = toJson(sample());
  doc.erase("task");
  EXPECT_NE(parseError(doc).find("task: missing (this field is required)"), std::string::npos);
  for (const char *key : {"shape", "strides"}) {
    nlohmann::json viewless = toJson(sample());
    viewless["kernels"][0]["params"][3]["view"].erase(key);
    EXPECT_NE(parseError(viewless).find("kernels[0].params[3].view." + std::string(key) +
                                        ": missing (this field is required)"),
              std::string::npos)
        << parseError(viewless);
  }
}

/// sample() as a dispatch bundle: a second kernel, variant "wide" for
/// N >= 1024 launching it, and the fallback "narrow" launching the first.
BundleManifest dispatchSample() {
  BundleManifest m = sample();
  KernelSpec wide = m.kernels[0];
  wide.name = "row_sum__wide";
  wide.symbol = "row_sum__wide";
  m.kernels.push_back(wide);
  std::string error;
  m.variants = {{"wide", {*ShapeFact::parse("N >= 1024", error)}, ""}, {"narrow", {}, ""}};
  m.launches = {{1, m.launches[0].args, "", /*variant=*/0},
                {0, m.launches[0].args, "", /*variant=*/1}};
  return m;
}

TEST(BundleSchema, DispatchRoundTrips) {
  BundleManifest m = dispatchSample();
  nlohmann::json doc = toJson(m);
  EXPECT_FALSE(doc.contains("launches"));
  ASSERT_EQ(doc["dispatch"].size(), 2u);
  EXPECT_EQ(doc["dispatch"][0]["name"], "wide");
  EXPECT_EQ(doc["dispatch"][0]["when"], nlohmann::json({"N >= 1024"}));
  EXPECT_FALSE(doc["dispatch"][1].contains("when"));
  EXPECT_EQ(doc["dispatch"][1]["launches"][0]["kernel"], "row_sum");

  BundleManifest back = parseManifest(doc, "manifest.json");
  ASSERT_EQ(back.variantCount(), 2u);
  EXPECT_EQ(back.variantName(0), "wide");
  EXPECT_EQ(back.variants[0].field, "dispatch[0]");
  ASSERT_EQ(back.launchesOf(0).size(), 1u);
  EXPECT_EQ(back.launchesOf(0)[0]->kernel, 1u);
  EXPECT_EQ(back.launchesOf(0)[0]->field, "dispatch[0].launches[0]");
  ASSERT_EQ(back.launchesOf(1).size(), 1u);
  EXPECT_EQ(back.launchesOf(1)[0]->kernel, 0u);
  EXPECT_EQ(toJson(back), doc);

  // Without dispatch: one variant, unnamed, every launch in it.
  BundleManifest plain = parseManifest(toJson(sample()), "manifest.json");
  EXPECT_EQ(plain.variantCount(), 1u);
  EXPECT_EQ(plain.variantName(0), "");
  EXPECT_EQ(plain.launchesOf(0).size(), 1u);
}

TEST(BundleSchema, BadDispatchIsNamed) {
  struct Case {
    const char *pointer;
    nlohmann::json value;
    const char *expected;
  };
  const Case cases[] = {
      {"/dispatch", nlohmann::json::array(),
       "dispatch: a dispatch bundle needs at least one variant"},
      {"/dispatch/1/name", "wide", "dispatch[1].name: variant 'wide' is listed twice"},
      {"/dispatch/0/when/0", "N >=",
       "dispatch[0].when[0]: 'N >=' is not a fact such as 'M >= 128'"},
      {"/dispatch/0/when", nlohmann::json::array(),
       "dispatch[0].when: every variant but the last needs 'when' facts"},
      {"/dispatch/1/when", {"N < 1024"},
       "dispatch[1].when: the last variant is the fallback for every other shape and takes "
       "no 'when'"},
      {"/dispatch/1/launches", nlohmann::json::array(),
       "dispatch[1].launches: a launch sequence needs at least one launch"},
      {"/dispatch/0/launches/0/kernel", "other",
       "dispatch[0].launches[0].kernel: no kernel named 'other'"},
      {"/dispatch/0/colour", "red", "dispatch[0].colour: unknown field"},
  };
  for (const Case &c : cases) {
    nlohmann::json doc = toJson(dispatchSample());
    doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    std::string error = parseError(doc);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.pointer << ": got '" << error << "'";
  }
  nlohmann::json both = toJson(dispatchSample());
  both["launches"] = toJson(sample())["launches"];
  EXPECT_NE(parseError(both).find("a bundle has 'launches' or 'dispatch', not both"),
            std::string::npos)
      << parseError(both);
  nlohmann::json neither = toJson(sample());
  neither.erase("launches");
  EXPECT_NE(parseError(neither).find("a bundle needs 'launches' (or 'dispatch'"),
            std::string::npos)
      << parseError(neither);
  nlohmann::json noWhen = toJson(dispatchSample());
  noWhen["dispatch"][0].erase("when");
  EXPECT_NE(parseError(noWhen).find("dispatch[0].when: every variant but the last"),
            std::string::npos)
      << parseError(noWhen);
}

} // namespace
