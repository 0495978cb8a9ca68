//===- Pipeline.h - Task, kernel and schedule of one tool call --*- C++ -*-===//
//
// Private to lib/Mcp: the first half of every compile-like tool. The task is
// found in the workspace, the kernel and schedule come from the call (text)
// or from the task's files, both are admitted (Admission.h), and the
// schedule is applied; the caller goes on with the driver's
// compileScheduledModule.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_MCP_PIPELINE_H
#define KBENCH_LIB_MCP_PIPELINE_H

#include "kbench/Driver/Diagnostics.h"
#include "kbench/Mcp/Service.h"
#include "kbench/Support/TaskSignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>

namespace kbench::mcp {

/// Size limits of the IR and files the tools read.
inline constexpr size_t kMaxKernelBytes = 256 << 10;
inline constexpr size_t kMaxScriptBytes = 64 << 10;
inline constexpr size_t kMaxTaskJsonBytes = 64 << 10;

struct PreparedKernel {
  std::string taskName, taskDir;
  TaskSignature task;
  /// The kernel after its schedule.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// "schedule" argument, "schedules/default.mlir" or "none".
  std::string scheduleSource;
  double parseMs = 0, scheduleMs = 0;
};

/// Fills `out` from the call's `task`, `kernel` and `schedule` arguments;
/// nullopt on success, else the error result (with the diagnostics).
std::optional<ToolResult>
prepareKernel(const Workspace &workspace, mlir::MLIRContext &context,
              const llvm::json::Object &args,
              driver::DiagnosticCollector &diagnostics, CallContext &call,
              PreparedKernel &out);

/// Parses `text` (named `name` in locations) as a module after checking its
/// nesting; null with a diagnostic in `diagnostics` when it does not parse.
mlir::OwningOpRef<mlir::ModuleOp>
parseText(mlir::MLIRContext &context, llvm::StringRef text, llvm::StringRef name,
          driver::DiagnosticCollector &diagnostics);

/// An error result: `summary`, then one line per diagnostic.
ToolResult failureResult(const llvm::Twine &summary,
                         const driver::DiagnosticCollector &diagnostics);

/// Milliseconds since `start`.
double millisecondsSince(std::chrono::steady_clock::time_point start);

} // namespace kbench::mcp

#endif // KBENCH_LIB_MCP_PIPELINE_H
