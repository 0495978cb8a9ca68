//===- PadCheck.cpp - C10 pad neutrality ----------------------------------===//
//
// C10: the pad values of a tile.load are neutral for every consumer that
// observes them. A forward dataflow over the kernel tracks, per tensor value
// and axis, which lanes hold pad-derived values ("entries": the load, its
// axis, and an abstract value: zero, -inf, +inf, nan, finite or unknown).
// Lanes that are not pad-derived are assumed to hold finite data.
//
//  - A load with pad(p) creates an entry on every axis along which some
//    instance reads a partial tile (a Presburger query; full tiles never pad).
//  - Elementwise ops evaluate the entry's value; a combiner absorbs a pad that
//    is its identity when the other operand's lanes are not padded
//    (`acc + 0`, `max(m, -inf)`): the lane then holds the other value.
//  - arith.select drops the entries its condition provably masks out
//    (`iota + j * BN < N` against lanes past N: a Presburger query).
//  - tile.reduce and the k axis of tile.mma must see neutral values (zero
//    for add and for products, -inf for max, +inf for min): otherwise
//    pad_not_neutral at the consumer.
//  - tile.store / tile.atomic_add must mask every pad-derived lane: a padded
//    lane that lands on an in-bounds element of the output is pad_not_neutral
//    at the store (a Presburger query).
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <set>

using namespace mlir;
using namespace kbench::tile;

