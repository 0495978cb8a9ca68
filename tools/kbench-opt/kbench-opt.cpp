//===- kbench-opt.cpp - mlir-opt for kbench -------------------------------===//
//
// Every upstream dialect, extension, pass and LLVM IR translation plus the
// tile dialect and kbench's passes. Only the registration header is included:
// dialect headers here would cost tens of seconds per build.
//
//===----------------------------------------------------------------------===//

#include "kbench/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  kbench::registerAllDialects(registry);
  kbench::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "kbench optimizer driver: tile dialect and upstream MLIR\n",
      registry));
}
