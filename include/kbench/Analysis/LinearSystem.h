//===- LinearSystem.h - Named integer constraints for Presburger queries -*- C++ -*-===//
//
// The verifier asks many small Presburger questions ("is there a shape, a
// block and an element such that ..."). Building them directly as
// presburger::IntegerRelation rows is error-prone: columns move whenever a
// variable or a local division is added. A LinearSystem collects named
// variables and constraints first and materializes them once, with the
// visible variables as set dimensions in creation order (so that
// findIntegerLexMin minimizes the shape symbols first when they were created
// first), existential variables as locals, and floor divisions as division
// locals, which `subtract` and `computeReprWithOnlyDivLocals` need.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_ANALYSIS_LINEARSYSTEM_H
#define KBENCH_ANALYSIS_LINEARSYSTEM_H

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kbench {

/// `sum(coeff * var) + constant` over the variables of one LinearSystem.
struct LinearExpr {
  std::map<unsigned, int64_t> coeffs;
  int64_t constant = 0;

  static LinearExpr var(unsigned id, int64_t coeff = 1);
  static LinearExpr cst(int64_t value);

  LinearExpr operator+(const LinearExpr &other) const;
  LinearExpr operator-(const LinearExpr &other) const;
  LinearExpr operator*(int64_t factor) const;
  LinearExpr operator+(int64_t value) const { return *this + cst(value); }
  LinearExpr operator-(int64_t value) const { return *this - cst(value); }
  bool isConstant() const { return coeffs.empty(); }
  /// Value under an assignment of every variable the expression mentions.
  int64_t evaluate(llvm::ArrayRef<int64_t> values) const;
};

/// Variables and constraints of one Presburger query.
class LinearSystem {
public:
  enum class VarKind { Visible, Existential, Division };

  /// Adds a variable. Visible variables become set dimensions (or domain,
  /// range and symbol variables, see toRelation) in creation order;
  /// existential ones are projected away (locals).
  unsigned addVar(llvm::StringRef name, bool existential = false);
  /// A new division local `floor(dividend / divisor)`, `divisor > 0`. Equal
  /// divisions share one variable.
  LinearExpr floorDiv(const LinearExpr &dividend, int64_t divisor);
  LinearExpr ceilDiv(const LinearExpr &dividend, int64_t divisor) {
    return floorDiv(dividend + (divisor - 1), divisor);
  }
  LinearExpr mod(const LinearExpr &dividend, int64_t divisor) {
    return dividend - floorDiv(dividend, divisor) * divisor;
  }

  /// `expr >= 0`.
  void addGE(const LinearExpr &expr);
  /// `expr == 0`.
  void addEQ(const LinearExpr &expr);
  /// `lhs <= rhs`, `lhs < rhs`, `lhs == rhs`.
  void addLE(const LinearExpr &lhs, const LinearExpr &rhs) { addGE(rhs - lhs); }
  void addLT(const LinearExpr &lhs, const LinearExpr &rhs) {
    addGE(rhs - lhs - 1);
  }
  void addEQ(const LinearExpr &lhs, const LinearExpr &rhs) { addEQ(lhs - rhs); }

  unsigned getNumVars() const { return vars.size(); }
  unsigned getNumConstraints() const { return constraints.size(); }
  VarKind getKind(unsigned id) const { return vars[id].kind; }
  const std::string &getName(unsigned id) const { return vars[id].name; }
  /// Ids of the visible variables in materialization order.
  llvm::SmallVector<unsigned> getVisibleVars() const;

  /// All variables visible set dimensions (creation order), existential
  /// variables and divisions as locals.
  mlir::presburger::IntegerPolyhedron toPolyhedron() const;
  /// As toPolyhedron, but the visible variables take the given kinds
  /// (Domain, Range or Symbol), keeping their creation order within a kind.
  mlir::presburger::IntegerRelation
  toRelation(llvm::ArrayRef<mlir::presburger::VarKind> visibleKinds) const;

private:
  struct Var {
    std::string name;
    VarKind kind;
    // Division variables only.
    LinearExpr dividend;
    int64_t divisor = 0;
  };
  struct Constraint {
    LinearExpr expr;
    bool isEquality;
  };

  std::vector<Var> vars;
  std::vector<Constraint> constraints;
  std::map<std::pair<std::map<unsigned, int64_t>, std::pair<int64_t, int64_t>>,
           unsigned>
      divisionCache;

  void materialize(mlir::presburger::IntegerRelation &rel,
                   llvm::ArrayRef<unsigned> columnOfVisible) const;
};

} // namespace kbench

#endif // KBENCH_ANALYSIS_LINEARSYSTEM_H
