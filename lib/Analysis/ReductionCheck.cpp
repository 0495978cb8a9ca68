//===- ReductionCheck.cpp - C9 reduction coverage -------------------------===//
//
// C9: every reduction sees each tile of its reduced dim exactly once, and the
// operands of a tile.mma agree on k.
//
// A reduction is a tile.mma (reduced dim: the k axis of a and b) or a
// tile.reduce. Its reduced axis is traced back through elementwise ops,
// broadcasts, transposes and loop-carried values to the tile.loads that feed
// it (the sources); a source's tile coordinate along that axis is the k tile.
// Loads inside a loop whose result feeds the reduction count every iteration
// when the loop carries a value (`acc = acc + x`), only the last one
// otherwise.
//
// Forward, the result is followed to the loops that carry it (all their
// iterations accumulate into one value) and to tile.atomic_add (all blocks
// accumulate into one output tile). tile.mma ops that feed each other's
// accumulator form one chain and are checked together (double accumulation).
// For each scope instance (block and non-carried loops; or output tile of an
// atomic add), the k tiles seen must be exactly [0, ceildiv(dim, tile)):
//
//   k_gap       Need \ Have is empty (set difference of Presburger sets);
//   k_dup       no two distinct contributing instances see the same k tile;
//   k_mismatch  all sources of one instance have equal k tiles.
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::presburger;
using namespace kbench::tile;

namespace kbench::detail {
namespace {

/// A load feeding the reduced axis.
struct Source {
  const AccessInfo *load;
  unsigned axis;
};

/// One reduction op and what the analysis found about it.
struct Member {
  Operation *op = nullptr;
  int scope = -1;
  SmallVector<Source> sources;
  /// Loops (scope indices) around sources whose last iteration alone feeds
  /// the reduction.
  SmallVector<int> lastOnlyLoops;
  /// Loops (scope indices) enclosing the op that accumulate its result.
  SmallVector<int> carriedLoops;
  /// Loops enclosing the op with a slot that the result reaches but that is
  /// overwritten each iteration.
  SmallVector<int> overwrittenLoops;
  SmallVector<Operation *> atomics;
  SmallVector<Operation *> accLinks;
  /// Whether the result reaches a store or an atomic add (else it is dead).
  bool reachesOutput = false;
  /// The reduced dim comes from no tile.load (constants): nothing to cover.
  bool noSources = false;
  std::string unsupported;
};

/// Ops that map lanes to lanes and keep the axis numbering.
static bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return false;
  if (!isa<arith::ArithDialect>(op->getDialect()) &&
      op->getDialect()->getNamespace() != "math")
    return false;
  return llvm::all_of(op->getOperandTypes(), [&](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.getShape() == result.getShape();
  });
}

/// Traces a reduced axis back to its source loads.
class AxisTracer {
public:
  AxisTracer(const KernelModel &model, Member &member)
      : model(model), member(member) {}

