//===- LinearSystem.cpp - Named integer constraints for Presburger queries ===//
//
// Collects variables and constraints by name and materializes them into a
// presburger::IntegerRelation in one go, so that no column index is ever
// invalidated by a later addition.
//
//===----------------------------------------------------------------------===//

#include "kbench/Analysis/LinearSystem.h"

using namespace mlir;
using namespace mlir::presburger;

namespace kbench {

//===----------------------------------------------------------------------===//
// LinearExpr
//===----------------------------------------------------------------------===//

LinearExpr LinearExpr::var(unsigned id, int64_t coeff) {
  LinearExpr e;
  if (coeff != 0)
    e.coeffs[id] = coeff;
  return e;
}

LinearExpr LinearExpr::cst(int64_t value) {
  LinearExpr e;
  e.constant = value;
  return e;
}

LinearExpr LinearExpr::operator+(const LinearExpr &other) const {
  LinearExpr result = *this;
  for (auto [id, coeff] : other.coeffs) {
    int64_t &slot = result.coeffs[id];
    slot += coeff;
    if (slot == 0)
      result.coeffs.erase(id);
  }
  result.constant += other.constant;
  return result;
}

LinearExpr LinearExpr::operator-(const LinearExpr &other) const {
  return *this + other * -1;
}

LinearExpr LinearExpr::operator*(int64_t factor) const {
  if (factor == 0)
    return cst(0);
  LinearExpr result;
  for (auto [id, coeff] : coeffs)
    result.coeffs[id] = coeff * factor;
  result.constant = constant * factor;
  return result;
}

int64_t LinearExpr::evaluate(ArrayRef<int64_t> values) const {
  int64_t result = constant;
  for (auto [id, coeff] : coeffs)
    result += coeff * values[id];
  return result;
}

//===----------------------------------------------------------------------===//
// LinearSystem
//===----------------------------------------------------------------------===//

unsigned LinearSystem::addVar(llvm::StringRef name, bool existential) {
  vars.push_back({name.str(),
                  existential ? VarKind::Existential : VarKind::Visible,
                  LinearExpr(), 0});
  return vars.size() - 1;
}

LinearExpr LinearSystem::floorDiv(const LinearExpr &dividend, int64_t divisor) {
  if (divisor == 1)
    return dividend;
  // A constant dividend needs no variable.
  if (dividend.isConstant()) {
    int64_t q = dividend.constant / divisor;
    if (dividend.constant % divisor != 0 && dividend.constant < 0)
      --q;
    return LinearExpr::cst(q);
  }
  auto key = std::make_pair(dividend.coeffs,
                            std::make_pair(dividend.constant, divisor));
  auto it = divisionCache.find(key);
  if (it != divisionCache.end())
    return LinearExpr::var(it->second);
  vars.push_back({"div" + std::to_string(vars.size()), VarKind::Division,
                  dividend, divisor});
  unsigned id = vars.size() - 1;
  divisionCache[key] = id;
  return LinearExpr::var(id);
}

void LinearSystem::addGE(const LinearExpr &expr) {
  constraints.push_back({expr, false});
}

void LinearSystem::addEQ(const LinearExpr &expr) {
  constraints.push_back({expr, true});
}

SmallVector<unsigned> LinearSystem::getVisibleVars() const {
  SmallVector<unsigned> ids;
  for (unsigned id = 0, e = vars.size(); id < e; ++id)
    if (vars[id].kind == VarKind::Visible)
      ids.push_back(id);
  return ids;
}

/// Dense row of `expr` under the column assignment `column`.
static SmallVector<DynamicAPInt, 8> denseRow(const LinearExpr &expr,
                                             ArrayRef<unsigned> column,
                                             unsigned numCols) {
  SmallVector<DynamicAPInt, 8> row(numCols, DynamicAPInt(0));
  for (auto [id, coeff] : expr.coeffs)
    row[column[id]] += DynamicAPInt(coeff);
  row.back() = DynamicAPInt(expr.constant);
  return row;
}

void LinearSystem::materialize(IntegerRelation &rel,
                               ArrayRef<unsigned> columnOfVisible) const {
  SmallVector<unsigned> column(vars.size(), 0);
  unsigned nextVisible = 0;
  unsigned nextLocal = rel.getVarKindOffset(presburger::VarKind::Local);
  for (unsigned id = 0, e = vars.size(); id < e; ++id) {
    if (vars[id].kind == VarKind::Visible)
      column[id] = columnOfVisible[nextVisible++];
    else if (vars[id].kind == VarKind::Existential)
      column[id] = nextLocal++;
  }
  // Divisions in creation order: each dividend only mentions variables that
  // existed when it was created, so they all have columns by now.
  for (unsigned id = 0, e = vars.size(); id < e; ++id) {
    if (vars[id].kind != VarKind::Division)
      continue;
    SmallVector<DynamicAPInt, 8> row =
        denseRow(vars[id].dividend, column, rel.getNumCols());
    column[id] = rel.addLocalFloorDiv(row, DynamicAPInt(vars[id].divisor));
  }
  for (const Constraint &c : constraints) {
    SmallVector<DynamicAPInt, 8> row = denseRow(c.expr, column, rel.getNumCols());
    if (c.isEquality)
      rel.addEquality(row);
    else
      rel.addInequality(row);
  }
}

IntegerPolyhedron LinearSystem::toPolyhedron() const {
  unsigned numVisible = 0, numExistential = 0;
  for (const Var &v : vars) {
    numVisible += v.kind == VarKind::Visible;
    numExistential += v.kind == VarKind::Existential;
  }
  IntegerPolyhedron poly(
      PresburgerSpace::getSetSpace(numVisible, /*numSymbols=*/0, numExistential));
  SmallVector<unsigned> columns;
  for (unsigned i = 0; i < numVisible; ++i)
    columns.push_back(i);
  materialize(poly, columns);
  return poly;
}

IntegerRelation
LinearSystem::toRelation(ArrayRef<presburger::VarKind> visibleKinds) const {
  unsigned counts[3] = {0, 0, 0}; // Domain, Range, Symbol
  auto slot = [](presburger::VarKind kind) {
    return kind == presburger::VarKind::Domain  ? 0
           : kind == presburger::VarKind::Range ? 1
                                                : 2;
  };
  for (presburger::VarKind kind : visibleKinds)
    ++counts[slot(kind)];
  unsigned numExistential = 0;
  for (const Var &v : vars)
    numExistential += v.kind == VarKind::Existential;
  IntegerRelation rel(PresburgerSpace::getRelationSpace(
      counts[0], counts[1], counts[2], numExistential));
  unsigned offsets[3] = {0, counts[0], counts[0] + counts[1]};
  SmallVector<unsigned> columns;
  for (presburger::VarKind kind : visibleKinds)
    columns.push_back(offsets[slot(kind)]++);
  materialize(rel, columns);
  return rel;
}

} // namespace kbench
