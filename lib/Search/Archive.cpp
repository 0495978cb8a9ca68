//===- Archive.cpp - The search archive in SQLite -------------------------===//
//
// Plain sqlite3 C API. Migrations are an ordered list of SQL scripts;
// migration i brings the schema from version i to i + 1 and runs in one
// transaction with the version update, so an archive is never left half
// migrated. Timestamps are UTC ISO 8601 strings written by SQLite.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Archive.h"

#include <sqlite3.h>

namespace kbench::search {

/// Migration i takes the schema from version i to i + 1.
static const char *const kMigrations[] = {
    // 0 -> 1: the first schema.
    R"sql(
CREATE TABLE run (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  task TEXT NOT NULL, target TEXT NOT NULL, seed INTEGER NOT NULL,
  space_hash TEXT NOT NULL, fitness TEXT NOT NULL, evaluator TEXT NOT NULL,
  round_size INTEGER NOT NULL, budget INTEGER NOT NULL,
  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
CREATE TABLE candidates (
  id INTEGER PRIMARY KEY,
  round INTEGER NOT NULL, idx INTEGER NOT NULL,
  knobs TEXT NOT NULL, script TEXT NOT NULL, parents TEXT NOT NULL,
  operator TEXT NOT NULL, stage TEXT NOT NULL,
  ir_hash TEXT, ptx_hash TEXT, duplicate_of TEXT,
  diagnostics TEXT NOT NULL, descriptors TEXT NOT NULL, cell TEXT,
  bundle TEXT, compile_ms REAL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  eval_status TEXT, verdict TEXT, fitness REAL, fitness_kind TEXT,
  candidate_us REAL, eager_us REAL, torch_compile_us REAL,
  percent_of_floor REAL, report TEXT, eval_ms REAL, evaluated_at TEXT,
  UNIQUE (round, idx));
CREATE INDEX candidates_ir_hash ON candidates (ir_hash);
CREATE TABLE rounds (
  round INTEGER PRIMARY KEY,
  finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
)sql",
    // 1 -> 2: the proposal strategy of the run (grid searches, 2026-12-01).
    R"sql(
ALTER TABLE run ADD COLUMN strategy TEXT NOT NULL DEFAULT 'map-elites';
)sql",
    // 2 -> 3: the start point and the scoring of the run; which protocol
    // measured a candidate, its per-shape medians, and the full-protocol
    // re-measurement of elites (2026-12-01).
    R"sql(
ALTER TABLE run ADD COLUMN start TEXT NOT NULL DEFAULT 'random';
ALTER TABLE run ADD COLUMN score TEXT NOT NULL DEFAULT 'tune';
ALTER TABLE candidates ADD COLUMN protocol TEXT;
ALTER TABLE candidates ADD COLUMN shapes TEXT;
ALTER TABLE candidates ADD COLUMN full_status TEXT;
ALTER TABLE candidates ADD COLUMN full_verdict TEXT;
ALTER TABLE candidates ADD COLUMN full_fitness REAL;
ALTER TABLE candidates ADD COLUMN full_fitness_kind TEXT;
ALTER TABLE candidates ADD COLUMN full_candidate_us REAL;
ALTER TABLE candidates ADD COLUMN full_eager_us REAL;
ALTER TABLE candidates ADD COLUMN full_torch_compile_us REAL;
ALTER TABLE candidates ADD COLUMN full_percent_of_floor REAL;
ALTER TABLE candidates ADD COLUMN full_shapes TEXT;
ALTER TABLE candidates ADD COLUMN full_report TEXT;
ALTER TABLE candidates ADD COLUMN full_at TEXT;
)sql",
};
static_assert(std::size(kMigrations) == kArchiveSchemaVersion,
              "one migration per schema version");

namespace {
/// A prepared statement, finalized on scope exit.
class Statement {
public:
  Statement(sqlite3 *db, const char *sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
      stmt = nullptr;
  }
  ~Statement() { sqlite3_finalize(stmt); }
  explicit operator bool() const { return stmt; }
  void bind(int i, const std::string &text) {
    sqlite3_bind_text(stmt, i, text.c_str(), -1, SQLITE_TRANSIENT);
  }
  void bindOrNull(int i, const std::string &text) {
    if (text.empty())
      sqlite3_bind_null(stmt, i);
    else
      bind(i, text);
  }
  void bind(int i, int64_t value) { sqlite3_bind_int64(stmt, i, value); }
  void bind(int i, std::optional<double> value) {
    if (value)
      sqlite3_bind_double(stmt, i, *value);
    else
      sqlite3_bind_null(stmt, i);
  }
  int step() { return sqlite3_step(stmt); }
  std::string text(int i) {
    const unsigned char *t = sqlite3_column_text(stmt, i);
    return t ? reinterpret_cast<const char *>(t) : "";
  }
  int64_t integer(int i) { return sqlite3_column_int64(stmt, i); }
  std::optional<double> real(int i) {
    if (sqlite3_column_type(stmt, i) == SQLITE_NULL)
      return std::nullopt;
    return sqlite3_column_double(stmt, i);
  }

private:
  sqlite3_stmt *stmt = nullptr;
};

/// Runs a statement that returns no rows; false with the SQLite message in
/// `error` when it fails.
bool runToCompletion(sqlite3 *db, Statement &statement, std::string &error) {
  if (statement.step() == SQLITE_DONE)
    return true;
  error = std::string("archive: ") + sqlite3_errmsg(db);
  return false;
}
} // namespace

