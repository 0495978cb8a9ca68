//===- TaskTest.cpp - Unit tests for the task.json parser -----------------===//
//
// Every error names the field; the tasks shipped in tasks/ all parse.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/Task.h"

#include <gtest/gtest.h>

using namespace kbench;

namespace {

/// A valid task; tests edit one field of it.
nlohmann::json validTask() {
  return nlohmann::json::parse(R"json({
    "name": "gelu_bias",
    "inputs": [
      {"name": "x", "shape": ["M", "N"], "dtype": "f32", "role": "input"},
      {"name": "s", "shape": ["N"], "dtype": "f32", "role": "param", "init": "normal"},
      {"name": "w", "shape": ["N", "M"], "dtype": "f32", "role": "param", "init": "kaiming"}
    ],
    "outputs": [{"name": "y", "shape": ["M", "N"], "dtype": "f32"}],
    "reference": [
      {"op": "aten::mul.Tensor", "args": ["x", "s"], "out": "t0"},
      {"op": "aten::gelu", "args": ["t0"], "kwargs": {"approximate": "tanh"}, "out": "y"}
    ],
    "shapes": {"tune": [{"M": 64, "N": 64}], "check": [{"M": 1, "N": 129}],
               "heldout": [{"M": 3, "N": 5}]},
    "cost": {"flops": "2*M*N", "bytes": "4*(2*M*N + N)"}
  })json");
}

