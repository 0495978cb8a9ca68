//===- Engine.h - MAP-Elites over a space's knobs ----------------*- C++ -*-===//
//
// The search loop: rounds of candidates proposed from a MAP-Elites archive
// (one elite per cell; cells from the IR and ptxas: bytes per thread,
// registers or warps, structural alternative) by knob mutation, uniform
// crossover and random restarts, filtered before evaluation (constraints,
// transform legality, IR-hash dedupe, tile-verify, ptxas spills), then
// evaluated a round at a time.
//
// Determinism: round r's proposals depend only on the seed, r and the
// archive's candidates of rounds < r (their knobs, IR hashes and fitness),
// with a private SplitMix64 generator. A resumed search regenerates the
// round it was killed in and reuses every candidate already archived, so
// with the same measurements it ends where an uninterrupted one does.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_ENGINE_H
#define KBENCH_SEARCH_ENGINE_H

#include "kbench/Archive/Archive.h"
#include "kbench/Search/Candidate.h"
#include "kbench/Search/Evaluator.h"
#include "kbench/Search/Proposer.h"
#include "kbench/Search/Space.h"

#include <functional>
#include <map>
#include <set>

namespace kbench::search {

struct EngineOptions {
  /// Candidates to evaluate (measured), over the whole search.
  int64_t budget = 32;
  uint64_t seed = 0;
  int64_t roundSize = 8;
  /// "measured" (speedup over eager from the reports; 1 for a pass without
  /// timing) or "model" (the documented cost proxy, not a measurement).
  std::string fitness = "measured";
  /// Bundles go to workDir/bundles/<name>.
  std::string workDir;
  /// Threads compiling candidates (one MLIRContext, one kernel parse).
  int64_t jobs = 1;
  /// "map-elites" (mutation, crossover and restarts over an elite archive) or
  /// "grid" (every point of the space in order: the last knob varies
  /// fastest; the baseline a search must beat in measurements spent).
  std::string strategy = "map-elites";
  /// "random" (round 0 draws uniform points) or "naive" (round 0 is the
  /// space's naive point, the smallest option of every knob, and mutations
  /// of it; no random proposal ever: the search climbs from there).
  std::string start = "random";
  /// "tune" or "multi": what a measured fitness is computed over (Scoring.h).
  std::string score = "multi";
  /// Timing protocol of the rounds ("none" or "screen"; "full" also works).
  std::string timing = "none";
  /// How many elites (the best by screened fitness) are re-measured with the
  /// full protocol once the budget is spent; 0: none.
  int64_t confirm = 0;
  /// Candidates per round asked of the LLM proposer (setProposer), before
  /// the engine's own; 0: none.
  int64_t llmProposals = 0;
  /// Testing only: kill -9 this process after this many archive writes.
  int64_t killAfter = 0;
};

/// What the progress line shows.
struct Progress {
  int64_t round = 0, measured = 0, budget = 0, proposed = 0, rejected = 0;
  double compiledPerSecond = 0;
  std::optional<double> bestFitness, bestPercentOfFloor, bestVsTorchCompile;
  std::string bestName, fitnessKind;
  bool roundFinished = false;
};

class Engine {
public:
  enum class Outcome { Done, Exhausted, Pending, Error };

  Engine(Space &space, TaskCompiler &compiler, Archive &archive,
         Evaluator &evaluator, EngineOptions options,
         std::function<void(const Progress &)> onProgress);

  /// Runs (or resumes) the search until the budget is spent, the space has
  /// no new candidate, or a round waits for another machine.
  Outcome run(std::string &error);

  /// The best evaluated candidate so far: the highest full-protocol fitness
  /// when an elite has been re-measured, else the highest screened fitness
  /// (earliest on ties).
  std::optional<CandidateRecord> best() const;

  /// Asks `proposer` for options.llmProposals scripts per round, giving it
  /// `spaceText` (the space with its choices open) among the feedback.
  void setProposer(const LLMProposer *proposer, std::string spaceText) {
    llm = proposer;
    openSpace = std::move(spaceText);
  }

  /// The folder name (under --rounds-dir) of the round that waits for
  /// another machine, after run() returned Pending.
  const std::string &pendingRound() const { return pending; }

  /// The cost proxy of --fitness model (docs/search.md).
  static double modelFitness(const Descriptors &d);

  /// The MAP-Elites cell of a candidate.
  static std::string cellOf(const Descriptors &d, llvm::StringRef alternatives);

