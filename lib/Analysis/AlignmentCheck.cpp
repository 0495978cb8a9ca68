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

#include "CheckSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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
};

static void addOrigin(SmallVectorImpl<Origin> &origins, Origin o) {
  if (!llvm::is_contained(origins, o))
    origins.push_back(o);
}

static Lanes joinLanes(const Lanes &a, const Lanes &b) {
  Lanes result = a;
  result.axes.resize(std::max(a.axes.size(), b.axes.size()));
  for (auto [axis, origins] : llvm::enumerate(b.axes))
    for (const Origin &o : origins)
      addOrigin(result.axes[axis], o);
  return result;
}

class AlignmentAnalysis {
public:
  explicit AlignmentAnalysis(CheckRun &run) : run(run), model(run.model) {}

  void analyse() { processBlock(model.getKernel().getBody().front()); }

private:
  CheckRun &run;
  const KernelModel &model;
  DenseMap<Value, Lanes> lanes;
  std::set<std::tuple<Operation *, const AccessInfo *, unsigned, unsigned>>
      checked;
  bool stopped = false;

  Lanes get(Value v) {
    auto it = lanes.find(v);
    Lanes l = it == lanes.end() ? Lanes() : it->second;
    if (auto type = dyn_cast<RankedTensorType>(v.getType()))
      l.axes.resize(type.getRank());
    return l;
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

  void checkStore(Operation *store, const AccessInfo &access, Origin origin,
                  unsigned axis);
  void processOp(Operation *op);
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
    LinearSystem sys;
    SmallVector<LinearExpr> syms = model.emitSymbols(sys);
    Instance inst = model.emitInstance(sys, syms, access.scope, "", false);
    model.bindScope(sys, syms, inst, origin.load->scope, "", false);
    FailureOr<LinearExpr> ltile =
        model.flatten(sys, origin.load->indices[origin.axis], syms, &inst);
    FailureOr<LinearExpr> stile =
        model.flatten(sys, access.indices[axis], syms, &inst);
    if (failed(ltile) || failed(stile))
      return;
    sys.addGE((*ltile - *stile) * side - 1);
    SmallVector<int64_t> values;
    CheckRun::Outcome outcome = run.lexMin(sys, values);
    if (outcome == CheckRun::Outcome::Stopped) {
      stopped = true;
      return;
    }
    if (outcome == CheckRun::Outcome::Empty)
      continue;
    SymbolValues dims = witnessDims(model, values, syms);
    int64_t lt = ltile->evaluate(values), st = stile->evaluate(values);
    const std::string &dimName = model.getSymbols()[dim];
    std::string message =
        describeOp(store) + " writes tile " + std::to_string(st) + " along " +
        dimName + " (dim " + std::to_string(axis) + ") of " + sview.tensor +
        " with lanes that " + describeOp(origin.load->op) + " read from tile " +
        std::to_string(lt) + " along " + dimName + " of " + lview.tensor +
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
    lanes[load.getResult()] = l;
    return;
  }
  if (isa<StoreOp, AtomicAddOp>(op)) {
    const AccessInfo *access = model.getAccess(op);
    Lanes l = get(op->getOperand(0));
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
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    auto iterArgs = forOp.getRegionIterArgs();
    for (auto [arg, init] : llvm::zip(iterArgs, forOp.getInitArgs()))
      lanes[arg] = get(init);
    for (int iteration = 0; iteration < 16 && !stopped; ++iteration) {
      processBlock(*forOp.getBody());
      bool changed = false;
      Operation *yield = forOp.getBody()->getTerminator();
      for (auto [arg, value] : llvm::zip(iterArgs, yield->getOperands())) {
        Lanes joined = joinLanes(get(arg), get(value));
        if (!(joined == get(arg))) {
          lanes[arg] = joined;
          changed = true;
        }
      }
      if (!changed)
        break;
    }
    for (auto [result, arg] : llvm::zip(forOp.getResults(), iterArgs))
      lanes[result] = get(arg);
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    processBlock(ifOp.getThenRegion().front());
    if (!ifOp.getElseRegion().empty())
      processBlock(ifOp.getElseRegion().front());
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      Lanes l = get(ifOp.thenYield().getOperand(i));
      if (!ifOp.getElseRegion().empty())
        l = joinLanes(l, get(ifOp.elseYield().getOperand(i)));
      lanes[result] = l;
    }
    return;
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    Lanes in = get(bcast.getInput()), out = get(bcast.getResult());
    unsigned inAxis = 0;
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis)
      out.axes[axis] = llvm::is_contained(bcast.getDims(), int64_t(axis))
                           ? SmallVector<Origin>()
                           : in.axes[inAxis++];
    lanes[bcast.getResult()] = out;
    return;
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    Lanes in = get(transpose.getInput()), out = get(transpose.getResult());
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis)
      out.axes[axis] = in.axes[transpose.getPerm()[axis]];
    lanes[transpose.getResult()] = out;
    return;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    Lanes in = get(expand.getInput()), out = get(expand.getResult());
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis)
      out.axes[axis] = int64_t(axis) == expand.getDim()
                           ? SmallVector<Origin>()
                           : in.axes[int64_t(axis) > expand.getDim() ? axis - 1
                                                                     : axis];
    lanes[expand.getResult()] = out;
    return;
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    Lanes in = get(reduce.getInput()), out = get(reduce.getResult());
    for (unsigned axis = 0, e = out.axes.size(); axis < e; ++axis)
      out.axes[axis] = in.axes[axis >= reduce.getDim() ? axis + 1 : axis];
    lanes[reduce.getResult()] = out;
    return;
  }
  if (auto mma = dyn_cast<MmaOp>(op)) {
    Lanes a = get(mma.getA()), b = get(mma.getB()), acc = get(mma.getAcc());
    Lanes out = acc;
    for (const Origin &o : a.axes[mma.getTransposeA() ? 1 : 0])
      addOrigin(out.axes[0], o);
    for (const Origin &o : b.axes[mma.getTransposeB() ? 0 : 1])
      addOrigin(out.axes[1], o);
    lanes[mma.getResult()] = out;
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
    lanes[op->getResult(0)] = out;
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
