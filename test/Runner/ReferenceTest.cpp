//===- ReferenceTest.cpp - Unit tests for ATen references by name ---------===//
//
// Schema binding (overloads, scalars, lists, optionals, str kwargs, shape
// expressions) with errors that name the field, forward and autograd runs, and
// the shipped tasks' references against this LibTorch.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Reference.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace kbench;
using namespace kbench::runner;

namespace {

Task taskWith(const nlohmann::json &reference, const char *kind = "forward") {
  nlohmann::json doc = {
      {"name", "t"},
      {"kind", kind},
      {"inputs",
       {{{"name", "x"}, {"shape", {"M", "N"}}, {"dtype", "f32"}},
        {{"name", "w"}, {"shape", {"N"}}, {"dtype", "f32"}, {"role", "param"}, {"init", "normal"}},
        {{"name", "b"}, {"shape", {"N"}}, {"dtype", "f32"}, {"role", "param"}, {"init", "uniform"}}}},
      {"outputs", {{{"name", "y"}, {"shape", {"M", "N"}}, {"dtype", "f32"}}}},
      {"reference", reference},
      {"shapes", {{"tune", {{{"M", 4}, {"N", 8}}}}, {"check", {{{"M", 3}, {"N", 5}}}}}}};
  return parseTask(doc, "task.json");
}

std::string bindError(const nlohmann::json &reference) {
  Task t = taskWith(reference);
  try {
    Reference r(t);
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

TensorMap inputs(int64_t m, int64_t n) {
  return {{"x", at::randn({m, n})}, {"w", at::randn({n})}, {"b", at::randn({n})}};
}

TEST(Reference, LayerNormWithListsOptionalsAndFloats) {
  Task t = taskWith(
      {{{"op", "aten::layer_norm"}, {"args", {"x", {"N"}, "w", "b", 1e-5}}, {"out", "y"}}});
  Reference r(t);
  TensorMap in = inputs(3, 5);
  TensorMap out = r.run(in, {{"M", 3}, {"N", 5}});
  at::Tensor expect = at::layer_norm(in["x"], {5}, in["w"], in["b"], 1e-5);
  EXPECT_TRUE(at::allclose(out["y"], expect));
  EXPECT_FALSE(r.hasFp32Matmul());
}

TEST(Reference, OverloadsScalarsAndStrKwargs) {
  Task t = taskWith({{{"op", "aten::mul.Tensor"}, {"args", {"x", "w"}}, {"out", "t0"}},
                     {{"op", "aten::add.Tensor"}, {"args", {"t0", "b"}}, {"kwargs", {{"alpha", 2}}},
                      {"out", "t1"}},
                     {{"op", "aten::gelu"}, {"args", {"t1"}}, {"kwargs", {{"approximate", "tanh"}}},
                      {"out", "y"}}});
  Reference r(t);
  TensorMap in = inputs(3, 5);
  TensorMap out = r.run(in, {{"M", 3}, {"N", 5}});
  at::Tensor expect = at::gelu(in["x"] * in["w"] + 2 * in["b"], "tanh");
  EXPECT_TRUE(at::allclose(out["y"], expect));
  // Leaving out an argument with a default takes the default; null passes None.
  Task t2 = taskWith({{{"op", "aten::clamp"}, {"args", {"x", nullptr, 0.5}}, {"out", "y"}}});
  TensorMap out2 = Reference(t2).run(in, {{"M", 3}, {"N", 5}});
  EXPECT_TRUE(at::equal(out2["y"], at::clamp_max(in["x"], 0.5)));
}

TEST(Reference, BindingErrorsNameTheField) {
  struct Case {
    nlohmann::json reference;
    const char *expected;
  };
  const Case cases[] = {
      {{{{"op", "aten::gleu"}, {"args", {"x"}}, {"out", "y"}}},
       "reference[0].op: no ATen op 'aten::gleu'"},
      {{{{"op", "aten::add.Tensorr"}, {"args", {"x", "b"}}, {"out", "y"}}},
       "reference[0].op: no ATen op 'aten::add.Tensorr'"},
      {{{{"op", "aten::relu"}, {"args", {"q"}}, {"out", "y"}}},
       "reference[0].args[0]: argument 'self' (Tensor): expects a tensor"},
      {{{{"op", "aten::relu"}, {"args", {"x", "x"}}, {"out", "y"}}},
       "reference[0].args: 2 arguments, but aten::relu takes 1"},
      {{{{"op", "aten::mul.Tensor"}, {"args", {"x"}}, {"out", "y"}}},
       "aten::mul.Tensor needs argument 'other' (Tensor)"},
      {{{{"op", "aten::gelu"}, {"args", {"x"}}, {"kwargs", {{"approx", "tanh"}}}, {"out", "y"}}},
       "reference[0].kwargs.approx: aten::gelu has no argument 'approx'"},
      {{{{"op", "aten::gelu"}, {"args", {"x"}}, {"kwargs", {{"approximate", 1}}}, {"out", "y"}}},
       "reference[0].kwargs.approximate: argument 'approximate' (str): expects a string"},
      {{{{"op", "aten::relu"}, {"args", {nullptr}}, {"out", "y"}}},
       "argument 'self' (Tensor): is not optional"},
      {{{{"op", "aten::relu"}, {"args", {"x"}}, {"out", {"y", "z"}}}},
       "reference[0].out: names 2 results, but aten::relu returns 1"},
      {{{{"op", "aten::sum.dim_IntList"}, {"args", {"x", {"N +"}}}, {"out", "y"}}},
       "reference[0].args[1]: 'N +' is not a shape expression"},
  };
  for (const Case &c : cases) {
    std::string error = bindError(c.reference);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.reference.dump() << ": got '" << error << "'";
  }
}

TEST(Reference, RunTimeErrorsNameTheOp) {
  // Shapes that do not broadcast: the op's own message, with the field.
  Task t = taskWith({{{"op", "aten::mul.Tensor"}, {"args", {"x", "w"}}, {"out", "t0"}},
                     {{"op", "aten::mm"}, {"args", {"t0", "t0"}}, {"out", "y"}}});
  Reference r(t);
  try {
    r.run(inputs(3, 5), {{"M", 3}, {"N", 5}});
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("reference[1] (aten::mm) failed"), std::string::npos)
        << e.what();
  }
  // A result whose dtype disagrees with the declared output.
  Task t2 = taskWith({{{"op", "aten::to.dtype"}, {"args", {"x", "f64"}}, {"out", "y"}}});
  try {
    Reference(t2).run(inputs(3, 5), {{"M", 3}, {"N", 5}});
    FAIL() << "no error";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("gives 'y' dtype Double but outputs[0] declares f32"),
              std::string::npos)
        << e.what();
  }
}

TEST(Reference, BackwardThroughAutograd) {
  nlohmann::json doc = nlohmann::json::parse(R"json({
    "name": "t", "kind": "backward",
    "inputs": [{"name": "x", "shape": ["M", "N"], "dtype": "f32"},
               {"name": "s", "shape": ["N"], "dtype": "f32", "role": "param", "init": "normal"},
               {"name": "dy", "shape": ["M", "N"], "dtype": "f32", "role": "grad", "of": "y"}],
    "outputs": [{"name": "dx", "shape": ["M", "N"], "dtype": "f32", "grad_of": "x"},
                {"name": "ds", "shape": ["N"], "dtype": "f32", "grad_of": "s"}],
    "reference": [{"op": "aten::mul.Tensor", "args": ["x", "s"], "out": "t"},
                  {"op": "aten::sin", "args": ["t"], "out": "y"}],
    "shapes": {"tune": [{"M": 4, "N": 8}], "check": [{"M": 3, "N": 5}]}
  })json");
  Task t = parseTask(doc, "task.json");
  Reference r(t);
  TensorMap in = {{"x", at::randn({3, 5})}, {"s", at::randn({5})}, {"dy", at::randn({3, 5})}};
  TensorMap g = r.run(in, {{"M", 3}, {"N", 5}});
  at::Tensor c = at::cos(in["x"] * in["s"]) * in["dy"];
  EXPECT_TRUE(at::allclose(g["dx"], c * in["s"]));
  EXPECT_TRUE(at::allclose(g["ds"], (c * in["x"]).sum(0)));
  EXPECT_FALSE(in["x"].requires_grad()); // the caller's tensors are untouched
  // The timing closure re-runs only the gradients.
  std::function<void()> timed = r.timedClosure(in, {{"M", 3}, {"N", 5}});
  timed();
  timed();
}

TEST(Reference, ShippedTasksBind) {
  int count = 0;
  for (const auto &entry : std::filesystem::directory_iterator(KBENCH_SOURCE_DIR "/tasks")) {
    if (!std::filesystem::exists(entry.path() / "task.json"))
      continue;
    Task t = parseTaskFile(entry.path());
    Reference r(t);
    const ShapeCase &sc = t.shapes["check"].back();
    TensorMap in = drawInputs(t, sc.dims, protocolSeed(0));
    TensorMap out = r.run(in, sc.dims);
    EXPECT_EQ(out.size(), t.outputs.size()) << t.name;
    // The fp32 tasks whose reference calls aten::linear or aten::mm (an
    // eager TF32-on contestant); the others have no matmul or bf16 inputs.
    static const std::set<std::string> fp32Matmuls = {
        "linear_bias_relu", "linear_backward", "matmul_residual", "matmul_tn", "swiglu_mlp"};
    EXPECT_EQ(r.hasFp32Matmul(), fp32Matmuls.count(t.name) == 1) << t.name;
    ++count;
  }
  EXPECT_GE(count, 5);
}

} // namespace
