//===- Archive.h - The search archive ----------------------------*- C++ -*-===//
//
// Every candidate of a search, durably: its script, knob values, parents,
// operator, IR and PTX hashes, how far it got, diagnostics, evaluation and
// timestamps. In an SQLite file (WAL mode) or a PostgreSQL schema
// (Database.h); each candidate is written in its own transaction the moment
// it is compiled and again when its report is in, so `kill -9` loses at most
// the candidate in hand. The schema carries a version and is brought up to
// date by Schema.h's migrations when an archive is opened (docs/search.md).
// Every operation may be re-run whole after a lost PostgreSQL connection
// (inserts are keyed, updates idempotent), which is how a restarted server
// costs a search nothing.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_ARCHIVE_H
#define KBENCH_SEARCH_ARCHIVE_H

#include "kbench/Archive/Database.h"
#include "kbench/Archive/Schema.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kbench::search {

/// The settings a search was started with; a resumed search must match.
struct RunRecord {
  std::string task, target, spaceHash, fitness, evaluator;
  int64_t seed = 0, roundSize = 0, budget = 0;
  std::string strategy = "map-elites"; ///< "map-elites" or "grid" (Engine.h)
  std::string start = "random"; ///< "random" or "naive" (Engine.h)
  std::string score = "multi";  ///< "tune" or "multi" (Scoring.h)
  /// The kernel file searched: relative to the task's folder, or absolute
  /// when outside it; "" for the task's kernel.mlir.
  std::string kernel;
};

/// One evaluation of a candidate: the fields a report gives.
struct Measurement {
  /// "ok" when a report was read; else why not ("missing", "fault", ...).
  std::string status, verdict, fitnessKind, report;
  std::optional<double> fitness, candidateUs, eagerUs, torchCompileUs,
      percentOfFloor;
  /// Per timed shape: [{"set", "shape", "dims", "candidate_us", "eager_us",
  /// "torch_compile_us"}] (JSON text; "dims" {"M": 8192, ...} since
  /// --export-dispatch, absent in older archives).
  std::string shapes;
};

/// One candidate row (knobs, parents, diagnostics, descriptors: JSON text).
struct CandidateRecord {
  int64_t id = 0; // 0 until inserted
  int64_t round = 0, index = 0;
  std::string knobs, script, parents, op, stage, irHash, ptxHash, duplicateOf,
      diagnostics, descriptors, cell, bundle;
  double compileMs = 0;
  // Evaluation (evalStatus empty until the report is in), under the
  // protocol `protocol` ("none" or "screen"; "" in archives before v3).
  std::string evalStatus, verdict, fitnessKind, report, protocol, shapes;
  std::optional<double> fitness, candidateUs, eagerUs, torchCompileUs,
      percentOfFloor;
  double evalMs = 0;
  /// The full-protocol re-measurement of an elite (status empty until then).
  Measurement full;
};

class Archive {
public:
  /// Opens (creating if needed) and migrates the archive at `location`: an
  /// SQLite file, or postgresql:NAME (Database::open).
  static std::unique_ptr<Archive> open(const std::string &location,
                                       std::string &error);
  ~Archive();

  /// The run record, if the archive holds a search.
  std::optional<RunRecord> getRun();
  bool setRun(const RunRecord &run, std::string &error);
  /// Updates the budget of a resumed run.
  bool setBudget(int64_t budget, std::string &error);

  /// Inserts `record` (sets its id) in one transaction.
  bool insert(CandidateRecord &record, std::string &error);
  /// Stores the evaluation fields of record `record.id`.
  bool storeEvaluation(const CandidateRecord &record, std::string &error);
  /// Stores the full-protocol measurement (`record.full`) of record `record.id`.
  bool storeFullMeasurement(const CandidateRecord &record, std::string &error);
  /// Marks a round finished.
  bool finishRound(int64_t round, std::string &error);
  /// Rounds finished so far (0, 1, ... n-1 when n).
  int64_t finishedRounds();

  /// Every candidate, by id.
  std::vector<CandidateRecord> candidates();

  /// The schema version stored in the archive.
  int schemaVersion();

  /// The connection (the work queue shares it: WorkQueue.h).
  Database &database() { return *db; }

private:
  explicit Archive(std::unique_ptr<Database> db) : db(std::move(db)) {}
  /// Runs `sql` with `params`, once more after a lost connection comes back.
  bool run(const std::string &sql, const std::vector<SqlValue> &params,
           std::vector<SqlRow> *rows, std::string &error);
  std::unique_ptr<Database> db;
};

} // namespace kbench::search

#endif // KBENCH_SEARCH_ARCHIVE_H
