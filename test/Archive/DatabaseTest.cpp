//===- DatabaseTest.cpp - The SQL seam on both backends -------------------===//

#include "kbench/Archive/Database.h"

#include "Backend.h"

using namespace kbench::search;
using kbench::search::testing::BackendTest;

namespace {

class DatabaseTest : public BackendTest {};

TEST_P(DatabaseTest, ExpandsPlaceholdersOutsideQuotesOnly) {
  std::string error;
  std::unique_ptr<Database> db = Database::open(location(), error);
  ASSERT_TRUE(db) << error;
  std::string sql = db->expandSql("SELECT ?, '?', \"a?\", ? FROM t {{SKIP_LOCKED}}");
  if (db->dialect() == Database::Dialect::PostgreSQL)
    EXPECT_EQ(sql, "SELECT $1, '?', \"a?\", $2 FROM t FOR UPDATE SKIP LOCKED");
  else
    EXPECT_EQ(sql, "SELECT ?, '?', \"a?\", ? FROM t ");
}

TEST_P(DatabaseTest, ABatchStopsAtItsFirstFailureAndTheConnectionGoesOn) {
  std::string error;
  std::unique_ptr<Database> db = Database::open(location(), error);
  ASSERT_TRUE(db) << error;
  ASSERT_TRUE(db->script("CREATE TABLE t (x BIGINT PRIMARY KEY, y TEXT)", error)) << error;
  std::string begin =
      db->dialect() == Database::Dialect::SQLite ? "BEGIN IMMEDIATE" : "BEGIN";
  // The second insert breaks the key: nothing of the batch stays.
  std::vector<std::vector<SqlRow>> rows;
  EXPECT_FALSE(db->batch({{begin, {}},
                          {"INSERT INTO t VALUES (?, ?)", {int64_t(1), "one"}},
                          {"INSERT INTO t VALUES (?, ?)", {int64_t(1), "again"}},
                          {"COMMIT", {}}},
                         &rows, error));
  EXPECT_FALSE(db->connectionLost()) << error;
  db->rollback();
  // New statements after the failure are prepared under fresh names, and
  // the ones of the failed batch run again.
  ASSERT_TRUE(db->batch({{begin, {}},
                         {"INSERT INTO t VALUES (?, ?)", {int64_t(1), "one"}},
                         {"INSERT INTO t VALUES (?, ?)", {int64_t(2), "two"}},
                         {"SELECT y FROM t WHERE x >= ? ORDER BY x", {int64_t(1)}},
                         {"COMMIT", {}}},
                        &rows, error))
      << error;
  ASSERT_EQ(rows.size(), 5u);
  ASSERT_EQ(rows[3].size(), 2u);
  EXPECT_EQ(rows[3][0][0], "one");
  EXPECT_EQ(rows[3][1][0], "two");
  std::optional<std::string> count = db->scalar("SELECT COUNT(*) FROM t", {}, error);
  ASSERT_TRUE(count) << error;
  EXPECT_EQ(*count, "2");
}

TEST_P(DatabaseTest, NullsAndRealsRoundTrip) {
  std::string error;
  std::unique_ptr<Database> db = Database::open(location(), error);
  ASSERT_TRUE(db) << error;
  ASSERT_TRUE(db->script("CREATE TABLE r (a DOUBLE PRECISION, b TEXT)", error)) << error;
  ASSERT_TRUE(db->query("INSERT INTO r VALUES (?, ?)", {0.1 + 0.2, SqlValue()}, nullptr,
                        error))
      << error;
  std::vector<SqlRow> rows;
  ASSERT_TRUE(db->query("SELECT a, b FROM r", {}, &rows, error)) << error;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(std::stod(*rows[0][0]), 0.1 + 0.2);
  EXPECT_FALSE(rows[0][1]);
}

KBENCH_BOTH_BACKENDS(DatabaseTest);

} // namespace
