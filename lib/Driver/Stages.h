//===- Stages.h - The compile stages behind CompilePipeline ------*- C++ -*-===//
//
// Private to lib/Driver: thin adapters from the pipeline to the libraries
// that do the work (transform interpreter, tile-verify, the two backends).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DRIVER_STAGES_H
#define KBENCH_LIB_DRIVER_STAGES_H

#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Target/Bundle/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace kbench::driver {

/// Applies the transform script at `schedulePath` (entry @__transform_main).
mlir::LogicalResult applyScheduleStage(mlir::ModuleOp module,
                                       llvm::StringRef schedulePath);

/// Runs tile-verify. C12 (read-only inputs) runs when `task` comes from a
/// task.json (not the positional names of a task without one). Returns
/// success only when every check is proved; the verifier's JSON report goes
/// to `report` either way.
mlir::LogicalResult verifyStage(mlir::ModuleOp module, const TaskSignature &task,
                                llvm::json::Value &report);

/// Builds kernel.so in `bundleDir`. `times.lower` gets the MLIR lowering,
/// `times.assemble` LLVM code generation and the link.
mlir::LogicalResult hostBackendStage(mlir::ModuleOp module,
                                     llvm::StringRef bundleDir,
                                     bundle::BundleManifest &manifest,
                                     StageTimes &times);

/// Builds kernel.ptx and kernel.cubin in `bundleDir` and records ptxas
/// resources and dynamic shared memory per kernel in `manifest`.
/// `times.lower` gets the lowering to PTX, `times.assemble` ptxas.
mlir::LogicalResult gpuBackendStage(mlir::ModuleOp module,
                                    llvm::StringRef bundleDir,
                                    bundle::BundleManifest &manifest,
                                    StageTimes &times);

} // namespace kbench::driver

#endif // KBENCH_LIB_DRIVER_STAGES_H
