//===- SqliteDatabase.cpp - The SQLite backend of Database ----------------===//
//
// WAL mode (readers never block the writer; a commit is durable once its
// frames are in the log) with synchronous=FULL, and a busy timeout so that
// several processes on one machine (the search and its workers) take turns
// at the write lock instead of failing.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include <sqlite3.h>

#include <cstdio>

namespace kbench::search {
namespace {

class SqliteDatabase : public Database {
public:
  explicit SqliteDatabase(std::string file) : file(std::move(file)) {}
  ~SqliteDatabase() override { sqlite3_close(db); }

  bool connect(std::string &error) {
    if (sqlite3_open(file.c_str(), &db) != SQLITE_OK) {
      error = "cannot open the archive " + file + ": " + sqlite3_errmsg(db);
      return false;
    }
    sqlite3_busy_timeout(db, 30000);
    if (!script("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", error)) {
      error += " (is " + file + " an SQLite archive?)";
      return false;
    }
    return true;
  }

  Dialect dialect() const override { return Dialect::SQLite; }
  std::string describe() const override { return "SQLite file " + file; }

  bool script(const std::string &sql, std::string &error) override {
    char *message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK)
      return true;
    error = std::string("archive: ") + (message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    return false;
  }

  bool query(const std::string &sql, const std::vector<SqlValue> &params,
             std::vector<SqlRow> *rows, std::string &error) override {
    std::string text = expandSql(sql);
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, text.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      error = std::string("archive: ") + sqlite3_errmsg(db);
      return false;
    }
    for (size_t i = 0; i < params.size(); ++i) {
      const SqlValue &value = params[i];
      int index = int(i) + 1;
      switch (value.kind) {
      case SqlValue::Kind::Null:
        sqlite3_bind_null(stmt, index);
        break;
      case SqlValue::Kind::Integer:
        sqlite3_bind_int64(stmt, index, value.integer);
        break;
      case SqlValue::Kind::Real:
        sqlite3_bind_double(stmt, index, value.real);
        break;
      case SqlValue::Kind::Text:
        sqlite3_bind_text(stmt, index, value.text.data(), int(value.text.size()),
                          SQLITE_TRANSIENT);
        break;
      }
    }
    int status;
    while ((status = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (!rows)
        continue;
      SqlRow row;
      for (int c = 0, n = sqlite3_column_count(stmt); c < n; ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
          row.push_back(std::nullopt);
          continue;
        }
        if (sqlite3_column_type(stmt, c) == SQLITE_FLOAT) {
          // All 17 digits: a value read back equals the one written.
          char digits[40];
          std::snprintf(digits, sizeof(digits), "%.17g",
                        sqlite3_column_double(stmt, c));
          row.push_back(std::string(digits));
          continue;
        }
        const unsigned char *t = sqlite3_column_text(stmt, c);
        row.push_back(std::string(reinterpret_cast<const char *>(t),
                                  size_t(sqlite3_column_bytes(stmt, c))));
      }
      rows->push_back(std::move(row));
    }
    bool done = status == SQLITE_DONE;
    if (!done)
      error = std::string("archive: ") + sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return done;
  }

private:
  std::string file;
  sqlite3 *db = nullptr;
};

} // namespace

std::unique_ptr<Database> openSqliteDatabase(const std::string &file,
                                             std::string &error) {
  auto database = std::make_unique<SqliteDatabase>(file);
  if (!database->connect(error))
    return nullptr;
  return database;
}

} // namespace kbench::search
