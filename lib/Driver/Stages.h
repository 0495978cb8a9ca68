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
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/JSON.h"

#include <chrono>

namespace kbench::driver {

/// Measures one stage into a StageTimes field.
class StageTimer {
public:
  explicit StageTimer(double &out)
      : out(out), start(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    out += std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
               .count();
  }

private:
  double &out;
  std::chrono::steady_clock::time_point start;
};

/// The parse and schedule stages of compileTask: the kernel file parsed in
/// `context`, the task's opt-ins applied (applyTaskOptIns), then the
/// transform script at `schedulePath` ("" for none). Null on failure, with the
/// diagnostics reported and `result.failedStage` set.
mlir::OwningOpRef<mlir::ModuleOp>
parseAndScheduleKernel(mlir::MLIRContext &context, llvm::StringRef kernelPath,
                       llvm::StringRef schedulePath, const TaskSignature &task,
                       DiagnosticCollector &diagnostics, CompileResult &result);

/// The stages after verify and manifest: hash `module` (with `salt`, what
/// the IR does not say, added to the compiler's), look up the cache, lower
/// for `options.target` and move the bundle into `options.outputDir`.
mlir::LogicalResult lowerAndWriteBundle(mlir::ModuleOp module,
                                        bundle::BundleManifest manifest,
                                        const CompileOptions &options, llvm::StringRef salt,
                                        DiagnosticCollector &diagnostics,
                                        CompileResult &result);

/// compileTask for a dispatch file (`options.dispatchPath`, resolved): each
/// variant's schedule applied to its own parse of the kernel, its kernels
/// renamed `<kernel>__<variant>`, verified and described; then all kernels
/// in one module, lowered once, and one manifest whose `dispatch` lists the
/// variants' launch sequences in the file's order (docs/bundle.md).
mlir::LogicalResult compileDispatchTask(mlir::MLIRContext &context,
                                        const CompileOptions &options,
                                        const TaskSignature &task,
                                        DiagnosticCollector &diagnostics,
                                        CompileResult &result);

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
