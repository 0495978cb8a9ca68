//===- Scoring.cpp - What a candidate is scored on ------------------------===//
//
// The derived scoring shapes, the evaluation copy of task.json that carries
// them to the runner as its "heldout" set, and the weighted geomean of the
// speedups that a report's timed shapes give.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Scoring.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <set>

namespace path = llvm::sys::path;

namespace kbench::search {

/// Whether every fact that names only dims of `shape` holds there. Facts
/// naming anything else (a derived dim of task.json, a param left unbound)
/// are left to the candidate's own check and the runner, which know their
/// values.
static bool keepsDimFacts(const SymbolValues &shape,
                          llvm::ArrayRef<ShapeFact> facts) {
  for (const ShapeFact &fact : facts) {
    std::set<std::string> symbols;
    fact.collectSymbols(symbols);
    if (!llvm::all_of(symbols,
                      [&](const std::string &s) { return shape.count(s); }))
      continue;
    std::string error;
    if (fact.holds(shape, error) != std::optional<bool>(true))
      return false;
  }
  return true;
}

std::vector<llvm::json::Object>
derivedShapes(const llvm::json::Object &tuneShape,
              llvm::ArrayRef<ShapeFact> facts) {
  // Dims in name order: a json::Object iterates in no fixed order.
  SymbolValues tune;
  for (const auto &[name, value] : tuneShape)
    tune[name.str()] = value.getAsInteger().value_or(1);
  std::vector<llvm::json::Object> derived;
  for (const auto &[name, full] : tune) {
    int64_t target = std::max<int64_t>(1, full / 4 - 1);
    if (target == full)
      continue; // a dim of 1: shrinking it gives the tune shape again
    // The nearest extent to the target, below the tune extent, that keeps
    // the kernel's dim facts; the lower one first on a tie.
    std::optional<int64_t> extent;
    SymbolValues shape = tune;
    auto keeps = [&](int64_t candidate) {
      if (candidate < 1 || candidate >= full)
        return false;
      shape[name] = candidate;
      return keepsDimFacts(shape, facts);
    };
    for (int64_t step = 0; step <= 64 && !extent; ++step) {
      if (keeps(target - step))
        extent = target - step;
      else if (step > 0 && keeps(target + step))
        extent = target + step;
    }
    if (!extent)
      continue;
    llvm::json::Object object;
    for (const auto &[dim, value] : tune)
      object[dim] = dim == name ? *extent : value;
    derived.push_back(std::move(object));
  }
  return derived;
}

bool writeEvaluationTask(llvm::StringRef taskDir, llvm::StringRef outDir,
                         llvm::ArrayRef<ShapeFact> facts, std::string &error) {
  llvm::SmallString<256> file(taskDir);
  path::append(file, "task.json");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file);
  if (!buffer) {
    error = "cannot read " + file.str().str() + ": " + buffer.getError().message();
    return false;
  }
  llvm::Expected<llvm::json::Value> task = llvm::json::parse((*buffer)->getBuffer());
  if (!task) {
    error = file.str().str() + ": " + llvm::toString(task.takeError());
    return false;
  }
  llvm::json::Object *root = task->getAsObject();
  llvm::json::Object *shapes = root ? root->getObject("shapes") : nullptr;
  const llvm::json::Array *tune = shapes ? shapes->getArray("tune") : nullptr;
  if (!tune) {
    error = file.str().str() + ": no \"shapes\": {\"tune\": [...]} to score at";
    return false;
  }
  llvm::json::Array derived;
  for (const llvm::json::Value &shape : *tune)
    if (const llvm::json::Object *dims = shape.getAsObject())
      for (llvm::json::Object &shrunk : derivedShapes(*dims, facts))
        if (!llvm::is_contained(derived, llvm::json::Value(llvm::json::Object(shrunk))))
          derived.push_back(std::move(shrunk));
  (*shapes)["heldout"] = std::move(derived);

  llvm::SmallString<256> out(outDir);
  path::append(out, "task.json");
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
    error = "cannot create " + outDir.str() + ": " + ec.message();
    return false;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(out, ec);
  if (ec) {
    error = "cannot write " + out.str().str() + ": " + ec.message();
    return false;
  }
  os << llvm::formatv("{0:2}", *task) << "\n";
  return true;
}

Score measuredScore(const EvalReport &report, llvm::StringRef score) {
  std::vector<std::pair<double, bool>> speedups; // (speedup, derived?)
  for (const ShapeTiming &shape : report.shapes)
    if (shape.candidateUs && shape.eagerUs && *shape.candidateUs > 0)
      speedups.push_back({*shape.eagerUs / *shape.candidateUs, shape.set == "heldout"});
  if (speedups.empty())
    return {1.0, "pass (no timing)"};
  if (score == "tune")
    return {speedups.front().first, "speedup over eager (tf32 off)"};
  int64_t tune = llvm::count_if(speedups, [](auto &s) { return !s.second; });
  int64_t derived = int64_t(speedups.size()) - tune;
  double tuneWeight = derived == 0 ? 1.0 : tune == 0 ? 0.0 : 0.5;
  double logSum = 0;
  for (auto [speedup, isDerived] : speedups)
    logSum += std::log(speedup) *
              (isDerived ? (1 - tuneWeight) / derived : tuneWeight / tune);
  return {std::exp(logSum),
          llvm::formatv("weighted geomean speedup over eager (tf32 off), {0} "
                        "tune + {1} derived shapes",
                        tune, derived)
              .str()};
}

} // namespace kbench::search
