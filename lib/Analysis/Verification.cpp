//===- Verification.cpp - tile-verify as a library ------------------------===//
//
// Runs the checks of Verification.h over the kernels of a module, and turns
// their findings into MLIR diagnostics and the stable JSON of
// docs/verification.md.
//
//===----------------------------------------------------------------------===//

#include "kbench/Analysis/Verification.h"

#include "CheckSupport.h"

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;

namespace kbench {

StringRef stringifyCheckStatus(CheckStatus status) {
  switch (status) {
  case CheckStatus::NotApplicable:
    return "not_applicable";
  case CheckStatus::Proved:
    return "proved";
  case CheckStatus::Unsupported:
    return "unsupported";
  case CheckStatus::Violated:
    return "violated";
  }
  return "unsupported";
}

bool VerifyOptions::runs(StringRef check) const {
  return checks.empty() || llvm::is_contained(checks, check.str());
}

/// The checks in the order they run.
static constexpr std::pair<const char *, void (*)(detail::CheckRun &)>
    kChecks[] = {{"C1", detail::checkBounds},
                 {"C2", detail::checkCoverage},
                 {"C3", detail::checkWriteOnce},
                 {"C9", detail::checkReductions},
                 {"C10", detail::checkPads},
                 {"C11", detail::checkAlignment}};

KernelReport verifyKernel(tile::KernelOp kernel, const VerifyOptions &options) {
  auto start = std::chrono::steady_clock::now();
  KernelReport report;
  report.kernel = kernel.getSymName().str();
  report.op = kernel;
  KernelModel model(kernel);
  model.bindTaskNames(options.entryArgNames);
  auto runModelCheck = [&](const char *id, void (*check)(detail::CheckRun &)) {
    if (!options.runs(id))
      return;
    detail::CheckRun run(model, options, id, report.findings);
    if (!model.getUnsupported().empty())
      run.unsupported(kernel, "the kernel is outside the affine fragment: " +
                                  model.getUnsupported());
    else
      check(run);
    report.checks.push_back(run.finish());
  };
  // C12 and C14 look at the host entry, not the kernel's index model, so they
  // also run on kernels outside the fragment; a check that found nothing to
  // look at (its reason) is not_applicable rather than proved.
  auto runEntryCheck = [&](const char *id,
                           std::string (*check)(detail::CheckRun &)) {
    detail::CheckRun run(model, options, id, report.findings);
    std::string reason = check(run);
    CheckReport result = run.finish();
    if (!reason.empty() && result.status == CheckStatus::Proved) {
      result.status = CheckStatus::NotApplicable;
      result.reason = std::move(reason);
    }
    report.checks.push_back(std::move(result));
  };
  for (auto [id, check] : kChecks)
    runModelCheck(id, check);
  // C12 needs the task's input count.
  if (options.readOnlyEntryInputs && options.runs("C12"))
    runEntryCheck("C12", detail::checkReadOnlyInputs);
  // C13 came after C12 (numbered, and reported, in that order).
  runModelCheck("C13", detail::checkOutputReads);
  if (options.runs("C14"))
    runEntryCheck("C14", detail::checkAtomicStarts);
  for (const CheckReport &check : report.checks)
    report.status = std::max(report.status, check.status);
  report.milliseconds = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  return report;
}

VerificationResult verifyKernels(ModuleOp module, const VerifyOptions &options) {
  VerificationResult result;
  module.walk([&](tile::KernelOp kernel) {
    result.kernels.push_back(verifyKernel(kernel, options));
  });
  return result;
}

CheckStatus VerificationResult::getStatus() const {
  CheckStatus status = CheckStatus::Proved;
  for (const KernelReport &kernel : kernels)
    status = std::max(status, kernel.status);
  return status;
}

llvm::json::Value toJSON(const Finding &finding) {
  llvm::json::Object object{
      {"check", finding.check},
      {"status", stringifyCheckStatus(finding.status)},
      {"kind", finding.kind},
      {"op", finding.op ? detail::locationString(finding.op) : std::string()},
      {"op_name", finding.op ? finding.op->getName().getStringRef().str()
                             : std::string()},
      {"message", finding.message},
  };
  if (!finding.tensor.empty())
    object["tensor"] = finding.tensor;
  if (!finding.hint.empty())
    object["hint"] = finding.hint;
  if (!finding.witness.empty())
    object["witness"] = llvm::json::Object(finding.witness);
  for (const auto &[key, value] : finding.details)
    object[key] = value;
  return object;
}

llvm::json::Value VerificationResult::toJSON() const {
  llvm::json::Array kernelArray;
  for (const KernelReport &kernel : kernels) {
    llvm::json::Object checks;
    for (const CheckReport &check : kernel.checks)
    {
      llvm::json::Object object{{"status", stringifyCheckStatus(check.status)},
                                {"time_ms", check.milliseconds},
                                {"queries", check.queries},
                                {"steps", check.steps}};
      if (!check.reason.empty())
        object["reason"] = check.reason;
      checks[check.check] = std::move(object);
    }
    llvm::json::Array diagnostics;
    for (const Finding &finding : kernel.findings)
      diagnostics.push_back(kbench::toJSON(finding));
    kernelArray.push_back(llvm::json::Object{
        {"kernel", kernel.kernel},
        {"status", stringifyCheckStatus(kernel.status)},
        {"time_ms", kernel.milliseconds},
        {"checks", std::move(checks)},
        {"diagnostics", std::move(diagnostics)}});
  }
  return llvm::json::Object{{"status", stringifyCheckStatus(getStatus())},
                            {"kernels", std::move(kernelArray)}};
}

LogicalResult emitDiagnostics(const VerificationResult &result) {
  bool any = false;
  for (const KernelReport &kernel : result.kernels) {
    for (const Finding &finding : kernel.findings) {
      any = true;
      InFlightDiagnostic diag = emitError(finding.op->getLoc())
                                << "[" << finding.check << "] " << finding.kind
                                << ": " << finding.message;
      if (!finding.hint.empty())
        diag << " (hint: " << finding.hint << ")";
    }
  }
  return failure(any);
}

} // namespace kbench
