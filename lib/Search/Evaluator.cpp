//===- Evaluator.cpp - Rounds of bundles out, reports in ------------------===//
//
// The local evaluator runs kbench-run itself; the round-trip evaluator writes
// a self-contained round folder (bundles, task.json, batch.json) that can be
// carried to a machine without MLIR, and reads back what the runner left in
// its out/ folder. Both read reports with readReport.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Evaluator.h"
#include "kbench/Support/RunnerFlags.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <map>

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace kbench::search {

Evaluator::~Evaluator() = default;

static std::optional<llvm::json::Value> readJSON(llvm::StringRef file) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file);
  if (!buffer)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> value = llvm::json::parse((*buffer)->getBuffer());
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

static std::optional<double> median(const llvm::json::Object *contestants,
                                    llvm::StringRef name) {
  const llvm::json::Object *c = contestants ? contestants->getObject(name) : nullptr;
  return c ? c->getNumber("median_us") : std::nullopt;
}

EvalReport readReport(llvm::StringRef id, llvm::StringRef reportFile) {
  EvalReport report;
  report.id = id.str();
  report.reportPath = reportFile.str();
  if (!fs::exists(reportFile)) {
    report.status = "missing";
    return report;
  }
  std::optional<llvm::json::Value> value = readJSON(reportFile);
  const llvm::json::Object *root = value ? value->getAsObject() : nullptr;
  if (!root || !root->getString("verdict")) {
    report.status = "unreadable";
    return report;
  }
  report.status = "ok";
  report.verdict = root->getString("verdict")->str();
  report.exitCode = root->getInteger("exit_code").value_or(-1);
  if (const llvm::json::Array *timing = root->getArray("timing"))
    for (const llvm::json::Value &entry : *timing) {
      const llvm::json::Object *shape = entry.getAsObject();
      const llvm::json::Object *contestants =
          shape ? shape->getObject("contestants") : nullptr;
      if (!contestants)
        continue; // skipped (a check failed there)
      ShapeTiming timed;
      if (const llvm::json::Object *id = shape->getObject("shape_id")) {
        timed.set = id->getString("set").value_or("").str();
        timed.shape = id->getString("shape").value_or("").str();
        if (const llvm::json::Object *dims = id->getObject("dims")) {
          for (const auto &[name, value] : *dims)
            if (std::optional<int64_t> extent = value.getAsInteger())
              timed.dims.emplace_back(name.str(), *extent);
          llvm::sort(timed.dims);
        }
      }
      timed.candidateUs = median(contestants, "candidate");
      timed.eagerUs = median(contestants, "eager_tf32_off");
      timed.torchCompileUs = median(contestants, "torch_compile");
      if (const llvm::json::Object *floor = shape->getObject("floor"))
        if (const llvm::json::Object *percent = floor->getObject("percent_of_floor"))
          timed.percentOfFloor = percent->getNumber("candidate");
      report.shapes.push_back(std::move(timed));
    }
  if (!report.shapes.empty()) {
    const ShapeTiming &first = report.shapes.front();
    report.candidateUs = first.candidateUs;
    report.eagerUs = first.eagerUs;
    report.torchCompileUs = first.torchCompileUs;
    report.percentOfFloor = first.percentOfFloor;
  }
  return report;
}

/// "<prefix>-NNNN": zero-padded so that folders sort in order.
static std::string numbered(llvm::StringRef prefix, int64_t n) {
  char digits[24];
  std::snprintf(digits, sizeof(digits), "%04lld", static_cast<long long>(n));
  return prefix.str() + "-" + digits;
}

std::string roundName(int64_t round) { return numbered("round", round); }

std::string confirmName(int64_t rounds) { return numbered("confirm", rounds); }

std::string runnerHelp(llvm::StringRef runner) {
  llvm::SmallString<128> out;
  if (fs::createTemporaryFile("kbench-run-help", "txt", out))
    return "";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                llvm::StringRef(out)};
  llvm::StringRef args[] = {runner, "--help"};
  llvm::sys::ExecuteAndWait(runner, args, std::nullopt, redirects, 30);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> help =
      llvm::MemoryBuffer::getFile(out);
  fs::remove(out);
  return help ? (*help)->getBuffer().str() : "";
}

