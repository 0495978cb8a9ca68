//===- MLIRTargets.cpp - Fuzz targets of the compiler ----------------------===//
//
// The four targets that take MLIR text: the tile IR parser and verifiers,
// transform scripts on a task kernel, tile-verify, and the two lowerings of
// kernels tile-verify proves. Each input gets a fresh context (nothing one
// input interns can change how the next one runs) and a diagnostic handler
// that collects errors instead of printing them.
//
// Besides crashing, a target aborts when a contract of the compiler is
// broken: a stage that fails without an error, an error that has no location
// in the input, an internal message (an LLVM translation failure or a failed
// legalization with its IR dump) where a kbench message naming the construct
// is promised (docs/robustness.md), and IR that verifies but does not print
// and parse back.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "FuzzTargets.h"

#include "kbench/Analysis/Verification.h"
#include "kbench/Conversion/TileToHost/TileToHost.h"
#include "kbench/Dialect/Tile/TransformOps/Schedule.h"
#include "kbench/InitAll.h"
#include "kbench/Target/GPU/GPUBackend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <list>
#include <string>
#include <vector>

using namespace mlir;

namespace {

using kbench::fuzz::asText;
using kbench::fuzz::FuzzContext;

/// Options that keep one input within libFuzzer's time limit: a check that
/// runs out of budget reports unsupported(timeout), which is a verdict.
kbench::VerifyOptions fuzzVerifyOptions() {
  kbench::VerifyOptions options;
  options.timeoutMs = 2000;
  return options;
}

/// The fixed kernel transform scripts are applied to.
StringRef transformKernel() {
  static const std::string *text = [] {
    auto buffer = llvm::MemoryBuffer::getFile(KBENCH_FUZZ_KERNEL_PATH);
    if (!buffer) {
      llvm::errs() << "kbench-fuzz: cannot read " << KBENCH_FUZZ_KERNEL_PATH << "\n";
      std::abort();
    }
    return new std::string((*buffer)->getBuffer().str());
  }();
  return *text;
}

} // namespace

int kbench::fuzz::fuzzTileIR(const uint8_t *data, size_t size) {
  FuzzContext ctx;
  OwningOpRef<ModuleOp> module = ctx.parse(asText(data, size), "input.mlir");
  if (!module || failed(verify(*module)))
    return 0;
  // What verifies prints, and the print parses back to IR that verifies.
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  FuzzContext again;
  OwningOpRef<ModuleOp> reparsed = again.parse(printed, "printed.mlir");
  if (!reparsed || failed(verify(*reparsed)))
    FuzzContext::broken("the printer", "wrote IR that does not parse back:\n" + printed);
  return 0;
}

int kbench::fuzz::fuzzTransform(const uint8_t *data, size_t size) {
  FuzzContext ctx;
  OwningOpRef<ModuleOp> kernel = ctx.parse(transformKernel(), KBENCH_FUZZ_KERNEL_PATH);
  if (!kernel)
    FuzzContext::broken("the task kernel", "does not parse");
  OwningOpRef<ModuleOp> schedule = ctx.parse(asText(data, size), "schedule.mlir");
  if (!schedule)
    return 0;
  if (failed(kbench::applyScheduleModule(*kernel, *schedule, "schedule.mlir"))) {
    ctx.requireUserFacingFailure("the transform interpreter");
    return 0;
  }
  if (failed(verify(*kernel)))
    FuzzContext::broken("the transform interpreter",
                        "succeeded on IR that does not verify");
  (void)kbench::verifyKernels(*kernel, fuzzVerifyOptions());
  return 0;
}

int kbench::fuzz::fuzzTileVerify(const uint8_t *data, size_t size) {
  FuzzContext ctx;
  OwningOpRef<ModuleOp> module = ctx.parse(asText(data, size), "input.mlir");
  if (!module || failed(verify(*module)))
    return 0;
  VerificationResult result = verifyKernels(*module, fuzzVerifyOptions());
  (void)result.toJSON();
  (void)emitDiagnostics(result);
  return 0;
}

int kbench::fuzz::fuzzLowering(const uint8_t *data, size_t size) {
  FuzzContext ctx;
  OwningOpRef<ModuleOp> module = ctx.parse(asText(data, size), "input.mlir");
  if (!module || failed(verify(*module)))
    return 0;
  if (verifyKernels(*module, fuzzVerifyOptions()).getStatus() != CheckStatus::Proved)
    return 0;

  GpuCompileOptions gpu;
  gpu.optLevel = 1; // the translation is what is under test, not LLVM's -O3
  if (failed(compileToPtx(*module, gpu)))
    ctx.requireUserFacingFailure("tile-to-gpu");

  // The host target up to LLVM IR (buildHostSharedObject's first stages;
  // object emission and the link are LLVM's and the system's).
  OwningOpRef<ModuleOp> host(module->clone());
  PassManager pm(ctx.get(), ModuleOp::getOperationName());
  buildTileToHostLLVMPipeline(pm);
  if (failed(pm.run(*host))) {
    ctx.requireUserFacingFailure("tile-to-host");
    return 0;
  }
  llvm::LLVMContext llvmContext;
  if (!translateModuleToLLVMIR(*host, llvmContext, "kbench-host"))
    FuzzContext::broken("tile-to-host", "produced LLVM dialect that does not translate");
  return 0;
}
