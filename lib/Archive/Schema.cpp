//===- Schema.cpp - The archive's tables and their migrations -------------===//

#include "kbench/Archive/Schema.h"

#include <cstdlib>
#include <iterator>

namespace kbench::search {

/// Migration i takes the schema from version i to i + 1. SQLite archives
/// written before the PostgreSQL backend ran the same statements with REAL
/// and INTEGER PRIMARY KEY, which SQLite stores exactly as it stores the
/// DOUBLE PRECISION and {{ID}} written here.
static const char *const kMigrations[] = {
    // 0 -> 1: the first schema.
    R"sql(
CREATE TABLE run (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  task TEXT NOT NULL, target TEXT NOT NULL, seed BIGINT NOT NULL,
  space_hash TEXT NOT NULL, fitness TEXT NOT NULL, evaluator TEXT NOT NULL,
  round_size BIGINT NOT NULL, budget BIGINT NOT NULL,
  started_at TEXT NOT NULL DEFAULT ({{NOW}}));
CREATE TABLE candidates (
  id {{ID}},
  round BIGINT NOT NULL, idx BIGINT NOT NULL,
  knobs TEXT NOT NULL, script TEXT NOT NULL, parents TEXT NOT NULL,
  "operator" TEXT NOT NULL, stage TEXT NOT NULL,
  ir_hash TEXT, ptx_hash TEXT, duplicate_of TEXT,
  diagnostics TEXT NOT NULL, descriptors TEXT NOT NULL, cell TEXT,
  bundle TEXT, compile_ms DOUBLE PRECISION,
  created_at TEXT NOT NULL DEFAULT ({{NOW}}),
  eval_status TEXT, verdict TEXT, fitness DOUBLE PRECISION, fitness_kind TEXT,
  candidate_us DOUBLE PRECISION, eager_us DOUBLE PRECISION,
  torch_compile_us DOUBLE PRECISION, percent_of_floor DOUBLE PRECISION,
  report TEXT, eval_ms DOUBLE PRECISION, evaluated_at TEXT,
  UNIQUE (round, idx));
CREATE INDEX candidates_ir_hash ON candidates (ir_hash);
CREATE TABLE rounds (
  round BIGINT PRIMARY KEY,
  finished_at TEXT NOT NULL DEFAULT ({{NOW}}));
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
ALTER TABLE candidates ADD COLUMN full_fitness DOUBLE PRECISION;
ALTER TABLE candidates ADD COLUMN full_fitness_kind TEXT;
ALTER TABLE candidates ADD COLUMN full_candidate_us DOUBLE PRECISION;
ALTER TABLE candidates ADD COLUMN full_eager_us DOUBLE PRECISION;
ALTER TABLE candidates ADD COLUMN full_torch_compile_us DOUBLE PRECISION;
ALTER TABLE candidates ADD COLUMN full_percent_of_floor DOUBLE PRECISION;
ALTER TABLE candidates ADD COLUMN full_shapes TEXT;
ALTER TABLE candidates ADD COLUMN full_report TEXT;
ALTER TABLE candidates ADD COLUMN full_at TEXT;
)sql",
    // 3 -> 4: the work queue of evaluator workers (2026-12-02). A job is
    // one unit of claim: one bundle of a search round, or every elite of a
    // confirm round (re-measured together on one GPU). Times are seconds
    // since 1970 by the database's clock. A result is accepted only from
    // the job's current claim; results of expired, retaken claims are kept
    // with accepted = 0 (superseded), and the partial unique index makes
    // two accepted results for one bundle impossible whatever the code does.
    R"sql(
CREATE TABLE jobs (
  id {{ID}},
  round_name TEXT NOT NULL, job_key TEXT NOT NULL,
  timing TEXT NOT NULL, target TEXT NOT NULL, shapes TEXT NOT NULL,
  timeout TEXT NOT NULL, task_json TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued',
  worker TEXT, claim_token BIGINT NOT NULL DEFAULT 0,
  claims BIGINT NOT NULL DEFAULT 0,
  lease_until DOUBLE PRECISION, claimed_at DOUBLE PRECISION,
  heartbeat_at DOUBLE PRECISION,
  enqueued_at DOUBLE PRECISION NOT NULL DEFAULT ({{EPOCH}}),
  done_at DOUBLE PRECISION,
  UNIQUE (round_name, job_key));
CREATE INDEX jobs_claimable ON jobs (state, id);
CREATE TABLE job_bundles (
  job_id BIGINT NOT NULL REFERENCES jobs (id),
  request_id TEXT NOT NULL,
  PRIMARY KEY (job_id, request_id));
CREATE TABLE job_files (
  job_id BIGINT NOT NULL REFERENCES jobs (id),
  request_id TEXT NOT NULL, path TEXT NOT NULL, content_base64 TEXT NOT NULL,
  PRIMARY KEY (job_id, request_id, path));
CREATE TABLE results (
  id {{ID}},
  job_id BIGINT NOT NULL REFERENCES jobs (id),
  request_id TEXT NOT NULL, claim_token BIGINT NOT NULL, worker TEXT NOT NULL,
  accepted INTEGER NOT NULL, status TEXT NOT NULL, exit_code BIGINT NOT NULL,
  report TEXT, seconds DOUBLE PRECISION,
  created_at DOUBLE PRECISION NOT NULL DEFAULT ({{EPOCH}}));
CREATE UNIQUE INDEX results_one_accepted ON results (job_id, request_id)
  WHERE accepted = 1;
CREATE INDEX results_job ON results (job_id);
)sql",
    // 4 -> 5: the kernel file a search ran on, relative to the task's
    // folder ('' for its kernel.mlir), which --export-dispatch writes into
    // the variants (2026-12-06).
    R"sql(