namespace kbench::detail {
namespace {

//===----------------------------------------------------------------------===//
// Abstract lane values
//===----------------------------------------------------------------------===//

/// The set of value classes a lane may hold. Sets, not a chain: the running
/// max of an online softmax is -inf before the first tile and finite after,
/// and max(-inf or finite, finite) is still finite.
struct Lane {
  uint8_t bits = 0;
  static const Lane Zero, NegInf, PosInf, NaN, Finite, Any;
  bool operator==(Lane o) const { return bits == o.bits; }
  bool operator!=(Lane o) const { return bits != o.bits; }
  Lane operator|(Lane o) const { return {uint8_t(bits | o.bits)}; }
};
const Lane Lane::Zero{1}, Lane::NegInf{2}, Lane::PosInf{4}, Lane::NaN{8},
    Lane::Finite{16}, Lane::Any{31};

static constexpr Lane kClasses[] = {{1}, {2}, {4}, {8}, {16}};

static std::string laneName(Lane lane) {
  if (lane == Lane::Any)
    return "unknown values";
  static const char *names[] = {"zero", "-inf", "+inf", "nan", "finite values"};
  std::string text;
  for (unsigned i = 0; i < 5; ++i)
    if (lane.bits & kClasses[i].bits)
      text += (text.empty() ? "" : " or ") + std::string(names[i]);
  return text.empty() ? "nothing" : text;
}

static Lane padLane(PadKind pad) {
  switch (pad) {
  case PadKind::zero:
    return Lane::Zero;
  case PadKind::neg_inf:
    return Lane::NegInf;
  case PadKind::pos_inf:
    return Lane::PosInf;
  case PadKind::nan:
    return Lane::NaN;
  case PadKind::none:
    break;
  }
  return Lane::Any;
}

static Lane join(Lane a, Lane b) { return a | b; }

/// Applies a function of single classes to every combination of classes.
template <typename Fn>
static Lane lift(Lane a, Fn fn) {
  Lane result;
  for (Lane c : kClasses)
    if (a.bits & c.bits)
      result = result | fn(c);
  return result;
}
template <typename Fn>
static Lane lift(Lane a, Lane b, Fn fn) {
  return lift(a, [&](Lane x) { return lift(b, [&](Lane y) { return fn(x, y); }); });
}

static bool isInf(Lane a) { return a == Lane::NegInf || a == Lane::PosInf; }

static Lane neg(Lane a) {
  return lift(a, [](Lane x) {
    return x == Lane::NegInf ? Lane::PosInf
           : x == Lane::PosInf ? Lane::NegInf
                               : x;
  });
}

static Lane add(Lane a, Lane b) {
  return lift(a, b, [](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return Lane::NaN;
    if (isInf(x) && isInf(y))
      return x == y ? x : Lane::NaN;
    if (isInf(x))
      return x;
    if (isInf(y))
      return y;
    if (x == Lane::Zero)
      return y;
    if (y == Lane::Zero)
      return x;
    return Lane::Finite;
  });
}

static Lane mul(Lane a, Lane b) {
  return lift(a, b, [](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return Lane::NaN;
    if ((x == Lane::Zero && isInf(y)) || (isInf(x) && y == Lane::Zero))
      return Lane::NaN;
    if (x == Lane::Zero || y == Lane::Zero)
      return Lane::Zero;
    if (isInf(x) || isInf(y)) // the sign of a finite value is unknown
      return Lane::NegInf | Lane::PosInf | Lane::NaN;
    return Lane::Finite;
  });
}

static Lane div(Lane a, Lane b) {
  return lift(a, b, [](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return Lane::NaN;
    if (y == Lane::Zero)
      return x == Lane::Zero ? Lane::NaN : Lane::NegInf | Lane::PosInf;
    if (isInf(x) && isInf(y))
      return Lane::NaN;
    if (isInf(x))
      return Lane::NegInf | Lane::PosInf;
    if (isInf(y) || x == Lane::Zero)
      return Lane::Zero;
    return Lane::Finite;
  });
}

static Lane max(Lane a, Lane b, bool propagateNaN) {
  return lift(a, b, [&](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return propagateNaN ? Lane::NaN : (x == Lane::NaN ? y : x);
    if (x == Lane::NegInf)
      return y;
    if (y == Lane::NegInf)
      return x;
    if (x == Lane::PosInf || y == Lane::PosInf)
      return Lane::PosInf;
    return x == Lane::Zero && y == Lane::Zero ? Lane::Zero : Lane::Finite;
  });
}

static Lane min(Lane a, Lane b, bool propagateNaN) {
  return neg(max(neg(a), neg(b), propagateNaN));
}

/// The value of `op` on lanes whose operands hold `in`.
static Lane evaluate(Operation *op, ArrayRef<Lane> in) {
  return llvm::TypeSwitch<Operation *, Lane>(op)
      .Case([&](arith::AddFOp) { return add(in[0], in[1]); })
      .Case([&](arith::SubFOp) { return add(in[0], neg(in[1])); })
      .Case([&](arith::MulFOp) { return mul(in[0], in[1]); })
      .Case([&](arith::DivFOp) { return div(in[0], in[1]); })
      .Case([&](arith::MaximumFOp) { return max(in[0], in[1], true); })
      .Case([&](arith::MaxNumFOp) { return max(in[0], in[1], false); })
      .Case([&](arith::MinimumFOp) { return min(in[0], in[1], true); })
      .Case([&](arith::MinNumFOp) { return min(in[0], in[1], false); })
      .Case([&](arith::NegFOp) { return neg(in[0]); })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](Operation *) { return in[0]; })
      .Case<math::ExpOp, math::Exp2Op>([&](Operation *) {
        return lift(in[0], [](Lane x) {
          return x == Lane::NegInf ? Lane::Zero
                 : x == Lane::Zero ? Lane::Finite
                                   : x;
        });
      })
      .Case([&](math::TanhOp) {
        return lift(in[0], [](Lane x) { return isInf(x) ? Lane::Finite : x; });
      })
      .Case([&](math::AbsFOp) {
        return lift(in[0], [](Lane x) { return isInf(x) ? Lane::PosInf : x; });
      })
      .Case([&](math::LogOp) {
        return lift(in[0], [](Lane x) {
          return x == Lane::Zero     ? Lane::NegInf
                 : x == Lane::PosInf ? Lane::PosInf
                 : x == Lane::NaN    ? Lane::NaN
                                     : Lane::Any;
        });
      })
      .Default([&](Operation *) { return Lane::Any; });
}

/// Whether `value` on the lanes of operand `index` makes `op` return the other
/// operand (the pad is absorbed).
static bool isIdentity(Operation *op, unsigned index, Lane value) {
  if (isa<arith::AddFOp>(op))
    return value == Lane::Zero;
  if (isa<arith::SubFOp>(op))
    return index == 1 && value == Lane::Zero;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return value == Lane::NegInf;
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return value == Lane::PosInf;
  return false;
}

//===----------------------------------------------------------------------===//
// Dataflow state
//===----------------------------------------------------------------------===//