bool Archive::exec(const char *sql, std::string &error) {
  char *message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) == SQLITE_OK)
    return true;
  error = std::string("archive: ") + (message ? message : sqlite3_errmsg(db));
  sqlite3_free(message);
  return false;
}

Archive::~Archive() { sqlite3_close(db); }

int Archive::schemaVersion() {
  Statement select(db, "SELECT version FROM schema_version");
  return select && select.step() == SQLITE_ROW ? int(select.integer(0)) : 0;
}

std::unique_ptr<Archive> Archive::open(llvm::StringRef file, std::string &error) {
  std::unique_ptr<Archive> archive(new Archive());
  if (sqlite3_open(file.str().c_str(), &archive->db) != SQLITE_OK) {
    error = "cannot open the archive " + file.str() + ": " +
            sqlite3_errmsg(archive->db);
    return nullptr;
  }
  sqlite3_busy_timeout(archive->db, 5000);
  // WAL: readers never block the search, and a commit is durable once its
  // frames are in the log. synchronous=FULL also survives a power loss.
  if (!archive->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", error) ||
      !archive->exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);",
                     error)) {
    error += " (is " + file.str() + " an SQLite archive?)";
    return nullptr;
  }
  int version = archive->schemaVersion();
  if (version > kArchiveSchemaVersion) {
    error = "the archive " + file.str() + " has schema version " +
            std::to_string(version) + ", newer than this kbench's " +
            std::to_string(kArchiveSchemaVersion) + "; use a newer kbench";
    return nullptr;
  }
  for (; version < kArchiveSchemaVersion; ++version) {
    std::string sql = std::string("BEGIN;") + kMigrations[version] +
                      "DELETE FROM schema_version; INSERT INTO schema_version "
                      "VALUES (" + std::to_string(version + 1) + "); COMMIT;";
    if (!archive->exec(sql.c_str(), error)) {
      archive->exec("ROLLBACK;", error);
      error = "cannot migrate the archive " + file.str() + " to version " +
              std::to_string(version + 1) + ": " + error;
      return nullptr;
    }
  }
  return archive;
}

std::optional<RunRecord> Archive::getRun() {
  Statement select(db, "SELECT task, target, space_hash, fitness, evaluator, "
                       "seed, round_size, budget, strategy, start, score FROM run");
  if (!select || select.step() != SQLITE_ROW)
    return std::nullopt;
  RunRecord run;
  run.task = select.text(0);
  run.target = select.text(1);
  run.spaceHash = select.text(2);
  run.fitness = select.text(3);
  run.evaluator = select.text(4);
  run.seed = select.integer(5);
  run.roundSize = select.integer(6);
  run.budget = select.integer(7);
  run.strategy = select.text(8);
  run.start = select.text(9);
  run.score = select.text(10);
  return run;
}

