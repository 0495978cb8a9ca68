//===- Evaluate.cpp - kbench-run's two commands ---------------------------===//
//
// The supervisor side: everything that can be judged without running the
// candidate is judged here (task, manifest, target, files, schemas, requires
// facts), before the worker is forked. Whatever happens afterwards, a report
// is written.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Evaluate.h"

#include "kbench/Runner/BaselinePlan.h"
#include "kbench/Runner/CudaDriver.h"
#include "kbench/Runner/Manifest.h"
#include "kbench/Runner/Report.h"
#include "kbench/Runner/Worker.h"

#include "kbench/Support/JsonField.h"
#include "Planning.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace kbench::runner {

bool gpuPresent() {
  if (!haveCudaSupport())
    return false;
  if (const char *off = std::getenv("KBENCH_RUN_NO_CUDA"); off && *off && *off != '0')
    return false;
  return access("/proc/driver/nvidia/version", R_OK) == 0;
}

std::string chooseTarget(const std::string &asked, std::string &why) {
  why.clear();
  if (!asked.empty())
    return asked;
  std::string target = gpuPresent() ? "sm_90a" : "host";
  why = target == "host" ? "no GPU on this machine" : "a GPU is present";
  return target;
}

std::vector<Distribution> parseDistributions(const std::vector<std::string> &names,
                                             const std::string &what) {
  std::vector<Distribution> result;
  for (const std::string &d : names) {
    std::optional<Distribution> dist = parseDistribution(d);
    if (!dist)
      throw InputError(what + ": unknown distribution '" + d +
                       "' (randn, negated, small, large, structural)");
    result.push_back(*dist);
  }
  return result;
}

void checkShapeSetNames(const std::vector<std::string> &sets, const std::string &what) {
  for (const std::string &s : sets)
    if (s != "check" && s != "tune" && s != "heldout")
      throw InputError(what + ": unknown shape set '" + s + "' (check, tune, heldout)");
}

void planCompiledBaselines(const Task &task, const std::vector<std::string> &timedSets,
                           const std::string &dir, EvalPlan &plan, ReportBuilder &rb) {
  nlohmann::json compiled = compiledBaselinePlan(task, timedSets, dir);
  for (const nlohmann::json &entry : compiled["shapes"])
    if (entry["status"] == "found")
      plan.compiledPackages[entry["shape"].get<std::string>()] = entry["package"];
  rb.setCompiledBaselines(compiled);
}

void planShapes(const Task &task, const Manifest &manifest,
                const std::vector<std::string> &checkSets,
                const std::vector<std::string> &timedSets, EvalPlan &plan, ReportBuilder &rb) {
  auto listed = [](const std::vector<std::string> &sets, const std::string &set) {
    return std::find(sets.begin(), sets.end(), set) != sets.end();
  };
  std::vector<std::string> sets = checkSets;
  for (const std::string &set : timedSets)
    if (!listed(sets, set))
      sets.push_back(set);
  for (const std::string &set : sets) {
    auto it = task.shapes.find(set);
    if (it == task.shapes.end())
      continue;
    bool checked = listed(checkSets, set), timed = listed(timedSets, set);
    for (const ShapeCase &sc : it->second) {
      std::vector<std::string> violated =
          violatedRequires(manifest, sc.launchDims);
      if (violated.empty()) {
        if (checked)
          plan.shapes.push_back(sc);
        if (timed)
          plan.timedShapes.push_back(sc);
        continue;
      }
      std::string detail;
      for (const std::string &v : violated)
        detail += (detail.empty() ? "" : "; ") + v;
      nlohmann::json id = {{"set", sc.set}, {"index", sc.index}, {"dims", sc.dims},
                           {"shape", sc.label()}};
      if (checked) {
        id["verdict"] = "requires_violated";
        id["detail"] = detail;
        rb.addCase(id);
      } else {
        rb.absorbMessage({{"type", "timing"},
                          {"shape_id", id},
                          {"skipped", "requires_violated: " + detail}});
      }
    }
  }
}

namespace {

int emit(ReportBuilder &rb, const RunOptions &o, std::ostream &out) {
  const nlohmann::json &report = rb.finish();
  std::string path;
  if (!o.outputDir.empty()) {
    try {
      path = writeReport(report, o.outputDir);
    } catch (const InputError &e) {
      std::cerr << "kbench-run: " << e.what() << "\n";
      return 2;
    }
  }
  if (o.json) {
    out << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    rb.printTable(out);
    if (!path.empty())
      out << "report: " << path << "\n";
  }
  return rb.exitCode();
}

} // namespace

