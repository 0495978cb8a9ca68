//===- ShapeExpr.cpp - Integer expressions over named shape symbols -------===//
//
// A recursive-descent parser and a checked evaluator for the grammar in
// ShapeExpr.h. No LLVM: the runner links this file too.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/ShapeExpr.h"

#include <cctype>
#include <utility>

namespace kbench {

ShapeExpr ShapeExpr::constant(int64_t value) {
  ShapeExpr e;
  e.kind = Kind::Constant;
  e.value = value;
  return e;
}

ShapeExpr ShapeExpr::symbol(std::string name) {
  ShapeExpr e;
  e.kind = Kind::Symbol;
  e.name = std::move(name);
  return e;
}

ShapeExpr ShapeExpr::unary(Kind kind, ShapeExpr operand) {
  ShapeExpr e;
  e.kind = kind;
  e.operands.push_back(std::move(operand));
  return e;
}

ShapeExpr ShapeExpr::binary(Kind kind, ShapeExpr lhs, ShapeExpr rhs) {
  ShapeExpr e;
  e.kind = kind;
  e.operands.push_back(std::move(lhs));
  e.operands.push_back(std::move(rhs));
  return e;
}

namespace {

/// Recursive-descent parser over one string. Every error names the 1-based
/// column so that a message about a manifest or a kernel attribute can point
/// into the offending string.
class Parser {
public:
  explicit Parser(const std::string &text) : text(text) {}

  std::optional<ShapeExpr> parseExpr() {
    std::optional<ShapeExpr> lhs = parseTerm();
    if (!lhs)
      return std::nullopt;
    while (true) {
      skipSpace();
      char c = peek();
      if (c != '+' && c != '-')
        return lhs;
      if (!countOperator())
        return std::nullopt;
      ++pos;
      std::optional<ShapeExpr> rhs = parseTerm();
      if (!rhs)
        return std::nullopt;
      lhs = ShapeExpr::binary(c == '+' ? ShapeExpr::Kind::Add : ShapeExpr::Kind::Sub,
                              std::move(*lhs), std::move(*rhs));
    }
  }

  std::optional<ShapeFact::Relation> parseRelation() {
    skipSpace();
    static const std::pair<const char *, ShapeFact::Relation> relations[] = {
        {"==", ShapeFact::Relation::EQ}, {"!=", ShapeFact::Relation::NE},
        {"<=", ShapeFact::Relation::LE}, {">=", ShapeFact::Relation::GE},
        {"<", ShapeFact::Relation::LT},  {">", ShapeFact::Relation::GT}};
    for (const auto &[spelling, relation] : relations) {
      std::string s(spelling);
      if (text.compare(pos, s.size(), s) == 0) {
        pos += s.size();
        return relation;
      }
    }
    fail("expected a comparison (==, !=, <=, >=, <, >)");
    return std::nullopt;
  }

  bool atEnd() {
    skipSpace();
    return pos >= text.size();
  }

  void fail(const std::string &what) {
    if (!error.empty())
      return;
    error = "column " + std::to_string(pos + 1) + ": " + what;
    if (pos < text.size())
      error += ", found '" + text.substr(pos, 1) + "'";
    else
      error += ", found end of input";
  }

  std::string error;

private:
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }

  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  std::optional<ShapeExpr> parseTerm() {
    std::optional<ShapeExpr> lhs = parseUnary();
    if (!lhs)
      return std::nullopt;
    while (true) {
      skipSpace();
      char c = peek();
      ShapeExpr::Kind kind;
      if (c == '*')
        kind = ShapeExpr::Kind::Mul;
      else if (c == '/')
        kind = ShapeExpr::Kind::FloorDiv;
      else if (c == '%')
        kind = ShapeExpr::Kind::Mod;
      else
        return lhs;
      if (!countOperator())
        return std::nullopt;
      ++pos;
      std::optional<ShapeExpr> rhs = parseUnary();
      if (!rhs)
        return std::nullopt;
      lhs = ShapeExpr::binary(kind, std::move(*lhs), std::move(*rhs));
    }
  }

  std::optional<ShapeExpr> parseUnary() {
    skipSpace();
    if (peek() == '-') {
      if (!countOperator())
        return std::nullopt;
      ++pos;
      std::optional<ShapeExpr> operand = parseUnary();
      if (!operand)
        return std::nullopt;
      return ShapeExpr::unary(ShapeExpr::Kind::Neg, std::move(*operand));
    }
    return parsePrimary();
  }

  std::optional<ShapeExpr> parsePrimary() {
    skipSpace();
    char c = peek();
    if (std::isdigit(static_cast<unsigned char>(c)))
      return parseInteger();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_')
      return parseNameOrCall();
    if (c == '(') {
      if (!countOperator())
        return std::nullopt;
      ++pos;
      std::optional<ShapeExpr> inner = parseExpr();
      if (!inner)
        return std::nullopt;
      if (!expect(')'))
        return std::nullopt;
      return inner;
    }
    fail("expected an integer, a name or '('");
    return std::nullopt;
  }

