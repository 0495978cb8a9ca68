//===- Service.cpp - The tools of `kbench mcp` over kbench's libraries ----===//
//
// The quick tools: list_tasks, describe_task, apply_schedule, verify and
// compile. They share one MLIRContext (it is thread-safe for independent
// modules; DiagnosticCollector separates the diagnostics of concurrent
// calls by thread, as in `kbench search --jobs`). Evaluation and search are
// in Evaluate.cpp and SearchTools.cpp.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Service.h"

#include "Pipeline.h"
#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Search/Space.h"
#include "kbench/Support/BundleSchema.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace mlir;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
namespace json = llvm::json;

namespace kbench::mcp {

/// Defined in SearchTools.cpp: the best searched schedule of a task.
std::optional<json::Object> findBestOfTask(const Workspace &workspace,
                                           llvm::StringRef task);

/// The highest job number in the folders of earlier servers (e12, s13).
static int64_t lastJobNumber(const Workspace &workspace) {
  int64_t last = 0;
  for (llvm::StringRef kind : {"evals", "searches"}) {
    std::error_code ec;
    for (fs::directory_iterator it(workspace.scratchPath(kind), ec), end;
         it != end && !ec; it.increment(ec)) {
      int64_t number = 0;
      llvm::StringRef name = path::filename(it->path());
      if (name.size() > 1 && !name.drop_front().getAsInteger(10, number))
        last = std::max(last, number);
    }
  }
  return last;
}

Service::Service(Workspace workspace, ServiceOptions options)
    : workspace(std::move(workspace)), options(std::move(options)),
      jobs(this->options.maxJobs, lastJobNumber(this->workspace)) {}

Service::~Service() = default;

std::unique_ptr<Service> Service::create(const ServiceOptions &options,
                                         std::string &error) {
  std::optional<Workspace> workspace =
      Workspace::open(options.workspace, options.tasks, error);
  if (!workspace)
    return nullptr;
  // The server's folder must be a folder of the workspace, not a link out.
  for (llvm::StringRef kind : {"bundles", "evals", "searches", "tmp"}) {
    std::string folder = workspace->scratchPath(kind);
    if (std::error_code ec = fs::create_directories(folder)) {
      error = "cannot create " + folder + ": " + ec.message();
      return nullptr;
    }
    llvm::SmallString<256> real;
    if (fs::real_path(folder, real) || !workspace->contains(real)) {
      error = folder + " resolves outside the workspace";
      return nullptr;
    }
  }
  std::unique_ptr<Service> service(new Service(std::move(*workspace), options));
  service->context = driver::createCompilerContext();
  return service;
}

//===----------------------------------------------------------------------===//
// list_tasks, describe_task
//===----------------------------------------------------------------------===//

/// task.json of a task folder, parsed; null when it cannot be read.
static json::Value readTaskJson(const Workspace &workspace,
                                llvm::StringRef taskDir, std::string &error) {
  std::string text;
  if (!workspace.readFile(taskDir, "task.json", kMaxTaskJsonBytes, text, error))
    return nullptr;
  llvm::Expected<json::Value> value = json::parse(text);
  if (!value) {
    error = "task.json is not JSON: " + llvm::toString(value.takeError());
    return nullptr;
  }
  return std::move(*value);
}

static json::Array listSchedules(llvm::StringRef taskDir) {
  std::vector<std::string> names;
  llvm::SmallString<256> folder(taskDir);
  path::append(folder, "schedules");
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; it != end && !ec;
       it.increment(ec))
    if (path::extension(it->path()) == ".mlir")
      names.push_back(path::filename(it->path()).str());
  llvm::sort(names);
  return json::Array(names);
}

ToolResult Service::listTasks(const Arguments &, CallContext &) {
  json::Array tasks;
  for (const std::string &name : workspace.listTasks()) {
    std::string error;
    std::optional<std::string> dir = workspace.findTask(name, error);
    if (!dir)
      continue;
    json::Value contract = readTaskJson(workspace, *dir, error);
    json::Object entry{{"name", name}, {"schedules", listSchedules(*dir)}};
    if (const json::Object *object = contract.getAsObject()) {
      if (std::optional<llvm::StringRef> text = object->getString("description"))
        entry["description"] = text->str();
      if (std::optional<llvm::StringRef> kind = object->getString("kind"))
        entry["kind"] = kind->str();
    } else {
      entry["problem"] = error.empty() ? "no task.json" : error;
    }
    tasks.push_back(std::move(entry));
  }
  return ToolResult::success(json::Object{{"tasks", std::move(tasks)}});
}

