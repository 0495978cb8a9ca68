//===- Engine.cpp - MAP-Elites over a space's knobs -----------------------===//
//
// One round: propose until `roundSize` new candidates compiled (or the space
// has nothing new), archive each as it is compiled, evaluate the round, archive
// each report as it arrives, then mark the round finished; once the budget is
// spent, re-measure the best elites with the full protocol. Where proposals
// come from (naive and random points, the grid, mutation, crossover, the LLM)
// is EngineProposals.cpp.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Engine.h"

#include "kbench/Search/Scoring.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include "mlir/Parser/Parser.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <csignal>
#include <thread>

using namespace mlir;
namespace path = llvm::sys::path;

namespace kbench::search {

Engine::Engine(Space &space, TaskCompiler &compiler, Archive &archive,
               Evaluator &evaluator, EngineOptions options,
               std::function<void(const Progress &)> onProgress)
    : space(space), compiler(compiler), archive(archive), evaluator(evaluator),
      options(std::move(options)), onProgress(std::move(onProgress)) {}

std::string Engine::nameOf(int64_t round, int64_t index) {
  return llvm::formatv("c{0}-{1}", round, index).str();
}

double Engine::modelFitness(const Descriptors &d) {
  // Memory-bound kernels want many bytes in flight per thread and wide
  // accesses, and lose occupancy past 128 registers. A proxy, not a
  // measurement: it only makes host-target searches rank deterministically.
  double fitness = std::min<double>(d.bytesPerThread, 256) / 256.0 *
                   std::min<double>(d.accessBytes, 16) / 16.0;
  if (d.registers > 128)
    fitness *= 128.0 / double(d.registers);
  return fitness;
}

std::string Engine::cellOf(const Descriptors &d, llvm::StringRef alternatives) {
  auto log2Floor = [](int64_t v) {
    int64_t bits = 0;
    while (v > 1) {
      v >>= 1;
      ++bits;
    }
    return bits;
  };
  std::string cell = "b" + std::to_string(std::min<int64_t>(
                               log2Floor(std::max<int64_t>(d.bytesPerThread, 1)), 10));
  if (d.registers >= 0)
    cell += "/r" + std::to_string(std::min<int64_t>(d.registers / 32, 7));
  else
    cell += "/w" + std::to_string(log2Floor(std::max<int64_t>(d.numWarps, 1)));
  if (!alternatives.empty())
    cell += "/a" + alternatives.str();
  // Pipeline depth is a structural choice of K loops (tensor-core kernels);
  // kernels without a pipeline keep the cells they had.
  if (d.pipelineStages > 1)
    cell += "/p" + std::to_string(d.pipelineStages);
  return cell;
}

std::string Engine::keyOf(const Assignment &assignment) const {
  std::vector<std::string> parts;
  for (int64_t index : assignment)
    parts.push_back(std::to_string(index));
  return llvm::join(parts, ",");
}

std::optional<Assignment> Engine::assignmentOf(const CandidateRecord &record) const {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(record.knobs);
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *object = value->getAsObject();
  if (!object)
    return std::nullopt;
  Assignment assignment;
  for (const Knob &knob : space.getKnobs()) {
    std::optional<int64_t> v = object->getInteger(knob.name);
    auto it = v ? llvm::find(knob.options, *v) : knob.options.end();
    if (it == knob.options.end())
      return std::nullopt;
    assignment.push_back(it - knob.options.begin());
  }
  return assignment;
}

bool Engine::write(CandidateRecord &record, Write what, std::string &error) {
  bool ok = what == Write::Insert       ? archive.insert(record, error)
            : what == Write::Evaluation ? archive.storeEvaluation(record, error)
                                        : archive.storeFullMeasurement(record, error);
  if (ok && options.killAfter > 0 && ++writes == options.killAfter)
    std::raise(SIGKILL); // the kill -9 test: nothing after this write survives
  return ok;
}

bool Engine::prepare(CandidateRecord &record, const Proposal &proposal,
                     std::string &error) {
  SymbolValues values = space.values(proposal.assignment);
  llvm::json::Object knobs;
  for (const auto &[name, value] : values)
    knobs[name] = value;
  record.knobs = llvm::formatv("{0}", llvm::json::Value(std::move(knobs))).str();
  llvm::json::Array parents;
  for (const std::string &parent : proposal.parents)
    parents.push_back(parent);
  record.parents = llvm::formatv("{0}", llvm::json::Value(std::move(parents))).str();
  record.op = proposal.op;
  space.select(proposal.assignment);
  record.script = space.print();
  std::optional<std::string> broken = space.checkConstraints(proposal.assignment);
  if (!broken)
    return true;
  record.stage = "constraints";
  record.diagnostics =
      llvm::formatv("{0}", llvm::json::Value(llvm::json::Array{llvm::json::Object{
                               {"severity", "error"}, {"location", ""}, {"message", *broken}}}))
          .str();
  record.descriptors = "{}";
  return false;
}

void Engine::fill(CandidateRecord &record, const CompiledCandidate &candidate,
                  const Assignment &assignment) {
  std::string alternatives;
  if (!assignment.empty())
    for (auto [knob, index] : llvm::zip_equal(space.getKnobs(), assignment))
      if (knob.isAlternatives)
        alternatives += std::to_string(index);
  llvm::json::Object feedback = toFeedbackJSON(candidate);
  record.stage = candidate.stage;
  record.irHash = candidate.irHash;
  record.ptxHash = candidate.ptxHash;
  record.duplicateOf = candidate.duplicateOf;
  record.diagnostics =
      llvm::formatv("{0}", llvm::json::Value(std::move(*feedback.getArray("diagnostics")))).str();
  record.descriptors =
      llvm::formatv("{0}", llvm::json::Value(candidate.descriptors.toJSON())).str();
  if (candidate.ok())
    record.cell = cellOf(candidate.descriptors, alternatives);
  record.bundle = candidate.bundleDir;
  record.compileMs = candidate.totalMs;
}

void Engine::compileAll(std::vector<PendingCompile> &work) {
  auto findDuplicate = [&](llvm::StringRef hash) -> std::optional<std::string> {
    // Read-only while the workers run: irHashes changes only between chunks.
    auto it = irHashes.find(hash.str());
    if (it == irHashes.end())
      return std::nullopt;
    return it->second;
  };
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < work.size();) {
      PendingCompile &item = work[i];
      llvm::SmallString<256> bundle(options.workDir);
      path::append(bundle, "bundles", item.name);
      item.result = compiler.compile(*item.schedule, item.name, bundle, findDuplicate);
    }
  };
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int64_t t = 1; t < std::min<int64_t>(options.jobs, work.size()); ++t)
    threads.emplace_back(worker);
  worker();
  for (std::thread &thread : threads)
    thread.join();
  compileSeconds += std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start).count();
  compiled += work.size();
}

