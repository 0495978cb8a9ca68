//===- CheckSupport.cpp - Shared machinery of the tile-verify checks ------===//
//
// Budgets (steps, the wall-clock backstop, the query size), lexmin queries
// with witness replay, budgeted set differences, and witness formatting.
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"
#include "AxisDataflow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::presburger;

namespace kbench::detail {

CheckRun::CheckRun(const KernelModel &model, const VerifyOptions &options,
                   StringRef check, std::vector<Finding> &findings)
    : model(model), options(options), check(check.str()), findings(findings),
      start(std::chrono::steady_clock::now()) {}

/// The size of a relation's constraint matrix: what building it costs in
/// steps (at least 1).
static uint64_t matrixCost(const IntegerRelation &rel) {
  return uint64_t(rel.getNumVars() + 1) * rel.getNumConstraints() + 1;
}

/// The fixed part of a query's cost (a simplex tableau set up and solved):
/// measured, many small queries (C3 on thousands of writes) take about as
/// long per step as a few large set differences (C2) with this overhead.
static constexpr uint64_t kQueryCost = 2000;

/// What one integer query (lexmin, emptiness) on `rel` costs in steps.
static uint64_t queryCost(const IntegerRelation &rel) {
  return kQueryCost + matrixCost(rel);
}

void CheckRun::stop(const std::string &message, StringRef kind) {
  unsupported(model.getKernel(), message, kind);
  stopped = true;
}

bool CheckRun::charge(uint64_t cost) {
  if (stopped)
    return false;
  steps += cost;
  if (steps > options.maxSteps) {
    stop("stopped after " + std::to_string(queries) + " queries: the check " +
             "used up its step budget of " + std::to_string(options.maxSteps) +
             " steps (raise it with max-steps=N)",
         "budget");
    return false;
  }
  double elapsed = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (elapsed >= options.timeoutMs) {
    stop("stopped after " + std::to_string(queries) + " queries (" +
             std::to_string(steps) +
             " steps): the check exceeded its time limit of " +
             std::to_string(options.timeoutMs) +
             " ms (raise it with timeout-ms=N)",
         "timeout");
    return false;
  }
  return true;
}

bool CheckRun::checkBudget(unsigned size) {
  if (stopped)
    return false;
  if (size > options.maxQuerySize) {
    stop("a query has " + std::to_string(size) +
             " variables and constraints, more than the size limit of " +
             std::to_string(options.maxQuerySize) +
             " (raise it with max-query-size=N)",
         "size");
    return false;
  }
  return true;
}

bool CheckRun::canContinue() { return charge(1); }

CheckRun::Outcome CheckRun::lexMin(const LinearSystem &sys,
                                   SmallVectorImpl<int64_t> &values) {
  if (!checkBudget(sys.getNumVars() + sys.getNumConstraints()))
    return Outcome::Stopped;
  IntegerPolyhedron poly = sys.toPolyhedron();
  if (!charge(queryCost(poly)))
    return Outcome::Stopped;
  ++queries;
  MaybeOptimum<SmallVector<DynamicAPInt, 8>> min = poly.findIntegerLexMin();
  SmallVector<DynamicAPInt, 8> point;
  if (min.isBounded()) {
    point = min.getBoundedOptimum();
  } else if (min.isEmpty()) {
    return Outcome::Empty;
  } else {
    // Every variable is bounded by construction; fall back to any sample.
    std::optional<SmallVector<DynamicAPInt, 8>> sample = poly.findIntegerSample();
    if (!sample)
      return Outcome::Empty;
    point.assign(sample->begin(),
                 sample->begin() + poly.getNumDimAndSymbolVars());
  }
  std::optional<SmallVector<DynamicAPInt, 8>> locals =
      poly.containsPointNoLocal(point);
  if (!locals) {
    unsupported(model.getKernel(),
                "internal error: a witness failed its replay on the "
                "constraint system; please report this kernel",
                "replay");
    stopped = true;
    return Outcome::Stopped;
  }
  values.assign(sys.getNumVars(), 0);
  unsigned next = 0;
  for (unsigned id : sys.getVisibleVars())
    values[id] = int64_t(point[next++]);
  unsigned nextLocal = 0;
  for (unsigned id = 0, e = sys.getNumVars(); id < e; ++id)
    if (sys.getKind(id) == LinearSystem::VarKind::Existential)
      values[id] = int64_t((*locals)[nextLocal++]);
  for (unsigned id = 0, e = sys.getNumVars(); id < e; ++id)
    if (sys.getKind(id) == LinearSystem::VarKind::Division)
      values[id] = int64_t((*locals)[nextLocal++]);
  return Outcome::Found;
}

PresburgerSet CheckRun::toSet(const LinearSystem &sys) {
  IntegerPolyhedron poly = sys.toPolyhedron();
  // Eliminating a local that is not a division may split the set; the
  // callers test the budget before they use the result.
  if (!charge(queryCost(poly)))
    return PresburgerSet::getEmpty(poly.getSpace());
  PresburgerRelation repr = poly.computeReprWithOnlyDivLocals();
  // MLIR's set difference takes the first pair of inequalities that bounds a
  // local like a floor division as that division and does not complement it.
  // A pair tighter than the division (8 q <= e <= 8 q + 6: e mod 8 <= 6, the
  // chunk of a split reduction one tile short) would lose its extra bound,
  // and a gap would be proved absent. Putting the exact division bounds first
  // makes them the pair taken; the original ones stay ordinary constraints.
  PresburgerRelation fixed =
      PresburgerRelation::getEmpty(repr.getSpace());
  for (const IntegerRelation &disjunct : repr.getAllDisjuncts()) {
    IntegerRelation rel = disjunct;
    DivisionRepr divs = rel.getLocalReprs();
    unsigned offset = rel.getVarKindOffset(VarKind::Local);
    SmallVector<SmallVector<DynamicAPInt, 8>> ineqs;
    for (unsigned i = 0, e = divs.getNumDivs(); i < e; ++i) {
      if (!divs.hasRepr(i))
        continue;
      ineqs.push_back(
          getDivUpperBound(divs.getDividend(i), divs.getDenom(i), offset + i));
      ineqs.push_back(
          getDivLowerBound(divs.getDividend(i), divs.getDenom(i), offset + i));
    }
    for (unsigned i = 0, e = rel.getNumInequalities(); i < e; ++i)
      ineqs.emplace_back(rel.getInequality(i).begin(),
                         rel.getInequality(i).end());
    rel.removeInequalityRange(0, rel.getNumInequalities());
    for (ArrayRef<DynamicAPInt> ineq : ineqs)
      rel.addInequality(ineq);
    charge(matrixCost(rel));
    fixed.unionInPlace(rel);
  }
  return PresburgerSet(fixed);
}

FailureOr<PresburgerSet> CheckRun::unite(const PresburgerSet &a,
                                         const PresburgerSet &b) {
  PresburgerSet result = a;
  for (const IntegerRelation &disjunct : b.getAllDisjuncts()) {
    if (!charge(matrixCost(disjunct)))
      return failure();
    result.unionInPlace(disjunct);
  }
  return result;
}

FailureOr<PresburgerSet> CheckRun::subtract(const PresburgerSet &from,
                                            const PresburgerSet &what) {
  // PresburgerSet::subtract of whole sets builds every piece before it
  // returns; with a few overlapping writes the pieces multiply past any
  // memory. One disjunct at a time, each elementary difference is charged
  // before it runs by the most it can build (one piece per inequality of
  // the subtrahend, two per equality, each with both constraint matrices),
  // and empty pieces are dropped before they multiply further.
  PresburgerSet result = from;
  for (const IntegerRelation &w : what.getAllDisjuncts()) {
    PresburgerSet subtrahend{IntegerPolyhedron(w)};
    PresburgerSet next = PresburgerSet::getEmpty(from.getSpace());
    for (const IntegerRelation &d : result.getAllDisjuncts()) {
      uint64_t pieces = w.getNumInequalities() + 2 * w.getNumEqualities() + 1;
      uint64_t pieceCost =
          uint64_t(d.getNumVars() + w.getNumLocalVars() + 1) *
              (d.getNumConstraints() + w.getNumConstraints()) +
          1;
      // Each piece also costs a redundancy test of the library's.
      if (!charge(pieces * (pieceCost + kQueryCost)))
        return failure();
      PresburgerSet difference =
          PresburgerSet(IntegerPolyhedron(d)).subtract(subtrahend);
      for (const IntegerRelation &piece : difference.getAllDisjuncts()) {
        if (!charge(queryCost(piece)))
          return failure();
        ++queries;
        if (!piece.isIntegerEmpty())
          next.unionInPlace(piece);
      }
    }
    result = std::move(next);
  }
  return result;
}

CheckRun::Outcome CheckRun::lexMinOfSet(const PresburgerSet &set,
                                        SmallVectorImpl<int64_t> &point) {
  unsigned size = 0;
  for (const IntegerRelation &disjunct : set.getAllDisjuncts())
    size += disjunct.getNumVars() + disjunct.getNumConstraints();
  if (!checkBudget(size / std::max(1u, set.getNumDisjuncts())))
    return Outcome::Stopped;
  std::optional<SmallVector<DynamicAPInt, 8>> best;
  for (const IntegerRelation &disjunct : set.getAllDisjuncts()) {
    if (!charge(queryCost(disjunct)))
      return Outcome::Stopped;
    ++queries;
    MaybeOptimum<SmallVector<DynamicAPInt, 8>> min =
        disjunct.findIntegerLexMin();
    if (!min.isBounded())
      continue;
    const SmallVector<DynamicAPInt, 8> &opt = min.getBoundedOptimum();
    SmallVector<DynamicAPInt, 8> candidate(
        opt.begin(), opt.begin() + disjunct.getNumDimAndSymbolVars());
    if (!best || std::lexicographical_compare(candidate.begin(), candidate.end(),
                                              best->begin(), best->end()))
      best = candidate;
  }
  if (!best)
    return Outcome::Empty;
  if (!set.containsPoint(*best)) {
    unsupported(model.getKernel(),
                "internal error: a witness failed its replay on the "
                "constraint system; please report this kernel",
                "replay");
    stopped = true;
    return Outcome::Stopped;
  }
  point.clear();
  for (const DynamicAPInt &v : *best)
    point.push_back(int64_t(v));
  return Outcome::Found;
}

void CheckRun::unsupported(Operation *op, const std::string &message,
                           StringRef kind) {
  Finding finding;
  finding.check = check;
  finding.status = CheckStatus::Unsupported;
  finding.kind = kind.str();
  finding.op = op;
  finding.message = message;
  findings.push_back(std::move(finding));
}

Finding &CheckRun::violation(Operation *op, StringRef kind, StringRef tensor,
                             const std::string &message, StringRef hint) {
  Finding finding;
  finding.check = check;
  finding.status = CheckStatus::Violated;
  finding.kind = kind.str();
  finding.op = op;
  finding.tensor = tensor.str();
  finding.message = message;
  finding.hint = hint.str();
  findings.push_back(std::move(finding));
  return findings.back();
}

void CheckRun::demoteIfFactsViolated(Finding &finding,
                                     const SymbolValues &dims) {
  if (model.getDroppedFacts().empty() || model.satisfiesAllFacts(dims))
    return;
  std::string facts;
  for (const auto &[text, reason] : model.getDroppedFacts())
    facts += (facts.empty() ? "\"" : ", \"") + text + "\" (" + reason + ")";
  finding.status = CheckStatus::Unsupported;
  finding.kind = "unsupported";
  finding.message = "possible violation, but its witness breaks requires " +
                    facts +
                    ", which the verifier cannot model: " + finding.message;
}

CheckReport CheckRun::finish() {
  CheckReport report;
  report.check = check;
  report.queries = queries;
  report.steps = steps;
  report.milliseconds = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  for (const Finding &f : findings)
    if (f.check == check && f.status > report.status)
      report.status = f.status;
  return report;
}

FailureOr<LoadStoreQuery>
buildLoadStoreQuery(const KernelModel &model, const AccessInfo &load,
                    unsigned loadAxis, const AccessInfo &store,
                    unsigned storeAxis) {
  LoadStoreQuery q;
  q.syms = model.emitSymbols(q.sys);
  q.inst = model.emitInstance(q.sys, q.syms, store.scope, "", false);
  model.bindScope(q.sys, q.syms, q.inst, load.scope, "", false);
  FailureOr<LinearExpr> l =
      model.flatten(q.sys, load.indices[loadAxis], q.syms, &q.inst);
  FailureOr<LinearExpr> s =
      model.flatten(q.sys, store.indices[storeAxis], q.syms, &q.inst);
  if (failed(l) || failed(s))
    return failure();
  q.loadTile = *l;
  q.storeTile = *s;
  return q;
}

//===----------------------------------------------------------------------===//
// Witness formatting
//===----------------------------------------------------------------------===//

SymbolValues witnessDims(const KernelModel &model, ArrayRef<int64_t> values,
                         ArrayRef<LinearExpr> syms) {
  SymbolValues dims;
  for (auto [name, sym] : llvm::zip(model.getSymbols(), syms))
    dims[name] = sym.evaluate(values);
  return dims;
}

llvm::json::Object dimsJSON(const SymbolValues &dims,
                            ArrayRef<std::string> order) {
  llvm::json::Object object;
  for (const std::string &name : order) {
    auto it = dims.find(name);
    if (it != dims.end())
      object[name] = it->second;
  }
  return object;
}

std::string dimsText(const SymbolValues &dims, ArrayRef<std::string> order) {
  std::string text;
  for (const std::string &name : order) {
    auto it = dims.find(name);
    if (it == dims.end())
      continue;
    text += (text.empty() ? "" : ", ") + name + " = " + std::to_string(it->second);
  }
  return text;
}

void addInstanceJSON(llvm::json::Object &object, const KernelModel &model,
                     const Instance &inst, ArrayRef<int64_t> values) {
  llvm::json::Array block;
  for (unsigned g = 0, e = model.getNumGridDims(); g < e; ++g)
    block.push_back(inst.dims[g]->evaluate(values));
  object["block"] = std::move(block);
  llvm::json::Object iter;
  for (unsigned d = model.getNumGridDims(), e = inst.dims.size(); d < e; ++d)
    if (inst.dims[d])
      iter["iv" + std::to_string(d - model.getNumGridDims())] =
          inst.dims[d]->evaluate(values);
  object["iter"] = std::move(iter);
}

std::string instanceText(const KernelModel &model, const Instance &inst,
                         ArrayRef<int64_t> values) {
  SmallVector<int64_t> block;
  for (unsigned g = 0, e = model.getNumGridDims(); g < e; ++g)
    block.push_back(inst.dims[g]->evaluate(values));
  std::string text = "block " + tupleText(block);
  for (unsigned d = model.getNumGridDims(), e = inst.dims.size(); d < e; ++d)
    if (inst.dims[d])
      text += ", iv" + std::to_string(d - model.getNumGridDims()) + " = " +
              std::to_string(inst.dims[d]->evaluate(values));
  return text;
}

SmallVector<int64_t> evaluateAll(ArrayRef<LinearExpr> exprs,
                                 ArrayRef<int64_t> values) {
  SmallVector<int64_t> result;
  for (const LinearExpr &e : exprs)
    result.push_back(e.evaluate(values));
  return result;
}

llvm::json::Array toJSONArray(ArrayRef<int64_t> values) {
  llvm::json::Array array;
  for (int64_t v : values)
    array.push_back(v);
  return array;
}

std::string tupleText(ArrayRef<int64_t> values) {
  std::string text = "(";
  for (auto [i, v] : llvm::enumerate(values))
    text += (i ? ", " : "") + std::to_string(v);
  return text + ")";
}

std::string locationString(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->getLoc().print(os);
  return text;
}

void addRelated(Finding &finding, ArrayRef<Operation *> ops) {
  llvm::json::Array related;
  if (const llvm::json::Array *existing = finding.details.getArray("related"))
    related = *existing;
  for (Operation *op : ops)
    related.push_back(locationString(op));
  finding.details["related"] = std::move(related);
}

std::optional<SmallVector<int>> axisSources(Operation *op) {
  auto map = dyn_cast<tile::AxisMapOpInterface>(op);
  if (!map)
    return std::nullopt;
  static_assert(tile::AxisMapOpInterface::kNewAxis == -1,
                "the lattices' mapAxes take -1 for a new axis");
  SmallVector<int> from;
  for (int64_t source : map.getResultAxisSources())
    from.push_back(static_cast<int>(source));
  return from;
}

std::string padName(tile::PadKind pad) {
  return tile::stringifyPadKind(pad).str();
}

Value stripFloatCasts(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::TruncFOp, arith::ExtFOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

} // namespace kbench::detail
