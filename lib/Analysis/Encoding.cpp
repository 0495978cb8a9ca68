//===- Encoding.cpp - Instances of ops as linear constraints --------------===//
//
// Part of KernelModel: writes the model into LinearSystems. Shape symbols come
// first (bounded, with the requires facts), then the block coordinates and
// loop ivs of an op's instance, bound scope by scope so that ops sharing a
// loop share its iteration, then the elements an access touches. Also builds
// the access relation A_s and prints the model.
//
//===----------------------------------------------------------------------===//

#include "kbench/Analysis/KernelModel.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench {

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

LogicalResult
KernelModel::addConstraints(LinearSystem &sys, ArrayRef<LinearExpr> syms,
                            const Instance *instance,
                            ArrayRef<AffineConstraint> constraints) const {
  for (const AffineConstraint &c : constraints) {
    FailureOr<LinearExpr> e = flatten(sys, c.expr, syms, instance);
    if (failed(e))
      return failure();
    if (c.isEquality)
      sys.addEQ(*e);
    else
      sys.addGE(*e);
  }
  return success();
}

AffineExpr KernelModel::lookupIndexExpr(Value value) const {
  std::string reason;
  FailureOr<AffineExpr> e = getIndexExpr(value, reason);
  return succeeded(e) ? *e : AffineExpr();
}

FailureOr<LinearExpr> KernelModel::flatten(LinearSystem &sys, AffineExpr expr,
                                           ArrayRef<LinearExpr> syms,
                                           const Instance *instance) const {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return LinearExpr::cst(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (!instance || pos >= instance->dims.size() || !instance->dims[pos])
      return failure();
    return *instance->dims[pos];
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    if (pos >= syms.size())
      return failure();
    return syms[pos];
  }
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  FailureOr<LinearExpr> l = flatten(sys, binary.getLHS(), syms, instance);
  FailureOr<LinearExpr> r = flatten(sys, binary.getRHS(), syms, instance);
  if (failed(l) || failed(r))
    return failure();
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return *l + *r;
  case AffineExprKind::Mul:
    if (r->isConstant())
      return *l * r->constant;
    if (l->isConstant())
      return *r * l->constant;
    return failure();
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod:
    if (!r->isConstant() || r->constant <= 0)
      return failure();
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return sys.floorDiv(*l, r->constant);
    if (expr.getKind() == AffineExprKind::CeilDiv)
      return sys.ceilDiv(*l, r->constant);
    return sys.mod(*l, r->constant);
  default:
    return failure();
  }
}

SmallVector<LinearExpr> KernelModel::emitSymbols(LinearSystem &sys) const {
  SmallVector<LinearExpr> syms;
  for (const std::string &name : symbols) {
    LinearExpr s = LinearExpr::var(sys.addVar(name));
    sys.addGE(s - 1);
    sys.addGE(LinearExpr::cst(kMaxDimValue) - s);
    syms.push_back(s);
  }
  for (const AffineConstraint &fact : facts) {
    FailureOr<LinearExpr> e = flatten(sys, fact.expr, syms, nullptr);
    if (failed(e))
      continue;
    if (fact.isEquality)
      sys.addEQ(*e);
    else
      sys.addGE(*e);
  }
  return syms;
}

Instance KernelModel::emitInstance(LinearSystem &sys, ArrayRef<LinearExpr> syms,
                                   int scope, StringRef prefix,
                                   bool existential) const {
  Instance inst;
  bindScope(sys, syms, inst, scope, prefix, existential);
  return inst;
}

Instance KernelModel::restrictInstance(const Instance &inst, int scope) const {
  Instance result;
  result.gridBound = inst.gridBound;
  result.valid = inst.valid;
  result.dims.resize(numDims);
  result.vars.assign(numDims, -1);
  for (unsigned g = 0, e = gridExtents.size(); g < e; ++g) {
    result.dims[g] = inst.dims[g];
    result.vars[g] = inst.vars[g];
  }
  for (int s : getScopeChain(scope)) {
    if (!llvm::is_contained(inst.scopes, s))
      continue;
    result.scopes.push_back(s);
    if (scopes[s].kind == ScopeInfo::Kind::Loop) {
      result.dims[scopes[s].dim] = inst.dims[scopes[s].dim];
      result.vars[scopes[s].dim] = inst.vars[scopes[s].dim];
    }
  }
  return result;
}

