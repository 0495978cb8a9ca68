//===- DispatchFileTest.cpp - Unit tests for the dispatch file reader -----===//
//
// tryParseDispatchText (Support/DispatchFile.h), the reader behind
// tryReadDispatchFile that the dispatch fuzz target drives: what it accepts
// and that every refusal names the file.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/DispatchFile.h"

#include <gtest/gtest.h>

using namespace kbench;

namespace {

const std::vector<std::string> kDims = {"M", "N"};

TEST(DispatchFile, ReadsVariantsFromText) {
  std::string error;
  std::optional<DispatchFile> file = tryParseDispatchText(
      R"({"variants": [{"name": "wide", "when": ["N >= 2048"], "schedule": "wide.mlir"},
                       {"schedule": "default.mlir"}]})",
      "t/schedules/dispatch.json", kDims, error);
  ASSERT_TRUE(file) << error;
  ASSERT_EQ(file->variants.size(), 2u);
  EXPECT_EQ(file->variants[0].name, "wide");
  EXPECT_EQ(file->variants[0].schedule, "t/schedules/wide.mlir");
  ASSERT_EQ(file->variants[0].when.size(), 1u);
  EXPECT_EQ(file->variants[0].when[0].str(), "N >= 2048");
  // The fallback is named after its schedule file.
  EXPECT_EQ(file->variants[1].name, "default");
  EXPECT_TRUE(file->variants[1].when.empty());
}

TEST(DispatchFile, NumberTooLargeForADoubleIsAJsonError) {
  std::string error;
  EXPECT_FALSE(tryParseDispatchText(
      R"({"variants": [{"schedule": "a.mlir", "x": 1E6666}]})",
      "t/dispatch.json", kDims, error));
  EXPECT_EQ(error.rfind("t/dispatch.json: not valid JSON: number overflow", 0),
            0u)
      << error;
}

TEST(DispatchFile, RefusalsNameTheFileAndTheField) {
  std::string error;
  EXPECT_FALSE(tryParseDispatchText("{\"variants\": [", "t/dispatch.json",
                                    kDims, error));
  EXPECT_EQ(error.rfind("t/dispatch.json: not valid JSON: ", 0), 0u) << error;
  EXPECT_FALSE(tryParseDispatchText(
      R"({"variants": [{"when": ["K >= 1"], "schedule": "a.mlir"},
                                                      {"schedule": "b.mlir"}]})",
      "t/dispatch.json", kDims, error));
  EXPECT_NE(error.find("'K' is not a dim of the task (its shapes name M, N)"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.rfind("t/dispatch.json: ", 0), 0u) << error;
}

} // namespace
