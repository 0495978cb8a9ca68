//===- EngineProposals.cpp - Where the engine's candidates come from -----===//
//
// The proposal half of the Engine (include/kbench/Search/Engine.h; the loop,
// evaluation and archive writes are in Engine.cpp): the naive and random
// points, the grid's order, MAP-Elites parent selection, mutation and
// crossover, and the LLM proposer's feedback and candidates. Parent
// selection follows MetaSchedule / MAP-Elites practice: half the parents
// uniform over occupied cells (diversity), half by a two-way fitness
// tournament (pressure).
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Engine.h"

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Parser/Parser.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <chrono>

using namespace mlir;
namespace path = llvm::sys::path;

namespace kbench::search {

Assignment Engine::naiveAssignment() const {
  Assignment assignment;
  for (const Knob &knob : space.getKnobs())
    assignment.push_back(knob.isAlternatives
                             ? 0
                             : llvm::min_element(knob.options) - knob.options.begin());
  return assignment;
}

Assignment Engine::randomAssignment(Rng &rng) {
  Assignment assignment;
  for (const Knob &knob : space.getKnobs())
    assignment.push_back(rng.below(knob.options.size()));
  return assignment;
}

void Engine::rebuildElites(int64_t beforeRound) {
  elites.clear();
  for (size_t i = 0; i < records.size(); ++i) {
    const CandidateRecord &r = records[i];
    // An LLM candidate is a parent only where it is a point of the space
    // (projectOntoSpace gave it knobs).
    if (r.round >= beforeRound || !r.fitness || r.cell.empty() ||
        (r.op == "llm" && !assignmentOf(r)))
      continue;
    auto [it, inserted] = elites.emplace(r.cell, i);
    if (!inserted && *r.fitness > *records[it->second].fitness)
      it->second = i;
  }
}

const CandidateRecord &Engine::selectParent(Rng &rng) {
  std::vector<size_t> list;
  for (const auto &[cell, index] : elites)
    list.push_back(index);
  if (rng.uniform() < 0.5)
    return records[list[rng.below(list.size())]];
  const CandidateRecord &a = records[list[rng.below(list.size())]];
  const CandidateRecord &b = records[list[rng.below(list.size())]];
  if (*b.fitness > *a.fitness || (*b.fitness == *a.fitness && b.id < a.id))
    return b;
  return a;
}

std::optional<Assignment> Engine::nextGridPoint() {
  const std::vector<Knob> &knobs = space.getKnobs();
  int64_t size = 1;
  for (const Knob &knob : knobs)
    size *= std::max<int64_t>(knob.options.size(), 1);
  if (gridNext >= size)
    return std::nullopt;
  // Mixed radix, the last knob varying fastest.
  Assignment point(knobs.size());
  int64_t rest = gridNext++;
  for (size_t k = knobs.size(); k-- > 0;) {
    int64_t n = std::max<int64_t>(knobs[k].options.size(), 1);
    point[k] = rest % n;
    rest /= n;
  }
  return point;
}

Engine::Proposal Engine::propose(Rng &rng) {
  if (options.strategy == "grid") {
    // Points already seen (earlier rounds) are skipped by the caller; an
    // exhausted grid repeats its last point, which the caller skips too.
    std::optional<Assignment> point = nextGridPoint();
    if (!point) {
      gridNext = 0;
      while (std::optional<Assignment> p = nextGridPoint())
        point = p;
    }
    return {*point, "grid", {}};
  }
  // From a naive start, the search only climbs: the naive point, then
  // mutations of it until an elite exists, and never a random restart.
  bool naive = options.start == "naive";
  if (elites.empty() && naive) {
    Assignment start = naiveAssignment();
    if (!seen.count(keyOf(start)))
      return {std::move(start), "naive", {}};
    mutate(start, rng);
    return {std::move(start), "mutate", {"naive"}};
  }
  if (elites.empty() || (!naive && rng.uniform() < 0.1))
    return {randomAssignment(rng), "random", {}};
  const CandidateRecord &first = selectParent(rng);
  Assignment child = *assignmentOf(first);
  std::vector<std::string> parents = {nameOf(first.round, first.index)};
  std::string op = "mutate";
  if (rng.uniform() < 0.35) {
    const CandidateRecord &second = selectParent(rng);
    Assignment other = *assignmentOf(second);
    for (size_t k = 0; k < child.size(); ++k)
      if (rng.uniform() < 0.5)
        child[k] = other[k];
    parents.push_back(nameOf(second.round, second.index));
    op = "crossover";
  } else {
    mutate(child, rng);
  }
  return {std::move(child), op, std::move(parents)};
}

void Engine::mutate(Assignment &child, Rng &rng) {
  const std::vector<Knob> &knobs = space.getKnobs();
  size_t changes = rng.below(3) == 0 ? 2 : 1;
  for (size_t c = 0; c < changes; ++c) {
    size_t k = rng.below(knobs.size());
    int64_t n = knobs[k].options.size();
    if (n < 2)
      continue;
    if (knobs[k].isAlternatives || rng.uniform() < 0.25) {
      child[k] = (child[k] + 1 + int64_t(rng.below(n - 1))) % n;
      continue;
    }
    // A step of 1, 2 or 3 options (x2, x4 or x8 on power-of-two lists) with
    // probabilities 1/2, 3/10, 1/5: a search from the naive corner reaches a
    // tuned tile of 4-16x the smallest in one or two moves, and still
    // refines by single steps most of the time.
    double u = rng.uniform();
    int64_t size = u < 0.5 ? 1 : u < 0.8 ? 2 : 3;
    int64_t direction = rng.below(2) ? 1 : -1;
    int64_t to = child[k] + direction * size;
    if (to < 0 || to >= n)
      to = child[k] - direction * size;
    child[k] = std::clamp<int64_t>(to, 0, n - 1);
  }
}

/// `text` as JSON, or null when it is none.
static llvm::json::Value parsedOrNull(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (value)
    return std::move(*value);
  llvm::consumeError(value.takeError());
  return nullptr;
}

llvm::json::Object Engine::llmFeedback() const {
  std::vector<const CandidateRecord *> measured, failed;
  for (const CandidateRecord &r : records) {
    if (r.fitness)
      measured.push_back(&r);
    else if (r.stage != "compiled" && r.stage != "duplicate")
      failed.push_back(&r);
  }
  llvm::stable_sort(measured, [](const CandidateRecord *a, const CandidateRecord *b) {
    return *a->fitness > *b->fitness;
  });
  auto describe = [&](const CandidateRecord &r, bool withScript) {
    llvm::json::Object o{{"name", nameOf(r.round, r.index)},
                         {"operator", r.op},
                         {"knobs", parsedOrNull(r.knobs)},
                         {"stage", r.stage},
                         {"descriptors", parsedOrNull(r.descriptors)},
                         {"compile_ms", r.compileMs}};
    if (r.fitness) {
      o["fitness"] = *r.fitness;
      o["fitness_kind"] = r.fitnessKind;
    }
    if (r.candidateUs)
      o["candidate_us"] = *r.candidateUs;
    if (r.eagerUs)
      o["eager_us"] = *r.eagerUs;
    if (r.torchCompileUs)
      o["torch_compile_us"] = *r.torchCompileUs;
    if (!r.shapes.empty())
      o["shapes"] = parsedOrNull(r.shapes);
    if (r.stage != "compiled")
      o["diagnostics"] = parsedOrNull(r.diagnostics);
    if (withScript)
      o["script"] = r.script;
    return o;
  };
  llvm::json::Array best, failures;
  for (size_t i = 0; i < measured.size() && i < 3; ++i)
    best.push_back(describe(*measured[i], /*withScript=*/true));
  for (size_t i = failed.size() > 5 ? failed.size() - 5 : 0; i < failed.size(); ++i)
    failures.push_back(describe(*failed[i], failed[i]->op == "llm"));
  std::string kernel;
  llvm::raw_string_ostream os(kernel);
  compiler.getKernelModule().print(os);
  return llvm::json::Object{{"schema", "kbench.llm-request/1"},
                            {"target", compiler.getTarget()},
                            {"kernel", kernel},
                            {"space", openSpace},
                            {"candidates_so_far", int64_t(records.size())},
                            {"best", std::move(best)},
                            {"recent_failures", std::move(failures)}};
}

bool Engine::proposeByLLM(int64_t round, int64_t index, CandidateRecord &record,
                          std::string &error) {
  record.round = round;
  record.index = index;
  record.op = "llm";
  record.parents = "[]";
  record.knobs = "{}";
  record.descriptors = "{}";
  ProposalResult proposal =
      llm->propose(*space.getModule()->getContext(), llmFeedback());
  record.script = proposal.script;
  if (!proposal.module) {
    record.stage = "proposal";
    record.diagnostics =
        llvm::formatv("{0}", llvm::json::Value(llvm::json::Array{llvm::json::Object{
                                 {"severity", "error"},
                                 {"location", "llm"},
                                 {"message", proposal.error}}}))
            .str();
    return write(record, Write::Insert, error);
  }
  std::string name = nameOf(round, index);
  llvm::SmallString<256> bundle(options.workDir);
  path::append(bundle, "bundles", name);
  auto start = std::chrono::steady_clock::now();
  CompiledCandidate result = compiler.compile(
      *proposal.module, name, bundle,
      [&](llvm::StringRef hash) -> std::optional<std::string> {
        auto it = irHashes.find(hash.str());
        if (it == irHashes.end())
          return std::nullopt;
        return it->second;
      });
  compileSeconds += std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start).count();
  ++compiled;
  // A script that is a point of the space takes that point's knobs, so it
  // can be a parent and an elite like the engine's own candidates.
  Assignment point;
  if (result.stage == "compiled")
    if (std::optional<Assignment> projected =
            projectOntoSpace(*proposal.module, result.irHash)) {
      point = *projected;
      llvm::json::Object knobs;
      for (const auto &[knobName, value] : space.values(point))
        knobs[knobName] = value;
      record.knobs = llvm::formatv("{0}", llvm::json::Value(std::move(knobs)));
    }
  fill(record, result, point);
  return write(record, Write::Insert, error);
}

