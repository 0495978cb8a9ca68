//===- Report.cpp - report.json and the printed table ---------------------===//
//
// The worker sends raw measurements; derived numbers (speedups, floors, the
// summary) are computed here once, so that the table and the JSON agree.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Report.h"

#include "kbench/Runner/BaselinePlan.h"
#include "kbench/Runner/Manifest.h"
#include "kbench/Runner/Protocol.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace kbench::runner {

namespace {

bool failing(const std::string &verdict) { return verdict != "pass" && verdict != "skipped"; }

std::string fmt(double v, const char *format = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

std::string caseLabel(const nlohmann::json &c) {
  std::string s = c.value("shape", std::string("?"));
  if (c.contains("seed_index"))
    s += " seed#" + std::to_string(c["seed_index"].get<int>());
  if (c.contains("distribution"))
    s += " " + c["distribution"].get<std::string>();
  return s;
}

} // namespace

std::string utcTimestamp(int64_t unixSeconds) {
  std::time_t t = static_cast<std::time_t>(unixSeconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

ReportBuilder::ReportBuilder(nlohmann::json invocation) {
  report = {{"format", "kbench-report/1"},
            {"protocol_version", kProtocolVersion},
            {"date", utcTimestamp(std::time(nullptr))},
            {"invocation", std::move(invocation)},
            {"errors", nlohmann::json::array()},
            {"warnings", nlohmann::json::array()},
            {"cases", nlohmann::json::array()},
            {"timing", nlohmann::json::array()},
            {"phases", nlohmann::json::object()}};
}

void ReportBuilder::setTask(const Task &t) {
  task = &t;
  nlohmann::json tol = {{"atol", t.tolerance.atol},
                        {"rtol", t.tolerance.rtol},
                        {"fp64_ratio", t.tolerance.fp64Ratio}};
  report["task"] = {{"name", t.name},
                    {"file", t.file},
                    {"tolerance", tol},
                    {"kind", t.backward ? "backward" : "forward"},
                    {"allow_tf32", t.allowTf32}};
}

void ReportBuilder::setManifest(const Manifest &m) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelSpec &k : m.kernels) {
    nlohmann::json grid = nlohmann::json::array();
    for (const ShapeExpr &g : k.grid)
      grid.push_back(g.str());
    nlohmann::json req = nlohmann::json::array();
    for (const ShapeFact &f : k.requirements)
      req.push_back(f.str());
    kernels.push_back({{"name", k.name},
                       {"grid", grid},
                       {"block", k.block},
                       {"dynamic_shared_memory", k.dynamicSharedMemory},
                       {"requires", req},
                       {"resources", k.resources ? bundle::toJson(*k.resources)
                                                 : nlohmann::json()}});
  }
  nlohmann::json compiler;
  if (m.compiler)
    compiler = {{"name", m.compiler->name}, {"version", m.compiler->version}};
  report["bundle"] = {{"dir", m.dir.string()},     {"target", m.target},
                      {"compiler", compiler},      {"ir_hash", m.irHash},
                      {"verification", m.verification}, {"kernels", kernels}};
}

void ReportBuilder::setCalibration(const nlohmann::json &c) {
  calibration = c;
  report["calibration"] = c;
}

void ReportBuilder::setCompiledBaselines(nlohmann::json plan) {
  report["baselines"]["torch_compile"] = std::move(plan);
}

void ReportBuilder::addError(const std::string &message) { report["errors"].push_back(message); }

void ReportBuilder::addCase(nlohmann::json entry) {
  entry.erase("type");
  report["cases"].push_back(std::move(entry));
}

void ReportBuilder::addTiming(nlohmann::json t) {
  t.erase("type");
  nlohmann::json &contestants = t["contestants"];
  if (contestants.is_object() && contestants.contains("candidate")) {
    double cand = contestants["candidate"]["median_us"].get<double>();
    for (auto it = contestants.begin(); it != contestants.end(); ++it)
      if (it.key() != "candidate" && cand > 0)
        t["speedup"][it.key()] = it.value()["median_us"].get<double>() / cand;

    // % of floor: max(bytes / copy bandwidth, flops / GEMM rate) over the
    // median, from the task's cost formulas and the --calibration file.
    if (task && calibration.is_object() && (task->costBytes || task->costFlops)) {
      SymbolValues dims = t["shape_id"]["dims"].get<SymbolValues>();
      nlohmann::json floor;
      double floorUs = 0;
      std::string error;
      if (task->costBytes) {
        std::optional<int64_t> bytes = task->costBytes->evaluate(dims, error);
        double bw = calibration["copy"].value("bandwidth_bytes_per_s", 0.0);
        if (bytes && bw > 0) {
          floor["bytes"] = *bytes;
          floor["memory_us"] = *bytes / bw * 1e6;
          floorUs = std::max(floorUs, *bytes / bw * 1e6);
        }
      }
      if (task->costFlops) {
        std::optional<int64_t> flops = task->costFlops->evaluate(dims, error);
        double rate = calibration["gemm"][task->costMath].value("flops_per_s", 0.0);
        if (flops && rate > 0) {
          floor["flops"] = *flops;
          floor["math"] = task->costMath;
          floor["compute_us"] = *flops / rate * 1e6;
          floorUs = std::max(floorUs, *flops / rate * 1e6);
        }
      }
      if (floorUs > 0) {
        floor["floor_us"] = floorUs;
        floor["bound"] = floor.value("compute_us", 0.0) > floor.value("memory_us", 0.0)
                             ? "compute"
                             : "memory";
        for (auto it = contestants.begin(); it != contestants.end(); ++it) {
          double median = it.value()["median_us"].get<double>();
          if (median > 0)
            floor["percent_of_floor"][it.key()] = 100.0 * floorUs / median;
        }
        t["floor"] = floor;
        if (cand > 0 && 100.0 * floorUs / cand > 100.0)
          report["warnings"].push_back(
              t["shape_id"]["shape"].get<std::string>() +
              ": the candidate beats the measured floor (" +
              fmt(100.0 * floorUs / cand, "%.0f") +
              "% of floor): check the task's cost formulas and the calibration");
      }
    }
  }
  if (report.contains("baselines"))
    recordCompiledBaseline(report["baselines"]["torch_compile"], t);
  if (t.contains("baseline_timing") &&
      t["baseline_timing"].contains("file_error"))
    report["warnings"].push_back(
        t["shape_id"]["shape"].get<std::string>() +
        ": the baselines' timings were not kept: " +
        t["baseline_timing"]["file_error"].get<std::string>());
  report["timing"].push_back(std::move(t));
}

void ReportBuilder::absorbWorker(const WorkerResult &w) {
  for (const nlohmann::json &m : w.messages)
    absorbMessage(m);
  absorbEnd(w);
}

void ReportBuilder::absorbMessage(const nlohmann::json &m) {
  std::string type = m.value("type", "");
  if (type == "case") {
    addCase(m);
  } else if (type == "timing") {
    addTiming(m);
  } else if (type == "env") {
    nlohmann::json env = m;
    env.erase("type");
    report["environment"] = env;
  } else if (type == "module") {
    report["module"] = {{"loaded_from", m["loaded_from"]}, {"attributes", m["attributes"]}};
  } else if (type == "phase") {
    report["phases"][m["name"].get<std::string>()] = m["seconds"];
  } else if (type == "calibration") {
    nlohmann::json c = m;
    c.erase("type");
    report["calibration"] = c;
  } else if (type == "lock" || type == "cache") {
    nlohmann::json body = m;
    body.erase("type");
    report[type == "lock" ? "timing_lock" : "cache"] = body;
  } else if (type == "fatal") {
    fatal = m;
  } else if (type == "done") {
    done = true;
  }
}

void ReportBuilder::absorbEnd(const WorkerResult &w) {
  report["phases"]["worker_wall"] = w.seconds;

  nlohmann::json where = w.lastProgress.is_object() ? w.lastProgress["case"] : nlohmann::json();
  std::string step = w.lastProgress.is_object() ? w.lastProgress.value("step", "") : "";
  auto endCase = [&](const std::string &verdict, const std::string &detail) {
    nlohmann::json c = where.is_object() ? where : nlohmann::json::object();
    if (!c.contains("shape"))
      c["shape"] = "(before the first case)";
    c["verdict"] = verdict;
    c["detail"] = detail;
    c["step"] = step;
    addCase(c);
  };

  switch (w.end) {
  case WorkerResult::End::NotStarted:
    addError("the worker process could not start: " + w.error);
    return;
  case WorkerResult::End::TimedOut:
    endCase("timeout", "no progress for " +
                           fmt(report["invocation"].value("timeout_s", 0.0), "%g") +
                           " s during '" + step +
                           "': the worker was killed (a kernel that never returns: an "
                           "infinite loop or a deadlock?); raise --timeout if the step is "
                           "legitimately slow");
    return;
  case WorkerResult::End::Signaled:
    endCase("crash", "the worker died of " + w.signalName() + " during '" + step +
                         "' (the candidate read or wrote out of bounds?)");
    return;
  case WorkerResult::End::Exited:
    break;
  }
  if (fatal.is_object()) {
    std::string verdict = fatal.value("verdict", "error");
    std::string message = fatal.value("message", "");
    if (verdict == "fault") {
      where = fatal["case"];
      step = fatal.value("step", step);
      endCase("fault", message + " during '" + step + "'");
    } else {
      addError(message);
    }
    return;
  }
  if (!done)
    addError("the worker exited with status " + std::to_string(w.status) +
             " without finishing its report");
}

const nlohmann::json &ReportBuilder::finish() {
  nlohmann::json byVerdict = nlohmann::json::object();
  int passed = 0, failed = 0, skipped = 0;
  double maxAbs = 0, maxRel = 0, maxAccuracyRatio = 0;
  nlohmann::json firstFailure;
  for (const nlohmann::json &c : report["cases"]) {
    std::string v = c.value("verdict", "error");
    byVerdict[v] = byVerdict.value(v, 0) + 1;
    if (v == "pass")
      ++passed;
    else if (v == "skipped")
      ++skipped;
    else {
      ++failed;
      if (firstFailure.is_null())
        firstFailure = c;
    }
    if (c.contains("outputs"))
      for (const auto &[name, o] : c["outputs"].items()) {
        for (const char *run : {"run1", "run2"})
          if (o.contains(run)) {
            maxAbs = std::max(maxAbs, o[run].value("max_abs_err", 0.0));
            maxRel = std::max(maxRel, o[run].value("max_rel_err", 0.0));
          }
        if (o.contains("accuracy"))
          maxAccuracyRatio = std::max(maxAccuracyRatio, o["accuracy"].value("ratio", 0.0));
      }
  }
  nlohmann::json summary = {{"cases", passed + failed + skipped}, {"passed", passed},
                            {"failed", failed}, {"skipped", skipped},
                            {"by_verdict", byVerdict}, {"max_abs_err", maxAbs},
                            {"max_rel_err", maxRel},
                            {"max_accuracy_ratio", maxAccuracyRatio}};
  if (!firstFailure.is_null())
    summary["first_failure"] = firstFailure;

  // Geometric means of the speedups over the timed shapes.
  std::map<std::string, std::pair<double, int>> logs;
  for (const nlohmann::json &t : report["timing"])
    if (t.contains("speedup"))
      for (const auto &[name, s] : t["speedup"].items())
        if (s.get<double>() > 0) {
          logs[name].first += std::log(s.get<double>());
          logs[name].second += 1;
        }
  for (const auto &[name, acc] : logs)
    summary["geomean_speedup"][name] = std::exp(acc.first / acc.second);
  report["summary"] = summary;
  if (report.contains("baselines"))
    finishCompiledBaselines(report["baselines"]["torch_compile"],
                            report["invocation"].value("timing", false), report["timing"]);

  std::string verdict;
  if (!report["errors"].empty())
    verdict = "error";
  else if (failed > 0)
    verdict = "fail";
  else if (passed == 0)
    verdict = "error";
  else
    verdict = "pass";
  if (verdict == "error" && report["errors"].empty())
    report["errors"].push_back("no case ran (empty shape set?)");
  report["verdict"] = verdict;
  report["exit_code"] = verdict == "pass" ? 0 : verdict == "fail" ? 1 : 2;
  return report;
}

int ReportBuilder::exitCode() const { return report.value("exit_code", 2); }

void ReportBuilder::printTable(std::ostream &os) const {
  const nlohmann::json &r = report;
  const nlohmann::json &inv = r["invocation"];
  os << "kbench-run: task " << (r.contains("task") ? r["task"]["name"].get<std::string>() : "?")
     << ", bundle " << inv.value("bundle", std::string("?")) << ", target "
     << inv.value("target", std::string("?"));
  std::string notes;
  if (inv.contains("target_chosen_because"))
    notes = inv["target_chosen_because"].get<std::string>();
  if (r.contains("module"))
    notes += (notes.empty() ? "" : "; ") + r["module"]["loaded_from"].get<std::string>();
  if (!notes.empty())
    os << " (" << notes << ")";
  os << "\n";
  if (r.contains("environment") && r["environment"].contains("gpu"))
    os << "  gpu " << r["environment"]["gpu"].get<std::string>() << ", torch "
       << r["environment"].value("torch", std::string("?")) << "\n";

  const nlohmann::json &s = r["summary"];
  if (s.value("cases", 0) > 0) {
    os << "  checks: " << s["passed"] << " passed, " << s["failed"] << " failed, "
       << s["skipped"] << " skipped of " << s["cases"] << " (shape x seed x distribution); max abs err "
       << fmt(s["max_abs_err"].get<double>()) << ", max rel err "
       << fmt(s["max_rel_err"].get<double>()) << ", max error ratio to the reference (vs fp64) "
       << fmt(s.value("max_accuracy_ratio", 0.0)) << "\n";
  }
  if (s.value("failed", 0) > 0) {
    os << "  failures:";
    for (const auto &[verdict, count] : s["by_verdict"].items())
      if (failing(verdict))
        os << " " << verdict << " x" << count.get<int>();
    os << "\n";
  }
  int shown = 0, failures = 0;
  for (const nlohmann::json &c : r["cases"]) {
    std::string v = c.value("verdict", "error");
    if (!failing(v))
      continue;
    ++failures;
    if (shown++ < 5)
      os << "  FAIL " << caseLabel(c) << ": " << v << ": " << c.value("detail", std::string())
         << "\n";
  }
  if (failures > shown)
    os << "  ... " << failures - shown << " more failures in report.json\n";
  for (const nlohmann::json &e : r["errors"])
    os << "  ERROR " << e.get<std::string>() << "\n";
  for (const nlohmann::json &w : r["warnings"])
    os << "  WARNING " << w.get<std::string>() << "\n";

  if (!r["timing"].empty()) {
    os << "  timing (median us [IQR], n)   candidate             eager TF32 off        "
          "eager TF32 on         torch.compile         speedup off/on/compile  % of floor\n";
    for (const nlohmann::json &t : r["timing"]) {
      os << "  " << std::left << std::setw(28) << t["shape_id"]["shape"].get<std::string>();
      if (t.contains("skipped")) {
        os << " skipped: " << t["skipped"].get<std::string>() << "\n";
        continue;
      }
      auto cell = [&](const char *name) {
        if (!t["contestants"].contains(name))
          return std::string("-");
        const nlohmann::json &c = t["contestants"][name];
        return fmt(c["median_us"].get<double>(), "%.2f") + " [" +
               fmt(c["iqr_us"].get<double>(), "%.2f") + "] " +
               std::to_string(c["n"].get<int>());
      };
      auto speedup = [&](const char *name) {
        return t.contains("speedup") && t["speedup"].contains(name)
                   ? fmt(t["speedup"][name].get<double>(), "%.2fx")
                   : std::string("-");
      };
      std::string floor = t.contains("floor") && t["floor"].contains("percent_of_floor")
                              ? fmt(t["floor"]["percent_of_floor"]["candidate"].get<double>(),
                                    "%.0f%%")
                              : "-";
      os << " " << std::setw(22) << cell("candidate") << std::setw(22) << cell("eager_tf32_off")
         << std::setw(22) << cell("eager_tf32_on") << std::setw(22) << cell("torch_compile")
         << std::setw(24)
         << (speedup("eager_tf32_off") + " / " + speedup("eager_tf32_on") + " / " +
             speedup("torch_compile"))
         << floor
         << (t.contains("variant") ? "  (variant " + t["variant"].get<std::string>() + ")" : "")
         << "\n"
         << std::right;
    }
  }
  if (r.contains("baselines"))
    printCompiledBaselines(os, r["baselines"]["torch_compile"]);
  const nlohmann::json &ph = r["phases"];
  if (ph.contains("correctness"))
    os << "  device time: setup " << fmt(ph.value("setup", 0.0), "%.2f") << " s, checks "
       << fmt(ph["correctness"].get<double>(), "%.2f") << " s"
       << (ph.contains("timing") ? ", timing " + fmt(ph["timing"].get<double>(), "%.2f") + " s"
                                 : "")
       << "\n";
  std::string verdict = r.value("verdict", "error");
  os << "verdict: " << (verdict == "pass" ? "PASS" : verdict == "fail" ? "FAIL" : "ERROR");
  if (verdict == "fail")
    os << " (" << failures << " of " << s.value("cases", 0) << " checks failed)";
  os << "\n";
}

std::string writeReport(const nlohmann::json &report, const std::string &dir,
                        const std::string &name) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::filesystem::path path = std::filesystem::path(dir) / name;
  std::ofstream out(path);
  if (!out)
    throw InputError(path.string() + ": cannot be written");
  out << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return path.string();
}

} // namespace kbench::runner