int evaluate(const RunOptions &o, std::ostream &out) {
  std::string targetNote;
  std::string target = chooseTarget(o.target, targetNote);
  std::vector<std::string> sets = o.shapeSets;
  if (sets.empty())
    sets = target == "host" ? std::vector<std::string>{"check"}
                            : std::vector<std::string>{"check", "tune", "heldout"};
  bool timing = o.timing < 0 ? target != "host" : o.timing > 0;
  std::vector<std::string> dists = o.distributions;
  if (dists.empty())
    for (Distribution d : allDistributions())
      dists.push_back(distributionName(d));

  nlohmann::json invocation = {{"task", o.taskDir},       {"bundle", o.bundleDir},
                               {"target", target},        {"shape_sets", sets},
                               {"seeds", o.seeds},        {"distributions", dists},
                               {"timeout_s", o.timeoutSeconds}, {"timing", timing},
                               {"l2_flush", o.l2Flush},
                               {"device", o.device},
                               {"compiled_baselines", o.compiledBaselinesDir}};
  if (!targetNote.empty())
    invocation["target_chosen_because"] = targetNote;
  ReportBuilder rb(invocation);

  Task task;
  Manifest manifest;
  std::shared_ptr<const Reference> reference;
  EvalPlan plan;
  try {
    task = parseTaskFile(o.taskDir);
    rb.setTask(task);
    manifest = parseManifestFile(o.bundleDir);
    rb.setManifest(manifest);
    checkManifestAgainstTask(manifest, task, target);
    reference = bindReference(task);
    if (!o.calibrationFile.empty())
      rb.setCalibration(readJsonFile(o.calibrationFile, "calibration file"));
    plan.distributions = parseDistributions(dists, "--distributions");
    checkShapeSetNames(sets, "--shapes");
    if (o.seeds < 1)
      throw InputError("--seeds: needs at least 1 (the protocol uses 3)");
    std::optional<L2Flush> flush = parseL2Flush(o.l2Flush);
    if (!flush)
      throw InputError("--l2-flush: unknown mode '" + o.l2Flush + "' (read, write)");
    plan.l2Flush = *flush;
  } catch (const InputError &e) {
    rb.addError(e.what());
    return emit(rb, o, out);
  }

  plan.task = &task;
  plan.manifest = &manifest;
  plan.reference = reference.get();
  plan.target = target;
  plan.timing = timing;
  plan.device = o.device;
  for (int i = 0; i < o.seeds; ++i)
    plan.seeds.push_back(protocolSeed(i));
  // One call times the tune and heldout shapes it checked.
  std::vector<std::string> timedSets;
  for (const std::string &set : sets)
    if (set == "tune" || set == "heldout")
      timedSets.push_back(set);
  try {
    // Every shape a GPU run would time is listed, so that a report says what
    // the baseline is (measured, missing, unavailable, not timed) on any target.
    planCompiledBaselines(task, {"tune", "heldout"}, o.compiledBaselinesDir, plan, rb);
  } catch (const InputError &e) {
    rb.addError(e.what());
    return emit(rb, o, out);
  }
  planShapes(task, manifest, sets, timedSets, plan, rb);
  if (!plan.shapes.empty()) {
    WorkerResult w = superviseWorker([&](int fd) { return runWorker(plan, fd); },
                                     o.timeoutSeconds);
    rb.absorbWorker(w);
  }
  return emit(rb, o, out);
}

int calibrateDevice(const RunOptions &o, std::ostream &out) {
  if (!gpuPresent()) {
    std::cerr << "kbench-run: --calibrate measures a GPU, and "
              << (haveCudaSupport() ? "this machine has no NVIDIA driver"
                                    : "this runner was built without cuda.h")
              << "\n";
    return 2;
  }
  WorkerResult w = superviseWorker([&](int fd) { return runCalibration(o.device, fd); },
                                   std::max(o.timeoutSeconds, 300.0));
  nlohmann::json result = {{"format", "kbench-calibration/1"}};
  std::string failure;
  for (const nlohmann::json &m : w.messages) {
    std::string type = m.value("type", "");
    nlohmann::json body = m;
    body.erase("type");
    if (type == "env")
      result["environment"] = body;
    else if (type == "calibration")
      result.update(body);
    else if (type == "fatal")
      failure = m.value("message", "");
  }
  if (w.end != WorkerResult::End::Exited || w.status != 0 || !result.contains("copy")) {
    std::cerr << "kbench-run: calibration failed: "
              << (failure.empty() ? "the worker ended early" : failure) << "\n";
    return 2;
  }
  std::string path;
  if (!o.outputDir.empty())
    path = writeReport(result, o.outputDir, "calibration.json");
  if (o.json) {
    out << result.dump(2) << "\n";
    return 0;
  }
  char line[256];
  out << "kbench-run --calibrate: " << result["environment"].value("gpu", std::string("?"))
      << "\n";
  std::snprintf(line, sizeof(line), "  copy bandwidth   %8.3f TB/s\n",
                result["copy"]["bandwidth_bytes_per_s"].get<double>() / 1e12);
  out << line;
  for (const auto &[name, g] : result["gemm"].items()) {
    std::snprintf(line, sizeof(line), "  GEMM %-6s      %8.1f TFLOP/s\n", name.c_str(),
                  g["flops_per_s"].get<double>() / 1e12);
    out << line;
  }
  if (!path.empty())
    out << "calibration: " << path << "\n";
  return 0;
}

} // namespace kbench::runner