ALTER TABLE run ADD COLUMN kernel TEXT NOT NULL DEFAULT '';
)sql",
};
static_assert(std::size(kMigrations) == kArchiveSchemaVersion,
              "one migration per schema version");

int archiveSchemaVersion(Database &db) {
  std::string error;
  std::optional<std::string> version =
      db.scalar("SELECT version FROM schema_version", {}, error);
  return version ? std::atoi(version->c_str()) : 0;
}

static bool tooNew(int version, const std::string &where, std::string &error) {
  if (version <= kArchiveSchemaVersion)
    return false;
  error = "the archive " + where + " has schema version " + std::to_string(version) +
          ", newer than this kbench's " + std::to_string(kArchiveSchemaVersion) +
          "; use a newer kbench";
  return true;
}

bool migrateArchive(Database &db, const std::string &where, std::string &error) {
  // The common case, many workers opening a current archive: no write lock.
  {
    std::string ignored;
    std::optional<std::string> version =
        db.scalar("SELECT version FROM schema_version", {}, ignored);
    if (version) {
      int current = std::atoi(version->c_str());
      if (tooNew(current, where, error))
        return false;
      if (current == kArchiveSchemaVersion)
        return true;
    }
  }
  if (!db.begin(error))
    return false;
  auto fail = [&](const std::string &what) {
    db.rollback();
    error = what + ": " + error;
    return false;
  };
  if (db.dialect() == Database::Dialect::PostgreSQL &&
      !db.query("SELECT pg_advisory_xact_lock(7261023)", {}, nullptr, error))
    return fail("cannot lock the archive " + where + " to migrate it");
  if (!db.script("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
                 error))
    return fail("cannot read the archive " + where + " (is it a kbench archive?)");
  int version = archiveSchemaVersion(db);
  if (tooNew(version, where, error)) {
    db.rollback();
    return false;
  }
  int from = version;
  for (; version < kArchiveSchemaVersion; ++version)
    if (!db.script(db.expandSql(kMigrations[version]), error))
      return fail("cannot migrate the archive " + where + " to version " +
                  std::to_string(version + 1));
  if (version != from &&
      (!db.script("DELETE FROM schema_version", error) ||
       !db.query("INSERT INTO schema_version VALUES (?)", {int64_t(version)}, nullptr,
                 error)))
    return fail("cannot record the schema version of " + where);
  return db.commit(error) || fail("cannot migrate the archive " + where);
}

} // namespace kbench::search
