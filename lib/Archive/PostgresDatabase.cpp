//===- PostgresDatabase.cpp - The PostgreSQL backend of Database ----------===//
//
// libpq, text protocol. The connection parameters are libpq's own
// environment (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSERVICE,
// ~/.pgpass), never kbench flags. Each search lives in its own schema
// kbench_NAME, put first on the search path at connect time (and again after
// a reconnect), so the archive's SQL is the same text as in SQLite.
//
// A lost connection (a restarted server, a dropped network) is told apart
// from an SQL error: connectionLost() says so and reconnect() retries with
// a growing pause; callers then re-run their whole operation, which the
// archive's operations are written to allow (docs/search.md).
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include <libpq-fe.h>

#include <chrono>
#include <map>
#include <cstdlib>
#include <thread>

namespace kbench::search {
namespace {

class PostgresDatabase : public Database {
public:
  explicit PostgresDatabase(std::string name) : name(std::move(name)) {}
  ~PostgresDatabase() override { PQfinish(connection); }

  bool connect(std::string &error) {
    PQfinish(connection);
    statements_.clear(); // prepared statements live and die with a session
    nextStatement = 0;
    // Everything from the environment; a short connect timeout unless the
    // user set one, so that a dead server is reported instead of waited on.
    std::vector<const char *> keywords = {"application_name"}, values = {"kbench"};
    if (!std::getenv("PGCONNECT_TIMEOUT")) {
      keywords.push_back("connect_timeout");
      values.push_back("10");
    }
    keywords.push_back(nullptr);
    values.push_back(nullptr);
    connection = PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/0);
    if (PQstatus(connection) != CONNECTION_OK) {
      error = "cannot connect to the PostgreSQL archive (server and "
              "credentials from PGHOST, PGPORT, PGUSER, PGPASSWORD, "
              "PGDATABASE): " + message();
      lost = true;
      return false;
    }
    lost = false;
    // Quiet notices ("schema already exists") instead of printing to stderr.
    PQsetNoticeProcessor(connection, [](void *, const char *) {}, nullptr);
    std::string schema = "kbench_" + name;
    std::string sql =
        "CREATE SCHEMA IF NOT EXISTS " + schema + "; SET search_path TO " + schema +
        (deferred ? "; SET synchronous_commit = off" : "");
    // Two processes creating the schema at once: one of them fails on the
    // catalog's unique index, and its second try finds the schema there.
    return script(sql, error) || (!lost && script(sql, error));
  }

  Dialect dialect() const override { return Dialect::PostgreSQL; }
  std::string describe() const override {
    return "PostgreSQL schema kbench_" + name;
  }

  bool script(const std::string &sql, std::string &error) override {
    PGresult *result = PQexec(connection, sql.c_str());
    return finish(result, nullptr, error);
  }

  /// One statement is a batch of one: prepared (once per session) and
  /// executed in a single round trip.
  bool query(const std::string &sql, const std::vector<SqlValue> &params,
             std::vector<SqlRow> *rows, std::string &error) override {
    std::vector<std::vector<SqlRow>> answers;
    if (!batch({{sql, params}}, rows ? &answers : nullptr, error))
      return false;
    if (rows)
      rows->insert(rows->end(), answers[0].begin(), answers[0].end());
    return true;
  }

