//===- Manifest.h - Bundle manifests (docs/bundle.md) ------------*- C++ -*-===//
//
// Builds manifest.json for a compiled task: buffers, kernels with their ABI,
// grid and requires facts, and the host launch sequence read from the task's
// entry func.func. Target-specific fields (ptxas resources, shared memory)
// are filled in by the target backends afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TARGET_BUNDLE_MANIFEST_H
#define KBENCH_TARGET_BUNDLE_MANIFEST_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace kbench {

/// The format tag every manifest carries and every runner checks.
inline constexpr const char *kBundleFormat = "kbench-bundle/1";

/// What the compiler needs from task.json: the names of the entry function's
/// arguments (inputs, then outputs, in task.json order).
struct TaskSignature {
  std::string name;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};

/// Reads the names from `<taskDir>/task.json`. A missing file yields names
/// `arg0, arg1, ...` (inputs only) so that kernels can be compiled before
/// their task file exists; a malformed one is an error naming the field.
mlir::FailureOr<TaskSignature> readTaskSignature(llvm::StringRef taskDir,
                                                 std::string &error);

/// Builds the target-independent part of the manifest from the scheduled
/// module: `buffers`, `kernels` (name, symbol, params, grid, block,
/// requires) and `launches`. Errors (an entry function that does something
/// other than launching kernels, arity mismatches with task.json) are emitted
/// on the module's diagnostic engine.
mlir::FailureOr<llvm::json::Object>
buildManifest(mlir::ModuleOp module, const TaskSignature &task,
              llvm::StringRef target);

/// SHA-256 (hex) of the module's printed form plus `salt` (target, compiler
/// version): the key of the compile cache and the manifest's `ir_hash`.
std::string hashModule(mlir::ModuleOp module, llvm::StringRef salt);

} // namespace kbench

#endif // KBENCH_TARGET_BUNDLE_MANIFEST_H