/// Lanes of a tensor along one axis that hold values derived from the pad of
/// `load` along its axis `srcAxis`.
struct Entry {
  const AccessInfo *load;
  unsigned srcAxis;
  Lane value;
  bool operator==(const Entry &o) const {
    return load == o.load && srcAxis == o.srcAxis && value == o.value;
  }
  bool sameLanes(const Entry &o) const {
    return load == o.load && srcAxis == o.srcAxis;
  }
};

/// Per axis, the pad-derived lanes of one tensor value; and what the other
/// lanes hold.
struct State {
  SmallVector<SmallVector<Entry>> axes;
  /// Per axis: whether the lanes carry data that varies along the axis (read
  /// by a load along it), rather than a value repeated by a constant or a
  /// broadcast. Only such data may absorb a pad: `acc + 0` keeps the lane's
  /// own sum, `1 + 0` puts a 1 where nothing belongs.
  SmallVector<bool> data;
  /// The value of the lanes that are not pad-derived: the class of a
  /// constant, finite for data.
  Lane base = Lane::Finite;
  bool empty() const {
    return llvm::all_of(axes, [](const auto &a) { return a.empty(); });
  }
  bool operator==(const State &o) const {
    return axes == o.axes && data == o.data && base == o.base;
  }
};

static void addEntry(SmallVectorImpl<Entry> &entries, Entry e) {
  for (Entry &existing : entries) {
    if (existing.sameLanes(e)) {
      existing.value = join(existing.value, e.value);
      return;
    }
  }
  entries.push_back(e);
}

static State joinStates(const State &a, const State &b) {
  State result = a;
  result.axes.resize(std::max(a.axes.size(), b.axes.size()));
  result.data.resize(result.axes.size(), false);
  for (auto [axis, entries] : llvm::enumerate(b.axes))
    for (const Entry &e : entries)
      addEntry(result.axes[axis], e);
  for (auto [axis, d] : llvm::enumerate(b.data))
    result.data[axis] = result.data[axis] || d;
  result.base = join(a.base, b.base);
  return result;
}

/// The value of `state` on the lanes of `entry`: its own value for the same
/// lanes; otherwise other entries on the axis may overlap them, so their
/// values join the base.
static Lane valueOnLanes(const State &state, unsigned axis, const Entry &entry,
                         bool &exact) {
  exact = false;
  if (axis >= state.axes.size() || state.axes[axis].empty())
    return state.base;
  Lane result = state.base;
  for (const Entry &e : state.axes[axis]) {
    if (e.sameLanes(entry)) {
      exact = true;
      return e.value;
    }
    result = join(result, e.value);
  }
  return result;
}