static bool copyFolder(llvm::StringRef from, llvm::StringRef to) {
  if (fs::create_directories(to))
    return false;
  std::error_code ec;
  for (fs::directory_iterator it(from, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::SmallString<256> target(to);
    path::append(target, path::filename(it->path()));
    if (fs::copy_file(it->path(), target))
      return false;
  }
  return !ec;
}

/// Writes the batch list of the contract (docs/search.md).
static bool writeBatchList(llvm::StringRef file, llvm::StringRef taskDir,
                           llvm::ArrayRef<EvalRequest> requests,
                           const EvaluatorOptions &options,
                           llvm::StringRef timing, std::string &error) {
  // Absolute paths, as the contract says: the runner may run elsewhere.
  auto absolute = [](llvm::StringRef dir) {
    llvm::SmallString<256> path(dir);
    fs::make_absolute(path);
    return path.str().str();
  };
  llvm::json::Array bundles;
  for (const EvalRequest &request : requests)
    bundles.push_back(llvm::json::Object{{"id", request.id}, {"dir", absolute(request.bundleDir)}});
  llvm::json::Array shapes;
  for (const std::string &set : options.shapeSets)
    shapes.push_back(set);
  llvm::json::Object list{{"task_dir", absolute(taskDir)},
                          {"target", options.target},
                          {"timing", timing},
                          {"shapes", std::move(shapes)},
                          {"bundles", std::move(bundles)}};
  // The derived scoring shapes are tune-sized, a large part of a screened
  // round's time: a screen checks them at one seed (RunnerFlags.h).
  std::map<std::string, int> seeds =
      searchSeedsBySet(timing.str(), options.shapeSets);
  if (!seeds.empty()) {
    llvm::json::Object bySet;
    for (const auto &[set, n] : seeds)
      bySet[set] = n;
    list["seeds"] = std::move(bySet);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec) {
    error = "cannot write " + file.str() + ": " + ec.message();
    return false;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(list))) << "\n";
  return true;
}

/// `status` and `exit` per id from OUTDIR/batch.jsonl.
static std::map<std::string, std::pair<std::string, int>>
readBatchLines(llvm::StringRef outDir) {
  std::map<std::string, std::pair<std::string, int>> lines;
  llvm::SmallString<256> file(outDir);
  path::append(file, "batch.jsonl");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file);
  if (!buffer)
    return lines;
  llvm::SmallVector<llvm::StringRef> split;
  (*buffer)->getBuffer().split(split, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : split) {
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    if (!value) {
      llvm::consumeError(value.takeError());
      continue;
    }
    if (const llvm::json::Object *object = value->getAsObject())
      if (std::optional<llvm::StringRef> id = object->getString("id"))
        lines[id->str()] = {object->getString("status").value_or("").str(),
                            int(object->getInteger("exit").value_or(-1))};
  }
  return lines;
}

