//===- Evaluator.h - Rounds of bundles out, reports in -----------*- C++ -*-===//
//
// The engine talks to whatever measures candidates through one interface: it
// submits a round of bundles and collects the reports as they come in.
// Implementations:
//   - local: kbench-run on this machine, one process per bundle (a faulting
//     kernel poisons its own process only), or one `kbench-run --batch`
//     process per round when the runner has batch mode;
//   - queue: the round is enqueued in the archive's database as jobs that
//     kbench-worker processes on any machine claim and evaluate
//     (WorkQueue.h); reports come back as the workers' results are
//     accepted;
//   - round trip: the round is written to a folder (bundles, task.json and a
//     batch list), a command is run on it (e.g. one that ships it to a GPU
//     machine and back), and the reports it leaves are read. Without a
//     command the search stops after writing the round; `--resume` reads
//     the reports once they are there (compile here, measure there).
// The batch contract (docs/search.md):
//   LIST.json  {"task_dir", "bundles": [{"id", "dir"}], "timing": "none" |
//               "screen" | "full", "target"}
//   OUTDIR/<id>/report.json per bundle, OUTDIR/batch.jsonl one line per
//   bundle {"id", "status": "ok" | "fault" | "timeout" | ..., "exit"}.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_EVALUATOR_H
#define KBENCH_SEARCH_EVALUATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kbench::search {

class Database;

struct EvalRequest {
  std::string id;
  std::string bundleDir;
};

/// What one submit() evaluates: the folder name of the round
/// ("round-0003", or "confirm-0004" for the full-protocol re-measurement of
/// elites) and the timing protocol ("none", "screen" or "full").
struct EvalRound {
  std::string name;
  std::string timing;
};

/// The medians of one timed shape of a report.
struct ShapeTiming {
  /// The shape set ("tune", or "heldout": in the search's evaluation task
  /// the derived scoring shapes, docs/search.md) and the shape ("M=8192 N=4096").
  std::string set, shape;
  /// The shape's dims (the report's shape_id.dims), in name order.
  std::vector<std::pair<std::string, int64_t>> dims;
  std::optional<double> candidateUs, eagerUs, torchCompileUs, percentOfFloor;
};

/// What the engine needs from a report.json (kbench-report/1).
struct EvalReport {
  std::string id;
  /// "ok" when a report was read; else why not ("fault", "timeout",
  /// "missing", "unreadable", ...).
  std::string status;
  /// The report's verdict: "pass", "fail" or "error" ("" without a report).
  std::string verdict;
  int exitCode = -1;
  /// Medians at the first timed shape, in microseconds.
  std::optional<double> candidateUs, eagerUs, torchCompileUs, percentOfFloor;
  /// Every timed shape, in report order.
  std::vector<ShapeTiming> shapes;
  std::string reportPath;
  double seconds = 0;
};

/// Reads `reportFile` into an EvalReport (status "missing" / "unreadable"
/// when it cannot).
EvalReport readReport(llvm::StringRef id, llvm::StringRef reportFile);

class Evaluator {
public:
  virtual ~Evaluator();
  /// A one-line description for the archive and progress line.
  virtual std::string describe() const = 0;
  /// Starts evaluating the bundles of `round`. Failure (with `error`)
  /// means nothing of the round will come back.
  virtual bool submit(const EvalRound &round, llvm::ArrayRef<EvalRequest> requests,
                      std::string &error) = 0;
  /// The next report of the submitted round, in completion order; nullopt
  /// when every report of the round is in, or when the round must be
  /// finished elsewhere (pending() says so).
  virtual std::optional<EvalReport> next() = 0;
  /// True when the round was handed to another machine and its reports are
  /// not here yet (the search stops; --resume ingests them later).
  virtual bool pending() const { return false; }
};

struct EvaluatorOptions {
  /// The task folder the runner reads (the search's evaluation copy).
  std::string taskDir, target;
  /// Shape sets the runner checks besides the tune shapes it times; with
  /// "heldout" it also times those (docs/runner.md, "Batches").
  std::vector<std::string> shapeSets = {"check"};
  /// Seconds without progress before kbench-run's watchdog kills a bundle.
  std::string timeout;
};

/// kbench-run on this machine (`runner` is its path).
std::unique_ptr<Evaluator> createLocalEvaluator(const EvaluatorOptions &options,
                                                llvm::StringRef runner,
                                                llvm::StringRef workDir);

/// The round trip through `roundsDir`: a round goes to roundsDir/<name>/
/// (bundles/, task/, batch.json, out/), then `command`
/// runs with that folder as its argument; empty `command`: wait for another
/// machine.
std::unique_ptr<Evaluator>
createRoundTripEvaluator(const EvaluatorOptions &options,
                         llvm::StringRef roundsDir, llvm::StringRef command);

/// Rounds enqueued in `db` (the archive's connection) for kbench-worker:
/// jobs of `bundlesPerJob` bundles (one kbench-run process each), and one
/// job for all elites of a confirm round, so that one worker re-measures
/// them on one GPU. Reports are written to
/// workDir/<round>/<id>/report.json as they are accepted. With
/// `waitSeconds` > 0, a round that gets no result for that long is left
/// pending (the search stops; --resume collects the rest).
std::unique_ptr<Evaluator> createQueueEvaluator(const EvaluatorOptions &options,
                                                Database &db,
                                                llvm::StringRef workDir,
                                                double waitSeconds,
                                                size_t bundlesPerJob);

/// The folder name of search round `round` ("round-0003").
std::string roundName(int64_t round);
/// The folder name of the full-protocol re-measurement after `rounds`
/// finished rounds ("confirm-0004").
std::string confirmName(int64_t rounds);

/// What `runner --help` prints ("" when it cannot be run): which flags this
/// runner has (--batch, --baseline-timings).
std::string runnerHelp(llvm::StringRef runner);

} // namespace kbench::search

#endif // KBENCH_SEARCH_EVALUATOR_H