void KernelModel::bindScope(LinearSystem &sys, ArrayRef<LinearExpr> syms,
                            Instance &inst, int scope, StringRef prefix,
                            bool existential,
                            ArrayRef<int> pastUpperBound) const {
  if (inst.dims.size() != numDims) {
    inst.dims.resize(numDims);
    inst.vars.assign(numDims, -1);
  }
  auto require = [&](FailureOr<LinearExpr> e) -> LinearExpr {
    if (failed(e)) {
      inst.valid = false;
      return LinearExpr::cst(0);
    }
    return *e;
  };
  if (!inst.gridBound) {
    inst.gridBound = true;
    for (unsigned g = 0, e = gridExtents.size(); g < e; ++g) {
      unsigned var =
          sys.addVar((prefix + "block" + Twine(g)).str(), existential);
      LinearExpr v = LinearExpr::var(var);
      sys.addGE(v);
      sys.addLT(v, require(flatten(sys, gridExtents[g], syms, nullptr)));
      inst.dims[g] = v;
      inst.vars[g] = var;
    }
  }
  for (int s : getScopeChain(scope)) {
    if (llvm::is_contained(inst.scopes, s))
      continue;
    inst.scopes.push_back(s);
    const ScopeInfo &info = scopes[s];
    if (info.kind == ScopeInfo::Kind::Guard) {
      for (const AffineConstraint &c : info.conditions) {
        LinearExpr e = require(flatten(sys, c.expr, syms, &inst));
        if (c.isEquality)
          sys.addEQ(e);
        else
          sys.addGE(e);
      }
      continue;
    }
    unsigned var = sys.addVar(
        (prefix + "iv" + Twine(info.dim - gridExtents.size())).str(),
        existential);
    LinearExpr iv = LinearExpr::var(var);
    LinearExpr lb = require(flatten(sys, info.lb, syms, &inst));
    sys.addLE(lb, iv);
    if (!llvm::is_contained(pastUpperBound, s)) {
      sys.addLT(iv, require(flatten(sys, info.ub, syms, &inst)));
      for (AffineExpr extra : info.extraUbs)
        sys.addLT(iv, require(flatten(sys, extra, syms, &inst)));
    }
    if (info.step > 1)
      sys.addEQ(iv - lb, sys.floorDiv(iv - lb, info.step) * info.step);
    inst.dims[info.dim] = iv;
    inst.vars[info.dim] = var;
  }
}

AccessInstance KernelModel::emitAccess(LinearSystem &sys,
                                       ArrayRef<LinearExpr> syms,
                                       const Instance &instance,
                                       const AccessInfo &access,
                                       StringRef prefix, bool existential) const {
  AccessInstance result;
  const ViewInfo &view = views[access.view];
  for (auto [axis, index] : llvm::enumerate(access.indices)) {
    FailureOr<LinearExpr> tileCoord = flatten(sys, index, syms, &instance);
    LinearExpr t = succeeded(tileCoord) ? *tileCoord : LinearExpr::cst(0);
    unsigned var =
        sys.addVar((prefix + "e" + Twine(axis)).str(), existential);
    LinearExpr e = LinearExpr::var(var);
    sys.addGE(e);
    sys.addLT(e, LinearExpr::cst(view.tileShape[axis]));
    result.tile.push_back(t);
    result.elem.push_back(e);
    result.elemVars.push_back(var);
    result.element.push_back(t * view.tileShape[axis] + e);
  }
  return result;
}

AccessRelation KernelModel::getRelation(const AccessInfo &access) const {
  using presburger::VarKind;
  LinearSystem sys;
  SmallVector<LinearExpr> syms = emitSymbols(sys);
  Instance inst = emitInstance(sys, syms, access.scope, "", false);
  AccessInstance ai = emitAccess(sys, syms, inst, access, "", false);
  const ViewInfo &view = views[access.view];
  AccessRelation rel{&access, presburger::IntegerRelation(
                                  presburger::PresburgerSpace::getSetSpace(0)),
                     {}, {}, {}};
  for (unsigned d = 0, e = ai.element.size(); d < e; ++d) {
    LinearExpr x = LinearExpr::var(sys.addVar("x" + std::to_string(d)));
    sys.addEQ(x, ai.element[d]);
    rel.rangeNames.push_back(symbols[view.dimSymbols[d]]);
  }
  SmallVector<VarKind> kinds;
  unsigned numSyms = symbols.size();
  unsigned numRange = ai.element.size();
  SmallVector<unsigned> visible = sys.getVisibleVars();
  for (auto [i, id] : llvm::enumerate(visible)) {
    if (i < numSyms) {
      kinds.push_back(VarKind::Symbol);
      rel.symbolNames.push_back(sys.getName(id));
    } else if (i >= visible.size() - numRange) {
      kinds.push_back(VarKind::Range);
    } else {
      kinds.push_back(VarKind::Domain);
      rel.domainNames.push_back(sys.getName(id));
    }
  }
  rel.relation = sys.toRelation(kinds);
  return rel;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string KernelModel::toString(AffineExpr expr) const {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return std::to_string(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (pos < gridExtents.size())
      return "block" + std::to_string(pos);
    return "iv" + std::to_string(pos - gridExtents.size());
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    return pos < symbols.size() ? symbols[pos] : "s" + std::to_string(pos);
  }
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string l = toString(binary.getLHS()), r = toString(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    // b * -1 + a prints as a - b.
    if (auto mul = dyn_cast<AffineBinaryOpExpr>(binary.getLHS());
        mul && mul.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
          c && c.getValue() == -1)
        return "(" + r + " - " + toString(mul.getLHS()) + ")";
    // a + b * -1 prints as a - b.
    if (auto mul = dyn_cast<AffineBinaryOpExpr>(binary.getRHS());
        mul && mul.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
          c && c.getValue() == -1)
        return "(" + l + " - " + toString(mul.getLHS()) + ")";
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS());
        c && c.getValue() < 0)
      return "(" + l + " - " + std::to_string(-c.getValue()) + ")";
    return "(" + l + " + " + r + ")";
  }
  case AffineExprKind::Mul:
    return l + " * " + r;
  case AffineExprKind::FloorDiv:
    return "floordiv(" + l + ", " + r + ")";
  case AffineExprKind::CeilDiv:
    return "ceildiv(" + l + ", " + r + ")";
  case AffineExprKind::Mod:
    return "(" + l + " % " + r + ")";
  default:
    return "?";
  }
}

