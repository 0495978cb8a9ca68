//===- Diagnostics.h - Collect MLIR diagnostics for JSON output --*- C++ -*-===//
//
// The CLI prints diagnostics either as MLIR text (file:line:col: error: ...)
// or, with --json, as objects an agent can read. Both come from one
// collector installed on the context.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DRIVER_DIAGNOSTICS_H
#define KBENCH_DRIVER_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace kbench::driver {

struct CollectedDiagnostic {
  std::string severity; // "error", "warning", "remark", "note"
  std::string location; // "file:line:col", or "" when unknown
  std::string message;
};

/// Records every diagnostic emitted on `context` by the thread that created
/// it while alive (so that threads compiling in one context each collect
/// their own); when `echo` is set it also prints them to stderr in MLIR's
/// text form.
class DiagnosticCollector {
public:
  DiagnosticCollector(mlir::MLIRContext &context, bool echo);
  ~DiagnosticCollector();

  const std::vector<CollectedDiagnostic> &diagnostics() const { return list; }
  /// Adds a diagnostic that did not come through MLIR (a file error, say).
  void add(llvm::StringRef severity, llvm::StringRef location,
           llvm::StringRef message);
  llvm::json::Array toJSON() const;

private:
  std::vector<CollectedDiagnostic> list;
  bool echo;
  mlir::MLIRContext &context;
  mlir::DiagnosticEngine::HandlerID handler;
  std::thread::id owner = std::this_thread::get_id();
};

} // namespace kbench::driver

#endif // KBENCH_DRIVER_DIAGNOSTICS_H
