//===- ExportDispatchTest.cpp - How --export-dispatch splits shapes -------===//
//
// exportDispatch over made-up archives (the medians are invented to put the
// split where the test says; they are not measurements): which dim it splits
// on, when it does not split, nested splits, and the archives it refuses.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Export.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace kbench::search;

namespace {

/// A timed shape: set, dims and the candidate's median there.
struct Timed {
  std::string set;
  int64_t m, n;
  double us;
};

CandidateRecord passing(int64_t index, std::vector<Timed> timed) {
  CandidateRecord record;
  record.id = index + 1;
  record.round = 0;
  record.index = index;
  record.evalStatus = "ok";
  record.verdict = "pass";
  record.script = "// script of candidate " + std::to_string(index) + "\n";
  llvm::json::Array shapes;
  for (const Timed &t : timed)
    shapes.push_back(llvm::json::Object{
        {"set", t.set},
        {"shape", "M=" + std::to_string(t.m) + " N=" + std::to_string(t.n)},
        {"dims", llvm::json::Object{{"M", t.m}, {"N", t.n}}},
        {"candidate_us", t.us}});
  record.shapes = llvm::formatv("{0}", llvm::json::Value(std::move(shapes))).str();
  return record;
}

/// Exports `records` into a fresh folder and returns dispatch.json's
/// variants as (name, when facts joined by " && ", schedule).
struct Variant {
  std::string name, when, schedule;
};

class ExportDispatchTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("export-dispatch", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  bool exportTo(const std::vector<CandidateRecord> &records, std::string &error) {
    RunRecord run;
    run.task = "made_up";
    return exportDispatch(dir, records, run, "made-up.db", error);
  }

  /// Exports `records` and reads the variants back (none when the export
  /// failed, which the expectation reports).
  std::vector<Variant> exportAndRead(const std::vector<CandidateRecord> &records) {
    std::string error;
    bool exported = exportTo(records, error);
    EXPECT_TRUE(exported) << error;
    return exported ? variants() : std::vector<Variant>{};
  }

  std::vector<Variant> variants() {
    llvm::SmallString<256> file(dir);
    llvm::sys::path::append(file, "dispatch.json");
    auto buffer = llvm::MemoryBuffer::getFile(file);
    EXPECT_TRUE(bool(buffer));
    if (!buffer)
      return {};
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse((*buffer)->getBuffer());
    EXPECT_TRUE(bool(parsed));
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      return {};
    }
    description = parsed->getAsObject()->getString("description").value_or("").str();
    std::vector<Variant> result;
    for (const llvm::json::Value &v : *parsed->getAsObject()->getArray("variants")) {
      const llvm::json::Object &o = *v.getAsObject();
      Variant variant{o.getString("name")->str(), "", o.getString("schedule")->str()};
      if (const llvm::json::Array *when = o.getArray("when"))
        for (const llvm::json::Value &fact : *when)
          variant.when += (variant.when.empty() ? "" : " && ") + fact.getAsString()->str();
      result.push_back(variant);
    }
    return result;
  }

  llvm::SmallString<128> dir;
  std::string description;
};

// Long rows (N = 4096) want candidate 0, short rows (N = 1023) candidate 1,
// whatever M is: the split is on N, at sqrt(1023 * 4096) = 2046.99 -> 2046.
TEST_F(ExportDispatchTest, SplitsOnTheDimThatDecides) {
  std::vector<CandidateRecord> records = {
      passing(0, {{"tune", 8192, 4096, 25},
                  {"heldout", 2047, 4096, 7},
                  {"heldout", 8192, 1023, 20}}),
      passing(1, {{"tune", 8192, 4096, 50},
                  {"heldout", 2047, 4096, 14},
                  {"heldout", 8192, 1023, 10}}),
  };
  std::vector<Variant> v = exportAndRead(records);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].name, "c0_0");
  EXPECT_EQ(v[0].when, "N >= 2046");
  EXPECT_EQ(v[1].name, "c0_1");
  EXPECT_EQ(v[1].when, "");
  EXPECT_NE(description.find("tune M=8192 N=4096: c0_0 25.00 us; derived M=2047 N=4096: "
                             "c0_0 7.00 us; derived M=8192 N=1023: c0_1 10.00 us."),
            std::string::npos)
      << description;
}

// Candidate 1 is faster at the short-row shape by 2% only: no variant for
// that, one schedule (the best over all shapes) for every shape.
TEST_F(ExportDispatchTest, DoesNotSplitForLessThanThreePercent) {
  std::vector<CandidateRecord> records = {
      passing(0, {{"tune", 8192, 4096, 25}, {"heldout", 8192, 1023, 10.2}}),
      passing(1, {{"tune", 8192, 4096, 50}, {"heldout", 8192, 1023, 10}}),
  };
  std::vector<Variant> v = exportAndRead(records);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].name, "c0_0");
  EXPECT_EQ(v[0].when, "");
  EXPECT_NE(description.find("derived M=8192 N=1023: c0_0 10.20 us (fastest there 10.00 us)"),
            std::string::npos)
      << description;
}

