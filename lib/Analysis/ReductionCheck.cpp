//===- ReductionCheck.cpp - C9 reduction coverage -------------------------===//
//
// C9: every reduction sees each tile of its reduced dim exactly once, and the
// operands of a tile.mma agree on k.
//
// A reduction is a tile.mma (reduced dim: the k axis of a and b) or a
// tile.reduce. ReductionTrace.cpp traces its reduced axis back through elementwise ops,
// broadcasts, transposes and loop-carried values to the tile.loads that feed
// it (the sources); a source's tile coordinate along that axis is the k tile.
// Loads inside a loop whose result feeds the reduction count every iteration
// when the loop carries a value (`acc = acc + x`), only the last one
// otherwise.
//
// Forward, the result is followed to the loops that carry it (all their
// iterations accumulate into one value), to tile.atomic_add (all blocks
// accumulate into one output tile) and to tile.stores into an argument marked
// tile.partials = d (the partials along dim d, which a later kernel combines,
// together make one output tile). tile.mma ops that feed each other's
// accumulator form one chain and are checked together (double accumulation).
// For each scope instance (block and non-carried loops; or output tile of an
// atomic add), the k tiles seen must be exactly [0, ceildiv(dim, tile)):
//
//   k_gap       Need \ Have is empty (set difference of Presburger sets),
//               but for the k tiles the reduction's masks zero on every lane
//               (a chain of one reduction whose operand is an arith.select
//               of its identity under lane-index conditions: causal
//               attention's key loop stops at the diagonal);
//   k_dup       no two distinct contributing instances see the same k tile;
//   k_mismatch  all sources of one instance have equal k tiles.
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"
#include "LaneIndex.h"
#include "ReductionTrace.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::presburger;
using namespace kbench::tile;

namespace kbench::detail {
namespace {

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

/// A chain of reductions that accumulate into one value, and how to instance
/// it: per scope instance (`root`: block and non-carried loops), or per output
/// tile of `atomic` (a tile.atomic_add, or a tile.store of partial results,
/// whose output tiles are counted without their `partialsDim`: the partials
/// along it together must see each k tile once).
struct Chain {
  SmallVector<const Member *> members;
  int root = -1;
  const AccessInfo *atomic = nullptr;
  std::optional<unsigned> partialsDim;
  /// The reduced dim: symbol and tile size (from the first source).
  unsigned dimSymbol = 0;
  int64_t tileSize = 1;
};

class ChainChecker {
public:
  ChainChecker(CheckRun &run, const Chain &chain, const LaneIndex &lanes)
      : run(run), model(run.model), chain(chain), lanes(lanes) {}

  /// Binds `member` (and its sources) into `inst`; returns the k tile of its
  /// first source and, in `ks`, that of every source.
  LinearExpr bindMember(LinearSystem &sys, ArrayRef<LinearExpr> syms,
                        Instance &inst, const Member &member,
                        StringRef prefix, bool existential,
                        SmallVectorImpl<LinearExpr> *ks = nullptr) {
    model.bindScope(sys, syms, inst, member.scope, prefix, existential);
    for (const Source &source : member.sources)
      model.bindScope(sys, syms, inst, source.load->scope, prefix, existential);
    for (int loop : member.lastOnlyLoops) {
      const ScopeInfo &info = model.getScopes()[loop];
      FailureOr<LinearExpr> ub = model.flatten(sys, info.ub, syms, &inst);
      if (succeeded(ub))
        sys.addGE(*inst.dims[info.dim] + info.step - *ub);
    }
    SmallVector<LinearExpr> all;
    for (const Source &source : member.sources) {
      FailureOr<LinearExpr> k = model.flatten(
          sys, source.load->indices[source.axis], syms, &inst);
      all.push_back(succeeded(k) ? *k : LinearExpr::cst(0));
    }
    if (ks)
      *ks = all;
    return all.front();
  }