  bool batch(const std::vector<SqlStatement> &statements,
             std::vector<std::vector<SqlRow>> *rows, std::string &error) override {
    if (rows)
      rows->assign(statements.size(), {});
    if (!PQenterPipelineMode(connection))
      return finish(nullptr, nullptr, error);
    // Send everything: the statements not yet prepared in this session are
    // prepared in the same pipeline, just before their first use (the
    // queue's few statements run thousands of times, and parsing them is
    // most of a small server's work per claim).
    std::vector<std::string> newlyPrepared; // names whose Parse is in flight
    std::vector<int> kinds;                 // 0: a prepare, 1: a statement
    bool sent = true;
    for (const SqlStatement &statement : statements) {
      std::string text = expandSql(statement.sql);
      std::vector<std::optional<std::string>> texts;
      for (const SqlValue &value : statement.params)
        texts.push_back(value.asText());
      std::vector<const char *> pointers;
      for (const std::optional<std::string> &value : texts)
        pointers.push_back(value ? value->c_str() : nullptr);
      auto prepared = statements_.find(text);
      if (prepared == statements_.end()) {
        std::string name = "kbench_" + std::to_string(nextStatement++);
        sent = sent && PQsendPrepare(connection, name.c_str(), text.c_str(),
                                     int(pointers.size()), nullptr);
        prepared = statements_.emplace(text, name).first;
        newlyPrepared.push_back(text);
        kinds.push_back(0);
      }
      sent = sent && PQsendQueryPrepared(connection, prepared->second.c_str(),
                                         int(pointers.size()), pointers.data(),
                                         nullptr, nullptr, 0);
      kinds.push_back(1);
    }
    sent = sent && PQpipelineSync(connection);
    if (!sent) {
      statements_.clear();
      lost = true;
      error = "archive: " + message();
      return false;
    }
    // Read one result (then a null) per command, then the sync.
    bool ok = true;
    size_t statement = 0;
    for (int kind : kinds) {
      PGresult *result = PQgetResult(connection);
      if (!result) {
        ok = false;
        lost = true;
        error = "archive: " + message();
        break;
      }
      if (ok && PQresultStatus(result) != PGRES_PIPELINE_ABORTED) {
        std::vector<SqlRow> *into =
            kind == 1 && rows ? &(*rows)[statement] : nullptr;
        ok = finish(result, into, error); // clears `result`
      } else {
        PQclear(result); // after the first failure, only its echoes
      }
      while (PGresult *extra = PQgetResult(connection))
        PQclear(extra);
      statement += kind;
    }
    if (!lost) {
      PGresult *sync = PQgetResult(connection);
      if (!sync || PQresultStatus(sync) != PGRES_PIPELINE_SYNC) {
        ok = false;
        lost = PQstatus(connection) != CONNECTION_OK;
        if (error.empty())
          error = "archive: the pipeline ended unexpectedly";
      }
      PQclear(sync);
      PQexitPipelineMode(connection);
    }
    if (!ok)
      // A failed Parse leaves its name unprepared: forget every name of
      // this batch rather than guess which.
      for (const std::string &text : newlyPrepared)
        statements_.erase(text);
    return ok;
  }

  bool connectionLost() const override { return lost; }

  bool deferFlushes(std::string &error) override {
    deferred = true;
    return script("SET synchronous_commit = off", error);
  }

  bool reconnect(double seconds, std::string &error) override {
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration<double>(seconds);
    std::chrono::milliseconds pause(50);
    while (true) {
      if (connect(error))
        return true;
      if (std::chrono::steady_clock::now() + pause > deadline) {
        error += " (gave up after " + std::to_string(int(seconds)) + " s)";
        return false;
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(2000));
    }
  }

private:
  std::string message() const {
    std::string text = PQerrorMessage(connection);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
      text.pop_back();
    return text;
  }

  bool finish(PGresult *result, std::vector<SqlRow> *rows, std::string &error) {
    ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    if (ok && rows)
      for (int r = 0, n = PQntuples(result); r < n; ++r) {
        SqlRow row;
        for (int c = 0, m = PQnfields(result); c < m; ++c)
          row.push_back(PQgetisnull(result, r, c)
                            ? std::nullopt
                            : std::optional<std::string>(std::string(
                                  PQgetvalue(result, r, c),
                                  size_t(PQgetlength(result, r, c)))));
        rows->push_back(std::move(row));
      }
    if (!ok) {
      const char *state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
      // Class 08 (connection exception) and 57P (operator intervention:
      // admin shutdown, crash shutdown, cannot connect now), a connection
      // libpq already knows is gone, or an error libpq made up itself
      // without a server's SQLSTATE ("server closed the connection
      // unexpectedly" while a write still looked fine).
      std::string code = state ? state : "";
      lost = PQstatus(connection) != CONNECTION_OK || code.empty() ||
             code.rfind("08", 0) == 0 || code.rfind("57P", 0) == 0;
      std::string text = result ? PQresultErrorMessage(result) : message();
      while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
      if (text.empty())
        text = message();
      error = "archive: " + text;
    }
    PQclear(result);
    return ok;
  }

  std::string name;
  PGconn *connection = nullptr;
  bool lost = false;
  bool deferred = false;
  /// SQL text -> the name it is prepared under in this session.
  std::map<std::string, std::string> statements_;
  /// Names are never reused within a session: a name forgotten after a
  /// failed batch may still be prepared on the server.
  uint64_t nextStatement = 0;
};

} // namespace

std::unique_ptr<Database> openPostgresDatabase(const std::string &name,
                                               std::string &error) {
  auto database = std::make_unique<PostgresDatabase>(name);
  // No retry here: a wrong PGHOST is reported at once; a server lost later
  // is waited for (reconnect()).
  if (!database->connect(error))
    return nullptr;
  return database;
}

} // namespace kbench::search