/// The InputError message of parsing `doc`, or "" when it parsed.
std::string errorOf(const nlohmann::json &doc) {
  try {
    parseTask(doc, "task.json");
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

TEST(Task, ParsesAValidTask) {
  Task t = parseTask(validTask(), "task.json");
  EXPECT_EQ(t.name, "gelu_bias");
  EXPECT_FALSE(t.backward);
  ASSERT_EQ(t.inputs.size(), 3u);
  EXPECT_EQ(t.inputs[1].role, Role::Param);
  EXPECT_EQ(t.inputs[1].init, Init::Normal);
  EXPECT_EQ(t.inputs[0].init, Init::Randn);
  ASSERT_EQ(t.reference.size(), 2u);
  EXPECT_EQ(t.reference[0].name, "aten::mul");
  EXPECT_EQ(t.reference[0].overload, "Tensor");
  EXPECT_EQ(t.reference[1].overload, "");
  ASSERT_EQ(t.reference[1].kwargs.size(), 1u);
  EXPECT_EQ(t.reference[1].kwargs[0].first, "approximate");
  ASSERT_EQ(t.shapes["check"].size(), 1u);
  EXPECT_EQ(t.shapes["check"][0].dims.at("N"), 129);
  EXPECT_EQ(t.shapes["check"][0].label(), "check[0] {M=1, N=129}");
  EXPECT_EQ(t.shapes["heldout"].size(), 1u);
  // Default tolerance for f32 outputs.
  EXPECT_DOUBLE_EQ(t.tolerance.atol, 1e-3);
  EXPECT_DOUBLE_EQ(t.tolerance.rtol, 1e-3);
  std::string error;
  EXPECT_EQ(t.costFlops->evaluate(t.shapes["tune"][0].dims, error).value(), 2 * 64 * 64);
  EXPECT_EQ(t.inputs[2].extents({{"M", 3}, {"N", 5}}), (std::vector<int64_t>{5, 3}));
}

TEST(Task, ErrorsNameTheField) {
  struct Case {
    const char *pointer; ///< JSON pointer of the field to change
    nlohmann::json value;
    const char *expected; ///< substring of the message
  };
  const Case cases[] = {
      {"/inputs/0/dtype", "f31", "inputs[0].dtype: unknown dtype 'f31'"},
      {"/inputs/1/init", "identity", "inputs[1].init: unknown init 'identity'"},
      {"/inputs/1/init", "randn", "inputs[1].init: a param's init is kaiming"},
      {"/inputs/0/role", "weights", "inputs[0].role: unknown role 'weights'"},
      {"/inputs/0/shape/1", "N +", "inputs[0].shape[1]: 'N +' is not a shape expression"},
      {"/inputs/0/shape", "M", "inputs[0].shape: expected an array"},
      {"/outputs/0/name", "z", "outputs[0].name: output 'z' is not produced"},
      {"/reference/0/op", "mul", "reference[0].op: 'mul' is not an op name"},
      {"/reference/1/out", "x", "reference[1].out: 'x' is an input"},
      {"/shapes/check/0/M", 0, "shapes.check[0].M: dims must be >= 1"},
      {"/shapes/check/0/M", "one", "shapes.check[0].M: expected an integer"},
      {"/shapes/tune", nlohmann::json::array(), "shapes.tune: needs at least one shape"},
      {"/tolerance", {{"atol", "1e-3"}, {"rtol", 1e-3}}, "tolerance.atol: expected a number"},
      {"/tolerance", {{"atol", -1.0}, {"rtol", 1e-3}}, "tolerance.atol: must be >= 0"},
      {"/cost/math", "fp8", "cost.math: unknown math 'fp8'"},
      {"/kind", "sideways", "kind: unknown kind 'sideways'"},
      {"/colour", "red", "colour: unknown field"},
      {"/inputs/0/colour", "red", "inputs[0].colour: unknown field"},
  };
  for (const Case &c : cases) {
    nlohmann::json doc = validTask();
    doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    std::string error = errorOf(doc);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.pointer << ": got '" << error << "', expected '" << c.expected << "'";
    EXPECT_EQ(error.rfind("task.json: ", 0), 0u) << error;
  }
}

TEST(Task, MissingFieldsAreNamed) {
  for (const char *field : {"name", "inputs", "outputs", "reference", "shapes"}) {
    nlohmann::json doc = validTask();
    doc.erase(field);
    EXPECT_NE(errorOf(doc).find(std::string(field) + ": missing"), std::string::npos)
        << errorOf(doc);
  }
  nlohmann::json doc = validTask();
  doc["inputs"][1].erase("init");
  EXPECT_NE(errorOf(doc).find("inputs[1].init: a param needs an init"), std::string::npos)
      << errorOf(doc);
}

TEST(Task, EveryShapeBindsEveryDim) {
  nlohmann::json doc = validTask();
  doc["shapes"]["check"][0].erase("N");
  EXPECT_NE(errorOf(doc).find("shapes.check[0]: dim 'N' has no value"), std::string::npos)
      << errorOf(doc);
  doc = validTask();
  doc["cost"]["bytes"] = "4*Q";
  EXPECT_NE(errorOf(doc).find("dim 'Q' has no value"), std::string::npos) << errorOf(doc);
}

TEST(Task, DerivedDims) {
  nlohmann::json doc = validTask();
  doc["derived_dims"] = {{"P", "ceildiv(M, 2)"}};
  Task t = parseTask(doc, "task.json");
  ASSERT_EQ(t.derivedDims.size(), 1u);
  EXPECT_EQ(t.derivedDims[0].first, "P");
  const ShapeCase &check = t.shapes["check"][0];
  // The shape stays as written; launches see the derived dim too.
  EXPECT_EQ(check.dims.count("P"), 0u);
  EXPECT_EQ(check.launchDims.at("P"), 1);
  EXPECT_EQ(check.launchDims.at("M"), 1);
  EXPECT_EQ(t.shapes["tune"][0].launchDims.at("P"), 32);
  EXPECT_EQ(check.label(), "check[0] {M=1, N=129}");

  doc["derived_dims"] = {{"M", "2 * N"}};
  EXPECT_EQ(errorOf(doc),
            "task.json: derived_dims.M: 'M' is a dim of the task's tensors or "
            "cost; a derived dim needs a name of its own");
  doc["derived_dims"] = {{"P", "K + 1"}};
  EXPECT_EQ(
      errorOf(doc),
      "task.json: derived_dims.P: unknown symbol 'K' at check[0] {M=1, N=129} "
      "(derived dims are expressions over the shape's dims)");
  doc["derived_dims"] = {{"P", "M - 1"}};
  EXPECT_EQ(errorOf(doc),
            "task.json: derived_dims.P: 'M - 1' is 0 at check[0] {M=1, N=129}; "
            "dims must be >= 1");
  doc["derived_dims"] = {{"P", "M +"}};
  EXPECT_NE(errorOf(doc).find("task.json: derived_dims.P: "),
            std::string::npos);
  doc["derived_dims"] = {{"P", "M"}};
  doc["shapes"]["check"][0]["P"] = 3;
  EXPECT_EQ(
      errorOf(doc),
      "task.json: shapes.check[0].P: 'P' is a derived dim (derived_dims); "
      "shapes bind the task's own dims only");
  doc = validTask();
  doc["derived_dims"] = nlohmann::json::array();
  EXPECT_NE(errorOf(doc).find("task.json: derived_dims: "), std::string::npos);
}

TEST(Task, KaimingNeedsRankTwo) {
  nlohmann::json doc = validTask();
  doc["inputs"][1]["init"] = "kaiming";
  EXPECT_NE(errorOf(doc).find("kaiming needs a tensor of rank >= 2"), std::string::npos)
      << errorOf(doc);
}

TEST(Task, DuplicateNames) {
  nlohmann::json doc = validTask();
  doc["inputs"][1]["name"] = "x";
  EXPECT_NE(errorOf(doc).find("inputs[1].name: 'x' is declared twice"), std::string::npos)
      << errorOf(doc);
}

TEST(Task, BackwardTasks) {
  nlohmann::json doc = nlohmann::json::parse(R"json({
    "name": "scale_backward", "kind": "backward",
    "inputs": [
      {"name": "x", "shape": ["M"], "dtype": "f32"},
      {"name": "dy", "shape": ["M"], "dtype": "f32", "role": "grad", "of": "y"}
    ],
    "outputs": [{"name": "dx", "shape": ["M"], "dtype": "f32", "grad_of": "x"}],
    "reference": [{"op": "aten::sin", "args": ["x"], "out": "y"}],
    "shapes": {"tune": [{"M": 4}], "check": [{"M": 3}]}
  })json");
  Task t = parseTask(doc, "task.json");
  EXPECT_TRUE(t.backward);
  EXPECT_EQ(t.outputs[0].gradOf, "x");
  EXPECT_EQ(t.inputs[1].of, "y");

  nlohmann::json bad = doc;
  bad["outputs"][0]["grad_of"] = "dy";
  EXPECT_NE(errorOf(bad).find("outputs[0].grad_of: 'dy' is not an input or param"),
            std::string::npos)
      << errorOf(bad);
  bad = doc;
  bad["outputs"][0].erase("grad_of");
  EXPECT_NE(errorOf(bad).find("outputs[0].grad_of: a backward task's outputs are gradients"),
            std::string::npos)
      << errorOf(bad);
  bad = doc;
  bad["inputs"][1]["of"] = "z";
  EXPECT_NE(errorOf(bad).find("inputs[1].of: 'z' is not produced"), std::string::npos)
      << errorOf(bad);
  bad = doc;
  bad["kind"] = "forward";
  EXPECT_NE(errorOf(bad).find("outputs[0].grad_of: only backward tasks have gradient outputs"),
            std::string::npos)
      << errorOf(bad);
  bad["outputs"][0].erase("grad_of");
  bad["reference"][0]["out"] = "dx";
  EXPECT_NE(errorOf(bad).find("inputs[1].role: grad inputs belong to backward tasks"),
            std::string::npos)
      << errorOf(bad);
}

TEST(Task, FilesAndSyntaxErrors) {
  try {
    parseTaskFile("/nonexistent/task-folder");
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("no such task folder"), std::string::npos) << e.what();
  }
  std::filesystem::path empty = std::filesystem::temp_directory_path() / "kbench-empty-task";
  std::filesystem::create_directories(empty);
  try {
    parseTaskFile(empty);
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("task.json: no such file (the task file is missing)"),
              std::string::npos)
        << e.what();
  }
}

/// Every task shipped in tasks/ parses (their reference ops are checked
/// against LibTorch's schemas in ReferenceTest.cpp).
TEST(Task, ShippedTasksParse) {
  int count = 0;
  for (const auto &entry : std::filesystem::directory_iterator(KBENCH_SOURCE_DIR "/tasks")) {
    if (!std::filesystem::exists(entry.path() / "task.json"))
      continue;
    Task t = parseTaskFile(entry.path());
    EXPECT_EQ(t.name, entry.path().filename().string());
    EXPECT_FALSE(t.shapes["check"].empty());
    EXPECT_FALSE(t.shapes["tune"].empty());
    ++count;
  }
  EXPECT_GE(count, 5);
}

} // namespace