Measurement Engine::measurement(const CandidateRecord &record,
                                const EvalReport &report,
                                llvm::StringRef protocol) const {
  Measurement m;
  m.status = report.status;
  m.verdict = report.verdict;
  m.report = report.reportPath;
  m.candidateUs = report.candidateUs;
  m.eagerUs = report.eagerUs;
  m.torchCompileUs = report.torchCompileUs;
  m.percentOfFloor = report.percentOfFloor;
  llvm::json::Array shapes;
  for (const ShapeTiming &t : report.shapes) {
    llvm::json::Object shape{{"set", t.set}, {"shape", t.shape}};
    if (!t.dims.empty()) {
      llvm::json::Object dims;
      for (const auto &[name, extent] : t.dims)
        dims[name] = extent;
      shape["dims"] = std::move(dims);
    }
    if (t.candidateUs)
      shape["candidate_us"] = *t.candidateUs;
    if (t.eagerUs)
      shape["eager_us"] = *t.eagerUs;
    if (t.torchCompileUs)
      shape["torch_compile_us"] = *t.torchCompileUs;
    shapes.push_back(std::move(shape));
  }
  if (!shapes.empty())
    m.shapes = llvm::formatv("{0}", llvm::json::Value(std::move(shapes))).str();
  if (report.status != "ok" || report.verdict != "pass")
    return m;
  if (options.fitness == "model") {
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(record.descriptors);
    Descriptors d;
    if (value) {
      const llvm::json::Object *o = value->getAsObject();
      d.bytesPerThread = o->getInteger("bytes_per_thread").value_or(0);
      d.accessBytes = o->getInteger("access_bytes").value_or(0);
      d.registers = o->getInteger("registers").value_or(-1);
    } else {
      llvm::consumeError(value.takeError());
    }
    m.fitness = modelFitness(d);
    m.fitnessKind = "model (cost proxy, not a measurement)";
    return m;
  }
  Score score = measuredScore(report, options.score);
  m.fitness = score.fitness;
  m.fitnessKind = protocol == "full" ? score.kind + ", full protocol" : score.kind;
  return m;
}