  LogicalResult trace(Value value, unsigned axis) {
    if (!visited.insert({value.getAsOpaquePointer(), axis}).second)
      return success();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!forOp || arg == forOp.getInductionVar())
        return fail("the reduced dim comes from a block argument");
      unsigned slot = arg.getArgNumber() - 1;
      auto active = llvm::find_if(activeLoops, [&](const auto &entry) {
        return entry.first == forOp.getOperation();
      });
      if (active == activeLoops.end())
        return fail("it reduces a value carried by " + describeOp(forOp) +
                    " inside that loop");
      // The slot accumulates when its yield depends on its own iter_arg.
      if (active->second == slot)
        entryCarried[forOp] = true;
      return trace(forOp.getInitArgs()[slot], axis);
    }
    Operation *def = value.getDefiningOp();
    if (auto load = dyn_cast<LoadOp>(def)) {
      const AccessInfo *access = model.getAccess(def);
      if (!access || !access->unsupported.empty())
        return fail(describeOp(def) + " is outside the affine fragment" +
                    (access ? ": " + access->unsupported : std::string()));
      member.sources.push_back({access, axis});
      return success();
    }
    if (isa<arith::ConstantOp, SplatOp, IotaOp>(def))
      return success();
    if (auto bcast = dyn_cast<BroadcastOp>(def)) {
      ArrayRef<int64_t> dims = bcast.getDims();
      if (llvm::is_contained(dims, int64_t(axis)))
        return success();
      unsigned inputAxis = axis - llvm::count_if(dims, [&](int64_t d) {
                             return d < int64_t(axis);
                           });
      return trace(bcast.getInput(), inputAxis);
    }
    if (auto transpose = dyn_cast<TransposeOp>(def))
      return trace(transpose.getInput(), transpose.getPerm()[axis]);
    if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
      if (int64_t(axis) == expand.getDim())
        return success();
      return trace(expand.getInput(),
                   int64_t(axis) > expand.getDim() ? axis - 1 : axis);
    }
    if (auto reduce = dyn_cast<ReduceOp>(def))
      return trace(reduce.getInput(),
                   int64_t(axis) >= reduce.getDim() ? axis + 1 : axis);
    if (auto mma = dyn_cast<MmaOp>(def)) {
      if (failed(trace(mma.getAcc(), axis)))
        return failure();
      if (axis == 0)
        return trace(mma.getA(), mma.getTransposeA() ? 1 : 0);
      return trace(mma.getB(), mma.getTransposeB() ? 0 : 1);
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      if (failed(trace(select.getTrueValue(), axis)))
        return failure();
      return trace(select.getFalseValue(), axis);
    }
    if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      unsigned index = cast<OpResult>(value).getResultNumber();
      activeLoops.push_back({forOp, index});
      bool saved = entryCarried[forOp];
      entryCarried[forOp] = false;
      LogicalResult result = trace(
          cast<scf::YieldOp>(forOp.getBody()->getTerminator()).getOperand(index),
          axis);
      bool carried = entryCarried[forOp];
      entryCarried[forOp] = saved || carried;
      activeLoops.pop_back();
      auto [it, inserted] = loopCarried.try_emplace(forOp, carried);
      if (!inserted && it->second != carried)
        return fail(describeOp(forOp) +
                    " both carries and overwrites values that reach it");
      return result;
    }
    if (isElementwise(def)) {
      for (Value operand : def->getOperands())
        if (failed(trace(operand, axis)))
          return failure();
      return success();
    }
    return fail("the reduced dim passes through " + describeOp(def) +
                ", which C9 does not model");
  }

  /// Turns the loop modes seen into the member's lastOnlyLoops.
  LogicalResult finish() {
    SmallVector<int> enclosing = model.getScopeChain(member.scope);
    for (const Source &source : member.sources) {
      for (int s : model.getScopeChain(source.load->scope)) {
        const ScopeInfo &info = model.getScopes()[s];
        if (llvm::is_contained(enclosing, s))
          continue;
        if (info.kind == ScopeInfo::Kind::Guard)
          return fail(describeOp(source.load->op) +
                      " is under an scf.if that does not enclose the "
                      "reduction");
        auto it = loopCarried.find(info.op);
        if (it == loopCarried.end())
          return fail(describeOp(source.load->op) +
                      " is inside a loop the reduction is not fed through");
        if (!it->second && !llvm::is_contained(member.lastOnlyLoops, s))
          member.lastOnlyLoops.push_back(s);
      }
    }
    return success();
  }

private:
  LogicalResult fail(const std::string &why) {
    if (member.unsupported.empty())
      member.unsupported = why;
    return failure();
  }

  const KernelModel &model;
  Member &member;
  DenseSet<std::pair<const void *, unsigned>> visited;
  SmallVector<std::pair<Operation *, unsigned>> activeLoops;
  DenseMap<Operation *, bool> entryCarried, loopCarried;
};

/// Whether yield operand `index` of `forOp` depends on its own iter_arg (the
/// loop accumulates into that slot).
static bool isCarriedSlot(scf::ForOp forOp, unsigned index) {
  SmallVector<Value> worklist = {
      forOp.getBody()->getTerminator()->getOperand(index)};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == forOp.getBody() &&
          arg.getArgNumber() == index + 1)
        return true;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!forOp->isProperAncestor(def))
      continue;
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  return false;
}

/// Follows a reduction's result to the loops that carry it, the atomic adds
/// it reaches and the mma accumulators it feeds.
static void traceForward(const KernelModel &model, Value value, Member &member,
                         DenseSet<Value> &seen) {
  if (!seen.insert(value).second)
    return;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<scf::YieldOp>(user)) {
      unsigned index = use.getOperandNumber();
      if (auto forOp = dyn_cast<scf::ForOp>(user->getParentOp())) {
        // Every slot the result reaches must accumulate it: a slot that is
        // overwritten each iteration keeps only the last one.
        if (std::optional<int> scope = model.getLoopScope(forOp)) {
          if (!isCarriedSlot(forOp, index))
            member.overwrittenLoops.push_back(*scope);
          else if (!llvm::is_contained(member.carriedLoops, *scope))
            member.carriedLoops.push_back(*scope);
        }
        traceForward(model, forOp.getResult(index), member, seen);
      } else if (auto ifOp = dyn_cast<scf::IfOp>(user->getParentOp())) {
        traceForward(model, ifOp.getResult(index), member, seen);
      }
      continue;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(user)) {
      unsigned first = forOp.getNumControlOperands();
      if (use.getOperandNumber() >= first)
        traceForward(model,
                     forOp.getRegionIterArgs()[use.getOperandNumber() - first],
                     member, seen);
      continue;
    }
    if (auto mma = dyn_cast<MmaOp>(user)) {
      if (use.get() == mma.getAcc() && use.getOperandNumber() == 2) {
        member.accLinks.push_back(mma);
        traceForward(model, mma.getResult(), member, seen);
      }
      continue;
    }
    if (isa<AtomicAddOp>(user)) {
      if (!llvm::is_contained(member.atomics, user))
        member.atomics.push_back(user);
      member.reachesOutput = true;
      continue;
    }
    if (isa<StoreOp>(user)) {
      member.reachesOutput = true;
      continue;
    }
    if (auto reduce = dyn_cast<ReduceOp>(user)) {
      // A reduction of the result still carries it to the outputs.
      DenseSet<Value> nested;
      Member probe;
      traceForward(model, reduce.getResult(), probe, nested);
      member.reachesOutput |= probe.reachesOutput;
      continue;
    }
    if (isa<LoadOp>(user))
      continue;
    if (isa<BroadcastOp, TransposeOp, ExpandDimsOp, arith::SelectOp>(user) ||
        isElementwise(user))
      for (Value result : user->getResults())
        traceForward(model, result, member, seen);
  }
}

