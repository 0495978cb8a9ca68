//===- DispatchFile.h - A task's shape-specialized schedules -----*- C++ -*-===//
//
// A dispatch file (schedules/dispatch.json; docs/schedules.md, "Dispatch by
// shape") lists schedules of the task's kernel (or of a kernel file a variant
// names, for shapes that need another structure), each with the shapes it is
// for:
//
//   {"variants": [
//     {"name": "tma", "when": ["M >= 128"], "schedule": "tma.mlir"},
//     {"name": "small", "schedule": "default.mlir"}]}
//
// `kbench compile` compiles and proves every variant and writes one bundle
// whose manifest has a `dispatch` list; kbench-run launches, at each shape,
// the first variant whose `when` facts hold. This header is free of
// nlohmann/json and exceptions: the compiler is built without them.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_DISPATCHFILE_H
#define KBENCH_SUPPORT_DISPATCHFILE_H

#include "kbench/Support/ShapeExpr.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

struct DispatchVariant {
  /// Letters, digits and '_': it becomes part of the kernels' symbols.
  std::string name;
  /// Facts over the task's dims ("M >= 128"); empty only for the last
  /// variant, the fallback.
  std::vector<ShapeFact> when;
  /// The transform script, resolved against the dispatch file's folder.
  std::filesystem::path schedule;
  /// The kernel file the schedule applies to, as written: relative to the
  /// task's folder (the compiler resolves it), or absolute; empty for the
  /// task's own kernel (TASK_DIR/kernel.mlir). A variant of another
  /// structure (a reduction split across CTAs for the shapes with few rows,
  /// say) brings its own kernels and entry function.
  std::filesystem::path kernel;
};

struct DispatchFile {
  std::vector<DispatchVariant> variants;
};

/// Reads and validates a dispatch file: at least one variant; names unique
/// (defaulting to the schedule file's stem); every `when` a fact over
/// `taskDims` (when not empty); `when` on every variant but the last and not
/// on the last. Returns nullopt with "<file>: <field>: <what is wrong>" in
/// `error` otherwise. Whether the schedules exist is the compiler's check.
std::optional<DispatchFile> tryReadDispatchFile(const std::filesystem::path &file,
                                                const std::vector<std::string> &taskDims,
                                                std::string &error);

/// The same for `text`, the contents of `file` (which names it in messages
/// and resolves the schedules).
std::optional<DispatchFile>
tryParseDispatchText(const std::string &text, const std::filesystem::path &file,
                     const std::vector<std::string> &taskDims,
                     std::string &error);

} // namespace kbench

#endif // KBENCH_SUPPORT_DISPATCHFILE_H
