//===- Archive.cpp - The search archive -----------------------------------===//
//
// The same SQL for SQLite and PostgreSQL (Database.h). Timestamps are UTC
// ISO 8601 strings written by the database ({{NOW}}).
//
//===----------------------------------------------------------------------===//

#include "kbench/Archive/Archive.h"

#include <cstdlib>

namespace kbench::search {

namespace {
int64_t toInteger(const std::optional<std::string> &text) {
  return text ? std::strtoll(text->c_str(), nullptr, 10) : 0;
}
std::optional<double> toReal(const std::optional<std::string> &text) {
  if (!text)
    return std::nullopt;
  return std::strtod(text->c_str(), nullptr);
}
std::string toText(const std::optional<std::string> &text) {
  return text.value_or("");
}
} // namespace

std::unique_ptr<Archive> Archive::open(const std::string &location,
                                       std::string &error) {
  std::unique_ptr<Database> db = Database::open(location, error);
  if (!db || !migrateArchive(*db, location, error))
    return nullptr;
  return std::unique_ptr<Archive>(new Archive(std::move(db)));
}

Archive::~Archive() = default;

bool Archive::run(const std::string &sql, const std::vector<SqlValue> &params,
                  std::vector<SqlRow> *rows, std::string &error) {
  return db->queryRetrying(sql, params, rows, error);
}

int Archive::schemaVersion() { return archiveSchemaVersion(*db); }

std::optional<RunRecord> Archive::getRun() {
  std::vector<SqlRow> rows;
  std::string error;
  if (!run("SELECT task, target, space_hash, fitness, evaluator, seed, "
           "round_size, budget, strategy, start, score, kernel FROM run",
           {}, &rows, error) ||
      rows.empty())
    return std::nullopt;
  const SqlRow &row = rows[0];
  RunRecord record;
  record.task = toText(row[0]);
  record.target = toText(row[1]);
  record.spaceHash = toText(row[2]);
  record.fitness = toText(row[3]);
  record.evaluator = toText(row[4]);
  record.seed = toInteger(row[5]);
  record.roundSize = toInteger(row[6]);
  record.budget = toInteger(row[7]);
  record.strategy = toText(row[8]);
  record.start = toText(row[9]);
  record.score = toText(row[10]);
  record.kernel = toText(row[11]);
  return record;
}

bool Archive::setRun(const RunRecord &record, std::string &error) {
  return run(
      "INSERT INTO run (id, task, target, space_hash, fitness, evaluator, "
      "seed, round_size, budget, strategy, start, score, kernel) VALUES (1, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
      {record.task, record.target, record.spaceHash, record.fitness,
       record.evaluator, record.seed, record.roundSize, record.budget,
       record.strategy, record.start, record.score, record.kernel},
      nullptr, error);
}

bool Archive::setBudget(int64_t budget, std::string &error) {
  return run("UPDATE run SET budget = ?", {budget}, nullptr, error);
}

bool Archive::insert(CandidateRecord &r, std::string &error) {
  // Keyed by (round, idx): run twice (a lost connection after the commit),
  // the second run finds the row and returns its id.
  std::vector<SqlRow> rows;
  if (!run("INSERT INTO candidates (round, idx, knobs, script, parents, "
           "\"operator\", stage, ir_hash, ptx_hash, duplicate_of, diagnostics, "
           "descriptors, cell, bundle, compile_ms) VALUES (?, ?, ?, ?, ?, ?, ?, "
           "?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (round, idx) DO NOTHING",
           {r.round, r.index, r.knobs, r.script, r.parents, r.op, r.stage,
            SqlValue::textOrNull(r.irHash), SqlValue::textOrNull(r.ptxHash),
            SqlValue::textOrNull(r.duplicateOf), r.diagnostics, r.descriptors,
            SqlValue::textOrNull(r.cell), SqlValue::textOrNull(r.bundle),
            r.compileMs},
           nullptr, error) ||
      !run("SELECT id FROM candidates WHERE round = ? AND idx = ?",
           {r.round, r.index}, &rows, error))
    return false;
  if (rows.empty() || !rows[0][0]) {
    error = "archive: the candidate just inserted is not there";
    return false;
  }
  r.id = toInteger(rows[0][0]);
  return true;
}

bool Archive::storeEvaluation(const CandidateRecord &r, std::string &error) {
  return run("UPDATE candidates SET eval_status = ?, verdict = ?, fitness = ?, "
             "fitness_kind = ?, candidate_us = ?, eager_us = ?, "
             "torch_compile_us = ?, percent_of_floor = ?, report = ?, "
             "eval_ms = ?, protocol = ?, shapes = ?, evaluated_at = {{NOW}} "
             "WHERE id = ?",
             {r.evalStatus, SqlValue::textOrNull(r.verdict), r.fitness,
              SqlValue::textOrNull(r.fitnessKind), r.candidateUs, r.eagerUs,
              r.torchCompileUs, r.percentOfFloor, SqlValue::textOrNull(r.report),
              r.evalMs, SqlValue::textOrNull(r.protocol),
              SqlValue::textOrNull(r.shapes), r.id},
             nullptr, error);
}

bool Archive::storeFullMeasurement(const CandidateRecord &r, std::string &error) {
  const Measurement &m = r.full;
  return run("UPDATE candidates SET full_status = ?, full_verdict = ?, "
             "full_fitness = ?, full_fitness_kind = ?, full_candidate_us = ?, "
             "full_eager_us = ?, full_torch_compile_us = ?, "
             "full_percent_of_floor = ?, full_shapes = ?, full_report = ?, "
             "full_at = {{NOW}} WHERE id = ?",
             {m.status, SqlValue::textOrNull(m.verdict), m.fitness,
              SqlValue::textOrNull(m.fitnessKind), m.candidateUs, m.eagerUs,
              m.torchCompileUs, m.percentOfFloor, SqlValue::textOrNull(m.shapes),
              SqlValue::textOrNull(m.report), r.id},
             nullptr, error);
}

bool Archive::finishRound(int64_t round, std::string &error) {
  return run("INSERT INTO rounds (round) VALUES (?) ON CONFLICT (round) DO NOTHING",
             {round}, nullptr, error);
}

int64_t Archive::finishedRounds() {
  std::string error;
  std::vector<SqlRow> rows;
  if (!run("SELECT COUNT(*) FROM rounds", {}, &rows, error) || rows.empty())
    return 0;
  return toInteger(rows[0][0]);
}

std::vector<CandidateRecord> Archive::candidates() {
  std::vector<CandidateRecord> result;
  std::vector<SqlRow> rows;
  std::string error;
  if (!run("SELECT id, round, idx, knobs, script, parents, \"operator\", stage, "
           "ir_hash, ptx_hash, duplicate_of, diagnostics, descriptors, cell, "
           "bundle, compile_ms, eval_status, verdict, fitness, fitness_kind, "
           "candidate_us, eager_us, torch_compile_us, percent_of_floor, report, "
           "eval_ms, protocol, shapes, full_status, full_verdict, full_fitness, "
           "full_fitness_kind, full_candidate_us, full_eager_us, "
           "full_torch_compile_us, full_percent_of_floor, full_shapes, "
           "full_report FROM candidates ORDER BY id",
           {}, &rows, error))
    return result;
  for (const SqlRow &row : rows) {
    CandidateRecord r;
    r.id = toInteger(row[0]);
    r.round = toInteger(row[1]);
    r.index = toInteger(row[2]);
    r.knobs = toText(row[3]);
    r.script = toText(row[4]);
    r.parents = toText(row[5]);
    r.op = toText(row[6]);
    r.stage = toText(row[7]);
    r.irHash = toText(row[8]);
    r.ptxHash = toText(row[9]);
    r.duplicateOf = toText(row[10]);
    r.diagnostics = toText(row[11]);
    r.descriptors = toText(row[12]);
    r.cell = toText(row[13]);
    r.bundle = toText(row[14]);
    r.compileMs = toReal(row[15]).value_or(0);
    r.evalStatus = toText(row[16]);
    r.verdict = toText(row[17]);
    r.fitness = toReal(row[18]);
    r.fitnessKind = toText(row[19]);
    r.candidateUs = toReal(row[20]);
    r.eagerUs = toReal(row[21]);
    r.torchCompileUs = toReal(row[22]);
    r.percentOfFloor = toReal(row[23]);
    r.report = toText(row[24]);
    r.evalMs = toReal(row[25]).value_or(0);
    r.protocol = toText(row[26]);
    r.shapes = toText(row[27]);
    r.full.status = toText(row[28]);
    r.full.verdict = toText(row[29]);
    r.full.fitness = toReal(row[30]);
    r.full.fitnessKind = toText(row[31]);
    r.full.candidateUs = toReal(row[32]);
    r.full.eagerUs = toReal(row[33]);
    r.full.torchCompileUs = toReal(row[34]);
    r.full.percentOfFloor = toReal(row[35]);
    r.full.shapes = toText(row[36]);
    r.full.report = toText(row[37]);
    result.push_back(std::move(r));
  }
  return result;
}

} // namespace kbench::search
