//===- SearchCommand.cpp - `kbench search` --------------------------------===//
//
// Thin: parse and check the flags, open the archive (checking that a resumed
// search is the same search), build the space, the task compiler and the
// evaluator, run the engine with a progress line, then export and report.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/SearchCommand.h"

#include "kbench/Support/CommandLine.h"
#include "kbench/Support/Task.h"
#include "kbench/Target/Bundle/Manifest.h"
#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Driver/Driver.h"
#include "kbench/Search/Engine.h"
#include "kbench/Search/Export.h"
#include "kbench/Search/Scoring.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"

#include <cstdlib>
#include <ctime>

using namespace mlir;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace kbench::search {

static int fail(const llvm::Twine &message) {
  llvm::errs() << "kbench search: " << message << "\n";
  return 1;
}

static std::string sha256(llvm::StringRef text) {
  return llvm::toHex(llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
                         reinterpret_cast<const uint8_t *>(text.data()), text.size())),
                     /*LowerCase=*/true);
}

/// Why a resumed archive is not this search, or "" when it is.
static std::string runMismatch(const RunRecord &stored, const RunRecord &now) {
  auto differ = [](const char *what, const std::string &a, const std::string &b) {
    return a == b ? std::string()
                  : std::string(what) + " '" + a + "', not '" + b + "'";
  };
  for (std::string why :
       {differ("task", stored.task, now.task),
        differ("target", stored.target, now.target),
        differ("seed", std::to_string(stored.seed), std::to_string(now.seed)),
        differ("fitness", stored.fitness, now.fitness),
        differ("strategy", stored.strategy, now.strategy),
        differ("start", stored.start, now.start),
        differ("score", stored.score, now.score),
        differ("kernel", stored.kernel, now.kernel),
        differ("round size", std::to_string(stored.roundSize),
               std::to_string(now.roundSize)),
        differ("space (sha256)", stored.spaceHash.substr(0, 12),
               now.spaceHash.substr(0, 12))})
    if (!why.empty())
      return why;
  return "";
}

static void printProgress(const Progress &p, bool terminal) {
  if (!terminal && !p.roundFinished)
    return;
  std::string line = llvm::formatv(
      "search: round {0}, {1}/{2} measured, {3} rejected, {4:F1} compiled/s",
      p.round, p.measured, p.budget, p.rejected, p.compiledPerSecond);
  if (p.bestFitness)
    line += llvm::formatv(", best {0} {1:F3} ({2})", p.bestName, *p.bestFitness,
                          p.fitnessKind)
                .str();
  if (p.bestPercentOfFloor)
    line += llvm::formatv(", {0:F0}% of floor", *p.bestPercentOfFloor).str();
  if (p.bestVsTorchCompile)
    line += llvm::formatv(", {0:F2}x torch.compile", *p.bestVsTorchCompile).str();
  if (terminal)
    llvm::errs() << "\r\033[K" << line << (p.roundFinished ? "\n" : "");
  else
    llvm::errs() << line << "\n";
  llvm::errs().flush();
}

