//===- BaselinePlanTest.cpp - Unit tests for the torch.compile baseline plan ---===//
//
// Package keys and the life of a shape's status (found -> measured, rejected
// or not_timed; missing; unavailable) with the loader passed in, so that the
// paths of a runner built with AOTInductor are tested on Debian's LibTorch.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/BaselinePlan.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace kbench;
using namespace kbench::runner;

namespace {

Task layernorm() {
  return parseTask(nlohmann::json::parse(R"json({
    "name": "ln",
    "inputs": [
      {"name": "x", "shape": ["M", "N"], "dtype": "f32", "role": "input"},
      {"name": "w", "shape": ["N"], "dtype": "f32", "role": "param", "init": "normal"}
    ],
    "outputs": [{"name": "y", "shape": ["M", "N"], "dtype": "f32"}],
    "reference": [
      {"op": "aten::layer_norm", "args": ["x", ["N"], "w", null, 1e-5], "out": "y"}
    ],
    "shapes": {"tune": [{"M": 64, "N": 32}], "check": [{"M": 1, "N": 3}],
               "heldout": [{"M": 3, "N": 5}]}
  })json"),
                   "task.json");
}

const std::vector<std::string> kTimed = {"tune", "heldout"};

TEST(BaselinePlan, KeyTextIsCanonicalJson) {
  Task t = layernorm();
  EXPECT_EQ(compiledBaselineKeyText(t, {{"M", 64}, {"N", 32}}),
            R"({"inputs":[["x","f32",[64,32]],["w","f32",[32]]],"outputs":["y"],)"
            R"("reference":[{"args":["x",["N"],"w",null,1e-05],"kwargs":{},"op":)"
            R"("aten::layer_norm","out":["y"]}]})");
}

TEST(BaselinePlan, NamesChangeWithShapeReferenceAndTorch) {
  Task t = layernorm();
  std::string a = compiledPackageName(t, {{"M", 64}, {"N", 32}}, "2.11.0");
  EXPECT_EQ(a.substr(0, 3), "ln-");
  EXPECT_NE(a.find("-M64_N32-f32.f32-torch2.11.0.pt2"), std::string::npos) << a;
  EXPECT_NE(a, compiledPackageName(t, {{"M", 64}, {"N", 33}}, "2.11.0"));
  EXPECT_NE(a, compiledPackageName(t, {{"M", 64}, {"N", 32}}, "2.12.0"));
  Task u = layernorm();
  u.reference[0].args[4] = 1e-6;
  EXPECT_NE(a, compiledPackageName(u, {{"M", 64}, {"N", 32}}, "2.11.0"));
}

TEST(BaselinePlan, UnavailableWithoutLoader) {
  nlohmann::json plan = compiledBaselinePlan(layernorm(), kTimed, "/nowhere", false);
  ASSERT_EQ(plan["shapes"].size(), 2u); // tune[0], heldout[0]; never the check set
  for (const nlohmann::json &s : plan["shapes"])
    EXPECT_EQ(s["status"], "unavailable");
  EXPECT_NE(plan["loader"].get<std::string>().find("no AOTInductor package loader"),
            std::string::npos);
}

TEST(BaselinePlan, MissingNamesThePackage) {
  nlohmann::json none = compiledBaselinePlan(layernorm(), kTimed, "", true);
  EXPECT_EQ(none["shapes"][0]["status"], "missing");
  EXPECT_EQ(none["shapes"][0]["detail"], "no --compiled-baselines DIR was given");

  std::filesystem::path dir = std::filesystem::temp_directory_path() / "kbench-plan-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  nlohmann::json plan = compiledBaselinePlan(layernorm(), kTimed, dir.string(), true);
  std::string package = plan["shapes"][0]["package"];
  EXPECT_EQ(plan["shapes"][0]["status"], "missing");
  EXPECT_NE(plan["shapes"][0]["detail"].get<std::string>().find(package), std::string::npos);

  std::ofstream(package) << "not read by the plan";
  plan = compiledBaselinePlan(layernorm(), kTimed, dir.string(), true);
  EXPECT_EQ(plan["shapes"][0]["status"], "found");
  EXPECT_EQ(plan["shapes"][1]["status"], "missing");
  std::filesystem::remove_all(dir);
}

TEST(BaselinePlan, WorkerVerdictsAndNotTimed) {
  nlohmann::json plan = {{"loader", "test"}, {"shapes", nlohmann::json::array()}};
  for (const char *shape : {"tune[0] {N=1}", "heldout[0] {N=2}", "heldout[1] {N=3}"})
    plan["shapes"].push_back({{"shape", shape}, {"status", "found"}});
  nlohmann::json timing = nlohmann::json::array();
  timing.push_back({{"shape_id", {{"shape", "tune[0] {N=1}"}}},
                    {"baselines", {{"torch_compile", {{"status", "measured"}}}}}});
  timing.push_back({{"shape_id", {{"shape", "heldout[0] {N=2}"}}},
                    {"skipped", "a check failed at this shape"}});
  for (const nlohmann::json &t : timing)
    recordCompiledBaseline(plan, t);
  finishCompiledBaselines(plan, /*timed=*/true, timing);
  EXPECT_EQ(plan["shapes"][0]["status"], "measured");
  EXPECT_EQ(plan["shapes"][1]["status"], "not_timed");
  EXPECT_NE(plan["shapes"][1]["detail"].get<std::string>().find("a check failed"),
            std::string::npos);
  EXPECT_EQ(plan["shapes"][2]["status"], "not_timed");
  EXPECT_EQ(plan["counts"]["measured"], 1);
  EXPECT_EQ(plan["counts"]["not_timed"], 2);

  std::ostringstream os;
  printCompiledBaselines(os, plan);
  EXPECT_NE(os.str().find("measured x1 not_timed x2"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("not_timed heldout[0] {N=2}"), std::string::npos) << os.str();
}

TEST(BaselinePlan, HostNeverTimes) {
  nlohmann::json plan = {{"loader", "test"},
                         {"shapes", {{{"shape", "tune[0] {N=1}"}, {"status", "found"}}}}};
  finishCompiledBaselines(plan, /*timed=*/false, nlohmann::json::array());
  EXPECT_EQ(plan["shapes"][0]["status"], "not_timed");
  EXPECT_NE(plan["shapes"][0]["detail"].get<std::string>().find("host bundles are never timed"),
            std::string::npos);
}

} // namespace