/// Analyses one reduction op.
static Member analyse(const KernelModel &model, Operation *op) {
  Member member;
  member.op = op;
  DenseSet<Value> seen;
  traceForward(model, op->getResult(0), member, seen);
  llvm::erase_if(member.carriedLoops, [&](int loop) {
    return llvm::is_contained(member.overwrittenLoops, loop);
  });
  if (!member.reachesOutput)
    return member;
  std::string reason;
  FailureOr<int> scope = model.getScope(op, &reason);
  if (failed(scope)) {
    member.unsupported = reason;
    return member;
  }
  member.scope = *scope;
  if (std::string why = model.getScopeUnsupported(*scope); !why.empty()) {
    member.unsupported = why;
    return member;
  }
  AxisTracer tracer(model, member);
  if (auto mma = dyn_cast<MmaOp>(op)) {
    if (failed(tracer.trace(mma.getA(), mma.getTransposeA() ? 0 : 1)) ||
        failed(tracer.trace(mma.getB(), mma.getTransposeB() ? 1 : 0)))
      return member;
  } else {
    auto reduce = cast<ReduceOp>(op);
    if (failed(tracer.trace(reduce.getInput(), reduce.getDim())))
      return member;
  }
  if (failed(tracer.finish()))
    return member;
  member.noSources = member.sources.empty();
  return member;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

/// A chain of reductions that accumulate into one value, and how to instance
/// it: per scope instance (`root`: block and non-carried loops), or per output
/// tile of `atomic`.
struct Chain {
  SmallVector<const Member *> members;
  int root = -1;
  const AccessInfo *atomic = nullptr;
  /// The reduced dim: symbol and tile size (from the first source).
  unsigned dimSymbol = 0;
  int64_t tileSize = 1;
};

class ChainChecker {
public:
  ChainChecker(CheckRun &run, const Chain &chain)
      : run(run), model(run.model), chain(chain) {}

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
    for (unsigned d = 0, e = a.indices.size(); d < e; ++d)
      target.tile.push_back(
          LinearExpr::var(sys.addVar((prefix + "tile" + Twine(d)).str())));
    target.inst =
        model.emitInstance(sys, syms, a.scope, prefix, existentialInstance);
    for (unsigned d = 0, e = a.indices.size(); d < e; ++d) {
      FailureOr<LinearExpr> t =
          model.flatten(sys, a.indices[d], syms, &target.inst);
      sys.addEQ(target.tile[d], succeeded(t) ? *t : LinearExpr::cst(0));
    }
    return target;
  }

  void checkGap();
  void checkDup(unsigned p, unsigned q);
  void checkMismatch(const Member &member);

private:
  CheckRun &run;
  const KernelModel &model;
  const Chain &chain;

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
    have = have.unionSet(run.toSet(sys));
  }
  if (!run.canContinue())
    return;
  PresburgerSet missing = run.toSet(need).subtract(have);
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
    target = "output tile " + tupleText(evaluateAll(needTarget.tile, values)) +
             " of " + model.getViews()[chain.atomic->view].tensor;
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
        chain.atomic ? "output tile " + tupleText(evaluateAll(tileP, values))
                     : instanceText(model,
                                    model.restrictInstance(instP, chain.root),
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
                    model.getSymbols()[d0] + " of " + v0.tensor +
                    " against dim " + model.getSymbols()[di] + " of " +
                    vi.tensor + ", which differ for " +
                    dimsText(dims, model.getSymbols()) +
                    "; add a requires fact that makes them equal or fix the "
                    "operand"
              : describeOp(member.op) + " combines k tile " +
                    std::to_string(k0) + " of " + v0.tensor + " (" +
                    describeOp(s0.load->op) + ") with k tile " +
                    std::to_string(ki) + " of " + vi.tensor + " (" +
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
      if (atomic && atomic != a)
        return "its result reaches two tile.atomic_add ops";
      atomic = a;
    }
  }
  if (atomic) {
    chain.atomic = model.getAccess(atomic);
    if (!chain.atomic || !chain.atomic->unsupported.empty())
      return describeOp(atomic) + " is outside the affine fragment";
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
  std::vector<Member> members;
  DenseMap<Operation *, unsigned> index;
  model.getKernel().walk([&](Operation *op) {
    if (isa<MmaOp, ReduceOp>(op)) {
      index[op] = members.size();
      members.push_back(analyse(model, op));
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
    ChainChecker checker(run, chain);
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
