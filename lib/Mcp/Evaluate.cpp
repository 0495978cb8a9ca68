//===- Evaluate.cpp - evaluate, job_status and cancel_job -----------------===//
//
// evaluate compiles like `compile` into DIR/.kbench-mcp/evals/<job>/bundle
// and hands the bundle to kbench-run, a separate process (as `kbench eval`
// does: a faulting kernel takes down only the runner). The kernel is parsed,
// admitted and scheduled in the call; lowering and the run are a job, which
// the call waits for up to wait_s, sending a progress notification at each
// stage, and otherwise answers with the job id to poll.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Service.h"

#include "Pipeline.h"
#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Driver/Driver.h"
#include "kbench/Search/Evaluator.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
namespace json = llvm::json;

namespace kbench::mcp {

/// What an agent needs of a report.json (kbench-report/1, docs/runner.md).
static json::Object summarizeReport(llvm::StringRef reportFile) {
  search::EvalReport report = search::readReport("evaluate", reportFile);
  json::Object out{{"verdict", report.verdict}, {"exit_code", report.exitCode}};
  json::Object timings;
  if (report.candidateUs)
    timings["candidate_us"] = *report.candidateUs;
  if (report.eagerUs)
    timings["eager_us"] = *report.eagerUs;
  if (report.torchCompileUs)
    timings["torch_compile_us"] = *report.torchCompileUs;
  out["timings_us"] = std::move(timings);
  if (report.percentOfFloor)
    out["percent_of_floor"] = *report.percentOfFloor;
  json::Object speedups;
  if (report.candidateUs && *report.candidateUs > 0) {
    if (report.eagerUs)
      speedups["vs_eager"] = *report.eagerUs / *report.candidateUs;
    if (report.torchCompileUs)
      speedups["vs_torch_compile"] = *report.torchCompileUs / *report.candidateUs;
  }
  out["speedups"] = std::move(speedups);
  // Errors, warnings and the summary as the runner wrote them.
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
          llvm::MemoryBuffer::getFile(reportFile)) {
    llvm::Expected<json::Value> value = json::parse((*buffer)->getBuffer());
    if (!value)
      llvm::consumeError(value.takeError());
    else if (const json::Object *root = value->getAsObject())
      for (llvm::StringRef key : {"errors", "warnings", "summary"})
        if (const json::Value *field = root->get(key))
          out[key] = *field;
  }
  if (!out.get("errors"))
    out["errors"] = json::Array{};
  return out;
}

