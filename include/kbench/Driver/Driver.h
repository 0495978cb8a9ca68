//===- Driver.h - The kbench command-line interface --------------*- C++ -*-===//
//
// One function per `kbench` subcommand. The tool's main only dispatches, so
// the driver stays free of MLIR headers and builds fast.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DRIVER_DRIVER_H
#define KBENCH_DRIVER_DRIVER_H

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace kbench::driver {

/// Each returns the process exit code; `args` excludes the program and the
/// subcommand names.
int runCompileCommand(llvm::ArrayRef<const char *> args);
int runVerifyCommand(llvm::ArrayRef<const char *> args);
int runEvalCommand(llvm::ArrayRef<const char *> args, const char *argv0);
int runTasksCommand(llvm::ArrayRef<const char *> args);
int runMutateCommand(llvm::ArrayRef<const char *> args);

/// The kbench-run next to this kbench, else on PATH; "" when there is none.
std::string findRunner(const char *argv0);

/// Whether this machine has an NVIDIA GPU (/dev/nvidiactl).
bool hasNvidiaGpu();

} // namespace kbench::driver

#endif // KBENCH_DRIVER_DRIVER_H
