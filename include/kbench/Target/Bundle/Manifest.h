//===- Manifest.h - Bundle manifests (docs/bundle.md) ------------*- C++ -*-===//
//
// Builds the manifest of a compiled task (the typed BundleManifest of
// kbench/Support/BundleSchema.h): buffers, kernels with their ABI, grid and
// requires facts, and the host launch sequence read from the task's entry
// func.func. Target-specific fields (ptxas resources, shared memory) are
// filled in by the target backends afterwards; the schema writes the file.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TARGET_BUNDLE_MANIFEST_H
#define KBENCH_TARGET_BUNDLE_MANIFEST_H

#include "kbench/Support/BundleSchema.h"
#include "kbench/Support/TaskSignature.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace kbench {

/// Reads the task's signature through the shared task.json parser
/// (kbench/Support/TaskSignature.h). A missing file yields the folder's name
/// and no names (positional `arg0, arg1, ...`) so that kernels can be
/// compiled before their task file exists; an invalid one is an error with
/// the parser's message, the runner's own.
mlir::FailureOr<TaskSignature> readTaskSignature(llvm::StringRef taskDir,
                                                 std::string &error);

/// Carries what the task file opts into onto the kernels of a freshly parsed
/// `module`, before any schedule: with `"allow_tf32": true` every tile.kernel
/// gets tile.allow_tf32. A kernel that carries tile.allow_tf32 while the task
/// does not opt in is an error naming it: the precision a task accepts is
/// its task file's to say (the reference runs with TF32 on only then), not
/// something a kernel edit can grant itself.
mlir::LogicalResult applyTaskOptIns(mlir::ModuleOp module,
                                    const TaskSignature &task,
                                    std::string &error);

/// Builds the target-independent part of the manifest from the scheduled
/// module: `buffers`, `kernels` (name, symbol, params, grid, block,
/// requires) and `launches`. Errors (an entry function that does something
/// other than launching kernels, arity mismatches with task.json) are emitted
/// on the module's diagnostic engine.
mlir::FailureOr<bundle::BundleManifest>
buildManifest(mlir::ModuleOp module, const TaskSignature &task,
              llvm::StringRef target);

/// SHA-256 (hex) of the module's printed form plus `salt` (target, compiler
/// version): the key of the compile cache and the manifest's `ir_hash`.
std::string hashModule(mlir::ModuleOp module, llvm::StringRef salt);

} // namespace kbench

#endif // KBENCH_TARGET_BUNDLE_MANIFEST_H