/// The knob space of a task: schedules/space.mlir, else the default space
/// derived from the kernel (kbench search's rule).
static json::Object describeSpace(const Workspace &workspace,
                                  MLIRContext &context, llvm::StringRef taskDir,
                                  ModuleOp kernel,
                                  driver::DiagnosticCollector &diagnostics) {
  std::string text, error, source = "schedules/space.mlir";
  if (!workspace.readFile(taskDir, "schedules/space.mlir", kMaxScriptBytes, text,
                          error)) {
    if (!error.empty())
      return json::Object{{"source", source}, {"problem", error}};
    source = "default";
    text = search::Space::defaultSpaceText(kernel, error);
    if (text.empty())
      return json::Object{{"source", source}, {"problem", error}};
  }
  std::optional<search::Space> space =
      search::Space::parse(context, text, source);
  if (!space) {
    std::string problem = "the space does not parse";
    for (const driver::CollectedDiagnostic &d : diagnostics.diagnostics())
      problem += "; " + d.location + ": " + d.message;
    return json::Object{{"source", source}, {"text", text}, {"problem", problem}};
  }
  json::Array knobs, constraints;
  for (const search::Knob &knob : space->getKnobs())
    knobs.push_back(json::Object{
        {"name", knob.name},
        {"options", json::Array(knob.options)},
        {"kind", knob.isAlternatives ? "alternatives" : "knob"}});
  for (const search::Constraint &constraint : space->getConstraints())
    constraints.push_back(constraint.text);
  return json::Object{{"source", source},
                      {"text", text},
                      {"knobs", std::move(knobs)},
                      {"constraints", std::move(constraints)},
                      {"size", space->size()}};
}

ToolResult Service::describeTask(const Arguments &args, CallContext &) {
  std::string error;
  llvm::StringRef name = args.getString("task").value_or("");
  std::optional<std::string> dir = workspace.findTask(name, error);
  if (!dir)
    return ToolResult::error(error);
  json::Value contract = readTaskJson(workspace, *dir, error);
  if (contract.kind() == json::Value::Null)
    return ToolResult::error("task '" + name.str() + "': " +
                             (error.empty() ? "no task.json" : error));
  std::string kernel, schedule;
  if (!workspace.readFile(*dir, "kernel.mlir", kMaxKernelBytes, kernel, error))
    return ToolResult::error("task '" + name.str() + "': " + error);
  json::Value defaultSchedule = nullptr;
  if (workspace.readFile(*dir, "schedules/default.mlir", kMaxScriptBytes,
                         schedule, error))
    defaultSchedule = schedule;

  driver::DiagnosticCollector diagnostics(*context, /*echo=*/false);
  json::Value space = nullptr;
  if (OwningOpRef<ModuleOp> module =
          parseText(*context, kernel, name.str() + "/kernel.mlir", diagnostics))
    space = describeSpace(workspace, *context, *dir, *module, diagnostics);
  else
    space = json::Object{{"source", "default"},
                         {"problem", "the task's kernel does not parse"}};
  json::Value best = nullptr;
  if (std::optional<json::Object> found = findBestOfTask(workspace, name))
    best = std::move(*found);
  return ToolResult::success(json::Object{{"name", name.str()},
                                          {"contract", std::move(contract)},
                                          {"kernel", kernel},
                                          {"default_schedule", defaultSchedule},
                                          {"best_schedule", std::move(best)},
                                          {"knob_space", std::move(space)},
                                          {"schedules", listSchedules(*dir)}});
}

//===----------------------------------------------------------------------===//
// apply_schedule, verify, compile
//===----------------------------------------------------------------------===//

/// Scheduled IR larger than this is cut (the agent is told where).
static constexpr size_t kMaxIrReplyBytes = 1 << 20;

ToolResult Service::applySchedule(const Arguments &args, CallContext &call) {
  driver::DiagnosticCollector diagnostics(*context, /*echo=*/false);
  PreparedKernel prepared;
  if (std::optional<ToolResult> error =
          prepareKernel(workspace, *context, args, diagnostics, call, prepared))
    return *error;
  std::string ir;
  llvm::raw_string_ostream os(ir);
  prepared.module->print(os);
  bool truncated = ir.size() > kMaxIrReplyBytes;
  if (truncated)
    ir.resize(kMaxIrReplyBytes);
  return ToolResult::success(json::Object{
      {"ir", ir},
      {"truncated", truncated},
      {"schedule", prepared.scheduleSource},
      {"times_ms", json::Object{{"parse", prepared.parseMs},
                                {"schedule", prepared.scheduleMs}}}});
}

/// The findings of a verification report, one object per violated or
/// unsupported check (docs/verification.md, "Diagnostic JSON").
static json::Array findingsOf(const json::Value &report) {
  json::Array findings;
  const json::Object *root = report.getAsObject();
  const json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels)
    return findings;
  for (const json::Value &kernel : *kernels)
    if (const json::Object *k = kernel.getAsObject())
      if (const json::Array *list = k->getArray("diagnostics"))
        for (const json::Value &finding : *list)
          if (const json::Object *f = finding.getAsObject()) {
            json::Object entry = *f;
            entry["kernel"] = k->getString("kernel").value_or("").str();
            findings.push_back(std::move(entry));
          }
  return findings;
}