void Engine::evaluated(CandidateRecord &record, const EvalReport &report) {
  Measurement m = measurement(record, report, options.timing);
  record.evalStatus = m.status;
  record.verdict = m.verdict;
  record.report = m.report;
  record.evalMs = report.seconds * 1e3;
  record.candidateUs = m.candidateUs;
  record.eagerUs = m.eagerUs;
  record.torchCompileUs = m.torchCompileUs;
  record.percentOfFloor = m.percentOfFloor;
  record.fitness = m.fitness;
  record.fitnessKind = m.fitnessKind;
  record.protocol = options.timing;
  record.shapes = m.shapes;
}

std::optional<CandidateRecord> Engine::best() const {
  const CandidateRecord *best = nullptr;
  for (const CandidateRecord &r : records)
    if (r.full.fitness && (!best || *r.full.fitness > *best->full.fitness))
      best = &r;
  if (!best)
    for (const CandidateRecord &r : records)
      if (r.fitness && (!best || *r.fitness > *best->fitness))
        best = &r;
  if (!best)
    return std::nullopt;
  return *best;
}

void Engine::report(int64_t round, bool roundFinished) {
  if (!onProgress)
    return;
  Progress p;
  p.round = round;
  p.budget = options.budget;
  p.proposed = proposed;
  p.rejected = rejected;
  p.roundFinished = roundFinished;
  for (const CandidateRecord &r : records)
    if (!r.evalStatus.empty())
      ++p.measured;
  p.compiledPerSecond = compileSeconds > 0 ? compiled / compileSeconds : 0;
  if (std::optional<CandidateRecord> b = best()) {
    bool full = b->full.fitness.has_value();
    p.bestFitness = full ? b->full.fitness : b->fitness;
    p.bestName = nameOf(b->round, b->index);
    p.fitnessKind = full ? b->full.fitnessKind : b->fitnessKind;
    p.bestPercentOfFloor = b->percentOfFloor;
    if (b->torchCompileUs && b->candidateUs && *b->candidateUs > 0)
      p.bestVsTorchCompile = *b->torchCompileUs / *b->candidateUs;
  }
  onProgress(p);
}

Engine::Outcome Engine::run(std::string &error) {
  records = archive.candidates();
  pending.clear();
  Outcome outcome = runRounds(error);
  if ((outcome == Outcome::Done || outcome == Outcome::Exhausted) &&
      options.confirm > 0) {
    Outcome confirmed = confirmElites(error);
    if (confirmed != Outcome::Done)
      return confirmed;
  }
  return outcome;
}

bool Engine::ensureBundle(CandidateRecord &record, std::string &error) {
  llvm::SmallString<256> manifest(record.bundle);
  path::append(manifest, "manifest.json");
  if (!record.bundle.empty() && llvm::sys::fs::exists(manifest))
    return true;
  // The archived script is the candidate's schedule (a resolved space, or
  // an LLM's script).
  std::string name = nameOf(record.round, record.index);
  OwningOpRef<ModuleOp> schedule = parseSourceString<ModuleOp>(
      record.script, ParserConfig(space.getModule()->getContext()), name);
  if (schedule) {
    CompiledCandidate candidate =
        compiler.compile(*schedule, name, record.bundle,
                         [](llvm::StringRef) { return std::nullopt; });
    if (candidate.ok())
      return true;
  }
  error = "candidate " + name + " no longer compiles";
  return false;
}