std::optional<Assignment> Engine::projectOntoSpace(ModuleOp llmSchedule,
                                                   llvm::StringRef irHash) {
  std::optional<TaskCompiler::Scheduled> scheduled =
      compiler.schedule(llmSchedule, "llm");
  if (!scheduled)
    return std::nullopt;
  tile::KernelOp kernel;
  int kernels = 0;
  scheduled->module->walk([&](tile::KernelOp op) {
    kernel = op;
    ++kernels;
  });
  if (kernels != 1)
    return std::nullopt; // which kernel a param knob means is ambiguous
  const std::vector<Knob> &knobs = space.getKnobs();
  Assignment point(knobs.size(), 0);
  std::vector<size_t> open;
  for (size_t k = 0; k < knobs.size(); ++k) {
    std::optional<int64_t> value = knobs[k].isAlternatives
                                       ? std::nullopt
                                       : kernel.getParamValue(knobs[k].name);
    if (!value) {
      open.push_back(k);
      continue;
    }
    auto it = llvm::find(knobs[k].options, *value);
    if (it == knobs[k].options.end())
      return std::nullopt; // a value the space does not offer
    point[k] = it - knobs[k].options.begin();
  }
  constexpr int64_t kMaxTries = 256;
  int64_t tries = 1;
  for (size_t k : open) {
    tries *= std::max<int64_t>(knobs[k].options.size(), 1);
    if (tries > kMaxTries)
      return std::nullopt;
  }
  // Every combination of the open knobs, the last varying fastest.
  for (int64_t t = 0; t < tries; ++t) {
    int64_t rest = t;
    for (size_t i = open.size(); i-- > 0;) {
      int64_t n = std::max<int64_t>(knobs[open[i]].options.size(), 1);
      point[open[i]] = rest % n;
      rest /= n;
    }
    if (space.checkConstraints(point))
      continue;
    space.select(point);
    OwningOpRef<ModuleOp> candidate = parseSourceString<ModuleOp>(
        space.print(), ParserConfig(space.getModule()->getContext()),
        "projection");
    if (!candidate)
      continue;
    std::optional<TaskCompiler::Scheduled> tried =
        compiler.schedule(*candidate, "projection");
    if (tried && tried->irHash == irHash)
      return point;
  }
  return std::nullopt;
}

} // namespace kbench::search