  /// The name of candidate `index` of round `round` ("c<round>-<index>").
  static std::string nameOf(int64_t round, int64_t index);

private:
  struct Proposal {
    Assignment assignment;
    std::string op;
    std::vector<std::string> parents;
  };
  /// SplitMix64: a tiny generator whose sequence is fixed by its seed on
  /// every platform (std::uniform_int_distribution is not).
  class Rng {
  public:
    Rng(uint64_t seed, int64_t round)
        : state(seed * 0x9E3779B97F4A7C15ull ^
                (uint64_t(round) + 1) * 0xBF58476D1CE4E5B9ull) {}
    uint64_t next() {
      uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    }
    size_t below(size_t n) { return n ? size_t(next() % n) : 0; }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }

  private:
    uint64_t state;
  };
  Proposal propose(Rng &rng);
  /// The grid's next point after `gridNext` (options.strategy == "grid"),
  /// or nullopt when the grid is exhausted.
  std::optional<Assignment> nextGridPoint();
  int64_t gridNext = 0;
  Assignment randomAssignment(Rng &rng);
  /// The smallest option of every knob, region 0 of every alternatives.
  Assignment naiveAssignment() const;
  /// Moves one knob (two with probability 1/3) of `child`.
  void mutate(Assignment &child, Rng &rng);
  /// The search proper: rounds until the budget or the space is spent.
  Outcome runRounds(std::string &error);
  /// Re-measures the best options.confirm elites with the full protocol.
  Outcome confirmElites(std::string &error);
  /// Compiles `record` again when its bundle is gone (a fresh work folder).
  bool ensureBundle(CandidateRecord &record, std::string &error);
  /// The feedback JSON the LLM proposer is given.
  llvm::json::Object llmFeedback() const;
  /// Fills, compiles and archives LLM candidate `index` of `round`; false on
  /// an archive error.
  bool proposeByLLM(int64_t round, int64_t index, CandidateRecord &record,
                    std::string &error);
  /// The point of the space whose schedule gives the same scheduled IR as
  /// the LLM's `llmSchedule` (IR hash `irHash`), or nullopt when none does
  /// (a script outside the space). Knobs named after a kernel param are read
  /// from the scheduled kernel; the others (alternatives, pipeline stages,
  /// chunks) are tried, at most 256 combinations.
  std::optional<Assignment> projectOntoSpace(mlir::ModuleOp llmSchedule,
                                             llvm::StringRef irHash);
  /// The fields of a report as a measurement of `record`.
  Measurement measurement(const CandidateRecord &record, const EvalReport &report,
                          llvm::StringRef protocol) const;
  const CandidateRecord &selectParent(Rng &rng);
  /// One candidate being compiled on a worker thread.
  struct PendingCompile {
    std::string name;
    Assignment assignment;
    mlir::OwningOpRef<mlir::ModuleOp> schedule;
    size_t position = 0;
    CompiledCandidate result;
  };
  /// Fills a new record's knobs, parents, operator and script; false when a
  /// constraint refuses it (the record says why).
  bool prepare(CandidateRecord &record, const Proposal &proposal,
               std::string &error);
  void fill(CandidateRecord &record, const CompiledCandidate &candidate,
            const Assignment &assignment);
  /// Compiles `work` on options.jobs threads of the one MLIRContext.
  void compileAll(std::vector<PendingCompile> &work);
  void evaluated(CandidateRecord &record, const EvalReport &report);
  enum class Write { Insert, Evaluation, Full };
  bool write(CandidateRecord &record, Write what, std::string &error);
  void rebuildElites(int64_t beforeRound);
  std::string keyOf(const Assignment &assignment) const;
  std::optional<Assignment> assignmentOf(const CandidateRecord &record) const;
  void report(int64_t round, bool roundFinished);

  Space &space;
  TaskCompiler &compiler;
  Archive &archive;
  Evaluator &evaluator;
  EngineOptions options;
  std::function<void(const Progress &)> onProgress;

  std::vector<CandidateRecord> records;
  /// cell -> index into records of its elite.
  std::map<std::string, size_t> elites;
  std::set<std::string> seen;
  std::map<std::string, std::string> irHashes;
  int64_t writes = 0, proposed = 0, rejected = 0, compiled = 0;
  double compileSeconds = 0;
  std::string pending;
  const LLMProposer *llm = nullptr;
  std::string openSpace;
};

} // namespace kbench::search

#endif // KBENCH_SEARCH_ENGINE_H
