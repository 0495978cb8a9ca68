//===- Export.cpp - Writing what a search found as schedules --------------===//

#include "kbench/Search/Export.h"

#include "kbench/Search/Engine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <ctime>
#include <map>
#include <set>

namespace path = llvm::sys::path;

namespace kbench::search {

/// The provenance comments and the script of `best`.
static void writeExportedScript(llvm::raw_ostream &os, const CandidateRecord &best,
                                const RunRecord &run, llvm::StringRef archivePath) {
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  os << "// Exported by kbench search " << date << " from " << archivePath
     << ":\n"
     << "// candidate " << Engine::nameOf(best.round, best.index)
     << " (operator " << best.op << ", parents " << best.parents << ") of task "
     << run.task << ", target " << run.target << ", seed " << run.seed
     << ", start " << run.start << ", score " << run.score
     << (run.kernel.empty() ? std::string() : ", kernel " + run.kernel) << ".\n"
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

/// A shape at which candidates were timed.
struct TimedShape {
  std::string label; ///< "tune M=8192 N=4096", "derived M=8192 N=1023"
  std::map<std::string, int64_t> dims;
  double fastestUs = 0; ///< the lowest median of the candidates compared
};

/// A passing candidate and its median at each shape it was timed at.
struct TimedCandidate {
  const CandidateRecord *record = nullptr;
  std::map<size_t, double> usAt; ///< by index into the shape list
};

/// What the archive measured: every timed shape with known dims and the
/// medians there of every passing candidate timed at all of them.
struct Measurements {
  std::vector<TimedShape> shapes;
  std::vector<TimedCandidate> candidates; ///< in record order
};

/// Puts the tune shapes first, then the derived ones, each set largest
/// first, so that the description reads the same whatever order the reports
/// listed them in; renumbers the candidates' medians to match.
void orderShapes(Measurements &m) {
  auto size = [](const TimedShape &shape) {
    double product = 1;
    for (const auto &[name, extent] : shape.dims)
      product *= double(extent);
    return product;
  };
  std::vector<size_t> order(m.shapes.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    bool aTune = llvm::StringRef(m.shapes[a].label).starts_with("tune");
    bool bTune = llvm::StringRef(m.shapes[b].label).starts_with("tune");
    if (aTune != bTune)
      return aTune;
    return size(m.shapes[a]) > size(m.shapes[b]);
  });
  std::vector<TimedShape> sorted;
  for (size_t i : order)
    sorted.push_back(std::move(m.shapes[i]));
  m.shapes = std::move(sorted);
  for (TimedCandidate &c : m.candidates) {
    std::map<size_t, double> renumbered;
    for (size_t i = 0; i < order.size(); ++i)
      if (auto it = c.usAt.find(order[i]); it != c.usAt.end())
        renumbered[i] = it->second;
    c.usAt = std::move(renumbered);
  }
}

Measurements collectMeasurements(const std::vector<CandidateRecord> &records) {
  Measurements m;
  std::map<std::string, size_t> shapeIndex;
  for (const CandidateRecord &record : records) {
    if (record.evalStatus != "ok" || record.verdict != "pass" || record.shapes.empty())
      continue;
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(record.shapes);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      continue;
    }
    TimedCandidate candidate{&record, {}};
    const llvm::json::Array *shapes = parsed->getAsArray();
    for (const llvm::json::Value &entry : shapes ? *shapes : llvm::json::Array()) {
      const llvm::json::Object *shape = entry.getAsObject();
      const llvm::json::Object *dims = shape ? shape->getObject("dims") : nullptr;
      std::optional<double> us = shape ? shape->getNumber("candidate_us") : std::nullopt;
      if (!dims || dims->empty() || !us || !(*us > 0))
        continue; // measured before the archive kept dims, not timed, or a
                  // median no clock gives (0, negative, NaN): not compared
      TimedShape timed;
      // The evaluation task calls the derived shapes "heldout" (Scoring.h);
      // the export says what they are.
      llvm::StringRef set = shape->getString("set").value_or("");
      timed.label = set == "heldout" ? "derived" : set.str();
      for (const auto &[name, value] : *dims)
        timed.dims[name.str()] = value.getAsInteger().value_or(1);
      for (const auto &[name, extent] : timed.dims)
        timed.label += " " + name + "=" + std::to_string(extent);
      auto [it, added] = shapeIndex.try_emplace(timed.label, m.shapes.size());
      if (added)
        m.shapes.push_back(std::move(timed));
      candidate.usAt[it->second] = *us;
    }
    if (!candidate.usAt.empty())
      m.candidates.push_back(std::move(candidate));
  }
  // Only candidates timed at every shape compare at every group of shapes
  // (a resumed search whose evaluation task changed times others).
  llvm::erase_if(m.candidates, [&](const TimedCandidate &c) {
    return c.usAt.size() != m.shapes.size();
  });
  orderShapes(m);
  for (size_t s = 0; s < m.shapes.size(); ++s)
    for (size_t c = 0; c < m.candidates.size(); ++c)
      if (c == 0 || m.candidates[c].usAt.at(s) < m.shapes[s].fastestUs)
        m.shapes[s].fastestUs = m.candidates[c].usAt.at(s);
  return m;
}