ToolResult Service::evaluate(const Arguments &args, CallContext &call) {
  if (options.runner.empty())
    return ToolResult::error("kbench-run was not built (it needs LibTorch), so "
                             "nothing can evaluate here; run scripts/setup.sh "
                             "and rebuild");
  // The kernel is parsed, admitted and scheduled here, so that a refused
  // one is answered at once and no job is started for it.
  std::string error;
  auto prepared = std::make_shared<PreparedKernel>();
  {
    driver::DiagnosticCollector diagnostics(*context, /*echo=*/false);
    if (std::optional<ToolResult> failed = prepareKernel(
            workspace, *context, args, diagnostics, call, *prepared))
      return *failed;
  }
  std::string target =
      args.getString("target")
          .value_or(driver::hasNvidiaGpu() ? "sm_90a" : "host")
          .str();
  std::vector<std::string> runnerFlags = {"--target", target};
  if (std::optional<bool> timing = args.getBoolean("timing"))
    runnerFlags.push_back(*timing ? "--timing" : "--no-timing");
  if (std::optional<int64_t> seeds = args.getInteger("seeds"))
    runnerFlags.insert(runnerFlags.end(), {"--seeds", std::to_string(*seeds)});
  if (const json::Array *shapes = args.getArray("shapes")) {
    std::string list;
    for (const json::Value &set : *shapes)
      list += (list.empty() ? "" : ",") + set.getAsString().value_or("").str();
    if (!list.empty())
      runnerFlags.insert(runnerFlags.end(), {"--shapes", list});
  }
  if (!options.calibration.empty())
    runnerFlags.insert(runnerFlags.end(), {"--calibration", options.calibration});

  // A std::function must be copyable, hence the shared PreparedKernel.
  auto work = [this, prepared, target, runnerFlags](Job &job) -> ToolResult {
    job.setStage("compile");
    std::string error;
    std::optional<std::string> folder =
        workspace.createScratch("evals", job.getId(), error);
    if (!folder)
      return ToolResult::error(error);
    // Collected on this thread (a collector sees its own thread only).
    driver::DiagnosticCollector diagnostics(*context, /*echo=*/false);
    llvm::SmallString<256> bundle(*folder), log(*folder), report(*folder);
    path::append(bundle, "bundle");
    path::append(log, "runner.log");
    path::append(report, "report.json");
    driver::CompileOptions compileOptions;
    compileOptions.taskDir = prepared->taskDir;
    compileOptions.target = target;
    compileOptions.outputDir = bundle.str().str();
    driver::CompileResult compiled;
    if (failed(driver::compileScheduledModule(*prepared->module, prepared->task,
                                              compileOptions, diagnostics,
                                              compiled)))
      return failureResult(std::string("compile failed at the ") +
                               driver::getStageName(compiled.failedStage) +
                               " stage; nothing was run",
                           diagnostics);
    if (job.isCancelled())
      return ToolResult::error("cancelled");
    job.setStage("run");
    std::vector<std::string> runnerArgs = {options.runner, prepared->taskDir,
                                           bundle.str().str(), "-o", *folder};
    runnerArgs.insert(runnerArgs.end(), runnerFlags.begin(), runnerFlags.end());
    int status = job.runProgram(options.runner, runnerArgs, log, log, error);
    if (status < 0)
      return ToolResult::error("kbench-run: " + error);
    json::Object out = summarizeReport(report);
    if (out.getString("verdict").value_or("").empty()) {
      std::string tail;
      workspace.readFile(*folder, "runner.log", 1 << 20, tail, error);
      if (tail.size() > 4000)
        tail = tail.substr(tail.size() - 4000);
      return ToolResult::error("kbench-run exited with status " +
                               std::to_string(status) +
                               " and wrote no report; its output ends:\n" + tail);
    }
    out["target"] = compileOptions.target;
    compiled.times.parse = prepared->parseMs;
    compiled.times.schedule = prepared->scheduleMs;
    out["compile_ms"] = compiled.times.toJSON();
    return ToolResult::success(std::move(out));
  };
  std::shared_ptr<Job> job = jobs.start("evaluate", "e", std::move(work), error);
  if (!job)
    return ToolResult::error(error);

  // Wait as long as the agent asked, reporting stages as they change.
  double waitSeconds = args.getNumber("wait_s").value_or(30);
  std::string lastStage;
  int stageCount = 2; // prepareKernel reported stages 1 and 2
  auto stopWaiting = [&] {
    if (call.isCancelled())
      return true;
    JobState state;
    std::string stage;
    ToolResult ignored;
    double seconds;
    job->snapshot(state, stage, ignored, seconds);
    if (stage != lastStage) {
      lastStage = stage;
      call.progress(++stageCount, 0, "evaluate " + job->getId() + ": " + stage);
    }
    return false;
  };
  bool finished = job->waitFor(waitSeconds, stopWaiting);
  if (call.isCancelled()) {
    // The job belonged to this request; it goes with it.
    job->cancel();
    return ToolResult::error("cancelled");
  }
  json::Object out = describeJob(*job);
  if (finished && job->getState() != JobState::Done)
    return ToolResult::error(out.getString("error").value_or("failed").str());
  return ToolResult::success(std::move(out));
}

json::Object Service::describeJob(const Job &job) const {
  JobState state;
  std::string stage;
  ToolResult result;
  double seconds;
  job.snapshot(state, stage, result, seconds);
  json::Object out{{"job", job.getId()},
                   {"kind", job.getKind()},
                   {"state", getJobStateName(state)},
                   {"stage", stage},
                   {"seconds", seconds}};
  if (state == JobState::Done)
    out["result"] = result.structured;
  else if (state != JobState::Running)
    out["error"] = result.text;
  return out;
}

ToolResult Service::jobStatus(const Arguments &args, CallContext &call) {
  llvm::StringRef id = args.getString("job").value_or("");
  std::shared_ptr<Job> job = jobs.find(id);
  if (!job)
    return ToolResult::error("unknown job '" + id.str() +
                             "'; evaluate and search_start return job ids");
  if (std::optional<double> wait = args.getNumber("wait_s"))
    job->waitFor(*wait, [&] { return call.isCancelled(); });
  return ToolResult::success(describeJob(*job));
}

ToolResult Service::cancelJob(const Arguments &args, CallContext &) {
  llvm::StringRef id = args.getString("job").value_or("");
  std::shared_ptr<Job> job = jobs.find(id);
  if (!job)
    return ToolResult::error("unknown job '" + id.str() +
                             "'; evaluate and search_start return job ids");
  job->cancel();
  // kbench-run gets SIGTERM, then SIGKILL after 2 s; wait for that.
  job->waitFor(5, nullptr);
  return ToolResult::success(describeJob(*job));
}

} // namespace kbench::mcp
