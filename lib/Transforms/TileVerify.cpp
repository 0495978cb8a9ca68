//===- TileVerify.cpp - The tile-verify pass ------------------------------===//
//
// A thin driver over kbench::verifyKernels (kbench/Analysis/Verification.h):
// findings become errors at their ops, the JSON report goes where
// `diagnostics-json` says, and the pass fails unless every kernel is proved.
//
//===----------------------------------------------------------------------===//

#include "kbench/Transforms/Passes.h"

#include "kbench/Analysis/Verification.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

namespace kbench {
#define GEN_PASS_DEF_TILEVERIFY
#include "kbench/Transforms/Passes.h.inc"
} // namespace kbench

using namespace mlir;

namespace {

static constexpr const char *kKnownChecks[] = {"C1",  "C2",  "C3",  "C9", "C10",
                                               "C11", "C12", "C13", "C14"};

struct TileVerifyPass : kbench::impl::TileVerifyBase<TileVerifyPass> {
  using TileVerifyBase::TileVerifyBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    kbench::VerifyOptions options;
    for (const std::string &check : checks) {
      if (!llvm::is_contained(kKnownChecks, check)) {
        module.emitError() << "tile-verify: unknown check '" << check
                           << "' in checks=...; the checks are C1, C2, C3, "
                              "C9, C10, C11, C12, C13 and C14";
        return signalPassFailure();
      }
      options.checks.push_back(check);
    }
    if (readOnlyInputs >= 0)
      options.readOnlyEntryInputs = static_cast<unsigned>(readOnlyInputs);
    else if (readOnlyInputs != -1 ||
             llvm::is_contained(options.checks, std::string("C12"))) {
      module.emitError()
          << "tile-verify: C12 needs read-only-inputs=N, the number of task "
             "inputs that lead the host entry's arguments (got "
          << static_cast<int>(readOnlyInputs) << ")";
      return signalPassFailure();
    }
    options.maxSteps = maxSteps;
    options.timeoutMs = timeoutMs;
    options.maxQuerySize = maxQuerySize;

    kbench::VerificationResult result = kbench::verifyKernels(module, options);
    if (!diagnosticsJson.empty() && failed(writeJSON(result)))
      return signalPassFailure();
    if (remarks) {
      for (const kbench::KernelReport &kernel : result.kernels) {
        InFlightDiagnostic remark = emitRemark(kernel.op->getLoc())
                                    << "tile-verify: @" << kernel.kernel << " "
                                    << kbench::stringifyCheckStatus(kernel.status);
        for (const kbench::CheckReport &check : kernel.checks) {
          remark << ", " << check.check << " "
                 << kbench::stringifyCheckStatus(check.status);
          if (!check.reason.empty())
            remark << " (" << check.reason << ")";
        }
      }
    }
    if (failed(kbench::emitDiagnostics(result)))
      signalPassFailure();
  }

  LogicalResult writeJSON(const kbench::VerificationResult &result) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(diagnosticsJson, &error);
    if (!file) {
      getOperation().emitError()
          << "tile-verify: cannot write diagnostics-json=" << diagnosticsJson
          << ": " << error;
      return failure();
    }
    file->os() << llvm::formatv("{0:2}", result.toJSON()) << "\n";
    file->keep();
    return success();
  }
};

} // namespace
