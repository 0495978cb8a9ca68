//===- kbench-host-build.cpp - Test driver of the host target -------------===//
//
// Builds kernel.so from a tile module through kbench::buildHostSharedObject,
// the entry point `kbench compile --target host` uses, so that the lit tests
// exercise exactly that code. `--timings` prints the stage times (the numbers
// in docs/host-target.md come from it).
//
//===----------------------------------------------------------------------===//

#include "kbench/InitAll.h"
#include "kbench/Target/Host/HostSharedObject.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::opt<std::string> input(llvm::cl::Positional,
                                   llvm::cl::desc("<tile module>"),
                                   llvm::cl::Required);
  llvm::cl::opt<std::string> output("o", llvm::cl::desc("Output kernel.so"),
                                    llvm::cl::value_desc("file"),
                                    llvm::cl::Required);
  llvm::cl::opt<unsigned> optLevel("O", llvm::cl::desc("LLVM opt level"),
                                   llvm::cl::init(2), llvm::cl::Prefix);
  llvm::cl::opt<std::string> linker(
      "linker", llvm::cl::desc("C compiler driver used to link"),
      llvm::cl::init("cc"));
  llvm::cl::opt<bool> printTimings(
      "timings", llvm::cl::desc("Print the time of each stage"));
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "kbench host target test driver\n");

  auto start = std::chrono::steady_clock::now();
  DialectRegistry registry;
  kbench::registerAllDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(input, sourceMgr, &context);
  if (!module)
    return 1;

  kbench::HostBuildOptions options;
  options.optLevel = optLevel;
  options.linker = linker;
  kbench::HostBuildTimings timings;
  std::string log;
  if (failed(kbench::buildHostSharedObject(*module, output, log, options,
                                           &timings)))
    return 1;
  double total = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  if (printTimings)
    llvm::outs() << llvm::format("lowering %.3f s, llvm %.3f s, link %.3f s, "
                                 "total %.3f s\n",
                                 timings.lowering, timings.llvm, timings.link,
                                 total);
  return 0;
}