int runSearchCommand(llvm::ArrayRef<const char *> args, const char *argv0) {
  std::string taskDir, target, archivePath, workDir, exportPath, exportDispatchDir, spacePath,
      kernelPath, fitness = "measured", timing, roundsDir, evaluatorCmd, timeout,
      strategy = "map-elites", start = "random", score = "multi";
  bool resume = false, json = false, printSpace = false;
  EngineOptions options;
  options.jobs = 2;
  int64_t seed = 0;
  cli::CommandLine cl(
      "kbench search",
      "Search a task's schedule space (schedules/space.mlir, else a default space\n"
      "derived from the kernel's params) with MAP-Elites; every candidate is\n"
      "filtered (constraints, transform legality, IR dedupe, tile-verify, ptxas\n"
      "spills), evaluated and archived in SQLite or PostgreSQL (docs/search.md).\n"
      "Exit 0 when the budget is spent or the space has nothing new, 3 when a\n"
      "round waits for another machine (--rounds-dir without --evaluator-cmd,\n"
      "or --queue-wait ran out), 1 on errors.");
  cl.addPositional(&taskDir, "TASK_DIR", "a task folder");
  cl.addChoice("target", &target, "TARGET", {"sm_90a", "host"},
               "sm_90a or host (default: sm_90a when a GPU is present, else host)");
  cl.addInt("budget", &options.budget, "N", "candidates to evaluate in all (default 32)", 1);
  cl.addInt("seed", &seed, "S", "random seed (default 0)", 0);
  cl.addInt("round-size", &options.roundSize, "N", "candidates per round (default 8)", 1);
  cl.addInt("jobs", &options.jobs, "N",
            "threads compiling candidates (default 2); results do not depend on it", 1);
  cl.addString("archive", &archivePath, "ARCHIVE",
               "an SQLite file (default: <task>-search.db) or postgresql:NAME "
               "(the schema kbench_NAME of the PostgreSQL database that PGHOST, "
               "PGPORT, PGUSER, PGPASSWORD and PGDATABASE name)");
  cl.addFlag("resume", &resume, "continue the search in --archive");
  cl.addString("work-dir", &workDir, "DIR", "bundles and reports (default: ARCHIVE.d)");
  cl.addString("space", &spacePath, "FILE",
               "space file (default: TASK_DIR/schedules/space.mlir, else the default space)");
  cl.addFlag("print-space", &printSpace, "print the space and exit");
  cl.addString("kernel", &kernelPath, "FILE", "kernel file (default: TASK_DIR/kernel.mlir)");
  cl.addChoice("strategy", &strategy, "S", {"map-elites", "grid"},
               "map-elites (default) or grid (every point of the space in order, "
               "the baseline to compare against)");
  cl.addChoice("start", &start, "FROM", {"random", "naive"},
               "random (default: round 0 draws uniform points) or naive (the "
               "smallest option of every knob, then only mutation and crossover)");
  cl.addChoice("score", &score, "AT", {"multi", "tune"},
               "multi (default: a weighted geomean over the tune shapes and "
               "shapes derived from them) or tune (the first tune shape)");
  cl.addInt("confirm", &options.confirm, "N",
            "re-measure the best N elites with the full protocol once the "
            "budget is spent (default 4 when timed, else 0)", 0);
  std::string llmUrl, llmModel, llmTimeout = "60";
  cl.addInt("llm-proposals", &options.llmProposals, "N",
            "candidates per round asked of an LLM (default 0: none)", 0);
  cl.addString("llm-url", &llmUrl, "URL",
               "OpenAI-compatible chat-completions endpoint (default: "
               "$KBENCH_LLM_URL); the key comes from $KBENCH_LLM_API_KEY only");
  cl.addString("llm-model", &llmModel, "NAME", "the model to ask (default: $KBENCH_LLM_MODEL)");
  cl.addString("llm-timeout", &llmTimeout, "SECONDS",
               "seconds to wait for each reply (default 60)");
  cl.addChoice("fitness", &fitness, "KIND", {"measured", "model"},
               "measured (default: speedup over eager from the reports) or model "
               "(a cost proxy, not a measurement)");
  cl.addChoice("timing", &timing, "MODE", {"none", "screen", "full"},
               "none, screen or full (default: none on host, screen on sm_90a)");
  cl.addString("timeout", &timeout, "SECONDS", "kbench-run watchdog per bundle");
  cl.addString("rounds-dir", &roundsDir, "DIR",
               "write each round to DIR/round-NNNN for evaluation elsewhere");
  cl.addString("evaluator-cmd", &evaluatorCmd, "CMD",
               "with --rounds-dir: run 'CMD ROUND_DIR' to evaluate a round");
  bool queue = false;
  double queueWait = 0;
  cl.addFlag("queue", &queue,
             "enqueue each round in the archive for kbench-worker processes "
             "(on this or any machine that reaches the archive) instead of "
             "running kbench-run here");
  cl.addPositiveNumber("queue-wait", &queueWait, "SECONDS",
                       "with --queue: stop (exit 3, --resume goes on) when no "
                       "result comes for this long (default: wait)",
                       "seconds");
  int bundlesPerJob = 0;
  cl.addInt("bundles-per-job", &bundlesPerJob, "N",
            "with --queue: bundles per job, evaluated by one kbench-run "
            "process (default 8 on sm_90a, where a process costs about 1.5 s "
            "of CUDA and torch start-up, 1 on host)",
            1);
  cl.addString("export", &exportPath, "FILE",
               "write the best schedule (knobs resolved) with its provenance");
  cl.addString("export-dispatch", &exportDispatchDir, "DIR",
               "write DIR/dispatch.json and a schedule per shape class: at each timed\n"
               "shape the candidate fastest there (docs/search.md)");
  cl.addFlag("json", &json, "print the outcome and the best candidate as JSON");
  cl.addInt("kill-after", &options.killAfter, "N",
            "testing: kill -9 this process after N archive writes", 1);
  if (std::optional<int> exitCode = cl.parse(args.begin(), args.end()))
    return *exitCode;

  options.seed = seed;
  options.fitness = fitness;
  options.strategy = strategy;
  options.start = start;
  options.score = score;
  if (target.empty())
    target = driver::hasNvidiaGpu() ? "sm_90a" : "host";
  if (timing.empty())
    timing = target == "host" ? "none" : "screen";
  options.timing = timing;
  if (bundlesPerJob == 0)
    bundlesPerJob = target == "host" ? 1 : 8;
  if (!cl.wasGiven("confirm"))
    options.confirm = timing == "none" || fitness == "model" ? 0 : 4;
  if (queue && !roundsDir.empty())
    return cl.usageError("--queue and --rounds-dir are two ways to evaluate; give one");
  if (cl.wasGiven("queue-wait") && !queue)
    return cl.usageError("--queue-wait needs --queue");
  if (cl.wasGiven("bundles-per-job") && !queue)
    return cl.usageError("--bundles-per-job needs --queue");
  if (!evaluatorCmd.empty() && roundsDir.empty())
    return cl.usageError("--evaluator-cmd needs --rounds-dir DIR (the folder it is given)");
  std::optional<LLMProposer> llm;
  if (options.llmProposals > 0) {
    auto fromEnv = [](std::string &value, const char *variable) {
      if (value.empty())
        if (const char *set = std::getenv(variable))
          value = set;
    };
    fromEnv(llmUrl, "KBENCH_LLM_URL");
    fromEnv(llmModel, "KBENCH_LLM_MODEL");
    if (llmUrl.empty())
      return cl.usageError("--llm-proposals needs an endpoint: --llm-url URL or KBENCH_LLM_URL");
    if (llmModel.empty())
      return cl.usageError("--llm-proposals needs a model: --llm-model NAME or KBENCH_LLM_MODEL");
    LLMOptions llmOptions{llmUrl, llmModel, "", 60};
    if (!llvm::to_float(llmTimeout, llmOptions.timeoutSeconds) ||
        llmOptions.timeoutSeconds <= 0)
      return cl.usageError("--llm-timeout takes a number of seconds > 0, got '" +
                           llmTimeout + "'");
    // The key is read here and kept in memory only: never a flag (it would
    // show in `ps` and shell histories), never printed or archived.
    if (const char *key = std::getenv("KBENCH_LLM_API_KEY"))
      llmOptions.apiKey = key;
    llm.emplace(std::move(llmOptions));
  }
  if (!fs::is_directory(taskDir))
    return fail("no task folder '" + taskDir + "'");

  std::string error;
  // An invalid task.json exits as it does in every other command.
  if (failed(readTaskSignature(taskDir, error))) {
    fail(error);
    return kInvalidTaskExitCode;
  }

  std::unique_ptr<MLIRContext> context = driver::createCompilerContext();
  driver::DiagnosticCollector diagnostics(*context, /*echo=*/true);
  std::unique_ptr<TaskCompiler> compiler =
      TaskCompiler::create(*context, taskDir, kernelPath, target, error);
  if (!compiler)
    return fail(error);

  // The kernel file searched, as the archive and --export-dispatch name it:
  // relative to the task's folder ("" for its kernel.mlir), else absolute.
  std::string kernelRecord;
  if (!kernelPath.empty()) {
    llvm::SmallString<256> kernelAbs(kernelPath), taskAbs(taskDir);
    fs::make_absolute(kernelAbs);
    fs::make_absolute(taskAbs);
    path::remove_dots(kernelAbs, /*remove_dot_dot=*/true);
    path::remove_dots(taskAbs, /*remove_dot_dot=*/true);
    llvm::StringRef rel = kernelAbs;
    std::string prefix = taskAbs.str().str() + "/";
    kernelRecord = rel.starts_with(prefix) ? rel.drop_front(prefix.size()).str()
                                           : rel.str();
    if (kernelRecord == "kernel.mlir")
      kernelRecord.clear();
  }

  // The space: a file, or derived from the kernel (never
  // schedules/default.mlir). The task's schedules/space.mlir is the space of
  // its kernel.mlir, so a search of another kernel file derives its own.
  std::string spaceText, spaceName;
  if (spacePath.empty() && kernelRecord.empty()) {
    llvm::SmallString<256> candidate(taskDir);
    path::append(candidate, "schedules", "space.mlir");
    if (fs::exists(candidate))
      spacePath = candidate.str().str();
  }
  if (!spacePath.empty()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(spacePath);
    if (!buffer)
      return fail("no such space file '" + spacePath + "'");
    spaceText = (*buffer)->getBuffer().str();
    spaceName = spacePath;
  } else {
    spaceText = Space::defaultSpaceText(compiler->getKernelModule(), error);
    if (spaceText.empty())
      return fail(error);
    spaceName = "<default space>";
  }
  if (printSpace) {
    llvm::outs() << spaceText;
    return 0;
  }
  std::optional<Space> space = Space::parse(*context, spaceText, spaceName);
  if (!space)
    return fail("the space " + spaceName + " is not usable (see the errors above)");

  std::string taskName = path::filename(path::remove_leading_dotslash(
                                            llvm::StringRef(taskDir).rtrim('/')))
                             .str();
  if (archivePath.empty())
    archivePath = taskName + "-search.db";
  bool postgres = Database::isPostgres(archivePath);
  // A PostgreSQL archive always "exists"; whether it holds this search is
  // told by its run record below.
  bool existed = postgres || fs::exists(archivePath);
  llvm::StringRef archiveFolder = postgres ? "" : path::parent_path(archivePath);
  if (!existed && !archiveFolder.empty())
    if (std::error_code ec = fs::create_directories(archiveFolder))
      return fail("cannot create the folder of --archive " + archivePath + ": " +
                  ec.message());
  if (resume && !existed)
    return fail("--resume: there is no archive " + archivePath + " to resume");
  std::unique_ptr<Archive> archive = Archive::open(archivePath, error);
  if (!archive)
    return fail(error);
  RunRecord run{taskName, target, sha256(spaceText), fitness, "", int64_t(seed),
                options.roundSize, options.budget, strategy, start, score};
  run.kernel = kernelRecord;
  std::optional<RunRecord> stored = archive->getRun();
  if (resume && !stored)
    return fail("--resume: the archive " + archivePath + " holds no search to resume");
  if (stored && !resume)
    return fail("the archive " + archivePath +
                " already holds a search; pass --resume to continue it or "
                "choose another --archive");
  if (stored) {
    std::string why = runMismatch(*stored, run);
    if (!why.empty())
      return fail("--resume: the archive " + archivePath + " holds another search (" +
                  why + ")");
    if (!cl.wasGiven("budget"))
      options.budget = stored->budget;
    else if (!archive->setBudget(options.budget, error))
      return fail(error);
  }

  if (workDir.empty())
    workDir = postgres ? "kbench-search-" + archivePath.substr(archivePath.find(':') + 1) + ".d"
                       : archivePath + ".d";
  options.workDir = workDir;
  // The runner reads an evaluation copy of task.json whose heldout set is
  // the derived scoring shapes: the task's own heldout shapes stay unseen.
  llvm::SmallString<256> evalTask(options.workDir);
  path::append(evalTask, "task");
  if (!writeEvaluationTask(taskDir, evalTask, compiler->getRequiresFacts(),
                           error))
    return fail(error);
  if (!compiler->addScoringShapes(evalTask, error))
    return fail(error);
  EvaluatorOptions evalOptions{evalTask.str().str(), target, {"check"}, timeout};
  if (score == "multi" && timing != "none")
    evalOptions.shapeSets.push_back("heldout");
  std::unique_ptr<Evaluator> evaluator;
  if (queue) {
    llvm::SmallString<256> evalDir(options.workDir);
    path::append(evalDir, "eval");
    evaluator = createQueueEvaluator(evalOptions, archive->database(), evalDir,
                                     queueWait, size_t(bundlesPerJob));
  } else if (!roundsDir.empty()) {
    evaluator = createRoundTripEvaluator(evalOptions, roundsDir, evaluatorCmd);
  } else {
    std::string runner = driver::findRunner(argv0);
    if (runner.empty())
      return fail("kbench-run was not built (it needs LibTorch), so nothing can "
                  "evaluate candidates here; run scripts/setup.sh and rebuild, "
                  "or use --rounds-dir");
    llvm::SmallString<256> evalDir(options.workDir);
    path::append(evalDir, "eval");
    evaluator = createLocalEvaluator(evalOptions, runner, evalDir);
  }
  run.evaluator = evaluator->describe();
  if (!stored && !archive->setRun(run, error))
    return fail(error);

  bool terminal = llvm::sys::Process::StandardErrIsDisplayed();
  Engine engine(*space, *compiler, *archive, *evaluator, options,
                [&](const Progress &p) { printProgress(p, terminal); });
  if (llm)
    engine.setProposer(&*llm, spaceText);
  Engine::Outcome outcome = engine.run(error);
  if (outcome == Engine::Outcome::Error)
    return fail(error);

  std::optional<CandidateRecord> best = engine.best();
  // A round that waits for another machine before anything passed exports
  // nothing yet (the driver of live rounds passes --export every time).
  if (!exportPath.empty() && (best || outcome != Engine::Outcome::Pending)) {
    if (!best)
      return fail("no candidate has passed yet, so there is nothing to --export");
    if (!exportSchedule(exportPath, *best, run, archivePath, error))
      return fail(error);
  }
  if (!exportDispatchDir.empty() && (best || outcome != Engine::Outcome::Pending))
    if (!exportDispatch(exportDispatchDir, archive->candidates(), run, archivePath, error))
      return fail(error);
  const char *outcomeName = outcome == Engine::Outcome::Done        ? "done"
                            : outcome == Engine::Outcome::Exhausted ? "exhausted"
                                                                    : "pending";
  std::vector<CandidateRecord> all = archive->candidates();
  int64_t measured = llvm::count_if(
      all, [](const CandidateRecord &r) { return !r.evalStatus.empty(); });
  if (json) {
    llvm::json::Object out{{"schema", "kbench.search/1"},
                           {"task", taskName},
                           {"target", target},
                           {"archive", archivePath},
                           {"outcome", outcomeName},
                           {"candidates", int64_t(all.size())},
                           {"measured", measured},
                           {"space_size", space->size()}};
    if (best) {
      llvm::Expected<llvm::json::Value> knobs = llvm::json::parse(best->knobs);
      llvm::json::Object entry{
          {"name", Engine::nameOf(best->round, best->index)},
          {"knobs", knobs ? std::move(*knobs) : llvm::json::Value(nullptr)},
          {"fitness", *best->fitness},
          {"fitness_kind", best->fitnessKind},
          {"protocol", best->protocol},
          {"cell", best->cell},
          {"ir_hash", best->irHash}};
      if (best->candidateUs)
        entry["candidate_us"] = *best->candidateUs;
      if (best->full.fitness) {
        entry["full_fitness"] = *best->full.fitness;
        entry["full_fitness_kind"] = best->full.fitnessKind;
        if (best->full.candidateUs)
          entry["full_candidate_us"] = *best->full.candidateUs;
      }
      out["best"] = std::move(entry);
      if (!knobs)
        llvm::consumeError(knobs.takeError());
    }
    if (!exportPath.empty())
      out["export"] = exportPath;
    if (!exportDispatchDir.empty())
      out["export_dispatch"] = exportDispatchDir;
    if (outcome == Engine::Outcome::Pending) {
      llvm::SmallString<256> folder(roundsDir);
      path::append(folder, engine.pendingRound());
      out["pending"] = folder.str().str();
    }
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
  } else {
    llvm::outs() << "kbench search: " << outcomeName << ", " << all.size()
                 << " candidates archived, " << measured << " evaluated ("
                 << archivePath << ")\n";
    if (best) {
      bool full = best->full.fitness.has_value();
      llvm::outs() << "best: " << Engine::nameOf(best->round, best->index) << " "
                   << best->knobs << " fitness "
                   << llvm::formatv("{0:F4}", full ? *best->full.fitness : *best->fitness)
                   << " (" << (full ? best->full.fitnessKind : best->fitnessKind) << ")\n";
    }
  }
  if (outcome == Engine::Outcome::Pending && queue) {
    llvm::errs() << "kbench search: " << engine.pendingRound()
                 << " waits in the queue of " << archivePath
                 << ": no result came for " << llvm::formatv("{0}", queueWait)
                 << " s; start workers (kbench-worker --archive " << archivePath
                 << ") and run again with --resume\n";
    return 3;
  }
  if (outcome == Engine::Outcome::Pending) {
    llvm::SmallString<256> folder(roundsDir);
    path::append(folder, engine.pendingRound());
    llvm::errs() << "kbench search: " << engine.pendingRound()
                 << " is written to " << folder
                 << "; evaluate it (scripts/search-round.sh ROUND_DIR on the GPU "
                    "machine), bring its out/ folder back, and run again with --resume\n";
    return 3;
  }
  return 0;
}

} // namespace kbench::search
