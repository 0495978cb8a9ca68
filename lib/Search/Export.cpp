//===- Export.cpp - Writing what a search found as schedules --------------===//

#include "kbench/Search/Export.h"

#include "kbench/Search/Engine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <ctime>
#include <map>

namespace path = llvm::sys::path;

namespace kbench::search {

/// The provenance comments and the script of `best`.
static void writeExportedScript(llvm::raw_ostream &os, const CandidateRecord &best,
                                const RunRecord &run, llvm::StringRef archivePath) {
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  os << "// Exported by kbench search " << date << " from " << archivePath << ":\n"
     << "// candidate " << Engine::nameOf(best.round, best.index) << " (operator "
     << best.op << ", parents " << best.parents << ") of task " << run.task
     << ", target " << run.target << ", seed " << run.seed << ", start "
     << run.start << ", score " << run.score << ".\n"
     << "// knobs " << best.knobs << "\n";
  auto medians = [&](llvm::StringRef what, std::optional<double> fitness,
                     llvm::StringRef kind, std::optional<double> candidate,
                     std::optional<double> eager, std::optional<double> compiled) {
    if (!fitness)
      return;
    os << "// " << what << ": fitness " << llvm::formatv("{0:F4}", *fitness)
       << " (" << kind << ")";
    if (candidate)
      os << "; candidate " << llvm::formatv("{0:F2}", *candidate) << " us";
    if (eager)
      os << ", eager " << llvm::formatv("{0:F2}", *eager) << " us";
    if (compiled)
      os << ", torch.compile " << llvm::formatv("{0:F2}", *compiled) << " us";
    os << "\n";
  };
  medians(best.protocol == "none"   ? "checks only"
          : best.protocol.empty() ? "measured"
                                  : best.protocol + " protocol",
          best.fitness, best.fitnessKind, best.candidateUs, best.eagerUs,
          best.torchCompileUs);
  medians("full protocol", best.full.fitness, best.full.fitnessKind,
          best.full.candidateUs, best.full.eagerUs, best.full.torchCompileUs);
  os << "// ir_hash " << best.irHash << "\n" << best.script;
}


bool exportSchedule(llvm::StringRef file, const CandidateRecord &best, const RunRecord &run,
                    llvm::StringRef archivePath, std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec) {
    error = "cannot write --export " + file.str() + ": " + ec.message();
    return false;
  }
  writeExportedScript(os, best, run, archivePath);
  return true;
}

namespace {

/// One timed shape and the candidate fastest there.
struct ShapeWinner {
  std::string label;
  std::map<std::string, int64_t> dims;
  double size = 1; ///< the product of the dims
  const CandidateRecord *best = nullptr;
  double bestUs = 0;
};

/// A run of neighbouring shapes (by size) with the same winner.
struct ShapeClass {
  const CandidateRecord *candidate = nullptr;
  std::vector<const ShapeWinner *> shapes; ///< largest first
};

/// Per shape label, the passing candidate with the lowest median there
/// (the lower id on a tie, so the export is deterministic).
std::vector<ShapeWinner> fastestPerShape(const std::vector<CandidateRecord> &records) {
  std::map<std::string, ShapeWinner> winners;
  for (const CandidateRecord &record : records) {
    if (record.evalStatus != "ok" || record.verdict != "pass" || record.shapes.empty())
      continue;
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(record.shapes);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      continue;
    }
    const llvm::json::Array *shapes = parsed->getAsArray();
    for (const llvm::json::Value &entry : shapes ? *shapes : llvm::json::Array()) {
      const llvm::json::Object *shape = entry.getAsObject();
      const llvm::json::Object *dims = shape ? shape->getObject("dims") : nullptr;
      std::optional<double> us = shape ? shape->getNumber("candidate_us") : std::nullopt;
      if (!dims || dims->empty() || !us)
        continue; // measured before the archive kept dims, or not timed
      std::string label = shape->getString("shape").value_or("").str();
      ShapeWinner &winner = winners[label];
      if (winner.best && (winner.bestUs < *us ||
                          (winner.bestUs == *us && winner.best->id < record.id)))
        continue;
      winner.best = &record;
      winner.bestUs = *us;
      winner.dims.clear();
      winner.size = 1;
      for (const auto &[name, value] : *dims) {
        int64_t extent = value.getAsInteger().value_or(1);
        winner.dims[name.str()] = extent;
        winner.size *= double(extent);
      }
      // The evaluation task calls the derived shapes "heldout" (Scoring.h);
      // the export says what they are.
      llvm::StringRef set = shape->getString("set").value_or("");
      winner.label = set == "heldout" ? "derived" : set.str();
      for (const auto &[name, extent] : winner.dims)
        winner.label += " " + name + "=" + std::to_string(extent);
    }
  }
  std::vector<ShapeWinner> result;
  for (auto &[label, winner] : winners)
    result.push_back(std::move(winner));
  llvm::stable_sort(result, [](const ShapeWinner &a, const ShapeWinner &b) {
    return a.size > b.size;
  });
  return result;
}

} // namespace

