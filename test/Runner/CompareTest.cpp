//===- CompareTest.cpp - Unit tests for tolerances, poison and verdicts ---===//
//
// The numeric rules of the protocol on hand-made CPU tensors: the tolerance
// boundary, NaN never passing, the poison telling unwritten elements from
// computed NaNs, the worst element and failure box, the unrefereeable rule.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Compare.h"
#include "kbench/Runner/Inputs.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>

using namespace kbench;
using namespace kbench::runner;

namespace {

at::Tensor vec(std::vector<float> v) {
  return at::from_blob(v.data(), {static_cast<int64_t>(v.size())}, at::kFloat).clone();
}

TEST(Compare, ToleranceBoundaryIsInclusive) {
  Tolerance tol{0.5, 0.25};
  // ref 2: bound = 0.5 + 0.25 * 2 = 1.0, exactly representable.
  ErrorStats onBound = compareTensors(vec({3.0f}), vec({2.0f}), tol, false);
  EXPECT_TRUE(onBound.pass());
  EXPECT_DOUBLE_EQ(onBound.maxAbs, 1.0);
  EXPECT_DOUBLE_EQ(onBound.maxRel, 0.5);
  ErrorStats above = compareTensors(vec({3.0001f}), vec({2.0f}), tol, false);
  EXPECT_FALSE(above.pass());
  EXPECT_EQ(above.bad, 1);
  // The bound uses |ref|, so it is symmetric in the sign of ref.
  EXPECT_TRUE(compareTensors(vec({-3.0f}), vec({-2.0f}), tol, false).pass());
}

TEST(Compare, NanNeverPasses) {
  Tolerance loose{1e9, 1e9};
  float nan = std::nanf("");
  EXPECT_FALSE(compareTensors(vec({nan}), vec({1.0f}), loose, false).pass());
  EXPECT_FALSE(compareTensors(vec({1.0f}), vec({nan}), loose, false).pass());
  EXPECT_FALSE(compareTensors(vec({nan}), vec({nan}), loose, false).pass());
  ErrorStats inf = compareTensors(vec({INFINITY}), vec({INFINITY}), loose, false);
  EXPECT_FALSE(inf.pass());
  EXPECT_FALSE(inf.refFinite);
  ErrorStats computed = compareTensors(vec({1.0f, nan}), vec({1.0f, 2.0f}), loose, true);
  EXPECT_EQ(computed.nonFinite, 1);
  EXPECT_EQ(computed.poisoned, 0);
  EXPECT_EQ(computed.worst, (std::vector<int64_t>{1}));
}

TEST(Compare, PoisonMarksUnwrittenElements) {
  for (at::ScalarType type : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16}) {
    at::Tensor out = at::empty({4, 6}, type);
    poison(out);
    EXPECT_TRUE(at::isnan(out).all().item<bool>()) << type;
    // The kernel writes rows 0..1 and row 3 except its last column.
    out.slice(0, 0, 2).fill_(1.0);
    out.select(0, 3).slice(0, 0, 5).fill_(1.0);
    at::Tensor ref = at::ones({4, 6}, type);
    ErrorStats s = compareTensors(out, ref, {1e-3, 1e-3}, true);
    EXPECT_EQ(s.poisoned, 7) << type;
    EXPECT_EQ(s.nonFinite, 0) << type;
    EXPECT_EQ(s.bad, 7) << type;
    ASSERT_EQ(s.badBox.size(), 2u);
    EXPECT_EQ(s.badBox[0], std::make_pair(int64_t(2), int64_t(3)));
    EXPECT_EQ(s.badBox[1], std::make_pair(int64_t(0), int64_t(5)));
    std::string text = describeFailure("y", s, {1e-3, 1e-3});
    EXPECT_NE(text.find("7 of 24 elements still hold the NaN poison: never written"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("in [2..3, 0..5]"), std::string::npos) << text;
  }
  // A NaN the kernel computed is not the poison.
  at::Tensor out = at::full({3}, std::nan(""), at::kFloat);
  ErrorStats s = compareTensors(out, at::ones({3}), {1e-3, 1e-3}, true);
  EXPECT_EQ(s.poisoned, 0);
  EXPECT_EQ(s.nonFinite, 3);
}

TEST(Compare, WorstElementAndMessage) {
  at::Tensor ref = at::ones({3, 4});
  at::Tensor out = ref.clone();
  out.index_put_({1, 2}, 0.0f);  // abs err 1
  out.index_put_({2, 0}, 1.01f); // abs err 0.01
  ErrorStats s = compareTensors(out, ref, {1e-3, 1e-3}, true);
  EXPECT_EQ(s.bad, 2);
  EXPECT_EQ(s.worst, (std::vector<int64_t>{1, 2}));
  EXPECT_DOUBLE_EQ(s.worstGot, 0.0);
  EXPECT_DOUBLE_EQ(s.worstExpected, 1.0);
  EXPECT_NEAR(s.maxAbs, 1.0, 1e-12);
  EXPECT_NEAR(s.rmsRef, 1.0, 1e-12);
  std::string text = describeFailure("y", s, {1e-3, 1e-3});
  EXPECT_NE(text.find("2 of 12 elements outside |out - ref| <= 0.001 + 0.001 * |ref| in "
                      "[1..2, 0..2]; worst [1, 2]: got 0, expected 1"),
            std::string::npos)
      << text;
  nlohmann::json j = toJson(s);
  EXPECT_EQ(j["worst_index"], nlohmann::json({1, 2}));
  EXPECT_EQ(j["bad"], 2);
}

TEST(Compare, MaxRelSkipsTinyReferences) {
  // |ref| <= atol: no relative error is reported for that element.
  ErrorStats s = compareTensors(vec({1e-4f, 2.0f}), vec({0.0f, 1.0f}), {1e-3, 1.5}, false);
  EXPECT_TRUE(s.pass());
  EXPECT_NEAR(s.maxRel, 1.0, 1e-6);
}

TEST(Compare, AccuracyRatioAgainstFp64) {
  // ref64 = 1 everywhere; the reference is off by 1e-7 (RMS 1e-7), so one
  // rounding of f32 (2^-24 ~ 6e-8) is below it and the scale is 1e-7.
  at::Tensor exact = at::ones({4}, at::kDouble);
  at::Tensor ref = exact + 1e-7;
  AccuracyStats close = measureAccuracy(exact + 5e-7, ref, exact, DType::F32, Tolerance{});
  EXPECT_NEAR(close.ratio, 5.0, 1e-6);
  EXPECT_TRUE(close.pass());
  Tolerance tight{1e-3, 1e-3, 4};
  EXPECT_FALSE(measureAccuracy(exact + 5e-7, ref, exact, DType::F32, tight).pass());
  // An exact reference: the floor (one f32 unit roundoff of RMS(ref64))
  // is the scale, so a candidate off by one rounding is not penalised.
  AccuracyStats floor = measureAccuracy(exact + std::ldexp(1.0, -24), exact, exact,
                                        DType::F32, Tolerance{});
  EXPECT_DOUBLE_EQ(floor.floorRms, std::ldexp(1.0, -24));
  EXPECT_NEAR(floor.ratio, 1.0, 1e-12);
  // A tf32 task's f32 output: one tf32 rounding (2^-11) is the floor, so a
  // tf32 kernel measured against a reference the library computed in fp32
  // is not failed for the tf32 rounding it was allowed.
  at::Tensor tf32Out = exact + 4 * std::ldexp(1.0, -11);
  EXPECT_FALSE(
      measureAccuracy(tf32Out, exact, exact, DType::F32, Tolerance{}).pass());
  AccuracyStats tf32 =
      measureAccuracy(tf32Out, exact, exact, DType::F32, Tolerance{},
                      /*tf32Operands=*/true);
  EXPECT_DOUBLE_EQ(tf32.floorRms, std::ldexp(1.0, -11));
  EXPECT_NEAR(tf32.ratio, 4.0, 1e-9);
  EXPECT_TRUE(tf32.pass());
  // fp64_ratio 0 turns the rule off.
  Tolerance off{1e-3, 1e-3, 0};
  EXPECT_TRUE(measureAccuracy(exact + 1.0, exact, exact, DType::F32, off).pass());
  EXPECT_TRUE(hasAccuracyRule(DType::BF16));
  EXPECT_FALSE(hasAccuracyRule(DType::F64));
  EXPECT_FALSE(hasAccuracyRule(DType::I32));
}

TEST(Compare, Unrefereeable) {
  EXPECT_TRUE(isUnrefereeable({1e-3, 1e-3}, 1e-3));
  EXPECT_TRUE(isUnrefereeable({1e-3, 1e-3}, 0.01));
  EXPECT_FALSE(isUnrefereeable({1e-3, 1e-3}, 0.0101));
  EXPECT_FALSE(isUnrefereeable({1e-6, 1e-3}, 1.6e-3));
}

TEST(Compare, BitwiseDifference) {
  at::Tensor a = at::arange(12, at::kFloat).reshape({3, 4});
  EXPECT_FALSE(bitwiseDifference(a, a.clone()).has_value());
  at::Tensor b = a.clone();
  b.index_put_({2, 1}, -0.0f);
  b.index_put_({2, 3}, 5.0f);
  auto d = bitwiseDifference(a, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->first, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(d->second, 2);
  // Bitwise: -0 differs from +0, and identical NaNs are equal.
  at::Tensor z = vec({0.0f}), nz = vec({-0.0f});
  EXPECT_TRUE(bitwiseDifference(z, nz).has_value());
  at::Tensor p = at::empty({2}, at::kFloat);
  poison(p);
  EXPECT_FALSE(bitwiseDifference(p, p.clone()).has_value());
}

TEST(Compare, VerdictNames) {
  EXPECT_STREQ(verdictName(Verdict::Unwritten), "unwritten");
  EXPECT_STREQ(verdictName(Verdict::InputModified), "input_modified");
  EXPECT_STREQ(verdictName(Verdict::RequiresViolated), "requires_violated");
  EXPECT_STREQ(verdictName(Verdict::Inaccurate), "inaccurate");
  EXPECT_TRUE(isFailure(Verdict::Inaccurate));
  EXPECT_FALSE(isFailure(Verdict::Pass));
  EXPECT_FALSE(isFailure(Verdict::Skipped));
  EXPECT_TRUE(isFailure(Verdict::Unrefereeable));
  EXPECT_TRUE(isFailure(Verdict::Timeout));
}

TEST(Inputs, DistributionsAndSeeds) {
  Task t = parseTask(nlohmann::json::parse(R"json({
    "name": "t",
    "inputs": [{"name": "x", "shape": ["M", "N"], "dtype": "f32"},
               {"name": "w", "shape": ["N", "N"], "dtype": "f32", "role": "param", "init": "kaiming"}],
    "outputs": [{"name": "y", "shape": ["M", "N"], "dtype": "f32"}],
    "reference": [{"op": "aten::mm", "args": ["x", "w"], "out": "y"}],
    "shapes": {"tune": [{"M": 6, "N": 16}], "check": [{"M": 6, "N": 16}]}
  })json"), "task.json");
  kbench::SymbolValues dims{{"M", 6}, {"N", 16}};
  TensorMap a = drawInputs(t, dims, protocolSeed(0));
  TensorMap b = drawInputs(t, dims, protocolSeed(0));
  TensorMap c = drawInputs(t, dims, protocolSeed(1));
  EXPECT_TRUE(at::equal(a["x"], b["x"]));
  EXPECT_FALSE(at::equal(a["x"], c["x"]));
  // Kaiming: U(-1/sqrt(fan_in), 1/sqrt(fan_in)), never identity.
  EXPECT_LE(a["w"].abs().max().item<float>(), 0.25f);
  EXPECT_FALSE(at::allclose(a["w"], at::eye(16)));

  TensorMap neg = applyDistribution(t, a, Distribution::Negated);
  EXPECT_TRUE(at::equal(neg["x"], -a["x"]));
  EXPECT_TRUE(at::equal(neg["w"], a["w"])); // params are not transformed
  TensorMap large = applyDistribution(t, a, Distribution::Large);
  EXPECT_TRUE((large["x"] >= 0).all().item<bool>());
  EXPECT_TRUE(at::allclose(large["x"], a["x"].abs() * 3));
  TensorMap small = applyDistribution(t, a, Distribution::Small);
  EXPECT_TRUE(at::allclose(small["x"], a["x"] * 0.01));
  TensorMap st = applyDistribution(t, a, Distribution::Structural);
  // Multiples of 0.25 (ties), one constant last row, an outlier row x32.
  EXPECT_TRUE(at::equal(st["x"] * 4, (st["x"] * 4).round()));
  EXPECT_TRUE((st["x"].select(0, 5) == 1.0).all().item<bool>());
  EXPECT_TRUE(at::equal(st["x"].select(0, 3), (a["x"].select(0, 3) * 4).round() / 4 * 32));
  EXPECT_EQ(parseDistribution("structural"), Distribution::Structural);
  EXPECT_FALSE(parseDistribution("uniform").has_value());
  EXPECT_TRUE(isFp64Gated(Distribution::Large));
  EXPECT_FALSE(isFp64Gated(Distribution::Randn));
}

} // namespace