  std::optional<ShapeExpr> parseInteger() {
    int64_t value = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      int digit = peek() - '0';
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, digit, &value)) {
        fail("integer literal does not fit in 64 bits");
        return std::nullopt;
      }
      ++pos;
    }
    return ShapeExpr::constant(value);
  }

  std::optional<ShapeExpr> parseNameOrCall() {
    size_t start = pos;
    while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_')
      ++pos;
    std::string name = text.substr(start, pos - start);
    skipSpace();
    if (peek() != '(')
      return ShapeExpr::symbol(name);

    static const std::pair<const char *, ShapeExpr::Kind> functions[] = {
        {"ceildiv", ShapeExpr::Kind::CeilDiv},
        {"floordiv", ShapeExpr::Kind::FloorDiv},
        {"min", ShapeExpr::Kind::Min},
        {"max", ShapeExpr::Kind::Max}};
    std::optional<ShapeExpr::Kind> kind;
    for (const auto &[spelling, k] : functions)
      if (name == spelling)
        kind = k;
    if (!kind) {
      pos = start;
      fail("unknown function '" + name + "' (known: ceildiv, floordiv, min, max)");
      return std::nullopt;
    }
    if (!countOperator())
      return std::nullopt;
    ++pos; // '('
    std::optional<ShapeExpr> lhs = parseExpr();
    if (!lhs || !expect(','))
      return std::nullopt;
    std::optional<ShapeExpr> rhs = parseExpr();
    if (!rhs || !expect(')'))
      return std::nullopt;
    return ShapeExpr::binary(*kind, std::move(*lhs), std::move(*rhs));
  }

  /// Counts an operator, a parenthesis or a call, and fails past
  /// kMaxOperators: they bound the depth of the tree, hence of this parser's
  /// recursion and of every recursive walk over the result (evaluate, str,
  /// substitute, the destructor). Real shape formulas have a handful.
  bool countOperator() {
    if (++operators <= kMaxOperators)
      return true;
    fail("more than " + std::to_string(kMaxOperators) +
         " operators, parentheses and calls in one expression");
    return false;
  }

  bool expect(char c) {
    skipSpace();
    if (peek() == c) {
      ++pos;
      return true;
    }
    fail(std::string("expected '") + c + "'");
    return false;
  }

  static constexpr unsigned kMaxOperators = 256;
  const std::string &text;
  size_t pos = 0;
  unsigned operators = 0;
};

} // namespace

std::optional<ShapeExpr> ShapeExpr::parse(const std::string &text, std::string &error) {
  Parser parser(text);
  std::optional<ShapeExpr> expr = parser.parseExpr();
  if (expr && !parser.atEnd())
    parser.fail("unexpected trailing text");
  if (!parser.error.empty()) {
    error = parser.error;
    return std::nullopt;
  }
  return expr;
}

std::optional<int64_t> ShapeExpr::evaluate(const SymbolValues &values,
                                           std::string &error) const {
  switch (kind) {
  case Kind::Constant:
    return value;
  case Kind::Symbol: {
    auto it = values.find(name);
    if (it == values.end()) {
      error = "unknown symbol '" + name + "'";
      return std::nullopt;
    }
    return it->second;
  }
  default:
    break;
  }

  std::vector<int64_t> args;
  for (const ShapeExpr &operand : operands) {
    std::optional<int64_t> v = operand.evaluate(values, error);
    if (!v)
      return std::nullopt;
    args.push_back(*v);
  }
  int64_t result = 0;
  auto overflow = [&]() -> std::optional<int64_t> {
    error = "64-bit overflow in '" + str() + "'";
    return std::nullopt;
  };
  auto needPositiveDivisor = [&]() {
    if (args[1] > 0)
      return true;
    error = "divisor " + std::to_string(args[1]) + " in '" + str() + "' is not positive";
    return false;
  };
  switch (kind) {
  case Kind::Neg:
    if (__builtin_sub_overflow(int64_t(0), args[0], &result))
      return overflow();
    return result;
  case Kind::Add:
    if (__builtin_add_overflow(args[0], args[1], &result))
      return overflow();
    return result;
  case Kind::Sub:
    if (__builtin_sub_overflow(args[0], args[1], &result))
      return overflow();
    return result;
  case Kind::Mul:
    if (__builtin_mul_overflow(args[0], args[1], &result))
      return overflow();
    return result;
  case Kind::FloorDiv: {
    if (!needPositiveDivisor())
      return std::nullopt;
    int64_t q = args[0] / args[1];
    return (args[0] % args[1] != 0 && args[0] < 0) ? q - 1 : q;
  }
  case Kind::CeilDiv: {
    if (!needPositiveDivisor())
      return std::nullopt;
    int64_t q = args[0] / args[1];
    return (args[0] % args[1] != 0 && args[0] > 0) ? q + 1 : q;
  }
  case Kind::Mod: {
    if (!needPositiveDivisor())
      return std::nullopt;
    int64_t r = args[0] % args[1];
    return r < 0 ? r + args[1] : r;
  }
  case Kind::Min:
    return std::min(args[0], args[1]);
  case Kind::Max:
    return std::max(args[0], args[1]);
  case Kind::Constant:
  case Kind::Symbol:
    break;
  }
  error = "malformed expression";
  return std::nullopt;
}

