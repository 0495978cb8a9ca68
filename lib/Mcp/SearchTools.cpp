//===- SearchTools.cpp - search_start, search_status, search_best ---------===//
//
// A search is `kbench search` run as a job, in its own process, with every
// path it uses under DIR/.kbench-mcp/searches/<id>/: the kernel and space
// the agent gave (admitted first), the SQLite archive, bundles and reports.
// The command keeps all of the search's logic (resume checks, evaluators,
// export); these tools start it, stop it, and read its archive through the
// Archive API while it runs (SQLite's WAL mode lets a reader in).
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Service.h"

#include "Pipeline.h"
#include "kbench/Driver/Driver.h"
#include "kbench/Mcp/Admission.h"
#include "kbench/Archive/Archive.h"
#include "kbench/Search/Engine.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
namespace json = llvm::json;

namespace kbench::mcp {

static std::string archiveOf(llvm::StringRef folder) {
  llvm::SmallString<256> file(folder);
  path::append(file, "archive.db");
  return file.str().str();
}

/// The archive's best candidate: the highest fitness, the earliest on ties
/// (the rule of Engine::best).
static std::optional<search::CandidateRecord>
bestOf(const std::vector<search::CandidateRecord> &records) {
  const search::CandidateRecord *best = nullptr;
  for (const search::CandidateRecord &r : records)
    if (r.fitness && (!best || *r.fitness > *best->fitness))
      best = &r;
  if (!best)
    return std::nullopt;
  return *best;
}

static json::Object describeCandidate(const search::CandidateRecord &r) {
  json::Object out{{"name", search::Engine::nameOf(r.round, r.index)},
                   {"fitness", *r.fitness},
                   {"fitness_kind", r.fitnessKind},
                   {"verdict", r.verdict},
                   {"ir_hash", r.irHash},
                   {"script", r.script}};
  llvm::Expected<json::Value> knobs = json::parse(r.knobs);
  if (knobs)
    out["knobs"] = std::move(*knobs);
  else
    llvm::consumeError(knobs.takeError());
  if (r.candidateUs)
    out["candidate_us"] = *r.candidateUs;
  if (r.eagerUs)
    out["eager_us"] = *r.eagerUs;
  if (r.torchCompileUs)
    out["torch_compile_us"] = *r.torchCompileUs;
  if (r.percentOfFloor)
    out["percent_of_floor"] = *r.percentOfFloor;
  return out;
}

/// Opens an existing archive (never creates one).
static std::unique_ptr<search::Archive> openArchive(llvm::StringRef file) {
  if (!fs::exists(file))
    return nullptr;
  std::string error;
  return search::Archive::open(file.str(), error);
}

std::optional<json::Object> findBestOfTask(const Workspace &workspace,
                                           llvm::StringRef task) {
  std::optional<search::CandidateRecord> best;
  std::string from;
  std::error_code ec;
  for (fs::directory_iterator it(workspace.scratchPath("searches"), ec), end;
       it != end && !ec; it.increment(ec)) {
    std::unique_ptr<search::Archive> archive = openArchive(archiveOf(it->path()));
    std::optional<search::RunRecord> run = archive ? archive->getRun() : std::nullopt;
    if (!run || run->task != task)
      continue;
    std::optional<search::CandidateRecord> candidate = bestOf(archive->candidates());
    if (candidate && (!best || *candidate->fitness > *best->fitness)) {
      best = std::move(candidate);
      from = path::filename(it->path()).str();
    }
  }
  if (!best)
    return std::nullopt;
  json::Object out = describeCandidate(*best);
  out["search"] = from;
  return out;
}

/// Parses and admits a kernel or space, then writes it to `folder/name`.
static std::optional<std::string>
admitAndWrite(MLIRContext &context, llvm::StringRef text, bool isKernel,
              llvm::StringRef folder, llvm::StringRef name) {
  driver::DiagnosticCollector diagnostics(context, /*echo=*/false);
  OwningOpRef<ModuleOp> module =
      parseText(context, text, isKernel ? "kernel" : "space", diagnostics);
  if (!module)
    return failureResult(std::string("the ") + (isKernel ? "kernel" : "space") +
                             " does not parse",
                         diagnostics)
        .text;
  if (std::optional<std::string> why =
          isKernel ? checkKernelModule(*module) : checkScheduleModule(*module))
    return std::string(isKernel ? "kernel" : "space") + " refused: " + *why;
  if (folder.empty())
    return std::nullopt;
  llvm::SmallString<256> file(folder);
  path::append(file, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec)
    return "cannot write " + file.str().str() + ": " + ec.message();
  os << text;
  return std::nullopt;
}

ToolResult Service::searchStart(const Arguments &args, CallContext &) {
  std::string error;
  llvm::StringRef task = args.getString("task").value_or("");
  std::optional<std::string> taskDir = workspace.findTask(task, error);
  if (!taskDir)
    return ToolResult::error(error);
  if (options.runner.empty())
    return ToolResult::error("kbench-run was not built (it needs LibTorch), so "
                             "nothing can evaluate candidates here");
  // Admit what the search will compile before starting anything: the
  // kernel and space given, else the task's own.
  std::string kernel, space;
  if (std::optional<llvm::StringRef> given = args.getString("kernel"))
    kernel = given->str();
  else if (!workspace.readFile(*taskDir, "kernel.mlir", kMaxKernelBytes, kernel,
                               error))
    return ToolResult::error(error);
  if (std::optional<llvm::StringRef> given = args.getString("space"))
    space = given->str();
  else if (!workspace.readFile(*taskDir, "schedules/space.mlir", kMaxScriptBytes,
                               space, error) &&
           !error.empty())
    return ToolResult::error(error);
  if (std::optional<std::string> why =
          admitAndWrite(*context, kernel, /*isKernel=*/true, "", ""))
    return ToolResult::error(*why);
  if (!space.empty())
    if (std::optional<std::string> why =
            admitAndWrite(*context, space, /*isKernel=*/false, "", ""))
      return ToolResult::error(*why);

  std::string target = args.getString("target")
                           .value_or(driver::hasNvidiaGpu() ? "sm_90a" : "host")
                           .str();
  std::vector<std::string> flags = {
      "--target", target,
      "--budget", std::to_string(args.getInteger("budget").value_or(8)),
      "--round-size", std::to_string(args.getInteger("round_size").value_or(4)),
      "--seed", std::to_string(args.getInteger("seed").value_or(0)),
      "--fitness", args.getString("fitness").value_or("measured").str(),
      "--jobs", "1", "--json"};
  bool givenKernel = args.getString("kernel").has_value();
  bool givenSpace = args.getString("space").has_value();
  auto work = [this, taskDir = *taskDir, kernel, space, givenKernel, givenSpace,
               flags](Job &job) -> ToolResult {
    std::string error;
    std::optional<std::string> folder =
        workspace.createScratch("searches", job.getId(), error);
    if (!folder)
      return ToolResult::error(error);
    std::vector<std::string> args = {options.kbench, "search", taskDir};
    args.insert(args.end(), flags.begin(), flags.end());
    llvm::SmallString<256> work(*folder), exported(*folder), out(*folder),
        log(*folder);
    path::append(work, "work");
    path::append(exported, "best.mlir");
    path::append(out, "search.json");
    path::append(log, "search.log");
    args.insert(args.end(), {"--archive", archiveOf(*folder), "--work-dir",
                             work.str().str()});
    for (auto [given, text, name, flag] :
         {std::tuple(givenKernel, &kernel, "kernel.mlir", "--kernel"),
          std::tuple(givenSpace, &space, "space.mlir", "--space")}) {
      if (!given)
        continue;
      // Both were admitted when the search was started.
      if (std::optional<std::string> why = admitAndWrite(
              *context, *text, llvm::StringRef(name) == "kernel.mlir", *folder,
              name))
        return ToolResult::error(*why);
      llvm::SmallString<256> file(*folder);
      path::append(file, name);
      args.insert(args.end(), {flag, file.str().str()});
    }
    job.setStage("search");
    int status = job.runProgram(options.kbench, args, out, log, error);
    if (status < 0)
      return ToolResult::error("kbench search: " + error);
    std::string text;
    workspace.readFile(*folder, "search.json", 1 << 20, text, error);
    llvm::Expected<json::Value> result = json::parse(text);
    if (status != 0 || !result || !result->getAsObject()) {
      if (!result)
        llvm::consumeError(result.takeError());
      std::string tail;
      workspace.readFile(*folder, "search.log", 1 << 20, tail, error);
      if (tail.size() > 4000)
        tail = tail.substr(tail.size() - 4000);
      return ToolResult::error("kbench search exited with status " +
                               std::to_string(status) + ":\n" + tail);
    }
    return ToolResult::success(std::move(*result->getAsObject()));
  };
  std::shared_ptr<Job> job = jobs.start("search", "s", std::move(work), error);
  if (!job)
    return ToolResult::error(error);
  return ToolResult::success(json::Object{
      {"search", job->getId()}, {"state", "running"}, {"target", target}});
}

/// The search job `args["search"]`, or an error result.
static std::shared_ptr<Job> findSearch(const JobTable &jobs,
                                       const json::Object &args,
                                       std::optional<ToolResult> &error) {
  llvm::StringRef id = args.getString("search").value_or("");
  std::shared_ptr<Job> job = jobs.find(id);
  if (!job || job->getKind() != "search")
    error = ToolResult::error("unknown search '" + id.str() +
                              "'; search_start returns search ids");
  return job && job->getKind() == "search" ? job : nullptr;
}

ToolResult Service::searchStatus(const Arguments &args, CallContext &) {
  std::optional<ToolResult> error;
  std::shared_ptr<Job> job = findSearch(jobs, args, error);
  if (!job)
    return *error;
  json::Object out = describeJob(*job);
  out["search"] = job->getId();
  out.erase("job");
  std::unique_ptr<search::Archive> archive =
      openArchive(archiveOf(workspace.scratchPath("searches") + "/" + job->getId()));
  int64_t candidates = 0, evaluated = 0, passed = 0, rounds = 0;
  if (archive) {
    std::vector<search::CandidateRecord> records = archive->candidates();
    candidates = records.size();
    for (const search::CandidateRecord &r : records) {
      evaluated += !r.evalStatus.empty();
      passed += r.verdict == "pass";
    }
    rounds = archive->finishedRounds();
    if (std::optional<search::CandidateRecord> best = bestOf(records))
      out["best"] = describeCandidate(*best);
  }
  out["candidates"] = candidates;
  out["evaluated"] = evaluated;
  out["passed"] = passed;
  out["rounds_finished"] = rounds;
  return ToolResult::success(std::move(out));
}

ToolResult Service::searchBest(const Arguments &args, CallContext &) {
  std::optional<ToolResult> error;
  std::shared_ptr<Job> job = findSearch(jobs, args, error);
  if (!job)
    return *error;
  std::unique_ptr<search::Archive> archive =
      openArchive(archiveOf(workspace.scratchPath("searches") + "/" + job->getId()));
  std::optional<search::CandidateRecord> best =
      archive ? bestOf(archive->candidates()) : std::nullopt;
  if (!best)
    return ToolResult::error("search " + job->getId() +
                             " has no evaluated candidate yet; poll "
                             "search_status until 'evaluated' is above 0");
  json::Object out = describeCandidate(*best);
  out["search"] = job->getId();
  out["state"] = getJobStateName(job->getState());
  return ToolResult::success(std::move(out));
}

} // namespace kbench::mcp