/// The lane class of a float constant.
static Lane constantLane(const APFloat &value) {
  if (value.isNaN())
    return Lane::NaN;
  if (value.isInfinity())
    return value.isNegative() ? Lane::NegInf : Lane::PosInf;
  return value.isZero() ? Lane::Zero : Lane::Finite;
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

class PadAnalysis {
public:
  explicit PadAnalysis(CheckRun &run) : run(run), model(run.model) {}

  void analyse() { processBlock(model.getKernel().getBody().front()); }

private:
  CheckRun &run;
  const KernelModel &model;
  DenseMap<Value, State> states;
  DenseMap<Value, AffineExpr> laneIndex;
  std::map<std::pair<const AccessInfo *, unsigned>, bool> padCache;
  std::map<std::pair<const AccessInfo *, unsigned>, llvm::json::Object>
      padWitness;
  std::map<std::pair<const AccessInfo *, unsigned>, std::string> padText;
  std::set<std::tuple<Operation *, const AccessInfo *, unsigned>> reported;
  std::set<std::tuple<Operation *, const AccessInfo *, unsigned, unsigned>>
      leakQueried;
  std::map<std::tuple<Operation *, const AccessInfo *, unsigned, unsigned, bool>,
           bool>
      maskCache;
  bool stopped = false;

  State get(Value v) {
    auto it = states.find(v);
    State s = it == states.end() ? State() : it->second;
    if (auto type = dyn_cast<RankedTensorType>(v.getType())) {
      s.axes.resize(type.getRank());
      s.data.resize(type.getRank(), false);
    }
    return s;
  }

  void processBlock(Block &block) {
    for (Operation &op : block) {
      if (stopped || !run.canContinue()) {
        stopped = true;
        return;
      }
      processOp(&op);
    }
  }

  bool padPossible(const AccessInfo &load, unsigned axis);
  bool provedMasked(Operation *consumer, const Entry &entry, unsigned axis,
                    Value cond, bool condTrue);
  void checkStoreLeak(Operation *store, const AccessInfo &access,
                      const Entry &entry, unsigned axis);
  void reportNotNeutral(Operation *consumer, const Entry &entry,
                        const std::string &what, const std::string &fix);
  void processOp(Operation *op);
  void processElementwise(Operation *op);
  void processSelect(arith::SelectOp op);
  void processMma(MmaOp op);
  void processLaneIndex(Operation *op);
};

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
      describeOp(consumer) + " " + what + " lanes of " + view.tensor +
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

/// Lane predicate of a comparison of lane-index tensors, as constraints that
/// hold on the lanes where the condition is `condTrue`.
static LogicalResult laneConstraints(arith::CmpIOp cmp, AffineExpr l,
                                     AffineExpr r, bool condTrue,
                                     SmallVectorImpl<AffineConstraint> &out) {
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  if (!condTrue)
    pred = arith::invertPredicate(pred);
  switch (pred) {
  case P::eq:
    out.push_back({l - r, true});
    return success();
  case P::slt:
  case P::ult:
    out.push_back({r - l - 1, false});
    return success();
  case P::sle:
  case P::ule:
    out.push_back({r - l, false});
    return success();
  case P::sgt:
  case P::ugt:
    out.push_back({l - r - 1, false});
    return success();
  case P::sge:
  case P::uge:
    out.push_back({l - r, false});
    return success();
  case P::ne:
    return failure();
  }
  return failure();
}

bool PadAnalysis::provedMasked(Operation *consumer, const Entry &entry,
                               unsigned axis, Value cond, bool condTrue) {
  auto key = std::make_tuple(consumer, entry.load, entry.srcAxis, axis, condTrue);
  auto it = maskCache.find(key);
  if (it != maskCache.end())
    return it->second;
  bool masked = false;
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  auto lhs = cmp ? laneIndex.find(cmp.getLhs()) : laneIndex.end();
  auto rhs = cmp ? laneIndex.find(cmp.getRhs()) : laneIndex.end();
  FailureOr<int> scope = model.getScope(consumer);
  SmallVector<AffineConstraint> constraints;
  if (cmp && lhs != laneIndex.end() && rhs != laneIndex.end() &&
      succeeded(scope) &&
      succeeded(laneConstraints(cmp, lhs->second, rhs->second, condTrue,
                                constraints))) {
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
      for (const AffineConstraint &c : constraints) {
        FailureOr<LinearExpr> e = model.flatten(sys, c.expr, syms, &lanes);
        if (failed(e)) {
          ok = false;
          break;
        }
        if (c.isEquality)
          sys.addEQ(*e);
        else
          sys.addGE(*e);
      }
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
  LinearSystem sys;
  SmallVector<LinearExpr> syms = model.emitSymbols(sys);
  Instance inst = model.emitInstance(sys, syms, access.scope, "", false);
  model.bindScope(sys, syms, inst, entry.load->scope, "", false);
  FailureOr<LinearExpr> ltile =
      model.flatten(sys, entry.load->indices[entry.srcAxis], syms, &inst);
  FailureOr<LinearExpr> stile =
      model.flatten(sys, access.indices[axis], syms, &inst);
  if (failed(ltile) || failed(stile))
    return;
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
      describeOp(store) + " writes lanes of " + lview.tensor + " padded by " +
      describeOp(entry.load->op) + " with pad(" + padName(lview.pad) +
      ") into in-bounds elements of " + sview.tensor + ": lane " +
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

void PadAnalysis::processLaneIndex(Operation *op) {
  MLIRContext *ctx = op->getContext();
  auto setIf = [&](Value v, AffineExpr e) {
    if (e)
      laneIndex[v] = e;
  };
  if (auto iota = dyn_cast<IotaOp>(op)) {
    setIf(iota.getResult(),
          getAffineDimExpr(model.getNumDims() + iota.getDim(), ctx));
  } else if (auto splat = dyn_cast<SplatOp>(op)) {
    std::string reason;
    FailureOr<AffineExpr> e = model.getIndexExpr(splat.getValue(), reason);
    if (succeeded(e))
      setIf(splat.getResult(), *e);
  } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (dense && dense.isSplat())
      setIf(constant.getResult(),
            getAffineConstantExpr(
                dense.getSplatValue<APInt>().getSExtValue(), ctx));
  } else if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) {
    auto l = laneIndex.find(op->getOperand(0));
    auto r = laneIndex.find(op->getOperand(1));
    if (l == laneIndex.end() || r == laneIndex.end())
      return;
    AffineExpr e = isa<arith::AddIOp>(op)   ? l->second + r->second
                   : isa<arith::SubIOp>(op) ? l->second - r->second
                                            : l->second * r->second;
    if (e.isPureAffine())
      setIf(op->getResult(0), e);
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
    auto in = laneIndex.find(op->getOperand(0));
    if (in != laneIndex.end())
      setIf(op->getResult(0), in->second);
  }
}

void PadAnalysis::processElementwise(Operation *op) {
  SmallVector<State> in;
  for (Value operand : op->getOperands())
    in.push_back(get(operand));
  Value result = op->getResult(0);
  State out = get(result);
  for (auto &axis : out.axes)
    axis.clear();
  SmallVector<Lane> bases;
  for (const State &s : in)
    bases.push_back(s.base);
  out.base = evaluate(op, bases);
  for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis) {
    out.data[axis] = llvm::any_of(in, [&](const State &s) {
      return axis < s.data.size() && s.data[axis];
    });
    for (unsigned k = 0, n = in.size(); k < n; ++k) {
      for (const Entry &entry : in[k].axes[axis]) {
        SmallVector<Lane> lanes;
        bool otherPadded = false;
        for (unsigned j = 0; j < n; ++j) {
          bool exact;
          lanes.push_back(valueOnLanes(in[j], axis, entry, exact));
          if (j != k && exact)
            otherPadded = true;
        }
        // The pad is the identity of the op and the other operand holds data
        // of its own on these lanes: the lane keeps that data.
        if (n == 2 && !otherPadded && in[1 - k].data[axis] &&
            isIdentity(op, k, entry.value))
          continue;
        addEntry(out.axes[axis],
                 {entry.load, entry.srcAxis, evaluate(op, lanes)});
      }
    }
  }
  states[result] = out;
}