/// Reads the reports of `requests` from `outDir` (OUTDIR/<id>/report.json),
/// with the batch.jsonl status where the report is missing.
static std::vector<EvalReport> readRound(llvm::StringRef outDir,
                                         llvm::ArrayRef<EvalRequest> requests) {
  std::map<std::string, std::pair<std::string, int>> lines = readBatchLines(outDir);
  std::vector<EvalReport> reports;
  for (const EvalRequest &request : requests) {
    llvm::SmallString<256> file(outDir);
    path::append(file, request.id, "report.json");
    EvalReport report = readReport(request.id, file);
    auto line = lines.find(request.id);
    if (line != lines.end()) {
      if (report.status != "ok" && !line->second.first.empty())
        report.status = line->second.first;
      if (report.exitCode < 0)
        report.exitCode = line->second.second;
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

namespace {
/// Runs `/bin/sh -c COMMAND` with `argument` as "$1"; the exit status.
int runShell(llvm::StringRef command, llvm::StringRef argument,
             llvm::StringRef log) {
  std::string script = command.str() + " \"$1\"";
  llvm::StringRef args[] = {"/bin/sh", "-c", script, "kbench-search", argument};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log, log};
  return llvm::sys::ExecuteAndWait("/bin/sh", args, std::nullopt, redirects);
}

class LocalEvaluator : public Evaluator {
public:
  LocalEvaluator(const EvaluatorOptions &options, llvm::StringRef runner,
                 llvm::StringRef workDir)
      : LocalEvaluator(options, runner, workDir, runnerHelp(runner)) {}

  /// `help`: what `runner --help` printed, which says whether it has
  /// --batch and --baseline-timings (an older runner has neither).
  LocalEvaluator(const EvaluatorOptions &options, llvm::StringRef runner,
                 llvm::StringRef workDir, llvm::StringRef help)
      : options(options), runner(runner.str()), workDir(workDir.str()),
        batch(help.contains("--batch")),
        keepsBaselineTimings(batch && help.contains("--baseline-timings")) {}

  std::string describe() const override {
    return std::string("local kbench-run") + (batch ? " --batch" : ", one process per bundle");
  }

  bool submit(const EvalRound &round, llvm::ArrayRef<EvalRequest> requests,
              std::string &error) override {
    pendingRequests.assign(requests.begin(), requests.end());
    position = 0;
    timing = round.timing;
    llvm::SmallString<256> dir(workDir);
    path::append(dir, round.name);
    outDir = dir.str().str();
    fs::remove_directories(outDir);
    if (std::error_code ec = fs::create_directories(outDir)) {
      error = "cannot create " + outDir + ": " + ec.message();
      return false;
    }
    if (!batch)
      return true;
    // One runner process for the whole round.
    llvm::SmallString<256> list(outDir), log(outDir);
    path::append(list, "batch.json");
    path::append(log, "runner.log");
    if (!writeBatchList(list, options.taskDir, requests, options, timing, error))
      return false;
    auto start = std::chrono::steady_clock::now();
    std::string command = "'" + runner + "' --batch '" + list.str().str() + "'";
    // The baselines' screening timings, kept from one round to the next
    // (docs/runner.md, "The screening protocol").
    if (keepsBaselineTimings) {
      llvm::SmallString<256> kept(workDir);
      path::append(kept, "baseline-timings.json");
      command += " --baseline-timings '" + kept.str().str() + "'";
    }
    command += " -o";
    runShell(command, outDir, log);
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start).count();
    batchReports = readRound(outDir, requests);
    for (EvalReport &report : batchReports)
      report.seconds = seconds / std::max<size_t>(1, requests.size());
    return true;
  }

  std::optional<EvalReport> next() override {
    if (position >= pendingRequests.size())
      return std::nullopt;
    if (batch)
      return batchReports[position++];
    const EvalRequest &request = pendingRequests[position++];
    llvm::SmallString<256> out(outDir), log(outDir);
    path::append(out, request.id);
    path::append(log, request.id + ".log");
    std::vector<std::string> args = {runner, options.taskDir, request.bundleDir,
                                     "--target", options.target, "-o",
                                     out.str().str()};
    if (!options.timeout.empty())
      args.insert(args.end(), {"--timeout", options.timeout});
    // A single run times the tune and heldout sets among those it checks;
    // the full protocol checks all three.
    std::string sets = "check,tune";
    if (llvm::is_contained(options.shapeSets, "heldout"))
      sets += ",heldout";
    if (timing == "none")
      args.push_back("--no-timing");
    else if (timing == "screen")
      args.insert(args.end(), {"--shapes", sets, "--seeds", "1"});
    std::vector<llvm::StringRef> refs(args.begin(), args.end());
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                  llvm::StringRef(log)};
    auto start = std::chrono::steady_clock::now();
    int exit = llvm::sys::ExecuteAndWait(runner, refs, std::nullopt, redirects);
    llvm::SmallString<256> file(out);
    path::append(file, "report.json");
    EvalReport report = readReport(request.id, file);
    report.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start).count();
    if (report.status != "ok")
      report.status = exit < 0 ? "crash" : report.status;
    report.exitCode = exit;
    return report;
  }

private:
  EvaluatorOptions options;
  std::string runner, workDir, outDir, timing;
  bool batch, keepsBaselineTimings;
  std::vector<EvalRequest> pendingRequests;
  std::vector<EvalReport> batchReports;
  size_t position = 0;
};

