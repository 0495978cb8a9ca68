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
//  - Elementwise ops evaluate the entry's value (PadLattice.h); a combiner
//    absorbs a pad that is its identity when the other operand holds data of
//    its own along that axis (`acc + 0`, `max(m, -inf)`): the lane then holds
//    that data. A constant or a broadcast does not absorb (`1 + 0`).
//  - arith.select drops the entries its condition provably masks out
//    (`iota + j * BN < N` against lanes past N: a Presburger query).
//  - An scf.if result joins what its branches yield, without the entries
//    of loads that provably read no partial tile where the branch is taken
//    (`if (j * BN + BN > N)`: the else branch sees no pad), so a kernel may
//    mask only its boundary tiles.
//  - tile.reduce and the k axis of tile.mma must see neutral values (zero
//    for add and for products, -inf for max, +inf for min): otherwise
//    pad_not_neutral at the consumer.
//  - tile.store / tile.atomic_add must mask every pad-derived lane: a padded
//    lane that lands on an in-bounds element of the output is pad_not_neutral
//    at the store (a Presburger query).
//
//===----------------------------------------------------------------------===//

#include "PadAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <set>

using namespace mlir;
using namespace kbench::tile;

namespace kbench::detail {

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
        addEntry(out.axes[axis], {entry.load, entry.srcAxis,
                                  evaluate(op, lanes), entry.carried});
      }
    }
  }
  states[result] = out;
}

/// The pad value a combiner ignores (Any for mul: no pad gives one), and
/// how to get it where a kernel has another.
static std::pair<Lane, const char *> neutralPad(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::add:
    return {Lane::Zero, "add needs zero there: use pad(zero) or mask the "
                        "lanes with arith.select"};
  case ReduceKind::max:
    return {Lane::NegInf, "max needs -inf there: use pad(neg_inf)"};
  case ReduceKind::min:
    return {Lane::PosInf, "min needs +inf there: use pad(pos_inf)"};
  case ReduceKind::mul:
    break;
  }
  return {Lane::Any, "mul needs one there, which no pad provides: mask the "
                     "lanes with arith.select"};
}

/// What combining lanes of class `a` and `b` gives, per kind.
static Lane combineLanes(ReduceKind kind, Lane a, Lane b) {
  switch (kind) {
  case ReduceKind::add:
    return add(a, b);
  case ReduceKind::mul:
    return mul(a, b);
  case ReduceKind::max:
    return max(a, b, /*propagateNaN=*/true);
  case ReduceKind::min:
    return min(a, b, /*propagateNaN=*/true);
  }
  return Lane::Any;
}

/// Every value a run of lanes of class `lane` can combine to (the lattice is
/// finite, so the closure is reached in a few steps).
static Lane scanClosure(ReduceKind kind, Lane lane) {
  for (Lane next = join(lane, combineLanes(kind, lane, lane)); next != lane;
       next = join(lane, combineLanes(kind, lane, lane)))
    lane = next;
  return lane;
}

void PadAnalysis::requireNeutral(Operation *consumer, ReduceKind kind,
                                 ArrayRef<Entry> entries,
                                 const std::string &verb) {
  auto [neutral, fix] = neutralPad(kind);
  for (const Entry &entry : entries)
    if (entry.value != neutral || neutral == Lane::Any)
      reportNotNeutral(consumer, entry,
                       verb + " (" + stringifyReduceKind(kind).str() + ")",
                       fix);
}

/// A scan combines, per lane, the lanes at or before it along its dim. Pads
/// along that dim must be neutral, so the data lanes come out right; the
/// padded lanes themselves then hold running totals, any combination of the
/// data and the pad, which are no longer neutral for what consumes them.
/// Along the other dims a padded lane is combined with padded lanes only.
void PadAnalysis::processScan(ScanOp op) {
  State in = get(op.getInput());
  unsigned dim = op.getDim();
  ReduceKind kind = op.getKind();
  requireNeutral(op, kind, in.axes[dim], "scans");
  State out = in;
  out.base = scanClosure(kind, in.base);
  for (auto [axis, entries] : llvm::enumerate(out.axes))
    for (Entry &entry : entries)
      entry.value = scanClosure(
          kind, axis == dim ? join(in.base, entry.value) : entry.value);
  states[op.getResult()] = out;
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
        addEntry(out.axes[axis],
                 {entry.load, entry.srcAxis, Lane::Any, entry.carried});
  }
  states[op.getResult()] = out;
}