void KernelModel::print(llvm::raw_ostream &os) const {
  os << "kernel @" << kernel.getSymName() << "\n";
  if (!unsupported.empty()) {
    os << "  unsupported: " << unsupported << "\n";
    return;
  }
  os << "  symbols:";
  for (const std::string &s : symbols)
    os << " " << s;
  os << " in [1, " << kMaxDimValue << "]\n";
  for (const AffineConstraint &fact : facts)
    os << "  fact: " << toString(fact.expr)
       << (fact.isEquality ? " == 0" : " >= 0") << "\n";
  for (const auto &[text, reason] : droppedFacts)
    os << "  dropped fact: \"" << text << "\": " << reason << "\n";
  for (auto [g, extent] : llvm::enumerate(gridExtents))
    os << "  block" << g << " in [0, " << toString(extent) << ")\n";
  for (auto [i, scope] : llvm::enumerate(scopes)) {
    os << "  scope " << i << " (parent " << scope.parent << "): ";
    if (!scope.unsupported.empty()) {
      os << "unsupported: " << scope.unsupported << "\n";
      continue;
    }
    if (scope.kind == ScopeInfo::Kind::Loop) {
      os << "iv" << scope.dim - gridExtents.size() << " in ["
         << toString(scope.lb) << ", ";
      if (scope.extraUbs.empty()) {
        os << toString(scope.ub);
      } else {
        os << "min(" << toString(scope.ub);
        for (AffineExpr extra : scope.extraUbs)
          os << ", " << toString(extra);
        os << ")";
      }
      os << ") step " << scope.step << "\n";
      continue;
    }
    os << (scope.thenBranch ? "then" : "else") << " branch of "
       << describeOp(scope.op) << ":";
    for (const AffineConstraint &c : scope.conditions)
      os << " " << toString(c.expr) << (c.isEquality ? " == 0" : " >= 0");
    os << "\n";
  }
  for (const AccessInfo &access : accesses) {
    os << "  " << describeOp(access.op) << ": ";
    if (!access.unsupported.empty()) {
      os << "unsupported: " << access.unsupported << "\n";
      continue;
    }
    const ViewInfo &view = views[access.view];
    os << view.tensor << "[";
    llvm::interleaveComma(view.dimSymbols, os,
                          [&](unsigned s) { os << symbols[s]; });
    os << "] tile ";
    llvm::interleave(view.tileShape, os, "x");
    os << " pad " << tile::stringifyPadKind(view.pad) << " scope "
       << access.scope << " at (";
    llvm::interleaveComma(access.indices, os,
                          [&](AffineExpr e) { os << toString(e); });
    os << ")\n";
    AccessRelation rel = getRelation(access);
    os << "    relation: (";
    llvm::interleaveComma(rel.domainNames, os);
    os << ") -> (";
    llvm::interleaveComma(rel.rangeNames, os);
    os << ") symbols (";
    llvm::interleaveComma(rel.symbolNames, os);
    os << "), " << rel.relation.getNumLocalVars() << " locals, "
       << rel.relation.getNumEqualities() << " equalities, "
       << rel.relation.getNumInequalities() << " inequalities\n";
  }
}

} // namespace kbench
