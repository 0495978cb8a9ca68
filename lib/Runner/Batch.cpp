//===- Batch.cpp - kbench-run --batch: many bundles of one task -----------===//
//
// The supervisor side of a batch. Everything that can be judged without
// running a candidate (the list, the task, each manifest) is judged here,
// before any worker is forked; a bundle refused then still gets its report.
// The rest run in one worker process at a time: the worker brackets each
// bundle's messages with "bundle" and "bundle_end", so the messages go to
// that bundle's ReportBuilder as they arrive and its report is written the
// moment it ends. When the worker dies inside a bundle (a crash, a watchdog
// kill) or leaves after a CUDA fault, that bundle gets the verdict and a
// fresh worker starts at the next one.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Batch.h"

#include "kbench/Runner/BaselineTimings.h"
#include "kbench/Runner/Evaluate.h"
#include "kbench/Runner/Manifest.h"
#include "kbench/Runner/Report.h"
#include "kbench/Runner/Worker.h"

#include "kbench/Support/JsonField.h"
#include "Planning.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

namespace kbench::runner {

namespace {

std::string resolve(const std::filesystem::path &base, const std::string &path) {
  std::filesystem::path p(path);
  return (p.is_absolute() ? p : base / p).lexically_normal().string();
}

bool safeId(const std::string &id) {
  if (id.empty() || id[0] == '.' || id.size() > 128)
    return false;
  for (char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      return false;
  return true;
}

/// The list's seeds as the reports' invocation states them: the count, or
/// the count per checked set when the list gave them so.
nlohmann::json seedsJson(const BatchList &list) {
  if (list.seedsBySet.empty())
    return list.seeds;
  nlohmann::json bySet = nlohmann::json::object();
  for (const std::string &set : list.shapeSets) {
    auto it = list.seedsBySet.find(set);
    bySet[set] = it == list.seedsBySet.end() ? list.seeds : it->second;
  }
  return bySet;
}

std::vector<std::string> stringList(const Field &f) {
  f.expectArray();
  std::vector<std::string> items;
  for (const Field &e : f.elements())
    items.push_back(e.string());
  if (items.empty())
    f.fail("needs at least one entry");
  return items;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// One bundle of the batch, from its refusal or first message to its report.
struct Item {
  BatchList::Bundle entry;
  std::unique_ptr<ReportBuilder> rb;
  Manifest manifest;
  EvalPlan plan;
  bool refused = false; ///< judged without running: its files or target are wrong
  std::chrono::steady_clock::time_point started;
};

/// The batch's outputs: each bundle's report, batch.jsonl and the console.
class Writer {
public:
  Writer(const std::string &outDir, bool json, std::ostream &out)
      : outDir(outDir), json(json), out(out) {}

  void open() {
    std::string path = (std::filesystem::path(outDir) / "batch.jsonl").string();
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    lines.open(path, std::ios::trunc);
    if (!lines)
      throw InputError(path + ": cannot be written (-o " + outDir + ")");
  }

  /// Writes `item`'s report and its line; returns its exit status.
  int finish(Item &item, double seconds) {
    const nlohmann::json &report = item.rb->finish();
    int exit = item.rb->exitCode();
    std::string status = statusOf(report, item.refused);
    nlohmann::json line = {{"id", item.entry.id},
                           {"status", status},
                           {"exit", exit},
                           {"verdict", report.value("verdict", "error")},
                           {"seconds", seconds}};
    std::string detail = detailOf(report);
    if (!detail.empty())
      line["detail"] = detail;
    try {
      line["report"] = writeReport(report, (std::filesystem::path(outDir) / item.entry.id).string());
    } catch (const InputError &e) {
      line["detail"] = e.what();
      exit = 2;
      line["exit"] = 2;
    }
    std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    lines << text << "\n";
    lines.flush(); // a reader follows the file as bundles finish
    if (json) {
      out << text << "\n";
    } else {
      char secs[32];
      std::snprintf(secs, sizeof(secs), "%.2f s", seconds);
      out << item.entry.id << ": " << status << " (exit " << exit << ", " << secs << ")"
          << (detail.empty() ? "" : ": " + detail) << "\n";
    }
    out.flush();
    ++counts[status];
    worst = std::max(worst, exit);
    return exit;
  }

  std::map<std::string, int> counts;
  int worst = 0;

private:
  /// ok, fail, or how the bundle ended when the worker died in it (crash,
  /// timeout, fault); refused when it never ran, error when it ran but
  /// could not be judged.
  static std::string statusOf(const nlohmann::json &report, bool refused) {
    std::string verdict = report.value("verdict", "error");
    if (verdict == "pass")
      return "ok";
    if (verdict == "error")
      return refused ? "refused" : "error";
    for (const nlohmann::json &c : report["cases"]) {
      std::string v = c.value("verdict", "");
      if (v == "crash" || v == "timeout" || v == "fault")
        return v;
    }
    return "fail";
  }

  static std::string detailOf(const nlohmann::json &report) {
    std::string detail;
    if (!report["errors"].empty())
      detail = report["errors"][0].get<std::string>();
    else if (report["summary"].contains("first_failure")) {
      const nlohmann::json &f = report["summary"]["first_failure"];
      detail = f.value("shape", std::string()) + ": " + f.value("verdict", std::string()) +
               ": " + f.value("detail", std::string());
    }
    if (detail.size() > 400)
      detail = detail.substr(0, 397) + "...";
    return detail;
  }

  std::string outDir;
  bool json;
  std::ostream &out;
  std::ofstream lines;
};

/// Runs `runnable` in worker processes, one after another: a fresh worker
/// starts at the bundle after the one its predecessor died in or left after.
void runInWorkers(const std::vector<Item *> &runnable, double timeoutSeconds, Writer &writer) {
  // The worker gets the plans by index; each Item keeps its plan's pointers.
  std::vector<EvalPlan> plans;
  for (Item *item : runnable)
    plans.push_back(item->plan);
  size_t next = 0;
  while (next < runnable.size()) {
    long current = -1;
    bool started = false;
    nlohmann::json env, lastProgress, earlyFatal;
    WorkerResult w = superviseWorker(
        [&](int fd) { return runBatchWorker(plans, next, fd); }, timeoutSeconds,
        [&](const nlohmann::json &m) {
          std::string type = m.value("type", "");
          if (type == "env") {
            env = m;
          } else if (type == "bundle") {
            const nlohmann::json &index = m.value("index", nlohmann::json());
            if (!index.is_number_unsigned() || index.get<size_t>() >= runnable.size())
              return; // not from runBatchWorker
            current = index.get<long>();
            started = true;
            lastProgress = nullptr;
            runnable[current]->started = std::chrono::steady_clock::now();
            if (env.is_object())
              runnable[current]->rb->absorbMessage(env);
          } else if (type == "bundle_end" && current >= 0) {
            Item &item = *runnable[current];
            WorkerResult end;
            end.end = WorkerResult::End::Exited;
            end.seconds = secondsSince(item.started);
            item.rb->absorbEnd(end);
            writer.finish(item, end.seconds);
            next = static_cast<size_t>(current) + 1;
            current = -1;
          } else if (current >= 0) {
            if (type == "progress")
              lastProgress = m;
            runnable[current]->rb->absorbMessage(m);
          } else if (type == "fatal") {
            earlyFatal = m;
          }
        });
    if (current >= 0) {
      // The worker died inside this bundle: a crash or the watchdog.
      Item &item = *runnable[current];
      WorkerResult end = w;
      end.lastProgress = lastProgress;
      end.seconds = secondsSince(item.started);
      item.rb->absorbEnd(end);
      writer.finish(item, end.seconds);
      next = static_cast<size_t>(current) + 1;
    } else if (!started) {
      // No bundle began: the device could not be opened, or the fork
      // failed. Every bundle left would end the same way.
      std::string why;
      if (earlyFatal.is_object())
        why = earlyFatal.value("message", "");
      else if (!w.error.empty())
        why = "the worker process could not start: " + w.error;
      else
        why = "the worker ended before its first bundle (" +
              (w.end == WorkerResult::End::Signaled ? w.signalName()
                                                    : "status " + std::to_string(w.status)) +
              ")";
      for (; next < runnable.size(); ++next) {
        if (env.is_object())
          runnable[next]->rb->absorbMessage(env);
        runnable[next]->rb->addError(why);
        writer.finish(*runnable[next], secondsSince(runnable[next]->started));
      }
    }
  }
}

} // namespace

BatchList parseBatchList(const std::string &file) {
  nlohmann::json doc = readJsonFile(file, "batch list");
  std::filesystem::path base = std::filesystem::path(file).parent_path();
  Field root(doc, "", file);
  root.expectObject();
  root.allowOnly(
      {"task_dir", "bundles", "timing", "target", "shapes", "seeds", "distributions"});
  BatchList list;
  list.file = file;
  list.taskDir = resolve(base, root.at("task_dir").string());
  list.timing = root.at("timing").string();
  if (list.timing != "none" && list.timing != "screen" && list.timing != "full")
    root.at("timing").fail("'" + list.timing + "' is not one of none, screen, full");
  if (std::optional<Field> target = root.get("target")) {
    list.target = target->string();
    if (list.target != "host" && list.target != "sm_90a")
      target->fail("'" + list.target + "' is not one of host, sm_90a");
  }
  Field bundles = root.at("bundles");
  bundles.expectArray();
  std::map<std::string, std::string> seen;
  for (const Field &b : bundles.elements()) {
    b.expectObject();
    b.allowOnly({"id", "dir"});
    BatchList::Bundle entry{b.at("id").string(), resolve(base, b.at("dir").string())};
    if (!safeId(entry.id))
      b.at("id").fail("'" + entry.id + "' cannot name a folder of the output: use letters, "
                      "digits, '.', '_' and '-' (not first '.'), at most 128");
    auto [it, fresh] = seen.emplace(entry.id, b.getPath());
    if (!fresh)
      b.at("id").fail("'" + entry.id + "' is also the id of " + it->second +
                      " (ids name the output folders, so they must differ)");
    list.bundles.push_back(entry);
  }
  if (list.bundles.empty())
    bundles.fail("needs at least one bundle");
  if (std::optional<Field> shapes = root.get("shapes")) {
    list.shapeSets = stringList(*shapes);
    checkShapeSetNames(list.shapeSets, file + ": shapes");
  } else {
    list.shapeSets = {"check"};
  }
  if (std::optional<Field> seeds = root.get("seeds")) {
    auto count = [](const Field &f) {
      int64_t n = f.integer();
      if (n < 1 || n > 1000)
        f.fail("needs 1 to 1000 (the protocol uses 3)");
      return static_cast<int>(n);
    };
    if (seeds->json().is_object()) {
      // Per checked set; a set not named keeps the protocol's 3.
      for (const auto &[set, n] : seeds->members()) {
        if (std::find(list.shapeSets.begin(), list.shapeSets.end(), set) ==
            list.shapeSets.end())
          n.fail("'" + set + "' is not among the checked sets (\"shapes\")");
        list.seedsBySet[set] = count(n);
      }
    } else {
      list.seeds = count(*seeds);
    }
  }
  if (std::optional<Field> dists = root.get("distributions")) {
    list.distributions = stringList(*dists);
    parseDistributions(list.distributions, file + ": distributions");
  } else {
    for (Distribution d : allDistributions())
      list.distributions.push_back(distributionName(d));
  }
  return list;
}

int evaluateBatch(const BatchOptions &o, std::ostream &out) {
  auto t0 = std::chrono::steady_clock::now();
  BatchList list;
  Task task;
  std::shared_ptr<const Reference> reference;
  nlohmann::json calibration;
  std::string targetNote;
  std::string target;
  Writer writer(o.outputDir, o.json, out);
  std::optional<L2Flush> flush = parseL2Flush(o.l2Flush);
  try {
    if (o.outputDir.empty())
      throw InputError("--batch needs -o OUTDIR (each bundle's report goes to OUTDIR/<id>/)");
    if (!flush)
      throw InputError("--l2-flush: unknown mode '" + o.l2Flush + "' (read, write)");
    list = parseBatchList(o.listFile);
    // The list may name its target (a search writes it there); the flag may
    // too, but the two must agree.
    if (!list.target.empty() && !o.target.empty() && list.target != o.target)
      throw InputError(o.listFile + ": target '" + list.target + "' but --target " + o.target);
    target = chooseTarget(list.target.empty() ? o.target : list.target, targetNote);
    task = parseTaskFile(list.taskDir);
    reference = bindReference(task);
    if (!o.calibrationFile.empty())
      calibration = readJsonFile(o.calibrationFile, "calibration file");
    if (!o.baselineTimingsFile.empty())
      BaselineTimingFile::check(o.baselineTimingsFile);
    writer.open();
  } catch (const InputError &e) {
    std::cerr << "kbench-run: " << e.what() << "\n";
    return 2;
  }

  // Search screening checks the check shapes and times the tune shapes; a
  // list that also checks heldout shapes gets them timed, as a single run.
  bool timing = list.timing != "none";
  std::vector<std::string> timedSets;
  if (timing) {
    timedSets.push_back("tune");
    for (const std::string &s : list.shapeSets)
      if (s == "heldout")
        timedSets.push_back(s);
  }
  std::vector<Distribution> dists = parseDistributions(list.distributions, "distributions");

  std::vector<std::unique_ptr<Item>> items;
  std::vector<Item *> runnable;
  for (const BatchList::Bundle &b : list.bundles) {
    auto item = std::make_unique<Item>();
    item->entry = b;
    item->started = std::chrono::steady_clock::now();
    nlohmann::json invocation = {
        {"task", list.taskDir},
        {"bundle", b.dir},
        {"target", target},
        {"shape_sets", list.shapeSets},
        {"seeds", seedsJson(list)},
        {"distributions", list.distributions},
        {"timeout_s", o.timeoutSeconds},
        {"timing", timing},
        {"timing_protocol", list.timing},
        {"l2_flush", o.l2Flush},
        {"device", o.device},
        {"batch", {{"list", list.file}, {"id", b.id}}}};
    if (!targetNote.empty())
      invocation["target_chosen_because"] = targetNote;
    if (!o.baselineTimingsFile.empty())
      invocation["baseline_timings"] = o.baselineTimingsFile;
    item->rb = std::make_unique<ReportBuilder>(invocation);
    item->rb->setTask(task);
    if (calibration.is_object())
      item->rb->setCalibration(calibration);
    try {
      item->manifest = parseManifestFile(b.dir);
      item->rb->setManifest(item->manifest);
      checkManifestAgainstTask(item->manifest, task, target);
    } catch (const InputError &e) {
      item->rb->addError(e.what());
      item->refused = true;
      writer.finish(*item, secondsSince(item->started));
      continue;
    }
    EvalPlan &plan = item->plan;
    plan.task = &task;
    plan.manifest = &item->manifest;
    plan.reference = reference.get();
    plan.target = target;
    plan.timing = timing;
    plan.timingProtocol =
        list.timing == "screen" ? TimingProtocol::screen() : TimingProtocol::full();
    plan.l2Flush = *flush;
    // Only the screening protocol reuses baselines; the full one times
    // them beside the candidate.
    if (list.timing == "screen")
      plan.baselineTimingsFile = o.baselineTimingsFile;
    plan.device = o.device;
    plan.distributions = dists;
    int mostSeeds = list.seeds;
    for (const auto &[set, n] : list.seedsBySet) {
      mostSeeds = std::max(mostSeeds, n);
      plan.seedsBySet[set] = static_cast<size_t>(n);
    }
    for (int i = 0; i < mostSeeds; ++i)
      plan.seeds.push_back(protocolSeed(i));
    if (!list.seedsBySet.empty())
      for (const std::string &set : list.shapeSets)
        plan.seedsBySet.emplace(set, static_cast<size_t>(list.seeds));
    try {
      planCompiledBaselines(task, timedSets, o.compiledBaselinesDir, plan, *item->rb);
    } catch (const InputError &e) {
      item->rb->addError(e.what());
      item->refused = true;
      writer.finish(*item, secondsSince(item->started));
      continue;
    }
    planShapes(task, item->manifest, list.shapeSets, timedSets, plan, *item->rb);
    if (plan.shapes.empty() && plan.timedShapes.empty()) {
      writer.finish(*item, secondsSince(item->started));
      continue;
    }
    runnable.push_back(item.get());
    items.push_back(std::move(item));
  }

  runInWorkers(runnable, o.timeoutSeconds, writer);

  if (!o.json) {
    double seconds = secondsSince(t0);
    char rate[64];
    std::snprintf(rate, sizeof(rate), "%.2f s, %.2f bundles/s", seconds,
                  seconds > 0 ? list.bundles.size() / seconds : 0.0);
    out << "batch: " << list.bundles.size() << " bundles of " << task.name << " in " << rate
        << ":";
    for (const auto &[status, count] : writer.counts)
      out << " " << count << " " << status;
    out << "; lines in " << (std::filesystem::path(o.outputDir) / "batch.jsonl").string()
        << "\n";
  }
  return writer.worst;
}

} // namespace kbench::runner