// Three regimes: short rows want 2 whatever M is; among long rows, many
// rows want 0 and few rows 1. The long-row side is split again on M and its
// variants carry both facts; the short-row variant is the fallback.
TEST_F(ExportDispatchTest, SplitsEachSideAgain) {
  std::vector<CandidateRecord> records = {
      passing(0, {{"tune", 8192, 4096, 25},
                  {"heldout", 2047, 4096, 12},
                  {"heldout", 8192, 1023, 30}}),
      passing(1, {{"tune", 8192, 4096, 40},
                  {"heldout", 2047, 4096, 6},
                  {"heldout", 8192, 1023, 30}}),
      passing(2, {{"tune", 8192, 4096, 60},
                  {"heldout", 2047, 4096, 20},
                  {"heldout", 8192, 1023, 10}}),
  };
  std::vector<Variant> v = exportAndRead(records);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].name, "c0_0");
  EXPECT_EQ(v[0].when, "N >= 2046 && M >= 4094");
  EXPECT_EQ(v[1].name, "c0_1");
  EXPECT_EQ(v[1].when, "N >= 2046");
  EXPECT_EQ(v[2].name, "c0_2");
  EXPECT_EQ(v[2].when, "");
}

// One candidate on two sides of a split gets two variants (c0_0, c0_0_2)
// sharing one schedule file: short rows want 0; long rows are split again,
// many rows wanting 0 and few rows 1.
TEST_F(ExportDispatchTest, ACandidateOnTwoSidesSharesItsScheduleFile) {
  std::vector<CandidateRecord> records = {
      passing(0, {{"tune", 8192, 4096, 10},
                  {"heldout", 2047, 4096, 30},
                  {"heldout", 8192, 1023, 10},
                  {"heldout", 2047, 1023, 5}}),
      passing(1, {{"tune", 8192, 4096, 12},
                  {"heldout", 2047, 4096, 10},
                  {"heldout", 8192, 1023, 40},
                  {"heldout", 2047, 1023, 20}}),
  };
  std::vector<Variant> v = exportAndRead(records);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].name, "c0_0");
  EXPECT_EQ(v[0].when, "N >= 2046 && M >= 4094");
  EXPECT_EQ(v[0].schedule, "c0_0.mlir");
  EXPECT_EQ(v[1].name, "c0_1");
  EXPECT_EQ(v[1].when, "N >= 2046");
  EXPECT_EQ(v[2].name, "c0_0_2");
  EXPECT_EQ(v[2].when, "");
  EXPECT_EQ(v[2].schedule, "c0_0.mlir");
  llvm::SmallString<256> file(dir);
  llvm::sys::path::append(file, "c0_1.mlir");
  EXPECT_TRUE(llvm::sys::fs::exists(file));
}

TEST_F(ExportDispatchTest, RefusesAnArchiveWithoutTimedShapes) {
  CandidateRecord untimed = passing(0, {});
  untimed.shapes.clear();
  std::string error;
  EXPECT_FALSE(exportTo({untimed}, error));
  EXPECT_NE(error.find("needs a passing candidate timed at shapes with known dims"),
            std::string::npos)
      << error;
}

// A median of 0 (or NaN) is no measurement: that candidate is left out of
// the comparison instead of making every other look infinitely slow.
TEST_F(ExportDispatchTest, IgnoresMediansNoClockGives) {
  std::vector<CandidateRecord> records = {
      passing(0, {{"tune", 8192, 4096, 0}, {"heldout", 8192, 1023, 0}}),
      passing(1, {{"tune", 8192, 4096, 30}, {"heldout", 8192, 1023, 12}}),
      passing(2, {{"tune", 8192, 4096, 25}, {"heldout", 8192, 1023, std::nan("")}}),
  };
  std::vector<Variant> v = exportAndRead(records);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].name, "c0_1");
}

// Candidates timed at different shape sets cannot be compared everywhere.
TEST_F(ExportDispatchTest, RefusesCandidatesTimedAtDifferentShapes) {
  std::vector<CandidateRecord> records = {
      passing(0, {{"tune", 8192, 4096, 25}, {"heldout", 2047, 1023, 10}}),
      passing(1, {{"tune", 8192, 4096, 25}, {"heldout", 2047, 4096, 7}}),
  };
  std::string error;
  EXPECT_FALSE(exportTo(records, error));
  EXPECT_NE(error.find("needs a passing candidate timed at every shape the archive measured "
                       "(3 shapes)"),
            std::string::npos)
      << error;
}

} // namespace
