//===- Evaluate.cpp - kbench-run's two commands ---------------------------===//
//
// The supervisor side: everything that can be judged without running the
// candidate is judged here (task, manifest, target, files, schemas, requires
// facts), before the worker is forked. Whatever happens afterwards, a report
// is written.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Evaluate.h"

#include "kbench/Runner/CudaDriver.h"
#include "kbench/Runner/Manifest.h"
#include "kbench/Runner/Report.h"
#include "kbench/Runner/Worker.h"

#include "kbench/Support/JsonField.h"

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
  std::string target = o.target;
  std::string targetNote;
  if (target.empty()) {
    target = gpuPresent() ? "sm_90a" : "host";
    targetNote = target == "host" ? "no GPU on this machine" : "a GPU is present";
  }
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
                               {"device", o.device}};
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
    for (const std::string &d : dists) {
      std::optional<Distribution> dist = parseDistribution(d);
      if (!dist)
        throw InputError("--distributions: unknown distribution '" + d +
                         "' (randn, negated, small, large, structural)");
      plan.distributions.push_back(*dist);
    }
    for (const std::string &s : sets)
      if (s != "check" && s != "tune" && s != "heldout")
        throw InputError("--shapes: unknown shape set '" + s + "' (check, tune, heldout)");
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
  plan.timedSets = {"tune", "heldout"};
  plan.device = o.device;
  for (int i = 0; i < o.seeds; ++i)
    plan.seeds.push_back(protocolSeed(i));
  for (const std::string &set : sets) {
    auto it = task.shapes.find(set);
    if (it == task.shapes.end())
      continue;
    for (const ShapeCase &sc : it->second) {
      std::vector<std::string> violated = violatedRequires(manifest, sc.dims);
      if (violated.empty()) {
        plan.shapes.push_back(sc);
        continue;
      }
      std::string detail;
      for (const std::string &v : violated)
        detail += (detail.empty() ? "" : "; ") + v;
      rb.addCase({{"set", sc.set},
                  {"index", sc.index},
                  {"dims", sc.dims},
                  {"shape", sc.label()},
                  {"verdict", "requires_violated"},
                  {"detail", detail}});
    }
  }
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