void PadAnalysis::processSelect(arith::SelectOp op) {
  State cond = get(op.getCondition());
  State t = get(op.getTrueValue()), f = get(op.getFalseValue());
  State out = get(op.getResult());
  for (auto &axis : out.axes)
    axis.clear();
  for (unsigned axis = 0, e = out.data.size(); axis < e; ++axis)
    out.data[axis] = t.data[axis] || f.data[axis];
  out.base = join(t.base, f.base);
  bool tensorCond = isa<RankedTensorType>(op.getCondition().getType());
  for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis) {
    for (const Entry &entry : t.axes[axis])
      if (!tensorCond || !provedMasked(op, entry, axis, op.getCondition(), true))
        addEntry(out.axes[axis], entry);
    for (const Entry &entry : f.axes[axis])
      if (!tensorCond ||
          !provedMasked(op, entry, axis, op.getCondition(), false))
        addEntry(out.axes[axis], entry);
    if (axis < cond.axes.size())
      for (const Entry &entry : cond.axes[axis])
        addEntry(out.axes[axis], {entry.load, entry.srcAxis, Lane::Any});
  }
  states[op.getResult()] = out;
}

void PadAnalysis::processMma(MmaOp op) {
  State a = get(op.getA()), b = get(op.getB()), acc = get(op.getAcc());
  unsigned aK = op.getTransposeA() ? 0 : 1, aM = 1 - aK;
  unsigned bK = op.getTransposeB() ? 1 : 0, bN = 1 - bK;
  // The k lanes of a product must be zero to vanish from the sum.
  auto checkK = [&](const State &self, unsigned selfK, const State &other,
                    unsigned otherK) {
    for (const Entry &entry : self.axes[selfK]) {
      bool exact;
      Lane product = mul(entry.value, valueOnLanes(other, otherK, entry, exact));
      if (product != Lane::Zero)
        reportNotNeutral(op, entry, "multiplies and sums",
                         "a product with them is " +
                             std::string(laneName(product)) +
                             ", not zero: use pad(zero) for both operands");
    }
  };
  checkK(a, aK, b, bK);
  checkK(b, bK, a, aK);
  // Rows (columns) of a (b) that are pad become rows (columns) of the product:
  // pad * data summed over k, then added to the accumulator.
  State out = get(op.getResult());
  out.base = Lane::Finite;
  for (unsigned axis = 0; axis < 2; ++axis) {
    out.axes[axis].clear();
    const State &src = axis == 0 ? a : b;
    unsigned srcAxis = axis == 0 ? aM : bN;
    out.data[axis] = src.data[srcAxis] || acc.data[axis];
    State product;
    product.axes.resize(2);
    product.data.assign(2, false);
    for (const Entry &entry : src.axes[srcAxis])
      addEntry(product.axes[axis],
               {entry.load, entry.srcAxis, mul(entry.value, Lane::Finite)});
    for (const Entry &entry : product.axes[axis]) {
      bool exact;
      Lane accLane = valueOnLanes(acc, axis, entry, exact);
      if (!exact && acc.data[axis] && entry.value == Lane::Zero)
        continue; // acc + 0 keeps the accumulator's lane
      addEntry(out.axes[axis],
               {entry.load, entry.srcAxis, add(entry.value, accLane)});
    }
    for (const Entry &entry : acc.axes[axis]) {
      bool exact;
      Lane p = valueOnLanes(product, axis, entry, exact);
      addEntry(out.axes[axis], {entry.load, entry.srcAxis, add(entry.value, p)});
    }
  }
  states[op.getResult()] = out;
}

