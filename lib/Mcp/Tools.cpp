//===- Tools.cpp - The tool table of `kbench mcp` -------------------------===//
//
// The schemas are the contract with agents: descriptions say what each
// argument means and its default, limits are in the schema rather than in
// prose, and additionalProperties: false turns a misspelt argument into an
// error that names it.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Tools.h"

#include "Pipeline.h"

#include "llvm/ADT/STLExtras.h"

namespace json = llvm::json;

namespace kbench::mcp {

namespace {
json::Object text(llvm::StringRef description, int64_t maxBytes) {
  return json::Object{{"type", "string"},
                      {"description", description},
                      {"maxLength", maxBytes}};
}
json::Object integer(llvm::StringRef description, int64_t min, int64_t max) {
  return json::Object{{"type", "integer"},
                      {"description", description},
                      {"minimum", min},
                      {"maximum", max}};
}
json::Object choice(llvm::StringRef description,
                    std::initializer_list<const char *> options) {
  json::Array list;
  for (const char *option : options)
    list.push_back(option);
  return json::Object{
      {"type", "string"}, {"description", description}, {"enum", std::move(list)}};
}
json::Object object(json::Object properties,
                    std::initializer_list<const char *> required = {},
                    bool closed = true) {
  json::Array names;
  for (const char *name : required)
    names.push_back(name);
  json::Object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!names.empty())
    schema["required"] = std::move(names);
  if (closed)
    schema["additionalProperties"] = false;
  return schema;
}
json::Object any(llvm::StringRef type, llvm::StringRef description) {
  return json::Object{{"type", type}, {"description", description}};
}

json::Object taskArg() {
  return text("task name, as list_tasks gives it", 128);
}
json::Object kernelArg() {
  return text("kernel file text (tile.kernel ops and a func.func @main of "
              "tile.launch ops; docs/tile-ir.md); default: the task's "
              "kernel.mlir",
              kMaxKernelBytes);
}
json::Object scheduleArg() {
  return text("transform script text with @__transform_main "
              "(docs/schedules.md); default: the task's "
              "schedules/default.mlir; \"none\" applies no schedule",
              kMaxScriptBytes);
}
json::Object compileInput(bool withTarget) {
  json::Object properties{{"task", taskArg()},
                          {"kernel", kernelArg()},
                          {"schedule", scheduleArg()}};
  if (withTarget)
    properties["target"] = choice("what to compile for (default sm_90a)",
                                  {"sm_90a", "host"});
  return object(std::move(properties), {"task"});
}
json::Object timesOutput() {
  return any("object", "wall-clock milliseconds per stage");
}
json::Object jobOutput() {
  return object(
      json::Object{
          {"job", any("string", "the job id")},
          {"kind", any("string", "evaluate or search")},
          {"state", choice("", {"running", "done", "failed", "cancelled"})},
          {"stage", any("string", "what the job is doing")},
          {"seconds", any("number", "time since it started (or it took)")},
          {"result", any("object", "the result, once done (evaluate: verdict, "
                                   "errors, timings_us, percent_of_floor, "
                                   "speedups)")},
          {"error", any("string", "why it failed or was cancelled")}},
      {"job", "state"}, /*closed=*/false);
}

std::vector<Tool> buildTools() {
  std::vector<Tool> tools;
  tools.push_back(
      {"list_tasks", "List tasks",
       "The tasks of the workspace: name, description, kind and schedule "
       "files. Every other tool names a task by the name given here.",
       object({}),
       object(json::Object{{"tasks", any("array", "one object per task")}},
              {"tasks"}, false),
       &Service::listTasks});
  tools.push_back(
      {"describe_task", "Describe a task",
       "A task's contract (task.json: inputs, outputs, reference, shapes, "
       "tolerance, cost), its kernel, its default schedule, the best schedule "
       "searched so far in this workspace (or null), and its knob space "
       "(schedules/space.mlir or the default space: knobs with options, "
       "constraints, size).",
       object(json::Object{{"task", taskArg()}}, {"task"}),
       object(json::Object{{"name", any("string", "")},
                           {"contract", any("object", "task.json")},
                           {"kernel", any("string", "kernel.mlir")},
                           {"default_schedule",
                            json::Object{{"type", json::Array{"string", "null"}}}},
                           {"best_schedule",
                            json::Object{{"type", json::Array{"object", "null"}}}},
                           {"knob_space", any("object", "")},
                           {"schedules", any("array", "")}},
              {"name", "contract", "kernel", "knob_space"}, false),
       &Service::describeTask});
  tools.push_back(
      {"apply_schedule", "Apply a schedule",
       "Applies a schedule to a kernel and returns the scheduled IR, or the "
       "transform op's reason for refusing it (isError).",
       compileInput(false),
       object(json::Object{{"ir", any("string", "the scheduled kernel")},
                           {"truncated", any("boolean", "ir cut at 1 MiB")},
                           {"schedule", any("string", "which schedule ran")},
                           {"times_ms", timesOutput()}},
              {"ir"}, false),
       &Service::applySchedule});
  tools.push_back(
      {"verify", "Verify a kernel",
       "Runs tile-verify on the scheduled kernel: proved for every shape, or "
       "findings with the op, the check and a witness (the smallest shape, "
       "block and element that break it; docs/verification.md). A refuted "
       "kernel is a result (proved: false), not an error.",
       compileInput(false),
       object(json::Object{{"proved", any("boolean", "")},
                           {"status", any("string", "proved, violated or unsupported")},
                           {"findings", any("array", "check, op, op_name, message, witness, ...")},
                           {"report", any("object", "the verifier's full report")},
                           {"schedule", any("string", "")},
                           {"times_ms", timesOutput()}},
              {"proved", "status", "findings"}, false),
       &Service::verify});
  tools.push_back(
      {"compile", "Compile a kernel",
       "Schedules, verifies and lowers a kernel. sm_90a: ptxas registers, "
       "spills, stack, shared memory per kernel and PTX size; host: the "
       "shared object's size; both: stage times.",
       compileInput(true),
       object(json::Object{{"target", any("string", "")},
                           {"ir_hash", any("string", "")},
                           {"verification", any("string", "")},
                           {"kernels",
                            any("array",
                                "name, block, registers, spill_stores, "
                                "spill_loads, stack_frame, shared_memory, "
                                "injected_wgmma_waits, dynamic_shared_memory")},
                           {"ptx_bytes", any("integer", "")},
                           {"cubin_bytes", any("integer", "")},
                           {"shared_object_bytes", any("integer", "")},
                           {"schedule", any("string", "")},
                           {"times_ms", timesOutput()}},
              {"target", "kernels", "times_ms"}, false),
       &Service::compile});

  json::Object evaluateInput = compileInput(false);
  json::Object &properties = *evaluateInput.getObject("properties");
  properties["target"] = choice(
      "sm_90a or host (default: sm_90a when this machine has an NVIDIA GPU, "
      "else host, which checks but does not time)",
      {"sm_90a", "host"});
  properties["shapes"] = json::Object{
      {"type", "array"},
      {"description", "shape sets of task.json to check (default: kbench-run's)"},
      {"items", choice("", {"check", "tune", "heldout"})},
      {"maxItems", 3}};
  properties["seeds"] = integer("seeds per shape (default 3)", 1, 10);
  properties["timing"] = any("boolean", "time against torch (default: on for sm_90a)");
  properties["wait_s"] = json::Object{
      {"type", "number"},
      {"description", "seconds to wait for the result before answering with "
                      "the job to poll (default 30, under the 60 s request timeout of common clients)"},
      {"minimum", 0},
      {"maximum", 600}};
  tools.push_back(
      {"evaluate", "Evaluate a kernel",
       "Compiles the kernel and checks it against PyTorch with kbench-run "
       "(and times it on a GPU): verdict, errors, timings, % of floor, "
       "speedups. Runs as a job: answers with the result when it is done "
       "within wait_s, else with the job id for job_status and cancel_job.",
       std::move(evaluateInput), jobOutput(), &Service::evaluate});
  tools.push_back(
      {"job_status", "Poll a job",
       "The state of an evaluate or search job and, once done, its result.",
       object(json::Object{{"job", text("the job id", 32)},
                           {"wait_s", json::Object{{"type", "number"},
                                                   {"description", "wait up to this long for the job to finish"},
                                                   {"minimum", 0},
                                                   {"maximum", 600}}}},
              {"job"}),
       jobOutput(), &Service::jobStatus});
  tools.push_back({"cancel_job", "Cancel a job",
                   "Stops a running evaluate or search job (its kbench-run or "
                   "kbench search process is terminated).",
                   object(json::Object{{"job", text("the job id", 32)}}, {"job"}),
                   jobOutput(), &Service::cancelJob});
  tools.push_back(
      {"search_start", "Start a schedule search",
       "Starts `kbench search` (MAP-Elites over the knob space, every "
       "candidate verified and evaluated, an SQLite archive) as a job. Poll "
       "search_status; search_best gives the best schedule so far.",
       object(json::Object{
                  {"task", taskArg()},
                  {"kernel", kernelArg()},
                  {"space", text("space text: a schedule with transform.tune.knob "
                                 "/ tune.alternatives choices (docs/search.md); "
                                 "default: the task's schedules/space.mlir, else "
                                 "the default space",
                                 kMaxScriptBytes)},
                  {"budget", integer("candidates to evaluate (default 8)", 1, 64)},
                  {"round_size", integer("candidates per round (default 4)", 1, 16)},
                  {"seed", integer("the engine's seed (default 0)", 0, 2147483647)},
                  {"fitness", choice("measured (speedup from the reports; 1 for a "
                                     "pass on host) or model (a cost proxy); "
                                     "default measured",
                                     {"measured", "model"})},
                  {"target", choice("default: sm_90a with a GPU, else host",
                                    {"sm_90a", "host"})}},
              {"task"}),
       object(json::Object{{"search", any("string", "the search (job) id")},
                           {"state", any("string", "")},
                           {"target", any("string", "")}},
              {"search", "state"}, false),
       &Service::searchStart});
  json::Object searchId =
      object(json::Object{{"search", text("the id search_start gave", 32)}},
             {"search"});
  tools.push_back(
      {"search_status", "Poll a search",
       "A search's state, candidates archived, evaluated and passed, rounds "
       "finished, and the best candidate so far.",
       searchId,
       object(json::Object{{"search", any("string", "")},
                           {"state", any("string", "")},
                           {"candidates", any("integer", "")},
                           {"evaluated", any("integer", "")},
                           {"passed", any("integer", "")},
                           {"rounds_finished", any("integer", "")},
                           {"best", any("object", "")}},
              {"search", "state", "candidates"}, false),
       &Service::searchStatus});
  tools.push_back(
      {"search_best", "Best schedule of a search",
       "The best evaluated candidate of a search: its schedule script (knobs "
       "resolved; pass it as `schedule` to the other tools), knob values, "
       "fitness and timings.",
       searchId,
       object(json::Object{{"search", any("string", "")},
                           {"name", any("string", "")},
                           {"script", any("string", "")},
                           {"knobs", any("object", "")},
                           {"fitness", any("number", "")},
                           {"fitness_kind", any("string", "")}},
              {"search", "script", "fitness"}, false),
       &Service::searchBest});
  return tools;
}
} // namespace

llvm::ArrayRef<Tool> getTools() {
  static const std::vector<Tool> tools = buildTools();
  return tools;
}

const Tool *findTool(llvm::StringRef name) {
  for (const Tool &tool : getTools())
    if (tool.name == name)
      return &tool;
  return nullptr;
}

json::Object describeTool(const Tool &tool) {
  return json::Object{{"name", tool.name},
                      {"title", tool.title},
                      {"description", tool.description},
                      {"inputSchema", json::Object(tool.inputSchema)},
                      {"outputSchema", json::Object(tool.outputSchema)}};
}

} // namespace kbench::mcp
