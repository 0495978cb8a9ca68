//===- AlignmentCheck.cpp - C11 lane alignment ----------------------------===//
//
// C11: data keeps its index along a named dim. Tile ops move data between
// lanes only by reductions (which remove an axis), broadcasts (which add one)
// and transposes (which permute axes); none shifts lanes. So when lanes that a
// tile.load read along dim D of its tensor reach a tile.store along dim D of
// the output (same dim name), they must land on the same index: the tile
// coordinates of the load and of the store along D must be equal in every
// instance. A load that reads the wrong tile in bounds (`X[0, k]` for
// `X[m, k]`, swapped block coordinates) breaks this; C1-C3 cannot see it.
//
// A forward dataflow tracks, per tensor value and axis, the (load, axis)
// origins of its lanes; the check is one Presburger query per origin and
// store axis. Kernels that shift data on purpose (stencils) should run
// tile-verify with checks that exclude C11.
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

void AlignmentAnalysis::checkStore(Operation *store, const AccessInfo &access,
                                   Origin origin, unsigned axis) {
  if (!checked.insert({store, origin.load, origin.axis, axis}).second)
    return;
  const ViewInfo &lview = model.getViews()[origin.load->view];
  const ViewInfo &sview = model.getViews()[access.view];
  unsigned dim = sview.dimSymbols[axis];
  if (lview.dimSymbols[origin.axis] != dim ||
      lview.tileShape[origin.axis] != sview.tileShape[axis])
    return;
  for (int side : {1, -1}) {
    FailureOr<LoadStoreQuery> q =
        buildLoadStoreQuery(model, *origin.load, origin.axis, access, axis);
    if (failed(q))
      return;
    LinearSystem &sys = q->sys;
    const Instance &inst = q->inst;
    sys.addGE((q->loadTile - q->storeTile) * side - 1);
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
    std::string message =
        describeOp(store) + " writes tile " + std::to_string(st) + " along " +
        dimName + " (dim " + std::to_string(axis) + ") of " + sview.label() +
        " with lanes that " + describeOp(origin.load->op) + " read from tile " +
        std::to_string(lt) + " along " + dimName + " of " + lview.label() +
        " (" + dimsText(dims, model.getSymbols()) + ", " +
        instanceText(model, inst, values) +
        "); data must keep its index along a dim: use the same tile "
        "coordinate for both";
    Finding &finding = run.violation(store, "misaligned", sview.tensor,
                                     message, "index_offset|coordinate");
    finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
    addInstanceJSON(finding.witness, model, inst, values);
    finding.witness["load_tile"] = lt;
    finding.witness["store_tile"] = st;
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
  if (isa<ReduceOp>(op)) {
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