bool PadAnalysis::zeroedBySelect(Value operand, unsigned axis,
                                 const Entry &entry) {
  auto isZero = [&](Value v) {
    State s = get(v);
    return s.base == Lane::Zero &&
           (axis >= s.axes.size() || s.axes[axis].empty());
  };
  // A chain of selects with a zero on one side: the lanes any of them masks
  // hold zero, whatever the selects around it pick.
  for (Value v = stripFloatCasts(operand);;) {
    // scf.if: each branch either yields such a chain or is only taken where
    // the lanes are not padded.
    if (auto ifOp = v.getDefiningOp<scf::IfOp>()) {
      unsigned index = cast<OpResult>(v).getResultNumber();
      auto branchZeroes = [&](bool isThen) {
        Value yielded = isThen ? ifOp.thenYield().getOperand(index)
                               : ifOp.elseYield().getOperand(index);
        return provedUnpaddedUnder(ifOp, entry, ifOp.getCondition(), isThen) ||
               zeroedBySelect(yielded, axis, entry);
      };
      return branchZeroes(true) && branchZeroes(false);
    }
    auto select = v.getDefiningOp<arith::SelectOp>();
    if (!select || !isa<RankedTensorType>(select.getCondition().getType()))
      return false;
    Value cond = select.getCondition();
    if (isZero(select.getFalseValue())) {
      if (provedMasked(select, entry, axis, cond, true))
        return true;
      v = stripFloatCasts(select.getTrueValue());
    } else if (isZero(select.getTrueValue())) {
      if (provedMasked(select, entry, axis, cond, false))
        return true;
      v = stripFloatCasts(select.getFalseValue());
    } else {
      return false;
    }
  }
}

void PadAnalysis::processMma(MmaOp op) {
  State a = get(op.getA()), b = get(op.getB()), acc = get(op.getAcc());
  unsigned aK = op.getTransposeA() ? 0 : 1, aM = 1 - aK;
  unsigned bK = op.getTransposeB() ? 1 : 0, bN = 1 - bK;
  // The k lanes of a product must be zero to vanish from the sum.
  auto checkK = [&](const State &self, unsigned selfK, const State &other,
                    Value otherValue, unsigned otherK) {
    for (const Entry &entry : self.axes[selfK]) {
      bool exact;
      Lane product = mul(entry.value, valueOnLanes(other, otherK, entry, exact));
      // Zero pad times an operand masked to zero on the same k lanes (the
      // probabilities of attention against V's padded rows).
      if (product != Lane::Zero && entry.value == Lane::Zero &&
          zeroedBySelect(otherValue, otherK, entry))
        product = Lane::Zero;
      if (product != Lane::Zero)
        reportNotNeutral(op, entry, "multiplies and sums",
                         "a product with them is " +
                             std::string(laneName(product)) +
                             ", not zero: use pad(zero) for both operands, or "
                             "set the other operand's lanes there to zero with "
                             "arith.select");
    }
  };
  checkK(a, aK, b, op.getB(), bK);
  checkK(b, bK, a, op.getA(), aK);
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
               {entry.load, entry.srcAxis, mul(entry.value, Lane::Finite),
                entry.carried});
    for (const Entry &entry : product.axes[axis]) {
      bool exact;
      Lane accLane = valueOnLanes(acc, axis, entry, exact);
      if (!exact && acc.data[axis] && entry.value == Lane::Zero)
        continue; // acc + 0 keeps the accumulator's lane
      addEntry(out.axes[axis], {entry.load, entry.srcAxis,
                                add(entry.value, accLane), entry.carried});
    }
    for (const Entry &entry : acc.axes[axis]) {
      bool exact;
      Lane p = valueOnLanes(product, axis, entry, exact);
      addEntry(out.axes[axis],
               {entry.load, entry.srcAxis, add(entry.value, p), entry.carried});
    }
  }
  states[op.getResult()] = out;
}

/// A gather reads its view like a load along every dim but the gathered
/// one, whose lanes are those of the index tile. Lanes where the index tile
/// holds padding (a token past the end) read some row of the table: their
/// value is unknown, so they stay tracked as Any and must reach only masked
/// store lanes. Out-of-range indices themselves are data, not shape: they
/// read the pad by the op's definition and are not tracked here.
void PadAnalysis::processGather(GatherOp gather) {
  const AccessInfo *access = model.getAccess(gather);
  if (!access || !access->unsupported.empty()) {
    run.unsupported(gather, "cannot track the pad of " + describeOp(gather) +
                                ": " +
                                (access ? access->unsupported : std::string()));
    return;
  }
  PadKind pad = gather.getView().getType().getPad();
  State indices = get(gather.getOffsets());
  State s = get(gather.getResult());
  for (unsigned axis = 0, e = s.axes.size(); axis < e; ++axis) {
    for (const Entry &entry : indices.axes[axis])
      addEntry(s.axes[axis],
               {entry.load, entry.srcAxis, Lane::Any, entry.carried});
    if (axis != gather.getDim() && padPossible(*access, axis))
      addEntry(s.axes[axis], {access, axis, padLane(pad)});
  }
  s.data.assign(s.axes.size(), true);
  states[gather.getResult()] = s;
}

void PadAnalysis::processOp(Operation *op) {
  laneIndex.visit(op);
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
  if (auto gather = dyn_cast<GatherOp>(op))
    return processGather(gather);
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
  if (auto write = dyn_cast<ViewAccessOpInterface>(op);
      write && write.writesView()) {
    const AccessInfo *access = model.getAccess(op);
    State s = get(write.getTile());
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
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    State in = get(reduce.getInput());
    requireNeutral(op, reduce.getKind(), in.axes[reduce.getDim()], "reduces");
    states[reduce.getResult()] = in.mapAxes(*axisSources(op));
    return;
  }
  if (auto scan = dyn_cast<ScanOp>(op))
    return processScan(scan);
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


void checkPads(CheckRun &run) { PadAnalysis(run).analyse(); }

} // namespace kbench::detail