Engine::Outcome Engine::confirmElites(std::string &error) {
  rebuildElites(std::numeric_limits<int64_t>::max());
  std::vector<size_t> order;
  for (const auto &[cell, position] : elites)
    order.push_back(position);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    if (*records[a].fitness != *records[b].fitness)
      return *records[a].fitness > *records[b].fitness;
    return records[a].id < records[b].id;
  });
  if (int64_t(order.size()) > options.confirm)
    order.resize(options.confirm);
  std::vector<EvalRequest> requests;
  std::map<std::string, size_t> byName;
  for (size_t position : order) {
    CandidateRecord &record = records[position];
    if (!record.full.status.empty())
      continue; // measured before (an earlier run, or before a kill)
    if (!ensureBundle(record, error))
      return Outcome::Error;
    std::string name = nameOf(record.round, record.index);
    requests.push_back({name, record.bundle});
    byName[name] = position;
  }
  if (requests.empty())
    return Outcome::Done;
  EvalRound round{confirmName(archive.finishedRounds()), "full"};
  if (!evaluator.submit(round, requests, error))
    return Outcome::Error;
  if (evaluator.pending()) {
    pending = round.name;
    return Outcome::Pending;
  }
  while (std::optional<EvalReport> reportIn = evaluator.next()) {
    auto it = byName.find(reportIn->id);
    if (it == byName.end())
      continue;
    CandidateRecord &record = records[it->second];
    record.full = measurement(record, *reportIn, "full");
    if (!write(record, Write::Full, error))
      return Outcome::Error;
    byName.erase(it);
  }
  if (!byName.empty() && evaluator.pending()) {
    pending = round.name;
    return Outcome::Pending;
  }
  if (!byName.empty()) {
    error = "the evaluator returned no full-protocol report for " +
            byName.begin()->first;
    return Outcome::Error;
  }
  report(archive.finishedRounds() - 1, true);
  return Outcome::Done;
}

