//===- PadQueries.cpp - The Presburger questions of C10 -------------------===//
//
// Whether a load can read a partial tile along an axis, whether an
// arith.select condition (a comparison of iota-based lane indices) hides the
// padded lanes of an operand, whether an scf.if branch is only taken where a
// load reads no partial tile, whether a store masks every padded lane, and
// the findings they lead to.
//
//===----------------------------------------------------------------------===//

#include "PadAnalysis.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench::detail {

bool PadAnalysis::padPossible(const AccessInfo &load, unsigned axis) {
  auto key = std::make_pair(&load, axis);
  auto it = padCache.find(key);
  if (it != padCache.end())
    return it->second;
  const ViewInfo &view = model.getViews()[load.view];
  LinearSystem sys;
  SmallVector<LinearExpr> syms = model.emitSymbols(sys);
  Instance inst = model.emitInstance(sys, syms, load.scope, "", false);
  AccessInstance ai = model.emitAccess(sys, syms, inst, load, "", false);
  LinearExpr dim = syms[view.dimSymbols[axis]];
  sys.addGE(ai.tile[axis]);
  sys.addLT(ai.tile[axis] * view.tileShape[axis], dim);
  sys.addGE(ai.element[axis] - dim);
  SmallVector<int64_t> values;
  CheckRun::Outcome outcome = run.lexMin(sys, values);
  if (outcome == CheckRun::Outcome::Stopped) {
    stopped = true;
    return padCache[key] = false;
  }
  bool possible = outcome == CheckRun::Outcome::Found;
  if (possible) {
    SymbolValues dims = witnessDims(model, values, syms);
    llvm::json::Object witness;
    witness["dims"] = dimsJSON(dims, model.getSymbols());
    addInstanceJSON(witness, model, inst, values);
    witness["tile"] = toJSONArray(evaluateAll(ai.tile, values));
    witness["element"] = toJSONArray(evaluateAll(ai.element, values));
    padWitness[key] = std::move(witness);
    padText[key] = "for " + dimsText(dims, model.getSymbols()) + ", " +
                   instanceText(model, inst, values) + " reads element " +
                   tupleText(evaluateAll(ai.element, values)) + " past " +
                   model.getSymbols()[view.dimSymbols[axis]];
  }
  return padCache[key] = possible;
}

void PadAnalysis::reportNotNeutral(Operation *consumer, const Entry &entry,
                                   const std::string &what,
                                   const std::string &fix) {
  if (!reported.insert({consumer, entry.load, entry.srcAxis}).second)
    return;
  const ViewInfo &view = model.getViews()[entry.load->view];
  auto key = std::make_pair(entry.load, entry.srcAxis);
  std::string message =
      describeOp(consumer) + " " + what + " lanes of " + view.label() +
      " padded by " + describeOp(entry.load->op) + " with pad(" +
      padName(view.pad) + ") along dim " + std::to_string(entry.srcAxis) +
      ", which hold " + laneName(entry.value) + " there (" + padText[key] +
      "); " + fix;
  Finding &finding =
      run.violation(consumer, "pad_not_neutral", view.tensor, message, "pad_kind");
  finding.witness = padWitness[key];
  finding.details["pad"] = padName(view.pad);
  finding.details["lanes"] = laneName(entry.value);
  finding.details["consumer"] = consumer->getName().getStringRef().str();
  finding.details["source"] = describeOp(entry.load->op);
  finding.details["dim"] = entry.srcAxis;
  addRelated(finding, {entry.load->op, model.getViews()[entry.load->view].op});
  SymbolValues dims;
  if (const llvm::json::Object *d = finding.witness.getObject("dims"))
    for (const auto &[k, v] : *d)
      dims[k.str()] = v.getAsInteger().value_or(0);
  run.demoteIfFactsViolated(finding, dims);
}

bool PadAnalysis::isMisbound(Operation *at, const Entry &entry) {
  if (!entry.carried)
    return false;
  FailureOr<int> scope = model.getScope(at);
  if (failed(scope))
    return true;
  int common = model.getCommonScope(*scope, entry.load->scope);
  for (int s : model.getScopeChain(common))
    if (model.getScopes()[s].kind == ScopeInfo::Kind::Loop)
      return true;
  return false;
}