/// A split must make the shapes it separates this much faster in all (the
/// product of their speedups over one schedule for all of them), so that
/// screen noise of a few percent does not buy a variant.
constexpr double kMinSplitGain = 1.03;

/// One variant of the export: a candidate and the facts that select it.
struct ExportedVariant {
  const TimedCandidate *candidate = nullptr;
  std::vector<std::string> when;
  std::vector<size_t> shapes; ///< the timed shapes it runs
};

/// Splits timed shapes into variants, one dim at a time: a group of shapes
/// gets the one candidate best over all of them (the lowest sum of log
/// slowdowns against each shape's fastest), unless splitting the group at
/// `dim >= T` gains at least kMinSplitGain, and then each side is split
/// again. A shape then runs the first variant whose facts hold, the upper
/// side's variants carrying `dim >= T` before the lower side's.
class DispatchSplitter {
public:
  explicit DispatchSplitter(const Measurements &m) : m(m) {}

  std::vector<ExportedVariant> split() {
    std::vector<size_t> all(m.shapes.size());
    for (size_t i = 0; i < all.size(); ++i)
      all[i] = i;
    std::vector<ExportedVariant> variants;
    emit(all, {}, variants);
    return variants;
  }

private:
  /// The summed log slowdown of `candidate` over `group`.
  double cost(const TimedCandidate &candidate, const std::vector<size_t> &group) const {
    double sum = 0;
    for (size_t s : group)
      sum += std::log(candidate.usAt.at(s) / m.shapes[s].fastestUs);
    return sum;
  }

  /// The candidate best over `group` and its cost (the first in record
  /// order on a tie, so the export is deterministic).
  std::pair<const TimedCandidate *, double> best(const std::vector<size_t> &group) const {
    const TimedCandidate *bestCandidate = nullptr;
    double bestCost = 0;
    for (const TimedCandidate &candidate : m.candidates) {
      double c = cost(candidate, group);
      if (!bestCandidate || c < bestCost - 1e-12) {
        bestCandidate = &candidate;
        bestCost = c;
      }
    }
    return {bestCandidate, bestCost};
  }

  struct Split {
    std::string fact;
    std::vector<size_t> upper, lower;
    double cost = 0;
  };

  /// The split of `group` at one dim that costs least, if any separates it.
  std::optional<Split> bestSplit(const std::vector<size_t> &group) const {
    std::optional<Split> result;
    for (const auto &[dim, unused] : m.shapes[group.front()].dims) {
      if (!llvm::all_of(group, [&, &name = dim](size_t s) {
            return m.shapes[s].dims.count(name);
          }))
        continue; // not a dim of every shape (never so for one task's shapes)
      std::set<int64_t> extents;
      for (size_t s : group)
        extents.insert(m.shapes[s].dims.at(dim));
      for (auto it = extents.begin(); std::next(it) != extents.end(); ++it) {
        int64_t below = *it, above = *std::next(it);
        // The geometric mean of the two extents, above `below`.
        int64_t threshold = std::max<int64_t>(
            below + 1, int64_t(std::floor(std::sqrt(double(below) * double(above)))));
        Split candidate{dim + " >= " + std::to_string(threshold), {}, {}, 0};
        for (size_t s : group)
          (m.shapes[s].dims.at(dim) >= threshold ? candidate.upper : candidate.lower)
              .push_back(s);
        candidate.cost = best(candidate.upper).second + best(candidate.lower).second;
        if (!result || candidate.cost < result->cost - 1e-12)
          result = std::move(candidate);
      }
    }
    return result;
  }

  void emit(const std::vector<size_t> &group, std::vector<std::string> when,
            std::vector<ExportedVariant> &variants) const {
    auto [whole, wholeCost] = best(group);
    std::optional<Split> split = bestSplit(group);
    if (!split || wholeCost - split->cost < std::log(kMinSplitGain)) {
      variants.push_back({whole, std::move(when), group});
      return;
    }
    std::vector<std::string> upperWhen = when;
    upperWhen.push_back(split->fact);
    emit(split->upper, std::move(upperWhen), variants);
    emit(split->lower, std::move(when), variants);
  }