Engine::Outcome Engine::runRounds(std::string &error) {
  for (int64_t round = archive.finishedRounds();; ++round) {
    // Archived candidates of the round being (re)generated, by index; the
    // state of the rounds before it (seen choices, IR hashes, elites).
    std::map<int64_t, size_t> archived;
    int64_t measuredBefore = 0;
    seen.clear();
    irHashes.clear();
    for (size_t i = 0; i < records.size(); ++i) {
      const CandidateRecord &r = records[i];
      if (r.round == round)
        archived[r.index] = i;
      if (r.round >= round)
        continue;
      if (std::optional<Assignment> a = assignmentOf(r))
        seen.insert(keyOf(*a));
      if (!r.irHash.empty() && r.stage != "duplicate")
        irHashes.emplace(r.irHash, nameOf(r.round, r.index));
      if (r.stage == "compiled")
        ++measuredBefore;
    }
    if (measuredBefore >= options.budget)
      return Outcome::Done;
    rebuildElites(round);
    gridNext = 0;
    int64_t target = std::min(options.roundSize, options.budget - measuredBefore);
    Rng rng(options.seed, round);
    std::vector<size_t> toEvaluate;
    int64_t nextIndex = 0, attempts = 0;
    int64_t maxAttempts = 64 * std::max<int64_t>(options.roundSize, 1);
    // The LLM's candidates come first in the round (indices 0..K-1).
    for (int64_t k = 0; llm && k < options.llmProposals &&
                        int64_t(toEvaluate.size()) < target;
         ++k) {
      int64_t index = nextIndex++;
      size_t position = records.size();
      if (auto it = archived.find(index); it != archived.end()) {
        position = it->second;
        if (records[position].op != "llm") {
          error = "the archive's candidate " + nameOf(round, index) +
                  " is not an LLM proposal; the archive belongs to a search "
                  "with another --llm-proposals";
          return Outcome::Error;
        }
      } else {
        CandidateRecord record;
        if (!proposeByLLM(round, index, record, error))
          return Outcome::Error;
        records.push_back(std::move(record));
      }
      CandidateRecord &record = records[position];
      // A reply that is a point of the space (projectOntoSpace) is not
      // proposed again by the engine, fresh or resumed alike.
      if (std::optional<Assignment> point = assignmentOf(record))
        seen.insert(keyOf(*point));
      if (!record.irHash.empty() && record.stage != "duplicate")
        irHashes.emplace(record.irHash, nameOf(record.round, record.index));
      if (record.stage == "compiled")
        toEvaluate.push_back(position);
      else
        ++rejected;
      report(round, false);
    }
    while (int64_t(toEvaluate.size()) < target && attempts < maxAttempts) {
      // A chunk: as many proposals as candidates are still missing. Its size
      // depends on the archive alone, never on --jobs, so results do too.
      int64_t need = target - int64_t(toEvaluate.size());
      std::vector<size_t> chunk;
      std::vector<PendingCompile> work;
      while (int64_t(chunk.size()) < need && attempts++ < maxAttempts) {
        Proposal proposal = propose(rng);
        if (!seen.insert(keyOf(proposal.assignment)).second)
          continue;
        ++proposed;
        int64_t index = nextIndex++;
        auto it = archived.find(index);
        if (it != archived.end()) {
          size_t position = it->second;
          if (assignmentOf(records[position]) != proposal.assignment) {
            error = "the archive's candidate " + nameOf(round, index) +
                    " differs from what this search proposes there; the "
                    "archive belongs to another space, seed or kbench version";
            return Outcome::Error;
          }
          if (records[position].stage == "constraints")
            ++rejected;
          else
            chunk.push_back(position);
          continue;
        }
        CandidateRecord record;
        record.round = round;
        record.index = index;
        if (!prepare(record, proposal, error)) {
          if (!error.empty() || !write(record, Write::Insert, error))
            return Outcome::Error;
          records.push_back(std::move(record));
          ++rejected;
          report(round, false);
          continue;
        }
        PendingCompile item;
        item.name = nameOf(round, index);
        item.assignment = proposal.assignment;
        item.schedule = parseSourceString<ModuleOp>(
            record.script, ParserConfig(space.getModule()->getContext()), item.name);
        item.position = records.size();
        records.push_back(std::move(record));
        chunk.push_back(item.position);
        work.push_back(std::move(item));
      }
      compileAll(work);
      // In index order: duplicates inside the chunk, archive writes.
      auto item = work.begin();
      for (size_t position : chunk) {
        CandidateRecord &record = records[position];
        if (item != work.end() && item->position == position) {
          CompiledCandidate &result = item->result;
          auto earlier = result.irHash.empty() || result.stage == "duplicate"
                             ? irHashes.end()
                             : irHashes.find(result.irHash);
          if (earlier != irHashes.end()) {
            if (!result.bundleDir.empty())
              llvm::sys::fs::remove_directories(result.bundleDir);
            result.bundleDir.clear();
            result.stage = "duplicate";
            result.duplicateOf = earlier->second;
          }
          fill(record, result, item->assignment);
          ++item;
          if (!write(record, Write::Insert, error))
            return Outcome::Error;
        }
        if (!record.irHash.empty() && record.stage != "duplicate")
          irHashes.emplace(record.irHash, nameOf(record.round, record.index));
        if (record.stage == "compiled")
          toEvaluate.push_back(position);
        else
          ++rejected;
        report(round, false);
      }
    }
    if (toEvaluate.empty())
      return Outcome::Exhausted;

    std::vector<EvalRequest> requests;
    std::map<std::string, size_t> byName;
    for (size_t position : toEvaluate) {
      CandidateRecord &record = records[position];
      if (!record.evalStatus.empty())
        continue; // evaluated before the kill
      std::string name = nameOf(record.round, record.index);
      if (!ensureBundle(record, error))
        return Outcome::Error;
      requests.push_back({name, record.bundle});
      byName[name] = position;
    }
    if (!requests.empty()) {
      EvalRound evalRound{roundName(round), options.timing};
      if (!evaluator.submit(evalRound, requests, error))
        return Outcome::Error;
      if (evaluator.pending()) {
        pending = evalRound.name;
        report(round, true); // compiled; the reports come later
        return Outcome::Pending;
      }
      while (std::optional<EvalReport> reportIn = evaluator.next()) {
        auto it = byName.find(reportIn->id);
        if (it == byName.end())
          continue;
        CandidateRecord &record = records[it->second];
        evaluated(record, *reportIn);
        if (!write(record, Write::Evaluation, error))
          return Outcome::Error;
        byName.erase(it);
        report(round, false);
      }
      if (!byName.empty() && evaluator.pending()) {
        // Reports stopped coming (the queue's workers are gone): what came
        // is archived; --resume collects the rest.
        pending = evalRound.name;
        return Outcome::Pending;
      }
      if (!byName.empty()) {
        error = "the evaluator returned no report for " + byName.begin()->first;
        return Outcome::Error;
      }
    }
    if (!archive.finishRound(round, error))
      return Outcome::Error;
    report(round, true);
  }
}

} // namespace kbench::search