bool PadAnalysis::provedMasked(Operation *consumer, const Entry &entry,
                               unsigned axis, Value cond, bool condTrue) {
  // The queries bind the load's iterations to the consumer's; lanes carried
  // from an earlier iteration of a loop around both are not that load.
  if (isMisbound(consumer, entry))
    return false;
  auto key = std::make_tuple(consumer, entry.load, entry.srcAxis, axis, condTrue);
  auto it = maskCache.find(key);
  if (it != maskCache.end())
    return it->second;
  bool masked = false;
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  AffineExpr lhs = cmp ? laneIndex.lookup(cmp.getLhs()) : AffineExpr();
  AffineExpr rhs = cmp ? laneIndex.lookup(cmp.getRhs()) : AffineExpr();
  FailureOr<int> scope = model.getScope(consumer);
  SmallVector<AffineConstraint> constraints;
  if (cmp && lhs && rhs && succeeded(scope) &&
      succeeded(laneConstraints(cmp, lhs, rhs, condTrue, constraints))) {
    auto type = cast<RankedTensorType>(cond.getType());
    const ViewInfo &view = model.getViews()[entry.load->view];
    LinearSystem sys;
    SmallVector<LinearExpr> syms = model.emitSymbols(sys);
    Instance inst = model.emitInstance(sys, syms, *scope, "", false);
    model.bindScope(sys, syms, inst, entry.load->scope, "", false);
    FailureOr<LinearExpr> tile = model.flatten(
        sys, entry.load->indices[entry.srcAxis], syms, &inst);
    Instance lanes = inst;
    lanes.dims.resize(model.getNumDims() + type.getRank());
    for (unsigned d = 0, e = type.getRank(); d < e; ++d) {
      LinearExpr lane = LinearExpr::var(sys.addVar("lane" + std::to_string(d)));
      sys.addGE(lane);
      sys.addLT(lane, LinearExpr::cst(type.getDimSize(d)));
      lanes.dims[model.getNumDims() + d] = lane;
    }
    bool ok = succeeded(tile);
    if (ok) {
      // The entry's lanes: past the extent along the load's axis.
      sys.addGE(*tile * view.tileShape[entry.srcAxis] +
                *lanes.dims[model.getNumDims() + axis] -
                syms[view.dimSymbols[entry.srcAxis]]);
      ok = succeeded(model.addConstraints(sys, syms, &lanes, constraints));
    }
    SmallVector<int64_t> values;
    if (ok) {
      CheckRun::Outcome outcome = run.lexMin(sys, values);
      if (outcome == CheckRun::Outcome::Stopped)
        stopped = true;
      // No padded lane on which the condition selects this operand.
      masked = outcome == CheckRun::Outcome::Empty;
    }
  }
  return maskCache[key] = masked;
}