void ShapeExpr::collectSymbols(std::set<std::string> &out) const {
  if (kind == Kind::Symbol)
    out.insert(name);
  for (const ShapeExpr &operand : operands)
    operand.collectSymbols(out);
}

ShapeExpr ShapeExpr::substitute(const SymbolValues &values) const {
  if (kind == Kind::Symbol) {
    auto it = values.find(name);
    return it == values.end() ? *this : constant(it->second);
  }
  ShapeExpr copy = *this;
  for (ShapeExpr &operand : copy.operands)
    operand = operand.substitute(values);
  return copy;
}

namespace {
/// Binding strength, used to print the fewest parentheses that keep the tree.
int precedence(ShapeExpr::Kind kind) {
  switch (kind) {
  case ShapeExpr::Kind::Add:
  case ShapeExpr::Kind::Sub:
    return 1;
  case ShapeExpr::Kind::Mul:
  case ShapeExpr::Kind::FloorDiv:
  case ShapeExpr::Kind::Mod:
    return 2;
  case ShapeExpr::Kind::Neg:
    return 3;
  default:
    return 4;
  }
}
} // namespace

std::string ShapeExpr::str() const {
  auto wrap = [](const ShapeExpr &e, int minPrecedence) {
    std::string s = e.str();
    return precedence(e.kind) < minPrecedence ? "(" + s + ")" : s;
  };
  auto infix = [&](const char *op) {
    int p = precedence(kind);
    // Left-associative: the right operand needs parentheses at equal binding.
    return wrap(operands[0], p) + " " + op + " " + wrap(operands[1], p + 1);
  };
  auto call = [&](const char *fn) {
    return std::string(fn) + "(" + operands[0].str() + ", " + operands[1].str() + ")";
  };
  switch (kind) {
  case Kind::Constant:
    return std::to_string(value);
  case Kind::Symbol:
    return name;
  case Kind::Neg:
    return "-" + wrap(operands[0], precedence(Kind::Neg));
  case Kind::Add:
    return infix("+");
  case Kind::Sub:
    return infix("-");
  case Kind::Mul:
    return infix("*");
  case Kind::FloorDiv:
    return infix("/");
  case Kind::Mod:
    return infix("%");
  case Kind::CeilDiv:
    return call("ceildiv");
  case Kind::Min:
    return call("min");
  case Kind::Max:
    return call("max");
  }
  return "?";
}

const char *relationSpelling(ShapeFact::Relation relation) {
  switch (relation) {
  case ShapeFact::Relation::EQ:
    return "==";
  case ShapeFact::Relation::NE:
    return "!=";
  case ShapeFact::Relation::LE:
    return "<=";
  case ShapeFact::Relation::GE:
    return ">=";
  case ShapeFact::Relation::LT:
    return "<";
  case ShapeFact::Relation::GT:
    return ">";
  }
  return "?";
}

std::optional<ShapeFact> ShapeFact::parse(const std::string &text, std::string &error) {
  Parser parser(text);
  std::optional<ShapeExpr> lhs = parser.parseExpr();
  std::optional<Relation> relation;
  std::optional<ShapeExpr> rhs;
  if (lhs)
    relation = parser.parseRelation();
  if (relation)
    rhs = parser.parseExpr();
  if (rhs && !parser.atEnd())
    parser.fail("unexpected trailing text");
  if (!parser.error.empty()) {
    error = parser.error;
    return std::nullopt;
  }
  return ShapeFact(std::move(*lhs), *relation, std::move(*rhs));
}

std::optional<bool> ShapeFact::holds(const SymbolValues &values, std::string &error) const {
  std::optional<int64_t> l = lhs.evaluate(values, error);
  if (!l)
    return std::nullopt;
  std::optional<int64_t> r = rhs.evaluate(values, error);
  if (!r)
    return std::nullopt;
  switch (relation) {
  case Relation::EQ:
    return *l == *r;
  case Relation::NE:
    return *l != *r;
  case Relation::LE:
    return *l <= *r;
  case Relation::GE:
    return *l >= *r;
  case Relation::LT:
    return *l < *r;
  case Relation::GT:
    return *l > *r;
  }
  return std::nullopt;
}

void ShapeFact::collectSymbols(std::set<std::string> &out) const {
  lhs.collectSymbols(out);
  rhs.collectSymbols(out);
}

ShapeFact ShapeFact::substitute(const SymbolValues &values) const {
  return ShapeFact(lhs.substitute(values), relation, rhs.substitute(values));
}

std::string ShapeFact::str() const {
  return lhs.str() + " " + relationSpelling(relation) + " " + rhs.str();
}

} // namespace kbench
