//===- ShapeExprTest.cpp - Unit tests for shape expressions ---------------===//

#include "kbench/Support/ShapeExpr.h"

#include <gtest/gtest.h>

using kbench::ShapeExpr;
using kbench::ShapeFact;
using kbench::SymbolValues;

namespace {

int64_t eval(const std::string &text, const SymbolValues &values) {
  std::string error;
  std::optional<ShapeExpr> expr = ShapeExpr::parse(text, error);
  EXPECT_TRUE(expr.has_value()) << text << ": " << error;
  std::optional<int64_t> value = expr->evaluate(values, error);
  EXPECT_TRUE(value.has_value()) << text << ": " << error;
  return value.value_or(-999);
}

std::string parseError(const std::string &text) {
  std::string error;
  EXPECT_FALSE(ShapeExpr::parse(text, error).has_value()) << text;
  return error;
}

TEST(ShapeExpr, GridExpressions) {
  SymbolValues dims{{"M", 129}, {"N", 64}};
  EXPECT_EQ(eval("ceildiv(M, 64)", dims), 3);
  EXPECT_EQ(eval("ceildiv(N, 64)", dims), 1);
  EXPECT_EQ(eval("M / 64", dims), 2);
  EXPECT_EQ(eval("floordiv(M, 64)", dims), 2);
  EXPECT_EQ(eval("1", dims), 1);
}

TEST(ShapeExpr, ArithmeticAndPrecedence) {
  SymbolValues dims{{"M", 7}, {"N", 5}, {"K", 3}};
  EXPECT_EQ(eval("2*M*N*K", dims), 210);
  EXPECT_EQ(eval("4*(M*K + N*K + N + M*N)", dims), 4 * (21 + 15 + 5 + 35));
  EXPECT_EQ(eval("M - N - K", dims), -1);
  EXPECT_EQ(eval("M - (N - K)", dims), 5);
  EXPECT_EQ(eval("-M + 10", dims), 3);
  EXPECT_EQ(eval("min(M, N) + max(M, N)", dims), 12);
}

TEST(ShapeExpr, FloorSemanticsForNegatives) {
  SymbolValues none;
  EXPECT_EQ(eval("-7 / 2", none), -4);
  EXPECT_EQ(eval("-7 % 2", none), 1);
  EXPECT_EQ(eval("ceildiv(-7, 2)", none), -3);
  EXPECT_EQ(eval("ceildiv(0, 64)", none), 0);
}

TEST(ShapeExpr, EvaluationErrors) {
  std::string error;
  std::optional<ShapeExpr> expr = ShapeExpr::parse("ceildiv(M, B)", error);
  ASSERT_TRUE(expr);
  EXPECT_FALSE(expr->evaluate({{"M", 4}}, error));
  EXPECT_EQ(error, "unknown symbol 'B'");
  EXPECT_FALSE(expr->evaluate({{"M", 4}, {"B", 0}}, error));
  EXPECT_NE(error.find("divisor 0"), std::string::npos) << error;
  expr = ShapeExpr::parse("M * M", error);
  EXPECT_FALSE(expr->evaluate({{"M", int64_t(1) << 40}}, error));
  EXPECT_NE(error.find("overflow"), std::string::npos) << error;
}

TEST(ShapeExpr, ParseErrorsNameTheColumn) {
  EXPECT_EQ(parseError("M +"), "column 4: expected an integer, a name or '(', "
                               "found end of input");
  EXPECT_EQ(parseError("ceil(M, 2)"),
            "column 1: unknown function 'ceil' (known: ceildiv, floordiv, min, "
            "max), found 'c'");
  EXPECT_EQ(parseError("M N"), "column 3: unexpected trailing text, found 'N'");
  EXPECT_EQ(parseError("(M"), "column 3: expected ')', found end of input");
  EXPECT_EQ(parseError("99999999999999999999"),
            "column 19: integer literal does not fit in 64 bits, found '9'");
}

// The parser bounds the tree's depth: a 100k-term sum or 100k nested
// parentheses (in a task.json cost formula or a requires fact) overflowed
// the stack in the recursive walks over the tree, its destructor included.
TEST(ShapeExpr, LongExpressionsAreRefused) {
  auto repeat = [](const std::string &piece, int times) {
    std::string out;
    for (int i = 0; i < times; ++i)
      out += piece;
    return out;
  };
  const std::string limit = "more than 256 operators, parentheses and calls in one expression";
  EXPECT_NE(parseError("M" + repeat("+M", 100000)).find(limit), std::string::npos);
  EXPECT_NE(parseError(repeat("(", 100000) + "M" + repeat(")", 100000)).find(limit),
            std::string::npos);
  EXPECT_NE(parseError(repeat("-", 100000) + "M").find(limit), std::string::npos);
  EXPECT_NE(parseError(repeat("max(M, ", 100000) + "M" + repeat(")", 100000)).find(limit),
            std::string::npos);
  EXPECT_EQ(parseError("M" + repeat("+M", 100000)).rfind("column 514: ", 0), 0u);
  // Up to the limit is fine, and the result evaluates.
  std::string error;
  std::optional<ShapeExpr> sum = ShapeExpr::parse("M" + repeat("+M", 256), error);
  ASSERT_TRUE(sum) << error;
  EXPECT_EQ(sum->evaluate({{"M", 2}}, error), 514);
}

TEST(ShapeExpr, PrintRoundTrips) {
  for (const char *text :
       {"ceildiv(M, 64)", "2 * M * N * K", "M - (N - K)", "(M + 1) * 4",
        "-(M + N)", "M % 8", "min(M, max(N, 3))", "M / 2 / 3"}) {
    std::string error;
    std::optional<ShapeExpr> expr = ShapeExpr::parse(text, error);
    ASSERT_TRUE(expr) << error;
    EXPECT_EQ(expr->str(), text);
    std::optional<ShapeExpr> again = ShapeExpr::parse(expr->str(), error);
    ASSERT_TRUE(again) << error;
    EXPECT_EQ(again->str(), expr->str());
  }
}

TEST(ShapeExpr, SubstituteBindsParams) {
  std::string error;
  std::optional<ShapeExpr> expr = ShapeExpr::parse("ceildiv(N, BN)", error);
  ASSERT_TRUE(expr);
  EXPECT_EQ(expr->substitute({{"BN", 128}}).str(), "ceildiv(N, 128)");
  std::set<std::string> symbols;
  expr->collectSymbols(symbols);
  EXPECT_EQ(symbols, (std::set<std::string>{"BN", "N"}));
}

TEST(ShapeFact, RequiresFacts) {
  std::string error;
  std::optional<ShapeFact> fact = ShapeFact::parse("K % 8 == 0", error);
  ASSERT_TRUE(fact) << error;
  EXPECT_EQ(fact->holds({{"K", 64}}, error), std::optional<bool>(true));
  EXPECT_EQ(fact->holds({{"K", 63}}, error), std::optional<bool>(false));
  fact = ShapeFact::parse("N <= BN", error);
  ASSERT_TRUE(fact) << error;
  EXPECT_EQ(fact->holds({{"N", 1024}, {"BN", 1024}}, error),
            std::optional<bool>(true));
  EXPECT_EQ(fact->holds({{"N", 1025}, {"BN", 1024}}, error),
            std::optional<bool>(false));
  EXPECT_EQ(fact->str(), "N <= BN");
  for (const char *text : {"M > 0", "M < 2", "M >= 1", "M != 3"})
    EXPECT_TRUE(ShapeFact::parse(text, error)) << text << ": " << error;
}

TEST(ShapeFact, MalformedFacts) {
  std::string error;
  EXPECT_FALSE(ShapeFact::parse("K % 8", error));
  EXPECT_EQ(error, "column 6: expected a comparison (==, !=, <=, >=, <, >), "
                   "found end of input");
  EXPECT_FALSE(ShapeFact::parse("K = 8", error));
  EXPECT_EQ(error, "column 3: expected a comparison (==, !=, <=, >=, <, >), "
                   "found '='");
  EXPECT_FALSE(ShapeFact::parse("K == 8 == 9", error));
}

} // namespace
