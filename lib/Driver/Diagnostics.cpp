//===- Diagnostics.cpp - Collect MLIR diagnostics for JSON output ---------===//

#include "kbench/Driver/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kbench::driver {

static std::string severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

static std::string locationString(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()))
        .str();
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return locationString(nameLoc.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string s = locationString(inner); !s.empty())
        return s;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return locationString(callSite.getCallee());
  return "";
}

DiagnosticCollector::DiagnosticCollector(MLIRContext &context, bool echo)
    : echo(echo), context(context) {
  // Only this thread's diagnostics: the search compiles candidates on
  // several threads of one context, each with its own collector; the others
  // pass on to the collector of their own thread.
  handler = context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (std::this_thread::get_id() != owner)
      return failure();
    std::string location = locationString(diag.getLocation());
    add(severityName(diag.getSeverity()), location, diag.str());
    for (Diagnostic &note : diag.getNotes())
      add("note", locationString(note.getLocation()), note.str());
    return success();
  });
}

DiagnosticCollector::~DiagnosticCollector() {
  context.getDiagEngine().eraseHandler(handler);
}

void DiagnosticCollector::add(StringRef severity, StringRef location,
                              StringRef message) {
  list.push_back({severity.str(), location.str(), message.str()});
  if (echo) {
    if (!location.empty())
      llvm::errs() << location << ": ";
    llvm::errs() << severity << ": " << message << "\n";
  }
}

llvm::json::Array DiagnosticCollector::toJSON() const {
  llvm::json::Array out;
  for (const CollectedDiagnostic &d : list)
    out.push_back(llvm::json::Object{{"severity", d.severity},
                                     {"location", d.location},
                                     {"message", d.message}});
  return out;
}

} // namespace kbench::driver
