//===- MutateCommand.cpp - `kbench mutate` --------------------------------===//
//
// Writes one mutant of a task's kernel (the tile-mutate pass, deterministic
// by FAMILY:SITE:SEED) or lists the mutation sites, for mutation analysis of
// the verifier and the runner (docs/verification.md).
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/CommandLine.h"
#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Driver/Driver.h"

#include "kbench/InitAll.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace kbench::driver {

int runMutateCommand(llvm::ArrayRef<const char *> args) {
  CompileOptions paths;
  std::string mutation, output = "-";
  bool list = false;
  cli::CommandLine cl("kbench mutate",
                 "Write one mutant of a task's kernel, deterministic by "
                 "FAMILY:SITE:SEED (families\nF1 indexing, F2 boundary, F4 "
                 "reduction, F5 arithmetic, F6 precision, F7 benign\ncontrols), "
                 "or list the mutation sites with --list. The kernel is mutated "
                 "as\nwritten, before any schedule.");
  cl.addPositional(&paths.taskDir, "TASK_DIR", "a task folder");
  cl.addPositional(&mutation, "FAMILY:SITE:SEED", "the mutant, e.g. F1:3:0",
                   /*required=*/false);
  cl.addString("kernel", &paths.kernelPath, "FILE", "kernel file (default: TASK_DIR/kernel.mlir)");
  cl.addString("output", &output, "FILE", "where to write the mutant (default: stdout)", "o");
  cl.addFlag("list", &list, "print every mutation site as FAMILY:SITE variants=N WHAT");
  if (std::optional<int> exitCode = cl.parse(args.begin(), args.end()))
    return *exitCode;
  if (mutation.empty() && !list) {
    llvm::errs() << "kbench mutate: give FAMILY:SITE:SEED or --list\n";
    return 1;
  }
  paths.schedulePath = "none";
  resolveTaskPaths(paths);

  registerAllPasses();
  std::unique_ptr<MLIRContext> context = createCompilerContext();
  context->printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(paths.kernelPath, sourceMgr, ParserConfig(context.get()));
  if (!module)
    return 1;
  std::string pipeline =
      list ? "tile-mutate{list-sites=true}"
           : "tile-mutate{mutation=" + mutation + "}";
  PassManager pm(context.get());
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())) ||
      failed(pm.run(*module)))
    return 1;
  if (list)
    return 0;
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
  if (!file) {
    llvm::errs() << "kbench mutate: " << error << "\n";
    return 1;
  }
  // With locations: mutated ops carry "kbench.mutant" so a diagnostic can be
  // traced to the mutation.
  module->print(file->os(), OpPrintingFlags().enableDebugInfo(true, /*prettyForm=*/false));
  file->keep();
  return 0;
}

} // namespace kbench::driver
