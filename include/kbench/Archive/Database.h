//===- Database.h - One SQL interface over SQLite and PostgreSQL -*- C++ -*-===//
//
// The search archive and its work queue are written once, in SQL both
// engines accept, against this interface. Two backends:
//   - SQLite: a file (the embedded default; WAL, one writer at a time);
//   - PostgreSQL: a schema `kbench_NAME` in the database that libpq's
//     environment names (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE,
//     PGSERVICE, ~/.pgpass): credentials never pass through flags or files
//     kbench writes.
// Statements use `?` placeholders and a few dialect words in double braces
// ({{ID}}, {{EPOCH}}, {{NOW}}, {{SKIP_LOCKED}}), expanded per backend by
// expandSql(). Results come back as text (NULL as nullopt), which is how
// both engines hand them over.
//
// Plain C++17 (no LLVM): kbench-worker links it on machines without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_ARCHIVE_DATABASE_H
#define KBENCH_ARCHIVE_DATABASE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kbench::search {

/// A statement parameter: NULL, an integer, a real or text.
class SqlValue {
public:
  enum class Kind { Null, Integer, Real, Text };
  SqlValue() = default;
  SqlValue(int64_t value) : kind(Kind::Integer), integer(value) {}
  SqlValue(int value) : SqlValue(int64_t(value)) {}
  SqlValue(double value) : kind(Kind::Real), real(value) {}
  SqlValue(std::optional<double> value)
      : kind(value ? Kind::Real : Kind::Null), real(value.value_or(0)) {}
  SqlValue(std::string value) : kind(Kind::Text), text(std::move(value)) {}
  SqlValue(const char *value) : SqlValue(std::string(value)) {}
  /// Text, or NULL when empty (optional text columns).
  static SqlValue textOrNull(const std::string &value) {
    return value.empty() ? SqlValue() : SqlValue(value);
  }

  Kind kind = Kind::Null;
  int64_t integer = 0;
  double real = 0;
  std::string text;

  /// The value as SQL text for PostgreSQL's text protocol (nullopt: NULL).
  std::optional<std::string> asText() const;
};

using SqlRow = std::vector<std::optional<std::string>>;

/// A statement and its parameters, for Database::batch.
struct SqlStatement {
  std::string sql;
  std::vector<SqlValue> params;
};

class Database {
public:
  enum class Dialect { SQLite, PostgreSQL };

  /// Opens `location`: "postgresql:NAME" (or "postgres:NAME") for the
  /// PostgreSQL schema kbench_NAME, else an SQLite file (created if needed).
  static std::unique_ptr<Database> open(const std::string &location,
                                        std::string &error);
  /// Whether `location` names a PostgreSQL archive.
  static bool isPostgres(const std::string &location);

  virtual ~Database();
  virtual Dialect dialect() const = 0;
  /// "SQLite file F" or "PostgreSQL schema kbench_NAME".
  virtual std::string describe() const = 0;

  /// Runs one statement; its rows (if any) into `rows`. False with the
  /// engine's message in `error` when it fails.
  virtual bool query(const std::string &sql, const std::vector<SqlValue> &params,
                     std::vector<SqlRow> *rows, std::string &error) = 0;
  /// Runs `statements` in order and stops at the first that fails; the rows
  /// of statement i go to (*rows)[i]. PostgreSQL sends them all before
  /// reading an answer (libpq's pipeline mode): one round trip for the
  /// batch, which is what a worker's claim and submit cost on a busy
  /// server. A batch that opens a transaction must also end it.
  virtual bool batch(const std::vector<SqlStatement> &statements,
                     std::vector<std::vector<SqlRow>> *rows, std::string &error);

  /// Runs several statements without parameters.
  virtual bool script(const std::string &sql, std::string &error) = 0;

  /// A write transaction: SQLite takes the write lock at once (BEGIN
  /// IMMEDIATE), so two writers never deadlock on an upgrade.
  bool begin(std::string &error);
  bool commit(std::string &error);
  /// Never fails loudly: a transaction the server already dropped is gone.
  void rollback();

  /// From now on (and after reconnects), commits on this connection return
  /// before the server has flushed them to disk: PostgreSQL's
  /// synchronous_commit = off, a no-op on SQLite. A server crash may then
  /// forget the last few milliseconds of commits, so it is only for
  /// statements whose loss is harmless (a worker's claims and heartbeats:
  /// a forgotten claim is claimed again). A transaction opts back in with
  /// `SET LOCAL synchronous_commit = on` (WorkQueue::submit).
  virtual bool deferFlushes(std::string &error) {
    (void)error;
    return true;
  }

  /// Whether the last failure lost the connection (the server restarted or
  /// the network failed) rather than being refused by SQL: the operation
  /// may be retried after reconnect().
  virtual bool connectionLost() const { return false; }
  /// Reconnects, retrying until `seconds` have passed.
  virtual bool reconnect(double seconds, std::string &error) {
    (void)seconds;
    error = "the archive cannot reconnect";
    return false;
  }

  /// Runs `operation` (one statement, a batch or a whole transaction),
  /// and again each time it failed because the connection was lost and
  /// reconnect() brought it back; for operations that may run twice (keyed
  /// inserts, idempotent updates, reads). A failure refused by SQL rolls
  /// back whatever transaction the operation left open.
  bool retrying(const std::function<bool(std::string &)> &operation,
                std::string &error);

  /// query() through retrying().
  bool queryRetrying(const std::string &sql, const std::vector<SqlValue> &params,
                     std::vector<SqlRow> *rows, std::string &error);

  /// `sql` with the dialect words expanded and, for PostgreSQL, `?`
  /// placeholders numbered ($1, $2, ...).
  std::string expandSql(const std::string &sql) const;

  /// Convenience: the first column of the first row, if any.
  std::optional<std::string> scalar(const std::string &sql,
                                    const std::vector<SqlValue> &params,
                                    std::string &error);
};

/// Base64 (RFC 4648) of bytes, and back; file contents travel through the
/// archive as text so that both engines store them the same way.
std::string encodeBase64(const std::string &bytes);
std::optional<std::string> decodeBase64(const std::string &text);

/// Seconds to keep reconnecting after a lost connection: $KBENCH_DB_RETRY_SECONDS
/// (default 120).
double reconnectSeconds();

} // namespace kbench::search

#endif // KBENCH_ARCHIVE_DATABASE_H