ToolResult Service::verify(const Arguments &args, CallContext &call) {
  driver::DiagnosticCollector diagnostics(*context, /*echo=*/false);
  PreparedKernel prepared;
  if (std::optional<ToolResult> error =
          prepareKernel(workspace, *context, args, diagnostics, call, prepared))
    return *error;
  driver::CompileOptions options;
  options.taskDir = prepared.taskDir;
  options.stopAfterVerify = true;
  driver::CompileResult result;
  auto start = std::chrono::steady_clock::now();
  bool proved = succeeded(driver::compileScheduledModule(
      *prepared.module, prepared.task, options, diagnostics, result));
  double verifyMs = millisecondsSince(start);
  const json::Object *report = result.verification.getAsObject();
  if (!report)
    return failureResult("tile-verify did not run", diagnostics);
  json::Object out{
      {"proved", proved},
      {"status",
       report->getString("status").value_or(proved ? "proved" : "violated").str()},
      {"findings", findingsOf(result.verification)},
      {"report", result.verification},
      {"schedule", prepared.scheduleSource},
      {"times_ms", json::Object{{"parse", prepared.parseMs},
                                {"schedule", prepared.scheduleMs},
                                {"verify", verifyMs}}}};
  return ToolResult::success(std::move(out));
}

static int64_t fileSize(llvm::StringRef folder, llvm::StringRef name) {
  llvm::SmallString<256> file(folder);
  path::append(file, name);
  uint64_t size = 0;
  return fs::file_size(file, size) ? -1 : int64_t(size);
}

ToolResult Service::compile(const Arguments &args, CallContext &call) {
  driver::DiagnosticCollector diagnostics(*context, /*echo=*/false);
  PreparedKernel prepared;
  if (std::optional<ToolResult> error =
          prepareKernel(workspace, *context, args, diagnostics, call, prepared))
    return *error;
  std::string error;
  std::optional<std::string> folder = workspace.createScratch(
      "bundles", "b" + std::to_string(++scratchCounter), error);
  if (!folder)
    return ToolResult::error(error);
  driver::CompileOptions options;
  options.taskDir = prepared.taskDir;
  options.target = args.getString("target").value_or("sm_90a").str();
  options.outputDir = *folder;
  driver::CompileResult result;
  auto start = std::chrono::steady_clock::now();
  bool ok = succeeded(driver::compileScheduledModule(
      *prepared.module, prepared.task, options, diagnostics, result));
  double compileMs = millisecondsSince(start);
  if (!ok) {
    fs::remove_directories(*folder);
    std::string summary = std::string("compile failed at the ") +
                          driver::getStageName(result.failedStage) + " stage";
    if (result.failedStage == driver::CompileStage::Verify)
      summary += " (tile-verify refuted the kernel: call verify for the "
                 "witness)";
    return failureResult(summary, diagnostics);
  }
  json::Array kernels;
  for (const bundle::KernelSpec &kernel : result.manifest.kernels) {
    json::Object entry{{"name", kernel.name},
                       {"block", json::Array(kernel.block)},
                       {"dynamic_shared_memory", kernel.dynamicSharedMemory}};
    if (kernel.resources) {
      entry["registers"] = kernel.resources->registers;
      entry["spill_stores"] = kernel.resources->spillStores;
      entry["spill_loads"] = kernel.resources->spillLoads;
      entry["stack_frame"] = kernel.resources->stackFrame;
      entry["shared_memory"] = kernel.resources->sharedMemory;
      entry["injected_wgmma_waits"] = kernel.resources->injectedWgmmaWaits;
    }
    kernels.push_back(std::move(entry));
  }
  const driver::StageTimes &t = result.times;
  json::Object out{
      {"target", options.target},
      {"ir_hash", result.manifest.irHash},
      {"verification", result.manifest.verification},
      {"kernels", std::move(kernels)},
      {"schedule", prepared.scheduleSource},
      {"times_ms",
       json::Object{{"parse", prepared.parseMs},
                    {"schedule", prepared.scheduleMs},
                    {"verify", t.verify},
                    {"lower", t.lower},
                    {"assemble", t.assemble},
                    {"total", prepared.parseMs + prepared.scheduleMs + compileMs}}}};
  if (options.target == "sm_90a") {
    out["ptx_bytes"] = fileSize(*folder, "kernel.ptx");
    out["cubin_bytes"] = fileSize(*folder, "kernel.cubin");
  } else {
    out["shared_object_bytes"] = fileSize(*folder, "kernel.so");
  }
  fs::remove_directories(*folder);
  call.progress(3, 3, "compiled");
  return ToolResult::success(std::move(out));
}

} // namespace kbench::mcp
