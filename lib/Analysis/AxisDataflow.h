//===- AxisDataflow.h - Forward dataflow over tile axes ---------*- C++ -*-===//
//
// Private to lib/Analysis: the walk that C10 (pad provenance) and C11 (lane
// origins) share. Their state is per tensor value and per axis; the walk
// visits ops in order, solves scf.for iter_args to a fixpoint, joins scf.if
// results and moves the per-axis facts through ops that only move axes
// (tile.broadcast, tile.transpose, tile.expand_dims). The derived class
// handles every other op.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_ANALYSIS_AXISDATAFLOW_H
#define KBENCH_LIB_ANALYSIS_AXISDATAFLOW_H

#include "CheckSupport.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace kbench::detail {

/// For ops that map axes (tile::AxisMapOpInterface: broadcast, transpose,
/// expand_dims, reduce): per result axis, the input axis it comes from, or -1
/// for a new axis.
std::optional<llvm::SmallVector<int>> axisSources(mlir::Operation *op);

/// The shared walk. StateT provides `void resize(unsigned rank)`,
/// `StateT joined(const StateT &) const`, `StateT mapAxes(ArrayRef<int>) const`
/// (as axisSources) and `operator==`; Derived provides
/// `void processOp(mlir::Operation *)` for the ops the walk does not handle,
/// and may provide `StateT branchState(scf::IfOp, bool isThen, StateT)`: what
/// a value yielded by a branch holds given that the branch was taken, and
/// `StateT carriedState(StateT)`: what a value yielded to a loop's next
/// iteration holds there (the defaults: what it holds).
template <typename Derived, typename StateT>
class AxisDataflow {
public:
  explicit AxisDataflow(CheckRun &run) : run(run), model(run.model) {}

  void analyse() { processBlock(model.getKernel().getBody().front()); }

protected:
  CheckRun &run;
  const KernelModel &model;
  llvm::DenseMap<mlir::Value, StateT> states;
  bool stopped = false;

  /// The state of `v`, sized to its rank (empty when nothing is known).
  StateT get(mlir::Value v) {
    auto it = states.find(v);
    StateT s = it == states.end() ? StateT() : it->second;
    if (auto type = llvm::dyn_cast<mlir::RankedTensorType>(v.getType()))
      s.resize(type.getRank());
    return s;
  }

  StateT branchState(mlir::scf::IfOp, bool, StateT state) { return state; }
  StateT carriedState(StateT state) { return state; }

  void processBlock(mlir::Block &block) {
    for (mlir::Operation &op : block) {
      if (stopped || !run.canContinue()) {
        stopped = true;
        return;
      }
      if (!processStructural(&op))
        static_cast<Derived *>(this)->processOp(&op);
    }
  }

private:
  bool processStructural(mlir::Operation *op) {
    if (auto forOp = llvm::dyn_cast<mlir::scf::ForOp>(op)) {
      auto iterArgs = forOp.getRegionIterArgs();
      for (auto [arg, init] : llvm::zip(iterArgs, forOp.getInitArgs()))
        states[arg] = get(init);
      // The lattices are finite and joins only grow, so this converges; the
      // bound is a guard against a transfer function that oscillates.
      for (int iteration = 0; iteration < 16 && !stopped; ++iteration) {
        processBlock(*forOp.getBody());
        bool changed = false;
        mlir::Operation *yield = forOp.getBody()->getTerminator();
        for (auto [arg, value] : llvm::zip(iterArgs, yield->getOperands())) {
          StateT joined = get(arg).joined(
              static_cast<Derived *>(this)->carriedState(get(value)));
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
      return true;
    }
    if (auto ifOp = llvm::dyn_cast<mlir::scf::IfOp>(op)) {
      processBlock(ifOp.getThenRegion().front());
      if (!ifOp.getElseRegion().empty())
        processBlock(ifOp.getElseRegion().front());
      auto *self = static_cast<Derived *>(this);
      for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
        StateT s =
            self->branchState(ifOp, true, get(ifOp.thenYield().getOperand(i)));
        if (!ifOp.getElseRegion().empty())
          s = s.joined(self->branchState(ifOp, false,
                                         get(ifOp.elseYield().getOperand(i))));
        states[result] = s;
      }
      return true;
    }
    // Ops that only move elements carry the state along their axis map; a
    // reduction combines elements, which each check judges itself.
    auto map = llvm::dyn_cast<tile::AxisMapOpInterface>(op);
    if (!map || !map.copiesElements())
      return false;
    std::optional<llvm::SmallVector<int>> from = axisSources(op);
    StateT out = get(map.getMappedInput()).mapAxes(*from);
    out.resize(from->size());
    states[op->getResult(0)] = out;
    return true;
  }
};

} // namespace kbench::detail

#endif // KBENCH_LIB_ANALYSIS_AXISDATAFLOW_H