bool Archive::setRun(const RunRecord &run, std::string &error) {
  Statement insert(db, "INSERT INTO run (id, task, target, space_hash, "
                       "fitness, evaluator, seed, round_size, budget, strategy, "
                       "start, score) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, run.task);
  insert.bind(2, run.target);
  insert.bind(3, run.spaceHash);
  insert.bind(4, run.fitness);
  insert.bind(5, run.evaluator);
  insert.bind(6, run.seed);
  insert.bind(7, run.roundSize);
  insert.bind(8, run.budget);
  insert.bind(9, run.strategy);
  insert.bind(10, run.start);
  insert.bind(11, run.score);
  return runToCompletion(db, insert, error);
}

bool Archive::setBudget(int64_t budget, std::string &error) {
  Statement update(db, "UPDATE run SET budget = ?");
  update.bind(1, budget);
  return runToCompletion(db, update, error);
}

bool Archive::insert(CandidateRecord &r, std::string &error) {
  Statement insert(db,
                   "INSERT INTO candidates (round, idx, knobs, script, parents, "
                   "operator, stage, ir_hash, ptx_hash, duplicate_of, "
                   "diagnostics, descriptors, cell, bundle, compile_ms) VALUES "
                   "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, r.round);
  insert.bind(2, r.index);
  insert.bind(3, r.knobs);
  insert.bind(4, r.script);
  insert.bind(5, r.parents);
  insert.bind(6, r.op);
  insert.bind(7, r.stage);
  insert.bindOrNull(8, r.irHash);
  insert.bindOrNull(9, r.ptxHash);
  insert.bindOrNull(10, r.duplicateOf);
  insert.bind(11, r.diagnostics);
  insert.bind(12, r.descriptors);
  insert.bindOrNull(13, r.cell);
  insert.bindOrNull(14, r.bundle);
  insert.bind(15, std::optional<double>(r.compileMs));
  if (!runToCompletion(db, insert, error))
    return false;
  r.id = sqlite3_last_insert_rowid(db);
  return true;
}

bool Archive::storeEvaluation(const CandidateRecord &r, std::string &error) {
  Statement update(db,
                   "UPDATE candidates SET eval_status = ?, verdict = ?, "
                   "fitness = ?, fitness_kind = ?, candidate_us = ?, "
                   "eager_us = ?, torch_compile_us = ?, percent_of_floor = ?, "
                   "report = ?, eval_ms = ?, protocol = ?, shapes = ?, "
                   "evaluated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                   "WHERE id = ?");
  update.bind(1, r.evalStatus);
  update.bindOrNull(2, r.verdict);
  update.bind(3, r.fitness);
  update.bindOrNull(4, r.fitnessKind);
  update.bind(5, r.candidateUs);
  update.bind(6, r.eagerUs);
  update.bind(7, r.torchCompileUs);
  update.bind(8, r.percentOfFloor);
  update.bindOrNull(9, r.report);
  update.bind(10, std::optional<double>(r.evalMs));
  update.bindOrNull(11, r.protocol);
  update.bindOrNull(12, r.shapes);
  update.bind(13, r.id);
  return runToCompletion(db, update, error);
}

bool Archive::storeFullMeasurement(const CandidateRecord &r, std::string &error) {
  Statement update(db,
                   "UPDATE candidates SET full_status = ?, full_verdict = ?, "
                   "full_fitness = ?, full_fitness_kind = ?, "
                   "full_candidate_us = ?, full_eager_us = ?, "
                   "full_torch_compile_us = ?, full_percent_of_floor = ?, "
                   "full_shapes = ?, full_report = ?, full_at = "
                   "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
  const Measurement &m = r.full;
  update.bind(1, m.status);
  update.bindOrNull(2, m.verdict);
  update.bind(3, m.fitness);
  update.bindOrNull(4, m.fitnessKind);
  update.bind(5, m.candidateUs);
  update.bind(6, m.eagerUs);
  update.bind(7, m.torchCompileUs);
  update.bind(8, m.percentOfFloor);
  update.bindOrNull(9, m.shapes);
  update.bindOrNull(10, m.report);
  update.bind(11, r.id);
  return runToCompletion(db, update, error);
}

bool Archive::finishRound(int64_t round, std::string &error) {
  Statement insert(db, "INSERT OR IGNORE INTO rounds (round) VALUES (?)");
  insert.bind(1, round);
  return runToCompletion(db, insert, error);
}

int64_t Archive::finishedRounds() {
  Statement select(db, "SELECT COUNT(*) FROM rounds");
  return select && select.step() == SQLITE_ROW ? select.integer(0) : 0;
}

std::vector<CandidateRecord> Archive::candidates() {
  std::vector<CandidateRecord> result;
  Statement select(
      db, "SELECT id, round, idx, knobs, script, parents, operator, stage, "
          "ir_hash, ptx_hash, duplicate_of, diagnostics, descriptors, cell, "
          "bundle, compile_ms, eval_status, verdict, fitness, fitness_kind, "
          "candidate_us, eager_us, torch_compile_us, percent_of_floor, report, "
          "eval_ms, protocol, shapes, full_status, full_verdict, full_fitness, "
          "full_fitness_kind, full_candidate_us, full_eager_us, "
          "full_torch_compile_us, full_percent_of_floor, full_shapes, "
          "full_report FROM candidates ORDER BY id");
  while (select && select.step() == SQLITE_ROW) {
    CandidateRecord r;
    r.id = select.integer(0);
    r.round = select.integer(1);
    r.index = select.integer(2);
    r.knobs = select.text(3);
    r.script = select.text(4);
    r.parents = select.text(5);
    r.op = select.text(6);
    r.stage = select.text(7);
    r.irHash = select.text(8);
    r.ptxHash = select.text(9);
    r.duplicateOf = select.text(10);
    r.diagnostics = select.text(11);
    r.descriptors = select.text(12);
    r.cell = select.text(13);
    r.bundle = select.text(14);
    r.compileMs = select.real(15).value_or(0);
    r.evalStatus = select.text(16);
    r.verdict = select.text(17);
    r.fitness = select.real(18);
    r.fitnessKind = select.text(19);
    r.candidateUs = select.real(20);
    r.eagerUs = select.real(21);
    r.torchCompileUs = select.real(22);
    r.percentOfFloor = select.real(23);
    r.report = select.text(24);
    r.evalMs = select.real(25).value_or(0);
    r.protocol = select.text(26);
    r.shapes = select.text(27);
    r.full.status = select.text(28);
    r.full.verdict = select.text(29);
    r.full.fitness = select.real(30);
    r.full.fitnessKind = select.text(31);
    r.full.candidateUs = select.real(32);
    r.full.eagerUs = select.real(33);
    r.full.torchCompileUs = select.real(34);
    r.full.percentOfFloor = select.real(35);
    r.full.shapes = select.text(36);
    r.full.report = select.text(37);
    result.push_back(std::move(r));
  }
  return result;
}

} // namespace kbench::search
