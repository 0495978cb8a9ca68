//===- FuzzContext.h - One input's MLIR context, fuzz targets ---*- C++ -*-===//
//
// Private to tools/kbench-fuzz: the context every target that takes MLIR text
// parses its input in (MLIRTargets.cpp, SearchTargets.cpp), and the contract
// a stage that fails must keep: it says why, at a location in the input, in
// a message that names the construct (docs/robustness.md).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TOOLS_KBENCH_FUZZ_FUZZCONTEXT_H
#define KBENCH_TOOLS_KBENCH_FUZZ_FUZZCONTEXT_H

#include "kbench/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <list>
#include <string>
#include <vector>

namespace kbench::fuzz {

using llvm::StringRef;
using mlir::Diagnostic;
using mlir::DiagnosticSeverity;
using mlir::DialectRegistry;
using mlir::FileLineColLoc;
using mlir::Location;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OwningOpRef;
using mlir::ParserConfig;
using mlir::ScopedDiagnosticHandler;
using mlir::WalkResult;

/// Every dialect kbench-opt knows, registered once per process.
inline const DialectRegistry &registry() {
  static const DialectRegistry *instance = [] {
    auto *r = new DialectRegistry;
    kbench::registerAllDialects(*r);
    return r;
  }();
  return *instance;
}

/// A fresh single-threaded context whose error diagnostics are collected.
class FuzzContext {
public:
  FuzzContext()
      : context(registry(), MLIRContext::Threading::DISABLED),
        handler(&context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            errors.push_back({diag.getLocation(), diag.str()});
          return mlir::success();
        }) {}

  MLIRContext *get() { return &context; }

  /// Parses `text` as a module named `name` in messages; null on a parse
  /// error (which the parser reports, located). MLIR's lexer reads the byte
  /// after the text (it expects the NUL that a file's buffer and a
  /// std::string have), so the fuzzer's bytes are parsed from a copy, as
  /// every kbench entry point parses a file or a std::string.
  OwningOpRef<ModuleOp> parse(StringRef text, StringRef name) {
    sources.emplace_back(text.str());
    return mlir::parseSourceString<ModuleOp>(sources.back(),
                                             ParserConfig(&context), name);
  }

  /// Aborts unless the stage `stage`, which failed, reported why: at least one
  /// error, every error located in an input file, none of them an internal
  /// message of the lowering machinery.
  /// Only the errors after the first `since` count (errorCount() before the
  /// stage ran), so that a stage run several times on one input must explain
  /// each of its failures.
  void requireUserFacingFailure(StringRef stage, size_t since = 0) const {
    if (errors.size() <= since)
      broken(stage, "failed without an error message");
    for (const auto &[loc, message] : llvm::drop_begin(errors, since)) {
      if (!isLocated(loc))
        broken(stage,
               "reported an error with no location in the input: " + message);
      for (StringRef internal :
           {"LLVM Translation failed", "failed to legalize",
            "cannot be converted to LLVM IR"})
        if (StringRef(message).contains(internal))
          broken(stage, "reported an internal error instead of naming the "
                        "construct: " +
                            message);
    }
  }

  /// The number of errors reported so far.
  size_t errorCount() const { return errors.size(); }

  [[noreturn]] static void broken(StringRef stage, const std::string &what) {
    llvm::errs() << "kbench-fuzz: " << stage << " " << what << "\n";
    std::abort();
  }

private:
  static bool isLocated(Location loc) {
    bool found = false;
    loc->walk([&](Location inner) {
      found |= llvm::isa<FileLineColLoc>(inner);
      return WalkResult::advance();
    });
    return found;
  }

  MLIRContext context;
  ScopedDiagnosticHandler handler;
  /// The NUL-terminated copies parse() parsed (a std::list: each stays put).
  std::list<std::string> sources;
  std::vector<std::pair<Location, std::string>> errors;
};

inline StringRef asText(const uint8_t *data, size_t size) {
  return StringRef(reinterpret_cast<const char *>(data), size);
}

} // namespace kbench::fuzz

#endif // KBENCH_TOOLS_KBENCH_FUZZ_FUZZCONTEXT_H
