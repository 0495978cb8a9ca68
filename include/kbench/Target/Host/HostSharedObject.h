//===- HostSharedObject.h - kernel.so for the host target ---------*- C++ -*-===//
//
// The host target's backend: a scheduled tile module in, a shared object with
// one C entry point per kernel out (docs/bundle.md, "The kernel ABI"). It is
// the reference semantics of the tile program that CI runs without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TARGET_HOST_HOSTSHAREDOBJECT_H
#define KBENCH_TARGET_HOST_HOSTSHAREDOBJECT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace kbench {

/// Knobs of buildHostSharedObject.
struct HostBuildOptions {
  /// LLVM optimization level (0-3) of the kernel code.
  unsigned optLevel = 2;
  /// The C compiler driver that links the object into a shared object,
  /// looked up on PATH (an absolute path is used as is).
  std::string linker = "cc";
};

/// Wall-clock seconds of the stages of buildHostSharedObject.
struct HostBuildTimings {
  /// tile-to-host and the rest of the MLIR pipeline down to the LLVM dialect.
  double lowering = 0;
  /// Translation to LLVM IR, the LLVM optimization pipeline and object
  /// emission, in process.
  double llvm = 0;
  /// The linker run that writes the shared object.
  double link = 0;
};

/// Builds `outputPath` (kernel.so) from `module`, a scheduled tile module: a
/// copy of it goes through the tile-to-host pipeline to the LLVM dialect, is
/// translated to LLVM IR, optimized, compiled to an object for the host's
/// baseline CPU (so that the shared object runs on any machine of the same
/// architecture) and linked with `options.linker -shared`. `module` itself is
/// not changed.
///
/// Failures are reported as MLIR diagnostics on the context (lowering errors
/// name the op that cannot be lowered and why); `log` receives a one-line
/// summary of any failure and the linker's output.
mlir::LogicalResult buildHostSharedObject(mlir::ModuleOp module,
                                          llvm::StringRef outputPath,
                                          std::string &log,
                                          const HostBuildOptions &options = {},
                                          HostBuildTimings *timings = nullptr);

} // namespace kbench

#endif // KBENCH_TARGET_HOST_HOSTSHAREDOBJECT_H