  /// The output tile (atomic mode) or scope instance (visible variables).
  struct Target {
    Instance inst;
    SmallVector<LinearExpr> tile;
  };
  Target bindTarget(LinearSystem &sys, ArrayRef<LinearExpr> syms,
                    StringRef prefix, bool existentialInstance) {
    Target target;
    if (!chain.atomic) {
      target.inst = model.emitInstance(sys, syms, chain.root, prefix, false);
      return target;
    }
    const AccessInfo &a = *chain.atomic;
    SmallVector<unsigned> dims;
    for (unsigned d = 0, e = a.indices.size(); d < e; ++d)
      if (d != chain.partialsDim)
        dims.push_back(d);
    for (unsigned d : dims)
      target.tile.push_back(
          LinearExpr::var(sys.addVar((prefix + "tile" + Twine(d)).str())));
    target.inst =
        model.emitInstance(sys, syms, a.scope, prefix, existentialInstance);
    for (auto [tile, d] : llvm::zip(target.tile, dims)) {
      FailureOr<LinearExpr> t =
          model.flatten(sys, a.indices[d], syms, &target.inst);
      sys.addEQ(tile, succeeded(t) ? *t : LinearExpr::cst(0));
    }
    return target;
  }

  void checkGap();
  void checkDup(unsigned p, unsigned q);
  void checkMismatch(const Member &member);

private:
  /// The k tiles (over the visible variables of checkGap's sets) that some
  /// iteration of the member's loops reads, the iterations the loops skip
  /// included; with `unmaskedOnly`, only those where some lane passes every
  /// mask of `member`. Failure when the masks are not lane predicates.
  FailureOr<PresburgerSet> tilesReadPastBounds(const Member &member,
                                               bool unmaskedOnly);

  CheckRun &run;
  const KernelModel &model;
  const Chain &chain;
  const LaneIndex &lanes;

  /// "output tile (0) of Y", or for partial results "the partials (dim 0)
  /// of output tile (*, 3) of PMAX".
  std::string targetText(ArrayRef<int64_t> tile) {
    std::string label = model.getViews()[chain.atomic->view].label();
    if (!chain.partialsDim)
      return "output tile " + tupleText(tile) + " of " + label;
    std::string text = "(";
    for (unsigned d = 0, i = 0, e = tile.size() + 1; d < e; ++d) {
      text += d ? ", " : "";
      text += d == *chain.partialsDim ? "*" : std::to_string(tile[i++]);
    }
    return "the partials (dim " + std::to_string(*chain.partialsDim) +
           ") of output tile " + text + ") of " + label;
  }

