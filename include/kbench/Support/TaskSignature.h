//===- TaskSignature.h - What the compiler reads of task.json ----*- C++ -*-===//
//
// The compiler needs the task's name and the names of its inputs and outputs
// (its entry function's arguments, in order). It reads them through the one
// task.json parser (Task.h), so a task file the runner would refuse is
// refused by `kbench compile` too, with the same message. This header is free
// of nlohmann/json and exceptions: the compiler is built without them.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_TASKSIGNATURE_H
#define KBENCH_SUPPORT_TASKSIGNATURE_H

#include "kbench/Support/ShapeExpr.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

struct TaskSignature {
  std::string name;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  /// Every dim named by the task's shapes, sorted (empty without task.json).
  std::vector<std::string> dims;
  /// task.json's "allow_tf32" (Task::allowTf32).
  bool allowTf32 = false;
  /// Every shape of every set: its label ("check[0] {M=7, N=67}") and the
  /// dims a bundle is launched with there (ShapeCase::launchDims).
  std::vector<std::pair<std::string, SymbolValues>> shapes;
};

/// Parses and validates `<taskDir>/task.json` (Task.h's parseTaskFile).
/// Returns nullopt with the parser's message in `error` when it is invalid.
std::optional<TaskSignature> tryReadTaskSignature(const std::filesystem::path &taskDir,
                                                  std::string &error);

} // namespace kbench

#endif // KBENCH_SUPPORT_TASKSIGNATURE_H