void PadAnalysis::checkStoreLeak(Operation *store, const AccessInfo &access,
                                 const Entry &entry, unsigned axis) {
  if (!leakQueried.insert({store, entry.load, entry.srcAxis, axis}).second)
    return;
  const ViewInfo &lview = model.getViews()[entry.load->view];
  const ViewInfo &sview = model.getViews()[access.view];
  FailureOr<LoadStoreQuery> q =
      buildLoadStoreQuery(model, *entry.load, entry.srcAxis, access, axis);
  if (failed(q))
    return;
  LinearSystem &sys = q->sys;
  ArrayRef<LinearExpr> syms = q->syms;
  const Instance &inst = q->inst;
  LinearExpr *ltile = &q->loadTile, *stile = &q->storeTile;
  LinearExpr lane = LinearExpr::var(sys.addVar("lane"));
  sys.addGE(lane);
  sys.addLT(lane, LinearExpr::cst(sview.tileShape[axis]));
  LinearExpr ldim = syms[lview.dimSymbols[entry.srcAxis]];
  LinearExpr sdim = syms[sview.dimSymbols[axis]];
  // Padded in the load...
  sys.addGE(*ltile * lview.tileShape[entry.srcAxis] + lane - ldim);
  // ...but an in-bounds element of the output.
  LinearExpr element = *stile * sview.tileShape[axis] + lane;
  sys.addGE(element);
  sys.addLT(element, sdim);
  SmallVector<int64_t> values;
  CheckRun::Outcome outcome = run.lexMin(sys, values);
  if (outcome == CheckRun::Outcome::Stopped) {
    stopped = true;
    return;
  }
  if (outcome == CheckRun::Outcome::Empty)
    return;
  SymbolValues dims = witnessDims(model, values, syms);
  int64_t laneValue = lane.evaluate(values);
  std::string message =
      describeOp(store) + " writes lanes of " + lview.label() + " padded by " +
      describeOp(entry.load->op) + " with pad(" + padName(lview.pad) +
      ") into in-bounds elements of " + sview.label() + ": lane " +
      std::to_string(laneValue) + " of dim " + std::to_string(axis) +
      " is past " + model.getSymbols()[lview.dimSymbols[entry.srcAxis]] +
      " in the load but element " +
      std::to_string(element.evaluate(values)) + " < " +
      model.getSymbols()[sview.dimSymbols[axis]] + " in the store (" +
      dimsText(dims, model.getSymbols()) + ", " +
      instanceText(model, inst, values) +
      "); load and store must tile the same dim alike";
  Finding &finding = run.violation(store, "pad_not_neutral", sview.tensor,
                                   message, "pad_kind|index_offset");
  finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
  addInstanceJSON(finding.witness, model, inst, values);
  finding.witness["lane"] = laneValue;
  finding.details["pad"] = padName(lview.pad);
  finding.details["consumer"] = store->getName().getStringRef().str();
  finding.details["source"] = describeOp(entry.load->op);
  finding.details["dim"] = axis;
  addRelated(finding, {entry.load->op, lview.op});
  run.demoteIfFactsViolated(finding, dims);
}

bool PadAnalysis::provedUnpaddedUnder(Operation *at, const Entry &entry,
                                      Value cond, bool condTrue) {
  if (isMisbound(at, entry))
    return false;
  auto key = std::make_tuple(at, entry.load, entry.srcAxis, condTrue);
  auto it = branchCache.find(key);
  if (it != branchCache.end())
    return it->second;
  SmallVector<SmallVector<AffineConstraint>> cases;
  auto lookup = [&](Value v) { return model.lookupIndexExpr(v); };
  FailureOr<int> scope = model.getScope(at);
  if (failed(scope) || failed(conditionCases(cond, condTrue, lookup, cases)))
    return branchCache[key] = false;
  const ViewInfo &view = model.getViews()[entry.load->view];
  // Each case of the condition must leave no instance that reads a partial
  // tile along the load's axis.
  bool unpadded = true;
  for (const SmallVector<AffineConstraint> &constraints : cases) {
    LinearSystem sys;
    SmallVector<LinearExpr> syms = model.emitSymbols(sys);
    Instance inst = model.emitInstance(sys, syms, *scope, "", false);
    model.bindScope(sys, syms, inst, entry.load->scope, "", false);
    FailureOr<LinearExpr> tile =
        model.flatten(sys, entry.load->indices[entry.srcAxis], syms, &inst);
    if (failed(tile)) {
      unpadded = false;
      break;
    }
    // Some lane of the tile past the extent along the load's axis.
    LinearExpr lane = LinearExpr::var(sys.addVar("lane"));
    int64_t size = view.tileShape[entry.srcAxis];
    sys.addGE(lane);
    sys.addLT(lane, LinearExpr::cst(size));
    sys.addGE(*tile * size + lane - syms[view.dimSymbols[entry.srcAxis]]);
    bool ok = succeeded(model.addConstraints(sys, syms, &inst, constraints));
    SmallVector<int64_t> values;
    CheckRun::Outcome outcome =
        ok ? run.lexMin(sys, values) : CheckRun::Outcome::Found;
    if (outcome == CheckRun::Outcome::Stopped)
      stopped = true;
    if (outcome != CheckRun::Outcome::Empty) {
      unpadded = false;
      break;
    }
  }
  return branchCache[key] = unpadded;
}

State PadAnalysis::branchState(scf::IfOp ifOp, bool isThen, State state) {
  for (SmallVector<Entry> &entries : state.axes)
    llvm::erase_if(entries, [&](const Entry &entry) {
      return provedUnpaddedUnder(ifOp, entry, ifOp.getCondition(), isThen);
    });
  return state;
}

} // namespace kbench::detail
