//===- Pipeline.cpp - Task, kernel and schedule of one tool call ----------===//
//
// Admission runs twice: on the kernel as given, so that nothing foreign is
// scheduled, and on the scheduled kernel, so that a schedule cannot bring in
// what the kernel could not.
//
//===----------------------------------------------------------------------===//

#include "Pipeline.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Dialect/Tile/TransformOps/Schedule.h"
#include "kbench/Mcp/Admission.h"
#include "kbench/Target/Bundle/Manifest.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
namespace json = llvm::json;

namespace kbench::mcp {

CallContext::~CallContext() = default;

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

ToolResult failureResult(const llvm::Twine &summary,
                         const driver::DiagnosticCollector &diagnostics) {
  std::string text = summary.str();
  for (const driver::CollectedDiagnostic &d : diagnostics.diagnostics())
    text += "\n" + (d.location.empty() ? std::string() : d.location + ": ") +
            d.severity + ": " + d.message;
  return ToolResult::error(text);
}

OwningOpRef<ModuleOp> parseText(MLIRContext &context, llvm::StringRef text,
                                llvm::StringRef name,
                                driver::DiagnosticCollector &diagnostics) {
  if (mlirNestingDepth(text, kMaxIrNesting) > kMaxIrNesting) {
    diagnostics.add("error", name,
                    llvm::formatv("brackets nested deeper than {0} levels; "
                                  "the server parses nothing deeper",
                                  kMaxIrNesting)
                        .str());
    return nullptr;
  }
  return parseSourceString<ModuleOp>(text, ParserConfig(&context), name);
}

std::optional<ToolResult>
prepareKernel(const Workspace &workspace, MLIRContext &context,
              const json::Object &args, driver::DiagnosticCollector &diagnostics,
              CallContext &call, PreparedKernel &out) {
  std::string error;
  out.taskName = args.getString("task").value_or("").str();
  std::optional<std::string> taskDir = workspace.findTask(out.taskName, error);
  if (!taskDir)
    return ToolResult::error(error);
  out.taskDir = *taskDir;
  std::string taskJson;
  if (!workspace.readFile(out.taskDir, "task.json", kMaxTaskJsonBytes, taskJson,
                          error))
    return ToolResult::error(error.empty() ? "task '" + out.taskName +
                                                 "' has no task.json"
                                           : error);
  FailureOr<TaskSignature> task = readTaskSignature(out.taskDir, error);
  if (failed(task))
    return ToolResult::error("task '" + out.taskName + "': " + error);
  out.task = std::move(*task);

  // Parse and admit the kernel.
  auto start = std::chrono::steady_clock::now();
  std::string kernelText, kernelName;
  if (std::optional<llvm::StringRef> given = args.getString("kernel")) {
    kernelText = given->str();
    kernelName = "kernel";
  } else {
    if (!workspace.readFile(out.taskDir, "kernel.mlir", kMaxKernelBytes,
                            kernelText, error))
      return ToolResult::error(error);
    kernelName = out.taskName + "/kernel.mlir";
  }
  out.module = parseText(context, kernelText, kernelName, diagnostics);
  if (!out.module)
    return failureResult("the kernel does not parse", diagnostics);
  if (std::optional<std::string> why = checkKernelModule(*out.module))
    return ToolResult::error("kernel refused: " + *why);
  if (out.module->getOps<tile::KernelOp>().empty())
    return ToolResult::error(kernelName +
                             ": no tile.kernel; a kernel file defines tile.kernel "
                             "ops and a func.func @main that launches them");
  if (failed(applyTaskOptIns(*out.module, out.task, error)))
    return ToolResult::error("kernel refused: " + error);
  out.parseMs = millisecondsSince(start);
  call.progress(1, 3, "kernel parsed");
  if (call.isCancelled())
    return ToolResult::error("cancelled");

  // Parse, admit and apply the schedule.
  start = std::chrono::steady_clock::now();
  std::string scheduleText;
  std::optional<llvm::StringRef> given = args.getString("schedule");
  if (given && *given == "none") {
    out.scheduleSource = "none";
  } else if (given) {
    scheduleText = given->str();
    out.scheduleSource = "schedule";
  } else if (workspace.readFile(out.taskDir, "schedules/default.mlir",
                                kMaxScriptBytes, scheduleText, error)) {
    out.scheduleSource = out.taskName + "/schedules/default.mlir";
  } else if (!error.empty()) {
    return ToolResult::error(error);
  } else {
    out.scheduleSource = "none";
  }
  if (out.scheduleSource != "none") {
    OwningOpRef<ModuleOp> schedule =
        parseText(context, scheduleText, out.scheduleSource, diagnostics);
    if (!schedule)
      return failureResult("the schedule does not parse", diagnostics);
    if (std::optional<std::string> why = checkScheduleModule(*schedule))
      return ToolResult::error("schedule refused: " + *why);
    if (failed(applyScheduleModule(*out.module, *schedule, out.scheduleSource)))
      return failureResult("the schedule failed", diagnostics);
    if (failed(mlir::verify(*out.module)))
      return failureResult("the schedule left invalid IR", diagnostics);
    if (std::optional<std::string> why = checkKernelModule(*out.module))
      return ToolResult::error("scheduled kernel refused: " + *why);
  }
  out.scheduleMs = millisecondsSince(start);
  call.progress(2, 3, "schedule applied");
  if (call.isCancelled())
    return ToolResult::error("cancelled");
  return std::nullopt;
}

} // namespace kbench::mcp
