//===- AlignmentCheck.cpp - C11 lane alignment ----------------------------===//
//
// C11: data keeps its index along a named dim. Tile ops move data between
// lanes only by reductions (which remove an axis), broadcasts (which add one)
// and transposes (which permute axes); none shifts lanes. A tile.gather reads
// at positions that are data along its gathered dim: its lanes there are the
// index tile's, and no origin of the gathered dim is created. So when lanes
// that a tile.load read along dim D of its tensor reach a tile.store along dim
// D of the output (same dim name), they must land on the same index: the tile
// coordinates of the load and of the store along D must be equal in every
// instance. A load that reads the wrong tile in bounds (`X[0, k]` for
// `X[m, k]`, swapped block coordinates) breaks this; C1-C3 cannot see it.
//
// A forward dataflow tracks, per tensor value and axis, the (load, axis)
// origins of its lanes; the check is one Presburger query per origin and
// store axis, per element: lane e of the load along D must be stored at the
// same index of D. When the lanes a load read along D land on a store axis of
// another dim while the output has exactly one axis of dim D, the tile's axes
// were permuted (a transpose of a square tile type-checks); the query then
// relates the lane on the landing axis to the lane on the axis of D, and a
// witness gives both lanes. Kernels that shift data on purpose (stencils)
// should run tile-verify with checks that exclude C11.
//
//===----------------------------------------------------------------------===//

#include "AxisDataflow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <set>

using namespace mlir;
using namespace kbench::tile;

namespace kbench::detail {
namespace {

/// Lanes along one axis that hold data read by `load` along its `axis`.
struct Origin {
  const AccessInfo *load;
  unsigned axis;
  bool operator==(const Origin &o) const {
    return load == o.load && axis == o.axis;
  }
};

/// Per axis, the origins of the lanes of one tensor value.
struct Lanes {
  SmallVector<SmallVector<Origin>> axes;
  bool operator==(const Lanes &o) const { return axes == o.axes; }
  bool empty() const {
    return llvm::all_of(axes, [](const auto &a) { return a.empty(); });
  }
  void resize(unsigned rank) { axes.resize(rank); }
  Lanes joined(const Lanes &other) const;
  Lanes mapAxes(ArrayRef<int> from) const {
    Lanes out;
    for (int axis : from)
      out.axes.push_back(axis < 0 ? SmallVector<Origin>() : axes[axis]);
    return out;
  }
};

static void addOrigin(SmallVectorImpl<Origin> &origins, Origin o) {
  if (!llvm::is_contained(origins, o))
    origins.push_back(o);
}

Lanes Lanes::joined(const Lanes &other) const {
  Lanes result = *this;
  result.axes.resize(std::max(axes.size(), other.axes.size()));
  for (auto [axis, origins] : llvm::enumerate(other.axes))
    for (const Origin &o : origins)
      addOrigin(result.axes[axis], o);
  return result;
}

class AlignmentAnalysis : public AxisDataflow<AlignmentAnalysis, Lanes> {
public:
  using AxisDataflow::AxisDataflow;
  void processOp(Operation *op);

private:
  std::set<std::tuple<Operation *, const AccessInfo *, unsigned, unsigned>>
      checked;