bool exportDispatch(llvm::StringRef dir, const std::vector<CandidateRecord> &records,
                    const RunRecord &run, llvm::StringRef archivePath, std::string &error) {
  std::vector<ShapeWinner> winners = fastestPerShape(records);
  if (winners.empty()) {
    error = "--export-dispatch needs a passing candidate timed at shapes with known dims; "
            "this archive has none (a host-target search times nothing, and archives "
            "written before per-shape dims were kept lack them)";
    return false;
  }
  std::vector<ShapeClass> classes;
  for (const ShapeWinner &winner : winners) {
    if (classes.empty() || classes.back().candidate != winner.best)
      classes.push_back({winner.best, {}});
    classes.back().shapes.push_back(&winner);
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error = "cannot create --export-dispatch " + dir.str() + ": " + ec.message();
    return false;
  }
  // The size fact multiplies every dim, in name order ("M * N").
  std::string product;
  for (const auto &[name, extent] : winners.front().dims)
    product += (product.empty() ? "" : " * ") + name;

  llvm::json::Array variants;
  std::map<std::string, int> used;
  std::string description =
      "Exported by kbench search from " + archivePath.str() + " (task " + run.task +
      ", seed " + std::to_string(run.seed) + ", score " + run.score +
      "): per timed shape the candidate with the lowest median there;";
  for (size_t c = 0; c < classes.size(); ++c) {
    const ShapeClass &shapeClass = classes[c];
    std::string name = Engine::nameOf(shapeClass.candidate->round, shapeClass.candidate->index);
    for (char &ch : name)
      if (!llvm::isAlnum(ch))
        ch = '_';
    if (int n = used[name]++)
      name += "_" + std::to_string(n + 1);
    llvm::SmallString<256> file(dir);
    path::append(file, name + ".mlir");
    if (!exportSchedule(file, *shapeClass.candidate, run, archivePath, error))
      return false;
    llvm::json::Object variant{{"name", name}, {"schedule", name + ".mlir"}};
    if (c + 1 < classes.size()) {
      double smallestHere = shapeClass.shapes.back()->size;
      double largestNext = classes[c + 1].shapes.front()->size;
      auto threshold = int64_t(std::floor(std::sqrt(smallestHere * largestNext)));
      variant["when"] = llvm::json::Array{product + " >= " + std::to_string(threshold)};
    }
    for (const ShapeWinner *shape : shapeClass.shapes)
      description += llvm::formatv(" {0}: {1} {2:F2} us;", shape->label, name,
                                   shape->bestUs)
                         .str();
    variants.push_back(std::move(variant));
  }
  description.back() = '.';

  llvm::SmallString<256> file(dir);
  path::append(file, "dispatch.json");
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec) {
    error = "cannot write " + file.str().str() + ": " + ec.message();
    return false;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"description", description},
                                   {"variants", std::move(variants)}}))
     << "\n";
  return true;
}

} // namespace kbench::search
