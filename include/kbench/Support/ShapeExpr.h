//===- ShapeExpr.h - Integer expressions over named shape symbols -*- C++ -*-===//
//
// One small expression language shared by the compiler and the runner: grid
// sizes in bundle manifests ("ceildiv(M, 64)"), `requires` facts on kernels
// ("K % 8 == 0", "N <= BN") and cost formulas in task.json ("2*M*N*K").
//
// The runner links LibTorch and the CUDA driver but never LLVM or MLIR, so this
// library uses the C++17 standard library only.
//
// Grammar (whitespace is free):
//   fact    := expr relop expr            relop := == != <= >= < >
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/' | '%') unary)*
//   unary   := '-' unary | primary
//   primary := INTEGER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
// Functions: ceildiv(a, b), floordiv(a, b), min(a, b), max(a, b).
// '/' is floor division and '%' the matching non-negative remainder; both need
// a positive divisor when evaluated.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_SHAPEEXPR_H
#define KBENCH_SUPPORT_SHAPEEXPR_H

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbench {

/// Values of named symbols (shape dims, kernel params) used for evaluation.
using SymbolValues = std::map<std::string, int64_t>;

/// An integer expression tree. Copyable value type; trees are small.
class ShapeExpr {
public:
  enum class Kind { Constant, Symbol, Neg, Add, Sub, Mul, FloorDiv, CeilDiv, Mod, Min, Max };

  static ShapeExpr constant(int64_t value);
  static ShapeExpr symbol(std::string name);
  static ShapeExpr unary(Kind kind, ShapeExpr operand);
  static ShapeExpr binary(Kind kind, ShapeExpr lhs, ShapeExpr rhs);

  /// Parses `text`. On failure returns nullopt and sets `error` to a message
  /// that names the column and what was expected.
  static std::optional<ShapeExpr> parse(const std::string &text, std::string &error);

  Kind getKind() const { return kind; }
  int64_t getConstant() const { return value; }
  const std::string &getSymbol() const { return name; }
  const std::vector<ShapeExpr> &getOperands() const { return operands; }

  /// Evaluates with 64-bit checked arithmetic. Fails (nullopt + `error`) on an
  /// unknown symbol, a non-positive divisor or an overflow.
  std::optional<int64_t> evaluate(const SymbolValues &values, std::string &error) const;

  /// Adds every symbol the expression mentions to `out`.
  void collectSymbols(std::set<std::string> &out) const;

  /// Replaces symbols found in `values` by constants (used to bind kernel
  /// params while keeping shape dims symbolic).
  ShapeExpr substitute(const SymbolValues &values) const;

  /// Prints in the grammar above; parse(str()) gives an equal tree.
  std::string str() const;

private:
  Kind kind = Kind::Constant;
  int64_t value = 0;
  std::string name;
  std::vector<ShapeExpr> operands;
};

/// A relation between two expressions, such as a kernel's `requires` fact.
class ShapeFact {
public:
  enum class Relation { EQ, NE, LE, GE, LT, GT };

  ShapeFact(ShapeExpr lhs, Relation relation, ShapeExpr rhs)
      : lhs(std::move(lhs)), relation(relation), rhs(std::move(rhs)) {}

  static std::optional<ShapeFact> parse(const std::string &text, std::string &error);

  const ShapeExpr &getLhs() const { return lhs; }
  const ShapeExpr &getRhs() const { return rhs; }
  Relation getRelation() const { return relation; }

  /// True or false under `values`; nullopt (with `error`) when either side
  /// cannot be evaluated.
  std::optional<bool> holds(const SymbolValues &values, std::string &error) const;

  void collectSymbols(std::set<std::string> &out) const;
  ShapeFact substitute(const SymbolValues &values) const;
  std::string str() const;

private:
  ShapeExpr lhs;
  Relation relation;
  ShapeExpr rhs;
};

/// Spelling of a relation ("<=").
const char *relationSpelling(ShapeFact::Relation relation);

} // namespace kbench

#endif // KBENCH_SUPPORT_SHAPEEXPR_H