void PadAnalysis::processOp(Operation *op) {
  processLaneIndex(op);
  if (auto load = dyn_cast<LoadOp>(op)) {
    const AccessInfo *access = model.getAccess(op);
    PadKind pad = load.getView().getType().getPad();
    if (pad == PadKind::none) {
      State s = get(load.getResult());
      s.data.assign(s.axes.size(), true);
      states[load.getResult()] = s;
      return;
    }
    if (!access || !access->unsupported.empty()) {
      run.unsupported(op, "cannot track the pad of " + describeOp(op) +
                              ": " +
                              (access ? access->unsupported : std::string()));
      return;
    }
    State s = get(load.getResult());
    for (unsigned axis = 0, e = s.axes.size(); axis < e; ++axis)
      if (padPossible(*access, axis))
        s.axes[axis].push_back({access, axis, padLane(pad)});
    s.data.assign(s.axes.size(), true);
    states[load.getResult()] = s;
    return;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
    if (dense && dense.isSplat()) {
      State s = get(constant.getResult());
      s.base = constantLane(dense.getSplatValue<APFloat>());
      states[constant.getResult()] = s;
    }
    return;
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    State s = get(splat.getResult());
    FloatAttr value;
    if (matchPattern(splat.getValue(), m_Constant(&value)))
      s.base = constantLane(value.getValue());
    states[splat.getResult()] = s;
    return;
  }
  if (isa<StoreOp, AtomicAddOp>(op)) {
    const AccessInfo *access = model.getAccess(op);
    State s = get(op->getOperand(0));
    if (s.empty())
      return;
    if (!access || !access->unsupported.empty()) {
      run.unsupported(op, "cannot check that " + describeOp(op) +
                              " masks padded lanes: it is outside the affine "
                              "fragment");
      return;
    }
    for (unsigned axis = 0, e = s.axes.size(); axis < e; ++axis)
      for (const Entry &entry : s.axes[axis])
        checkStoreLeak(op, *access, entry, axis);
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    auto iterArgs = forOp.getRegionIterArgs();
    for (auto [arg, init] : llvm::zip(iterArgs, forOp.getInitArgs()))
      states[arg] = get(init);
    for (int iteration = 0; iteration < 16 && !stopped; ++iteration) {
      processBlock(*forOp.getBody());
      bool changed = false;
      Operation *yield = forOp.getBody()->getTerminator();
      for (auto [arg, value] : llvm::zip(iterArgs, yield->getOperands())) {
        State joined = joinStates(get(arg), get(value));
        if (!(joined == get(arg))) {
          states[arg] = joined;
          changed = true;
        }
      }
      if (!changed)
        break;
    }
    for (auto [result, arg] : llvm::zip(forOp.getResults(), iterArgs))
      states[result] = get(arg);
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    processBlock(ifOp.getThenRegion().front());
    if (!ifOp.getElseRegion().empty())
      processBlock(ifOp.getElseRegion().front());
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      State s = get(ifOp.thenYield().getOperand(i));
      if (!ifOp.getElseRegion().empty())
        s = joinStates(s, get(ifOp.elseYield().getOperand(i)));
      states[result] = s;
    }
    return;
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    State in = get(bcast.getInput()), out = get(bcast.getResult());
    unsigned inAxis = 0;
    out.base = in.base;
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis) {
      bool added = llvm::is_contained(bcast.getDims(), int64_t(axis));
      out.axes[axis] = added ? SmallVector<Entry>() : in.axes[inAxis];
      out.data[axis] = added ? false : in.data[inAxis];
      inAxis += !added;
    }
    states[bcast.getResult()] = out;
    return;
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    State in = get(transpose.getInput()), out = get(transpose.getResult());
    out.base = in.base;
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis) {
      out.axes[axis] = in.axes[transpose.getPerm()[axis]];
      out.data[axis] = in.data[transpose.getPerm()[axis]];
    }
    states[transpose.getResult()] = out;
    return;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    State in = get(expand.getInput()), out = get(expand.getResult());
    out.base = in.base;
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis) {
      if (int64_t(axis) == expand.getDim())
        continue;
      unsigned from = int64_t(axis) > expand.getDim() ? axis - 1 : axis;
      out.axes[axis] = in.axes[from];
      out.data[axis] = in.data[from];
    }
    states[expand.getResult()] = out;
    return;
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    State in = get(reduce.getInput()), out = get(reduce.getResult());
    unsigned dim = reduce.getDim();
    Lane neutral;
    const char *fix;
    switch (reduce.getKind()) {
    case ReduceKind::add:
      neutral = Lane::Zero;
      fix = "add needs zero there: use pad(zero) or mask the lanes with "
            "arith.select";
      break;
    case ReduceKind::max:
      neutral = Lane::NegInf;
      fix = "max needs -inf there: use pad(neg_inf)";
      break;
    case ReduceKind::min:
      neutral = Lane::PosInf;
      fix = "min needs +inf there: use pad(pos_inf)";
      break;
    case ReduceKind::mul:
      neutral = Lane::Any;
      fix = "mul needs one there, which no pad provides: mask the lanes "
            "with arith.select";
      break;
    }
    for (const Entry &entry : in.axes[dim])
      if (entry.value != neutral || neutral == Lane::Any)
        reportNotNeutral(op,
                         entry,
                         "reduces (" +
                             stringifyReduceKind(reduce.getKind()).str() +
                             ")",
                         fix);
    out.base = in.base;
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis) {
      out.axes[axis] = in.axes[axis >= dim ? axis + 1 : axis];
      out.data[axis] = in.data[axis >= dim ? axis + 1 : axis];
    }
    states[reduce.getResult()] = out;
    return;
  }
  if (auto mma = dyn_cast<MmaOp>(op))
    return processMma(mma);
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return processSelect(select);
  if (op->getNumResults() == 1 && isa<RankedTensorType>(op->getResult(0).getType()) &&
      op->getNumRegions() == 0 &&
      (isa<arith::ArithDialect>(op->getDialect()) ||
       op->getDialect()->getNamespace() == "math") &&
      llvm::all_of(op->getOperandTypes(),
                   [&](Type t) { return isa<RankedTensorType>(t); }))
    return processElementwise(op);

  // Any other op must not see padded lanes.
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()) || get(operand).empty())
      continue;
    if (isa<scf::YieldOp, ReturnOp>(op))
      continue;
    run.unsupported(op, "cannot follow padded lanes through " +
                            describeOp(op) + ", which C10 does not model");
    stopped = true;
    return;
  }
}

} // namespace

void checkPads(CheckRun &run) { PadAnalysis(run).analyse(); }

} // namespace kbench::detail