class RoundTripEvaluator : public Evaluator {
public:
  RoundTripEvaluator(const EvaluatorOptions &options, llvm::StringRef roundsDir,
                     llvm::StringRef command)
      : options(options), roundsDir(roundsDir.str()), command(command.str()) {}

  std::string describe() const override {
    return command.empty() ? "round trip through " + roundsDir + " (another machine)"
                           : "round trip through " + roundsDir + " with '" + command + "'";
  }

  bool submit(const EvalRound &round, llvm::ArrayRef<EvalRequest> requests,
              std::string &error) override {
    llvm::SmallString<256> dir(roundsDir);
    path::append(dir, round.name);
    folder = dir.str().str();
    timing = round.timing;
    llvm::SmallString<256> out(folder), done(folder);
    path::append(out, "out");
    path::append(done, "out", "batch.jsonl");
    reports.clear();
    position = 0;
    isPending = false;
    // Reports already there (a resumed search after the trip): read them.
    if (!fs::exists(done)) {
      if (!writeRound(requests, error))
        return false;
      if (command.empty()) {
        isPending = true;
        return true;
      }
      llvm::SmallString<256> log(folder);
      path::append(log, "evaluator.log");
      auto start = std::chrono::steady_clock::now();
      int exit = runShell(command, folder, log);
      seconds = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - start).count();
      if (exit != 0 && !fs::exists(done)) {
        error = "the evaluator command '" + command + "' exited with " +
                std::to_string(exit) + " and left no " + done.str().str() +
                " (its output: " + log.str().str() + ")";
        return false;
      }
    }
    reports = readRound(out, requests);
    for (EvalReport &report : reports)
      report.seconds = seconds / std::max<size_t>(1, requests.size());
    return true;
  }

  std::optional<EvalReport> next() override {
    if (isPending || position >= reports.size())
      return std::nullopt;
    return reports[position++];
  }

  bool pending() const override { return isPending; }

private:
  /// folder/bundles/<id>, folder/task/task.json, folder/batch.json (paths
  /// absolute here; scripts/search-round.sh rebases them on the other
  /// machine).
  bool writeRound(llvm::ArrayRef<EvalRequest> requests, std::string &error) {
    fs::remove_directories(folder);
    llvm::SmallString<256> task(folder), taskJson(options.taskDir), list(folder);
    path::append(task, "task");
    path::append(taskJson, "task.json");
    path::append(list, "batch.json");
    if (std::error_code ec = fs::create_directories(task)) {
      error = "cannot create " + task.str().str() + ": " + ec.message();
      return false;
    }
    llvm::SmallString<256> taskCopy(task);
    path::append(taskCopy, "task.json");
    if (fs::copy_file(taskJson, taskCopy)) {
      error = "cannot copy " + taskJson.str().str();
      return false;
    }
    std::vector<EvalRequest> copied;
    for (const EvalRequest &request : requests) {
      llvm::SmallString<256> bundle(folder);
      path::append(bundle, "bundles", request.id);
      if (!copyFolder(request.bundleDir, bundle)) {
        error = "cannot copy the bundle " + request.bundleDir + " to " +
                bundle.str().str();
        return false;
      }
      copied.push_back({request.id, bundle.str().str()});
    }
    return writeBatchList(list, task, copied, options, timing, error);
  }

  EvaluatorOptions options;
  std::string roundsDir, command, folder, timing;
  std::vector<EvalReport> reports;
  size_t position = 0;
  bool isPending = false;
  double seconds = 0;
};
} // namespace

std::unique_ptr<Evaluator> createLocalEvaluator(const EvaluatorOptions &options,
                                                llvm::StringRef runner,
                                                llvm::StringRef workDir) {
  return std::make_unique<LocalEvaluator>(options, runner, workDir);
}

std::unique_ptr<Evaluator>
createRoundTripEvaluator(const EvaluatorOptions &options,
                         llvm::StringRef roundsDir, llvm::StringRef command) {
  return std::make_unique<RoundTripEvaluator>(options, roundsDir, command);
}

} // namespace kbench::search