  void checkStore(Operation *store, const AccessInfo &access, Origin origin,
                  unsigned axis);
};

/// The store axis whose dim carries the lanes a load read along `loadDim`
/// when they land on store axis `axis`: `axis` itself when it has that dim,
/// else the one other axis of that dim (the lanes were permuted), or none.
static std::optional<unsigned> targetAxis(const ViewInfo &sview, unsigned axis,
                                          unsigned loadDim) {
  if (sview.dimSymbols[axis] == loadDim)
    return axis;
  std::optional<unsigned> target;
  for (auto [a, dim] : llvm::enumerate(sview.dimSymbols)) {
    if (dim != loadDim)
      continue;
    if (target)
      return std::nullopt;
    target = a;
  }
  return target;
}

void AlignmentAnalysis::checkStore(Operation *store, const AccessInfo &access,
                                   Origin origin, unsigned axis) {
  if (!checked.insert({store, origin.load, origin.axis, axis}).second)
    return;
  const ViewInfo &lview = model.getViews()[origin.load->view];
  const ViewInfo &sview = model.getViews()[access.view];
  unsigned dim = lview.dimSymbols[origin.axis];
  // Lanes keep their index from load to store (no tile op shifts lanes), so
  // a lane count that differs means the lanes were not followed faithfully.
  if (lview.tileShape[origin.axis] != sview.tileShape[axis])
    return;
  std::optional<unsigned> target = targetAxis(sview, axis, dim);
  if (!target)
    return;
  bool permuted = *target != axis;
  // Per element: lane `e` along store axis `axis` holds the element
  // loadTile * T + e of the load along `dim`; the element the store writes
  // along the axis of `dim` is storeTile * T' + e' (e' = e unless the axes
  // were permuted). They must be equal for every stored element.
  for (int side : {1, -1}) {
    FailureOr<LoadStoreQuery> q = buildLoadStoreQuery(
        model, *origin.load, origin.axis, access, *target);
    if (failed(q))
      return;
    LinearSystem &sys = q->sys;
    const Instance &inst = q->inst;
    FailureOr<LinearExpr> laneTile =
        model.flatten(sys, access.indices[axis], q->syms, &q->inst);
    if (failed(laneTile))
      return;
    int64_t laneSize = sview.tileShape[axis];
    int64_t targetSize = sview.tileShape[*target];
    LinearExpr lane = LinearExpr::var(sys.addVar("lane"));
    LinearExpr targetLane =
        permuted ? LinearExpr::var(sys.addVar("target_lane")) : lane;
    LinearExpr loadElem = q->loadTile * lview.tileShape[origin.axis] + lane;
    LinearExpr storeElem = q->storeTile * targetSize + targetLane;
    for (auto [l, size, tileExpr, axisDim] :
         {std::tuple(lane, laneSize, *laneTile, sview.dimSymbols[axis]),
          std::tuple(targetLane, targetSize, q->storeTile, dim)}) {
      // The lane exists and its element is stored (not masked off).
      sys.addGE(l);
      sys.addLT(l, LinearExpr::cst(size));
      sys.addLT(tileExpr * size + l, q->syms[axisDim]);
    }
    // A lane past the load's extent holds the pad (C10's concern); a witness
    // with real data reads better.
    sys.addLT(loadElem, q->syms[dim]);
    sys.addGE((loadElem - storeElem) * side - 1);
    SmallVector<int64_t> values;
    CheckRun::Outcome outcome = run.lexMin(sys, values);
    if (outcome == CheckRun::Outcome::Stopped) {
      stopped = true;
      return;
    }
    if (outcome == CheckRun::Outcome::Empty)
      continue;
    SymbolValues dims = witnessDims(model, values, q->syms);
    int64_t lt = q->loadTile.evaluate(values), st = q->storeTile.evaluate(values);
    const std::string &dimName = model.getSymbols()[dim];
    std::string message;
    if (!permuted) {
      message = describeOp(store) + " writes tile " + std::to_string(st) +
                " along " + dimName + " (dim " + std::to_string(axis) +
                ") of " + sview.label() + " with lanes that " +
                describeOp(origin.load->op) + " read from tile " +
                std::to_string(lt) + " along " + dimName + " of " +
                lview.label() + " (" + dimsText(dims, model.getSymbols()) +
                ", " + instanceText(model, inst, values) +
                "); data must keep its index along a dim: use the same tile "
                "coordinate for both";
    } else {
      const std::string &axisName = model.getSymbols()[sview.dimSymbols[axis]];
      message =
          describeOp(store) + " writes along " + axisName + " (dim " +
          std::to_string(axis) + ") of " + sview.label() + " lanes that " +
          describeOp(origin.load->op) + " read along " + dimName + " (dim " +
          std::to_string(origin.axis) + ") of " + lview.label() +
          ": the element read at index " +
          std::to_string(loadElem.evaluate(values)) + " along " + dimName +
          " is stored at index " + std::to_string(storeElem.evaluate(values)) +
          " along " + dimName + " (dim " + std::to_string(*target) + ") of " +
          sview.label() + " (" + dimsText(dims, model.getSymbols()) + ", " +
          instanceText(model, inst, values) + ", lanes " +
          std::to_string(lane.evaluate(values)) + " and " +
          std::to_string(targetLane.evaluate(values)) +
          "); the tile's axes are permuted: data must keep its index along "
          "each named dim (a tile.transpose too many or too few?)";
    }
    Finding &finding = run.violation(store, "misaligned", sview.tensor,
                                     message, permuted
                                                  ? "transpose|coordinate"
                                                  : "index_offset|coordinate");
    finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
    addInstanceJSON(finding.witness, model, inst, values);
    finding.witness["load_tile"] = lt;
    finding.witness["store_tile"] = st;
    finding.witness["load_element"] = loadElem.evaluate(values);
    finding.witness["store_element"] = storeElem.evaluate(values);
    if (permuted) {
      llvm::json::Object lanes;
      lanes[std::to_string(axis)] = lane.evaluate(values);
      lanes[std::to_string(*target)] = targetLane.evaluate(values);
      finding.witness["lanes"] = std::move(lanes);
      finding.details["store_dim"] = *target;
    }
    finding.details["dim_name"] = dimName;
    finding.details["dim"] = axis;
    finding.details["source"] = describeOp(origin.load->op);
    addRelated(finding, {origin.load->op});
    run.demoteIfFactsViolated(finding, dims);
    return;
  }
}

void AlignmentAnalysis::processOp(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op)) {
    const AccessInfo *access = model.getAccess(op);
    Lanes l = get(load.getResult());
    if (access && access->unsupported.empty())
      for (unsigned axis = 0, e = l.axes.size(); axis < e; ++axis)
        l.axes[axis].push_back({access, axis});
    states[load.getResult()] = l;
    return;
  }
  // A gather keeps the lanes of its index tile (lane i reads at index i's
  // value) and reads like a load along every other dim; along the gathered
  // dim its position is data, which has no index to keep.
  if (auto gather = dyn_cast<GatherOp>(op)) {
    const AccessInfo *access = model.getAccess(op);
    Lanes l = get(gather.getOffsets());
    if (access && access->unsupported.empty())
      for (unsigned axis = 0, e = l.axes.size(); axis < e; ++axis)
        if (axis != gather.getDim())
          addOrigin(l.axes[axis], {access, axis});
    states[gather.getResult()] = l;
    return;
  }
  if (auto write = dyn_cast<ViewAccessOpInterface>(op);
      write && write.writesView()) {
    const AccessInfo *access = model.getAccess(op);
    Lanes l = get(write.getTile());
    if (l.empty())
      return;
    if (!access || !access->unsupported.empty()) {
      run.unsupported(op, "cannot check where " + describeOp(op) +
                              " puts its lanes: it is outside the affine "
                              "fragment");
      return;
    }
    for (unsigned axis = 0, e = l.axes.size(); axis < e; ++axis)
      for (const Origin &origin : l.axes[axis])
        checkStore(op, *access, origin, axis);
    return;
  }
  // A scan's element j combines elements <= j of the same axis: its own
  // index, so lanes keep their origins as through an elementwise op.
  if (isa<ReduceOp, ScanOp>(op)) {
    states[op->getResult(0)] = get(op->getOperand(0)).mapAxes(*axisSources(op));
    return;
  }
  if (auto mma = dyn_cast<MmaOp>(op)) {
    Lanes a = get(mma.getA()), b = get(mma.getB()), acc = get(mma.getAcc());
    Lanes out = acc;
    for (const Origin &o : a.axes[mma.getTransposeA() ? 1 : 0])
      addOrigin(out.axes[0], o);
    for (const Origin &o : b.axes[mma.getTransposeB() ? 0 : 1])
      addOrigin(out.axes[1], o);
    states[mma.getResult()] = out;
    return;
  }
  if (op->getNumResults() == 1 &&
      isa<RankedTensorType>(op->getResult(0).getType()) &&
      op->getNumRegions() == 0 &&
      (isa<arith::ArithDialect>(op->getDialect()) ||
       op->getDialect()->getNamespace() == "math")) {
    // Elementwise: lane i of the result comes from lane i of every operand.
    Lanes out = get(op->getResult(0));
    for (Value operand : op->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()))
        continue;
      Lanes in = get(operand);
      if (in.axes.size() != out.axes.size())
        continue;
      for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis)
        for (const Origin &o : in.axes[axis])
          addOrigin(out.axes[axis], o);
    }
    states[op->getResult(0)] = out;
    return;
  }
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()) || get(operand).empty() ||
        isa<scf::YieldOp, ReturnOp>(op))
      continue;
    run.unsupported(op, "cannot follow lanes through " + describeOp(op) +
                            ", which C11 does not model");
    stopped = true;
    return;
  }
}

} // namespace

void checkAlignment(CheckRun &run) { AlignmentAnalysis(run).analyse(); }

} // namespace kbench::detail
