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

namespace path = llvm::sys::path;

namespace kbench::search {

std::vector<llvm::json::Object> derivedShapes(const llvm::json::Object &tuneShape) {
  // Dims in name order: a json::Object iterates in no fixed order.
  std::vector<std::pair<std::string, int64_t>> dims;
  for (const auto &[name, value] : tuneShape)
    dims.push_back({name.str(), value.getAsInteger().value_or(1)});
  llvm::sort(dims);
  std::vector<llvm::json::Object> derived;
  for (size_t shrunk = 0; shrunk < dims.size(); ++shrunk) {
    int64_t extent = std::max<int64_t>(1, dims[shrunk].second / 4 - 1);
    if (extent == dims[shrunk].second)
      continue; // a dim of 1: shrinking it gives the tune shape again
    llvm::json::Object shape;
    for (size_t i = 0; i < dims.size(); ++i)
      shape[dims[i].first] = i == shrunk ? extent : dims[i].second;
    derived.push_back(std::move(shape));
  }
  return derived;
}

bool writeEvaluationTask(llvm::StringRef taskDir, llvm::StringRef outDir,
                         std::string &error) {
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
      for (llvm::json::Object &shrunk : derivedShapes(*dims))
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
