//===- ArchiveTest.cpp - The archive on both backends ---------------------===//

#include "kbench/Archive/Archive.h"

#include "Backend.h"

using namespace kbench::search;
using kbench::search::testing::BackendTest;

namespace {

class ArchiveTest : public BackendTest {};

TEST_P(ArchiveTest, MigratesOnceToTheCurrentVersion) {
  std::string where = location(), error;
  std::unique_ptr<Archive> first = Archive::open(where, error);
  ASSERT_TRUE(first) << error;
  EXPECT_EQ(first->schemaVersion(), kArchiveSchemaVersion);
  std::unique_ptr<Archive> second = Archive::open(where, error);
  ASSERT_TRUE(second) << error;
  EXPECT_EQ(second->schemaVersion(), kArchiveSchemaVersion);
}

TEST_P(ArchiveTest, RefusesANewerSchema) {
  std::string where = location(), error;
  {
    std::unique_ptr<Archive> archive = Archive::open(where, error);
    ASSERT_TRUE(archive) << error;
    ASSERT_TRUE(archive->database().script("UPDATE schema_version SET version = 99", error))
        << error;
  }
  EXPECT_FALSE(Archive::open(where, error));
  EXPECT_NE(error.find("has schema version 99, newer than this kbench's"),
            std::string::npos)
      << error;
}

TEST_P(ArchiveTest, StoresAndReadsBackEveryField) {
  std::string where = location(), error;
  std::unique_ptr<Archive> archive = Archive::open(where, error);
  ASSERT_TRUE(archive) << error;
  EXPECT_FALSE(archive->getRun());
  RunRecord run;
  run.task = "row_sum";
  run.target = "host";
  run.spaceHash = "abc";
  run.fitness = "model";
  run.evaluator = "queue";
  run.seed = 7;
  run.roundSize = 2;
  run.budget = 4;
  run.kernel = "kernel_split.mlir";
  ASSERT_TRUE(archive->setRun(run, error)) << error;
  // Run twice (as after a lost connection): still one run.
  ASSERT_TRUE(archive->setRun(run, error)) << error;
  std::optional<RunRecord> stored = archive->getRun();
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->task, "row_sum");
  EXPECT_EQ(stored->seed, 7);
  EXPECT_EQ(stored->strategy, "map-elites");
  EXPECT_EQ(stored->kernel, "kernel_split.mlir");

  CandidateRecord record;
  record.round = 1;
  record.index = 3;
  record.knobs = R"({"BR": 2})";
  record.script = "transform.named_sequence 'it''s' {}";
  record.parents = "[]";
  record.op = "mutate";
  record.stage = "compiled";
  record.diagnostics = "";
  record.descriptors = "{}";
  record.compileMs = 12.5;
  ASSERT_TRUE(archive->insert(record, error)) << error;
  int64_t id = record.id;
  EXPECT_GT(id, 0);
  CandidateRecord again = record;
  ASSERT_TRUE(archive->insert(again, error)) << error;
  EXPECT_EQ(again.id, id) << "(round, idx) keys the insert";

  record.evalStatus = "ok";
  record.verdict = "pass";
  record.fitness = 0.1 + 0.2; // not a short decimal: all 17 digits must survive
  record.candidateUs = 1.0 / 3.0;
  record.protocol = "screen";
  ASSERT_TRUE(archive->storeEvaluation(record, error)) << error;
  record.full.status = "ok";
  record.full.fitness = 2.0 / 3.0;
  ASSERT_TRUE(archive->storeFullMeasurement(record, error)) << error;
  ASSERT_TRUE(archive->finishRound(0, error)) << error;
  ASSERT_TRUE(archive->finishRound(0, error)) << error;
  EXPECT_EQ(archive->finishedRounds(), 1);

  std::vector<CandidateRecord> all = archive->candidates();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].id, id);
  EXPECT_EQ(all[0].script, record.script);
  EXPECT_EQ(all[0].op, "mutate");
  EXPECT_EQ(all[0].irHash, "");
  EXPECT_EQ(*all[0].fitness, 0.1 + 0.2);
  EXPECT_EQ(*all[0].candidateUs, 1.0 / 3.0);
  EXPECT_FALSE(all[0].eagerUs);
  EXPECT_EQ(*all[0].full.fitness, 2.0 / 3.0);
  EXPECT_EQ(all[0].compileMs, 12.5);
}

KBENCH_BOTH_BACKENDS(ArchiveTest);

TEST(ArchiveLocation, RefusesConnectionStrings) {
  std::string error;
  EXPECT_FALSE(Archive::open("postgresql://kbench:secret@db.example/kbench", error));
  EXPECT_NE(error.find("give the server and credentials in the environment"),
            std::string::npos)
      << error;
  EXPECT_FALSE(Archive::open("postgres:host=db password=secret", error));
  EXPECT_NE(error.find("looks like a connection string"), std::string::npos) << error;
}

TEST(ArchiveLocation, RefusesBadSearchNames) {
  std::string error;
  EXPECT_FALSE(Archive::open("postgresql:Row-Sum", error));
  EXPECT_NE(error.find("needs a search name of 1 to 40 characters a-z, 0-9 and _"),
            std::string::npos)
      << error;
  EXPECT_FALSE(Archive::open("postgresql:", error));
}

TEST(ArchiveLocation, ReportsAnUnreachableServer) {
  std::string error;
  const char *saved = std::getenv("PGHOST");
  std::string previous = saved ? saved : "";
  setenv("PGHOST", "/nonexistent-kbench-socket-dir", 1);
  EXPECT_FALSE(Archive::open("postgresql:nowhere", error));
  if (saved)
    setenv("PGHOST", previous.c_str(), 1);
  else
    unsetenv("PGHOST");
  EXPECT_NE(error.find("cannot connect to the PostgreSQL archive"), std::string::npos)
      << error;
}

TEST(Base64, RoundTripsEveryByte) {
  std::string bytes;
  for (int i = 0; i < 256; ++i)
    bytes += char(i);
  for (size_t length : {0, 1, 2, 3, 4, 255, 256}) {
    std::string prefix = bytes.substr(0, length);
    std::optional<std::string> back = decodeBase64(encodeBase64(prefix));
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, prefix);
  }
  EXPECT_EQ(encodeBase64("kbench"), "a2JlbmNo");
  EXPECT_FALSE(decodeBase64("a2Jl*mNo"));
  EXPECT_FALSE(decodeBase64("abc"));
}

} // namespace