  const Measurements &m;
};

} // namespace

/// Removes the schedules an earlier export wrote into `dir` that the one
/// just written does not name (`kept`): a search re-exports after every
/// round, and a folder that keeps every schedule it ever exported is not one
/// a user can copy into schedules/. Only files that start with the export
/// header (exportSchedule) go; anything else in the folder stays.
static bool removeStaleExports(llvm::StringRef dir,
                               const std::set<std::string> &kept,
                               std::string &error) {
  std::error_code ec;
  std::vector<std::string> stale;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = path::filename(it->path());
    if (!name.ends_with(".mlir") || kept.count(name.str()))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (buffer &&
        (*buffer)->getBuffer().starts_with("// Exported by kbench search "))
      stale.push_back(it->path());
  }
  if (ec) {
    error = "cannot list --export-dispatch " + dir.str() + ": " + ec.message();
    return false;
  }
  for (const std::string &file : stale)
    if (std::error_code removeError = llvm::sys::fs::remove(file)) {
      error = "cannot remove the earlier export " + file + ": " +
              removeError.message();
      return false;
    }
  return true;
}

bool exportDispatch(llvm::StringRef dir, const std::vector<CandidateRecord> &records,
                    const RunRecord &run, llvm::StringRef archivePath, std::string &error) {
  Measurements measured = collectMeasurements(records);
  if (measured.shapes.empty()) {
    error = "--export-dispatch needs a passing candidate timed at shapes with known dims; "
            "this archive has none (a host-target search times nothing, and archives "
            "written before per-shape dims were kept lack them)";
    return false;
  }
  if (measured.candidates.empty()) {
    error = "--export-dispatch needs a passing candidate timed at every shape the archive "
            "measured (" + std::to_string(measured.shapes.size()) +
            " shapes); in this archive candidates were timed at different shape sets "
            "(a search resumed with another evaluation task)";
    return false;
  }
  std::vector<ExportedVariant> variants = DispatchSplitter(measured).split();

  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    error = "cannot create --export-dispatch " + dir.str() + ": " + ec.message();
    return false;
  }
  llvm::json::Array entries;
  std::map<std::string, int> used;
  std::map<const CandidateRecord *, std::string> scheduleOf;
  std::string description =
      "Exported by kbench search from " + archivePath.str() + " (task " + run.task +
      ", seed " + std::to_string(run.seed) + ", score " + run.score +
      "): shapes split one dim at a time where another candidate gains at least " +
      llvm::formatv("{0:F0}", (kMinSplitGain - 1) * 100).str() +
      "%; per timed shape its variant and median;";
  for (const ExportedVariant &variant : variants) {
    const CandidateRecord &record = *variant.candidate->record;
    std::string candidateName = Engine::nameOf(record.round, record.index);
    for (char &ch : candidateName)
      if (!llvm::isAlnum(ch))
        ch = '_';
    std::string name = candidateName;
    if (int n = used[name]++)
      name += "_" + std::to_string(n + 1);
    auto [file, added] = scheduleOf.try_emplace(&record, candidateName + ".mlir");
    if (added) {
      llvm::SmallString<256> path(dir);
      path::append(path, file->second);
      if (!exportSchedule(path, record, run, archivePath, error))
        return false;
    }
    llvm::json::Object entry{{"name", name}, {"schedule", file->second}};
    // The schedules are of the kernel file the search ran on.
    if (!run.kernel.empty())
      entry["kernel"] = run.kernel;
    if (!variant.when.empty()) {
      llvm::json::Array when;
      for (const std::string &fact : variant.when)
        when.push_back(fact);
      entry["when"] = std::move(when);
    }
    entries.push_back(std::move(entry));
    for (size_t s : variant.shapes) {
      const TimedShape &shape = measured.shapes[s];
      double us = variant.candidate->usAt.at(s);
      description += llvm::formatv(" {0}: {1} {2:F2} us", shape.label, name, us).str();
      if (shape.fastestUs < us)
        description += llvm::formatv(" (fastest there {0:F2} us)", shape.fastestUs).str();
      description += ";";
    }
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
                                   {"variants", std::move(entries)}}))
     << "\n";
  std::set<std::string> written;
  for (const auto &[record, name] : scheduleOf)
    written.insert(name);
  return removeStaleExports(dir, written, error);
}

} // namespace kbench::search
