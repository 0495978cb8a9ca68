//===- WorkQueue.cpp - Jobs for evaluator workers, in the archive ---------===//
//
// Every operation is one statement or one transaction, and each may run
// again whole after a lost PostgreSQL connection: enqueue is keyed by
// (round, job key), a claim lost in flight only expires, and submit
// recognises its own accepted results when the commit's answer was lost.
//
//===----------------------------------------------------------------------===//

#include "kbench/Archive/WorkQueue.h"

#include "kbench/Archive/Schema.h"

#include <cstdlib>

namespace kbench::search {

namespace {
int64_t toInteger(const std::optional<std::string> &text) {
  return text ? std::strtoll(text->c_str(), nullptr, 10) : 0;
}

std::string joinShapes(const std::vector<std::string> &shapes) {
  std::string joined;
  for (const std::string &shape : shapes)
    joined += (joined.empty() ? "" : ",") + shape;
  return joined;
}

std::vector<std::string> splitShapes(const std::string &joined) {
  std::vector<std::string> shapes;
  size_t start = 0;
  while (start < joined.size()) {
    size_t comma = joined.find(',', start);
    if (comma == std::string::npos)
      comma = joined.size();
    if (comma > start)
      shapes.push_back(joined.substr(start, comma - start));
    start = comma + 1;
  }
  return shapes;
}
} // namespace

/// The bundles and files of the job `worker` claimed last.
static const char kFilesOfHeldJob[] =
    "SELECT b.job_id, b.request_id, f.path, f.content_base64 FROM job_bundles b "
    "LEFT JOIN job_files f ON f.job_id = b.job_id AND f.request_id = b.request_id "
    "WHERE b.job_id = (SELECT id FROM jobs WHERE worker = ? AND state = 'claimed' "
    "ORDER BY claimed_at DESC, id DESC LIMIT 1) ORDER BY b.request_id, f.path";

std::unique_ptr<WorkQueue> WorkQueue::open(const std::string &location,
                                           std::string &error) {
  std::unique_ptr<Database> db = Database::open(location, error);
  if (!db || !migrateArchive(*db, location, error))
    return nullptr;
  // A worker's claims and heartbeats need not wait for the disk: a claim
  // the server forgets in a crash is claimed again, and its first
  // holder's result is then superseded (submit() checks token and worker).
  // Results are committed durably (submit).
  if (!db->deferFlushes(error))
    return nullptr;
  std::unique_ptr<WorkQueue> queue(new WorkQueue());
  queue->db = db.get();
  queue->owned = std::move(db);
  return queue;
}

bool WorkQueue::enqueue(const JobSpec &spec, int64_t &jobId, std::string &error) {
  return db->retrying(
      [&](std::string &error) {
        std::vector<SqlRow> rows;
        if (!db->begin(error) ||
            !db->query("INSERT INTO jobs (round_name, job_key, timing, target, "
                       "shapes, timeout, task_json) VALUES (?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (round_name, job_key) DO NOTHING RETURNING id",
                       {spec.roundName, spec.jobKey, spec.timing, spec.target,
                        joinShapes(spec.shapes), spec.timeout, spec.taskJson},
                       &rows, error))
          return false;
        if (rows.empty()) {
          // Enqueued before (a resumed search): the job, its claims and
          // results stay as they are.
          std::optional<std::string> id = db->scalar(
              "SELECT id FROM jobs WHERE round_name = ? AND job_key = ?",
              {spec.roundName, spec.jobKey}, error);
          if (!id)
            return false;
          jobId = toInteger(id);
          return db->commit(error);
        }
        jobId = toInteger(rows[0][0]);
        for (const JobBundle &bundle : spec.bundles) {
          if (!db->query("INSERT INTO job_bundles (job_id, request_id) VALUES (?, ?)",
                         {jobId, bundle.requestId}, nullptr, error))
            return false;
          for (const auto &[path, bytes] : bundle.files)
            if (!db->query("INSERT INTO job_files (job_id, request_id, path, "
                           "content_base64) VALUES (?, ?, ?, ?)",
                           {jobId, bundle.requestId, path, encodeBase64(bytes)},
                           nullptr, error))
              return false;
        }
        return db->commit(error);
      },
      error);
}

bool WorkQueue::jobOf(const std::string &roundName, const std::string &requestId,
                      std::optional<int64_t> &jobId, std::string &error) {
  std::vector<SqlRow> rows;
  if (!db->queryRetrying("SELECT b.job_id FROM job_bundles b JOIN jobs j ON "
                         "j.id = b.job_id WHERE j.round_name = ? AND b.request_id = ?",
                         {roundName, requestId}, &rows, error))
    return false;
  jobId.reset();
  if (!rows.empty() && rows[0][0])
    jobId = toInteger(rows[0][0]);
  return true;
}

std::optional<Claim> WorkQueue::claim(const std::string &worker,
                                      double leaseSeconds, std::string &error) {
  error.clear();
  // One batch (one round trip on PostgreSQL): the claim, then the files of
  // the job this worker now holds. A claim lost in flight (committed,
  // answer lost) is not retried into a second claim's place: it expires
  // and is taken over.
  std::vector<std::vector<SqlRow>> answers;
  std::vector<SqlStatement> statements = {
      {"UPDATE jobs SET state = 'claimed', worker = ?, "
       "claim_token = claim_token + 1, claims = claims + 1, "
       "lease_until = {{EPOCH}} + ?, claimed_at = {{EPOCH}}, "
       "heartbeat_at = {{EPOCH}} WHERE id = (SELECT id FROM jobs WHERE "
       "state = 'queued' OR (state = 'claimed' AND lease_until < {{EPOCH}}) "
       "ORDER BY id LIMIT 1 {{SKIP_LOCKED}}) RETURNING id, claim_token, "
       "round_name, job_key, timing, target, shapes, timeout, task_json",
       {worker, leaseSeconds}},
      {kFilesOfHeldJob, {worker}}};
  if (!db->retrying(
          [&](std::string &error) { return db->batch(statements, &answers, error); },
          error))
    return std::nullopt;
  if (answers[0].empty())
    return std::nullopt;
  const SqlRow &row = answers[0][0];
  Claim claim;
  claim.jobId = toInteger(row[0]);
  claim.token = toInteger(row[1]);
  JobSpec &spec = claim.spec;
  spec.roundName = row[2].value_or("");
  spec.jobKey = row[3].value_or("");
  spec.timing = row[4].value_or("");
  spec.target = row[5].value_or("");
  spec.shapes = splitShapes(row[6].value_or(""));
  spec.timeout = row[7].value_or("");
  spec.taskJson = row[8].value_or("");
  std::vector<SqlRow> files = std::move(answers[1]);
  // The files are of the job this worker holds most recently; should an
  // earlier claim under the same worker name still be open (a worker
  // restarted with --name before its lease ran out), read them by id.
  if (!files.empty() && toInteger(files[0][0]) != claim.jobId &&
      !db->queryRetrying("SELECT b.job_id, b.request_id, f.path, f.content_base64 "
                         "FROM job_bundles b LEFT JOIN job_files f ON "
                         "f.job_id = b.job_id AND f.request_id = b.request_id "
                         "WHERE b.job_id = ? ORDER BY b.request_id, f.path",
                         {claim.jobId}, &files, error))
    return std::nullopt;
  for (const SqlRow &file : files) {
    std::string requestId = file[1].value_or("");
    if (spec.bundles.empty() || spec.bundles.back().requestId != requestId)
      spec.bundles.push_back({requestId, {}});
    if (!file[2])
      continue; // a bundle without files
    std::optional<std::string> bytes = decodeBase64(file[3].value_or(""));
    if (!bytes) {
      error = "archive: job " + std::to_string(claim.jobId) + " holds a file " +
              *file[2] + " that is not base64";
      return std::nullopt;
    }
    spec.bundles.back().files.emplace_back(*file[2], std::move(*bytes));
  }
  return claim;
}

bool WorkQueue::heartbeat(const Claim &claim, double leaseSeconds, bool &stillOurs,
                          std::string &error) {
  std::vector<SqlRow> rows;
  if (!db->queryRetrying("UPDATE jobs SET lease_until = {{EPOCH}} + ?, "
                         "heartbeat_at = {{EPOCH}} WHERE id = ? AND "
                         "claim_token = ? AND state = 'claimed' RETURNING id",
                         {leaseSeconds, claim.jobId, claim.token}, &rows, error))
    return false;
  stillOurs = !rows.empty();
  return true;
}

bool WorkQueue::submit(const Claim &claim, const std::string &worker,
                       const std::vector<BundleResult> &results, bool &accepted,
                       std::string &error) {
  // One batch, one transaction: the update that marks the job done if this
  // is still its current claim (token and worker: a claim forgotten by a
  // crashed server is numbered again by whoever claims the job next), the
  // results with `accepted` computed from that, unless this claim's results
  // are already in (a retry after a lost answer), and what was decided.
  // Results are durable even on a connection whose claims are not.
  bool postgres = db->dialect() == Database::Dialect::PostgreSQL;
  std::vector<SqlStatement> statements;
  statements.push_back({postgres ? "BEGIN" : "BEGIN IMMEDIATE", {}});
  if (postgres)
    statements.push_back({"SET LOCAL synchronous_commit = on", {}});
  statements.push_back({"UPDATE jobs SET state = 'done', done_at = {{EPOCH}} WHERE "
                        "id = ? AND claim_token = ? AND worker = ? AND "
                        "state = 'claimed'",
                        {claim.jobId, claim.token, worker}});
  if (!results.empty()) {
    SqlStatement insert{"INSERT INTO results (job_id, request_id, claim_token, "
                        "worker, accepted, status, exit_code, report, seconds) ",
                        {}};
    for (size_t i = 0; i < results.size(); ++i) {
      const BundleResult &result = results[i];
      insert.sql += i ? " UNION ALL " : "";
      insert.sql +=
          "SELECT CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), "
          "CAST(? AS TEXT), (SELECT COUNT(*) FROM jobs WHERE id = CAST(? AS BIGINT) "
          "AND state = 'done' AND claim_token = CAST(? AS BIGINT) AND worker = "
          "CAST(? AS TEXT)), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), "
          "CAST(? AS DOUBLE PRECISION) WHERE NOT EXISTS (SELECT 1 FROM results "
          "WHERE job_id = CAST(? AS BIGINT) AND claim_token = CAST(? AS BIGINT) "
          "AND worker = CAST(? AS TEXT))";
      insert.params.insert(
          insert.params.end(),
          {claim.jobId, result.requestId, claim.token, worker, claim.jobId,
           claim.token, worker, result.status, result.exitCode,
           SqlValue::textOrNull(result.report), result.seconds, claim.jobId,
           claim.token, worker});
    }
    statements.push_back(std::move(insert));
  }
  statements.push_back({"SELECT COUNT(*) FROM jobs WHERE id = ? AND state = 'done' "
                        "AND claim_token = ? AND worker = ?",
                        {claim.jobId, claim.token, worker}});
  statements.push_back({"COMMIT", {}});
  size_t decided = statements.size() - 2;
  return db->retrying(
      [&](std::string &error) {
        std::vector<std::vector<SqlRow>> answers;
        if (!db->batch(statements, &answers, error))
          return false;
        if (answers[decided].empty() || !answers[decided][0][0]) {
          error = "archive: there is no job " + std::to_string(claim.jobId);
          return false;
        }
        accepted = toInteger(answers[decided][0][0]) > 0;
        return true;
      },
      error);
}

bool WorkQueue::acceptedResults(const std::vector<int64_t> &jobIds,
                                std::vector<AcceptedResult> &results,
                                std::string &error) {
  results.clear();
  if (jobIds.empty())
    return true;
  std::string sql = "SELECT job_id, request_id, status, exit_code, report, seconds, "
                    "worker FROM results WHERE accepted = 1 AND job_id IN (";
  std::vector<SqlValue> params;
  for (int64_t id : jobIds) {
    sql += params.empty() ? "?" : ", ?";
    params.push_back(id);
  }
  sql += ") ORDER BY id";
  std::vector<SqlRow> rows;
  if (!db->queryRetrying(sql, params, &rows, error))
    return false;
  for (const SqlRow &row : rows) {
    AcceptedResult accepted;
    accepted.jobId = toInteger(row[0]);
    accepted.result.requestId = row[1].value_or("");
    accepted.result.status = row[2].value_or("");
    accepted.result.exitCode = toInteger(row[3]);
    accepted.result.report = row[4].value_or("");
    accepted.result.seconds = row[5] ? std::strtod(row[5]->c_str(), nullptr) : 0;
    accepted.worker = row[6].value_or("");
    results.push_back(std::move(accepted));
  }
  return true;
}

} // namespace kbench::search