  std::string kTileText(int64_t kt, const SymbolValues &dims) {
    const std::string &name = model.getSymbols()[chain.dimSymbol];
    int64_t hi = std::min((kt + 1) * chain.tileSize, dims.at(name));
    return "k tile " + std::to_string(kt) + " (elements [" +
           std::to_string(kt * chain.tileSize) + ", " + std::to_string(hi) +
           ") of " + name + " = " + std::to_string(dims.at(name)) + ")";
  }
  void addDetails(Finding &finding, int64_t kt) {
    finding.details["k_dim"] = model.getSymbols()[chain.dimSymbol];
    finding.details["k_tile_size"] = chain.tileSize;
    finding.witness["k_tile"] = kt;
    SmallVector<Operation *> related;
    auto addScopes = [&](int scope) {
      for (int s : model.getScopeChain(scope))
        if (!llvm::is_contained(related, model.getScopes()[s].op))
          related.push_back(model.getScopes()[s].op);
    };
    for (const Member *m : chain.members) {
      related.push_back(m->op);
      addScopes(m->scope);
      for (const Source &s : m->sources) {
        related.push_back(s.load->op);
        addScopes(s.load->scope);
      }
    }
    if (chain.atomic)
      related.push_back(chain.atomic->op);
    addRelated(finding, related);
  }
};

FailureOr<PresburgerSet> ChainChecker::tilesReadPastBounds(const Member &member,
                                                           bool unmaskedOnly) {
  if (member.maskConds.empty() || !member.lastOnlyLoops.empty() ||
      member.sources.empty())
    return failure();
  LinearSystem sys;
  SmallVector<LinearExpr> syms = model.emitSymbols(sys);
  Target target = bindTarget(sys, syms, "", true);
  Instance &inst = target.inst;
  // The loops that accumulate the member also range past their bounds: a
  // k tile they skip must be masked on every lane.
  model.bindScope(sys, syms, inst, member.scope, "", true, member.carriedLoops);
  for (const Source &source : member.sources)
    model.bindScope(sys, syms, inst, source.load->scope, "", true,
                    member.carriedLoops);
  const Source &s0 = member.sources.front();
  FailureOr<LinearExpr> k =
      model.flatten(sys, s0.load->indices[s0.axis], syms, &inst);
  if (failed(k) || !inst.valid)
    return failure();
  sys.addEQ(LinearExpr::var(sys.addVar("k")), *k);
  if (!unmaskedOnly)
    return run.toSet(sys);
  // Some lane of the masked tile where every condition holds.
  auto addUnmaskedLane = [&](LinearSystem &sys) -> LogicalResult {
    auto type = cast<RankedTensorType>(member.maskConds.front().getType());
    Instance withLanes = inst;
    withLanes.dims.resize(model.getNumDims() + type.getRank());
    for (unsigned d = 0, e = type.getRank(); d < e; ++d) {
      LinearExpr lane =
          LinearExpr::var(sys.addVar(("lane" + Twine(d)).str(), true));
      sys.addGE(lane);
      sys.addLT(lane, LinearExpr::cst(type.getDimSize(d)));
      withLanes.dims[model.getNumDims() + d] = lane;
    }
    for (Value cond : member.maskConds) {
      auto cmp = cond.getDefiningOp<arith::CmpIOp>();
      if (!cmp || cond.getType() != type)
        return failure();
      AffineExpr lhs = lanes.lookup(cmp.getLhs()),
                 rhs = lanes.lookup(cmp.getRhs());
      SmallVector<AffineConstraint> constraints;
      if (!lhs || !rhs ||
          failed(laneConstraints(cmp, lhs, rhs, true, constraints)) ||
          failed(model.addConstraints(sys, syms, &withLanes, constraints)))
        return failure();
    }
    return success();
  };
  if (!member.maskGuard) {
    if (failed(addUnmaskedLane(sys)))
      return failure();
    return run.toSet(sys);
  }
  // Masked in one branch of an scf.if only: the tiles of the other branch
  // (every lane unmasked), and those of the masking branch with a lane that
  // passes every condition.
  auto lookup = [&](Value v) { return model.lookupIndexExpr(v); };
  PresburgerSet tiles = PresburgerSet::getEmpty(
      PresburgerSpace::getSetSpace(sys.getVisibleVars().size()));
  for (bool masking : {false, true}) {
    SmallVector<SmallVector<AffineConstraint>> cases;
    bool taken = masking == member.maskGuardThen;
    if (failed(conditionCases(member.maskGuard, taken, lookup, cases)))
      return failure();
    for (const SmallVector<AffineConstraint> &constraints : cases) {
      LinearSystem branch = sys;
      if (failed(model.addConstraints(branch, syms, &inst, constraints)) ||
          (masking && failed(addUnmaskedLane(branch))))
        return failure();
      FailureOr<PresburgerSet> united = run.unite(tiles, run.toSet(branch));
      if (failed(united))
        return failure();
      tiles = std::move(*united);
    }
  }
  return tiles;
}

void ChainChecker::checkGap() {
  unsigned numSyms = model.getSymbols().size();
  LinearSystem need;
  SmallVector<LinearExpr> needSyms = model.emitSymbols(need);
  Target needTarget = bindTarget(need, needSyms, "", true);
  LinearExpr kt = LinearExpr::var(need.addVar("k"));
  need.addGE(kt);
  need.addLT(kt * chain.tileSize, needSyms[chain.dimSymbol]);

  PresburgerSet have =
      PresburgerSet::getEmpty(PresburgerSpace::getSetSpace(
          need.getVisibleVars().size()));
  for (const Member *member : chain.members) {
    if (!run.canContinue())
      return;
    LinearSystem sys;
    SmallVector<LinearExpr> syms = model.emitSymbols(sys);
    Target target = bindTarget(sys, syms, "", true);
    LinearExpr k = bindMember(sys, syms, target.inst, *member, "", true);
    sys.addEQ(LinearExpr::var(sys.addVar("k")), k);
    FailureOr<PresburgerSet> united = run.unite(have, run.toSet(sys));
    if (failed(united))
      return;
    have = std::move(*united);
  }
  if (!run.canContinue())
    return;
  FailureOr<PresburgerSet> difference = run.subtract(run.toSet(need), have);
  if (failed(difference))
    return;
  PresburgerSet missing = *difference;
  // A missing k tile that an iteration past the loop's bounds would read
  // with the member's masks setting every lane to the identity would have
  // added nothing (causal attention skips the key tiles above the
  // diagonal). A tile no iteration reads at all stays missing.
  if (chain.members.size() == 1) {
    const Member &member = *chain.members.front();
    FailureOr<PresburgerSet> read = tilesReadPastBounds(member, false);
    FailureOr<PresburgerSet> unmasked = tilesReadPastBounds(member, true);
    if (succeeded(read) && succeeded(unmasked)) {
      FailureOr<PresburgerSet> masked = run.subtract(*read, *unmasked);
      if (failed(masked))
        return;
      FailureOr<PresburgerSet> rest = run.subtract(missing, *masked);
      if (failed(rest))
        return;
      missing = *rest;
    }
  }
  SmallVector<int64_t> point;
  if (run.lexMinOfSet(missing, point) != CheckRun::Outcome::Found)
    return;

  SmallVector<int64_t> values(need.getNumVars(), 0);
  for (auto [id, v] : llvm::zip(need.getVisibleVars(), point))
    values[id] = v;
  SymbolValues dims = witnessDims(model, values, needSyms);
  int64_t k = point.back();
  std::string target;
  if (chain.atomic)
    target = targetText(evaluateAll(needTarget.tile, values));
  else
    target = instanceText(model, needTarget.inst, values);
  const Member &first = *chain.members.front();
  std::string message =
      describeOp(first.op) + " never reduces " + kTileText(k, dims) +
      " for " + target + " (" + dimsText(dims, model.getSymbols()) +
      "); every output must see all ceildiv(" +
      model.getSymbols()[chain.dimSymbol] + ", " +
      std::to_string(chain.tileSize) + ") tiles of the reduced dim";
  Finding &finding =
      run.violation(first.op, "k_gap", "", message, "k_loop_bound|k_step");
  finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
  if (chain.atomic)
    finding.witness["tile"] = toJSONArray(evaluateAll(needTarget.tile, values));
  else
    addInstanceJSON(finding.witness, model, needTarget.inst, values);
  addDetails(finding, k);
  run.demoteIfFactsViolated(finding, dims);
  (void)numSyms;
}

void ChainChecker::checkDup(unsigned p, unsigned q) {
  const Member &mp = *chain.members[p], &mq = *chain.members[q];
  LinearSystem sys;
  SmallVector<LinearExpr> syms = model.emitSymbols(sys);
  Instance instP, instQ;
  SmallVector<LinearExpr> tileP, tileQ;
  if (!chain.atomic) {
    Target common = bindTarget(sys, syms, "", false);
    instP = model.restrictInstance(common.inst, chain.root);
    instQ = model.restrictInstance(common.inst, chain.root);
  } else {
    Target tp = bindTarget(sys, syms, "first.", false);
    Target tq = bindTarget(sys, syms, "second.", false);
    instP = tp.inst;
    instQ = tq.inst;
    for (auto [a, b] : llvm::zip(tp.tile, tq.tile))
      sys.addEQ(a, b);
    tileP = tp.tile;
  }
  unsigned sharedEnd = sys.getNumVars();
  LinearExpr kp = bindMember(sys, syms, instP, mp, "first.", false);
  LinearExpr kq = bindMember(sys, syms, instQ, mq, "second.", false);
  sys.addEQ(kp, kq);
  // A k tile outside the index space is C1's finding, not a duplicate.
  sys.addGE(kp);
  sys.addLT(kp * chain.tileSize, syms[chain.dimSymbol]);

  SmallVector<LinearSystem> queries;
  if (p != q) {
    queries.push_back(sys);
  } else {
    // Distinct instances of one op: order the variables it owns.
    SmallVector<LinearExpr> tp, tq;
    for (unsigned d = 0, e = instP.dims.size(); d < e; ++d) {
      bool ownP = instP.vars[d] >= int(chain.atomic ? 0 : sharedEnd);
      if (instP.dims[d] && instQ.dims[d] && ownP) {
        tp.push_back(*instP.dims[d]);
        tq.push_back(*instQ.dims[d]);
      }
    }
    for (unsigned i = 0; i < tp.size(); ++i) {
      LinearSystem query = sys;
      for (unsigned j = 0; j < i; ++j)
        query.addEQ(tp[j], tq[j]);
      query.addLT(tp[i], tq[i]);
      queries.push_back(std::move(query));
    }
  }
  for (LinearSystem &query : queries) {
    SmallVector<int64_t> values;
    CheckRun::Outcome outcome = run.lexMin(query, values);
    if (outcome == CheckRun::Outcome::Stopped)
      return;
    if (outcome == CheckRun::Outcome::Empty)
      continue;
    SymbolValues dims = witnessDims(model, values, syms);
    int64_t k = kp.evaluate(values);
    std::string target =
        chain.atomic
            ? targetText(evaluateAll(tileP, values))
            : instanceText(model, model.restrictInstance(instP, chain.root),
                           values);
    std::string message =
        kTileText(k, dims) + " is reduced twice for " + target + " (" +
        dimsText(dims, model.getSymbols()) + "): by " + describeOp(mp.op) +
        " in " + instanceText(model, instP, values) + " and by " +
        describeOp(mq.op) + " in " + instanceText(model, instQ, values);
    Finding &finding = run.violation(mq.op, "k_dup", "", message,
                                     "k_step|k_index|double_accumulate");
    finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
    llvm::json::Object first, second;
    addInstanceJSON(first, model, instP, values);
    addInstanceJSON(second, model, instQ, values);
    finding.witness["first"] = std::move(first);
    finding.witness["second"] = std::move(second);
    addDetails(finding, k);
    run.demoteIfFactsViolated(finding, dims);
    return;
  }
}

void ChainChecker::checkMismatch(const Member &member) {
  const Source &s0 = member.sources.front();
  const ViewInfo &v0 = model.getViews()[s0.load->view];
  for (unsigned i = 1, e = member.sources.size(); i < e; ++i) {
    const Source &si = member.sources[i];
    const ViewInfo &vi = model.getViews()[si.load->view];
    unsigned d0 = v0.dimSymbols[s0.axis], di = vi.dimSymbols[si.axis];
    for (int side : {-1, 1}) {
      LinearSystem sys;
      SmallVector<LinearExpr> syms = model.emitSymbols(sys);
      Instance inst;
      SmallVector<LinearExpr> ks;
      bindMember(sys, syms, inst, member, "", false, &ks);
      if (d0 != di)
        sys.addGE((syms[d0] - syms[di]) * side - 1);
      else
        sys.addGE((ks[0] - ks[i]) * side - 1);
      SmallVector<int64_t> values;
      CheckRun::Outcome outcome = run.lexMin(sys, values);
      if (outcome == CheckRun::Outcome::Stopped)
        return;
      if (outcome == CheckRun::Outcome::Empty)
        continue;
      SymbolValues dims = witnessDims(model, values, syms);
      int64_t k0 = ks[0].evaluate(values), ki = ks[i].evaluate(values);
      std::string message =
          d0 != di
              ? describeOp(member.op) + " reduces dim " +
                    model.getSymbols()[d0] + " of " + v0.label() +
                    " against dim " + model.getSymbols()[di] + " of " +
                    vi.label() + ", which differ for " +
                    dimsText(dims, model.getSymbols()) +
                    "; add a requires fact that makes them equal or fix the "
                    "operand"
              : describeOp(member.op) + " combines k tile " +
                    std::to_string(k0) + " of " + v0.label() + " (" +
                    describeOp(s0.load->op) + ") with k tile " +
                    std::to_string(ki) + " of " + vi.label() + " (" +
                    describeOp(si.load->op) + ") in " +
                    instanceText(model, inst, values) + " (" +
                    dimsText(dims, model.getSymbols()) + ")";
      Finding &finding =
          run.violation(member.op, "k_mismatch", vi.tensor, message, "k_index");
      finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
      addInstanceJSON(finding.witness, model, inst, values);
      finding.witness["k_tiles"] = toJSONArray({k0, ki});
      addDetails(finding, k0);
      run.demoteIfFactsViolated(finding, dims);
      return;
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Whether `a` and `b` store partials along the same dim at the same tile
/// coordinates (a running max and its index, stored side by side): then
/// either one's output tiles instance the chain.
static bool arePartialsAlike(const KernelModel &model, Operation *a,
                             Operation *b) {
  auto sa = dyn_cast<StoreOp>(a), sb = dyn_cast<StoreOp>(b);
  return sa && sb && getPartialsDim(model, a) == getPartialsDim(model, b) &&
         llvm::equal(sa.getIndices(), sb.getIndices());
}

/// Builds the chain's instancing (root scope or atomic target), or a reason.
static std::string setUpChain(const KernelModel &model, Chain &chain) {
  const Member &first = *chain.members.front();
  const Source &s0 = first.sources.front();
  const ViewInfo &v0 = model.getViews()[s0.load->view];
  chain.dimSymbol = v0.dimSymbols[s0.axis];
  chain.tileSize = v0.tileShape[s0.axis];
  Operation *atomic = nullptr;
  for (const Member *m : chain.members) {
    for (const Source &s : m->sources)
      if (model.getViews()[s.load->view].tileShape[s.axis] != chain.tileSize)
        return "its operands tile the reduced dim with different tile sizes";
    for (Operation *a : m->atomics) {
      if (atomic && atomic != a && !arePartialsAlike(model, atomic, a))
        return "its result reaches two ops that combine it across blocks "
               "(tile.atomic_add, or a tile.store of partials)";
      atomic = a;
    }
  }
  if (atomic) {
    chain.atomic = model.getAccess(atomic);
    if (!chain.atomic || !chain.atomic->unsupported.empty())
      return describeOp(atomic) + " is outside the affine fragment";
    chain.partialsDim = getPartialsDim(model, atomic);
    if (chain.partialsDim) {
      // A tile of several partials would hold one value in each (a
      // broadcast), which the combining kernel would count once per copy.
      const ViewInfo &view = model.getViews()[chain.atomic->view];
      if (view.tileShape[*chain.partialsDim] != 1)
        return describeOp(atomic) + " stores partials in tiles of " +
               std::to_string(view.tileShape[*chain.partialsDim]) +
               " along dim " + std::to_string(*chain.partialsDim) +
               " (tile.partials); each partial needs a tile of its own, of "
               "size 1 along that dim";
    }
  }
  // Every loop between the root and a member must accumulate the member's
  // result; the root is the scope just outside the outermost such loop.
  int root = -2;
  for (const Member *m : chain.members) {
    SmallVector<int> scopes = model.getScopeChain(m->scope);
    int boundary = chain.atomic ? model.getCommonScope(m->scope,
                                                       chain.atomic->scope)
                                : -1;
    int memberRoot = m->scope;
    for (int i = scopes.size() - 1; i >= 0; --i) {
      int s = scopes[i];
      if (s == boundary)
        break;
      const ScopeInfo &info = model.getScopes()[s];
      if (info.kind == ScopeInfo::Kind::Loop &&
          llvm::is_contained(m->carriedLoops, s))
        memberRoot = info.parent;
    }
    for (int s : scopes) {
      bool below = !llvm::is_contained(model.getScopeChain(memberRoot), s) &&
                   memberRoot != s;
      const ScopeInfo &info = model.getScopes()[s];
      if (below && info.kind == ScopeInfo::Kind::Loop &&
          !llvm::is_contained(m->carriedLoops, s) &&
          (!chain.atomic ||
           !llvm::is_contained(model.getScopeChain(chain.atomic->scope), s)))
        return describeOp(info.op) +
               " neither accumulates the reduction nor encloses its output";
    }
    if (root != -2 && root != memberRoot && !chain.atomic)
      return "the reductions that accumulate into one value are in "
             "different loops";
    root = memberRoot;
  }
  chain.root = root == -2 ? -1 : root;
  return "";
}

void checkReductions(CheckRun &run) {
  const KernelModel &model = run.model;
  LaneIndex lanes(model);
  model.getKernel().walk([&](Operation *op) { lanes.visit(op); });
  std::vector<Member> members;
  DenseMap<Operation *, unsigned> index;
  model.getKernel().walk([&](Operation *op) {
    if (isa<MmaOp, ReduceOp>(op)) {
      index[op] = members.size();
      members.push_back(analyseReduction(model, op));
    }
  });
  llvm::EquivalenceClasses<unsigned> classes;
  for (unsigned i = 0, e = members.size(); i < e; ++i) {
    classes.insert(i);
    for (Operation *link : members[i].accLinks)
      classes.unionSets(i, index.lookup(link));
  }
  for (auto it = classes.begin(), e = classes.end(); it != e; ++it) {
    if (!(*it)->isLeader())
      continue;
    if (!run.canContinue())
      return;
    Chain chain;
    for (auto m = classes.member_begin(**it); m != classes.member_end(); ++m)
      chain.members.push_back(&members[*m]);
    llvm::sort(chain.members, [&](const Member *a, const Member *b) {
      return index.lookup(a->op) < index.lookup(b->op);
    });
    // Dead reductions and reductions of constants have nothing to cover.
    llvm::erase_if(chain.members, [](const Member *m) {
      return !m->reachesOutput || (m->unsupported.empty() && m->noSources);
    });
    if (chain.members.empty())
      continue;
    auto bad = llvm::find_if(chain.members, [](const Member *m) {
      return !m->unsupported.empty();
    });
    if (bad != chain.members.end()) {
      run.unsupported((*bad)->op, "cannot prove that " +
                                      describeOp((*bad)->op) +
                                      " reduces every tile exactly once: " +
                                      (*bad)->unsupported);
      continue;
    }
    if (std::string why = setUpChain(model, chain); !why.empty()) {
      run.unsupported(chain.members.front()->op,
                      "cannot prove that " +
                          describeOp(chain.members.front()->op) +
                          " reduces every tile exactly once: " + why);
      continue;
    }
    ChainChecker checker(run, chain, lanes);
    for (const Member *m : chain.members)
      if (m->sources.size() > 1)
        checker.checkMismatch(*m);
    checker.checkGap();
    for (unsigned p = 0, n = chain.members.size(); p < n; ++p)
      for (unsigned q = p; q < n; ++q)
        checker.checkDup(p, q);
  }
}

} // namespace kbench::detail