//===- OutputReadCheck.cpp - C13 no output read before its first store ----===//
//
// C13: a kernel reads an element of an output only after it stored that
// element itself. A kernel that reads its output first can skip its work
// when the output already holds the last run's result, which repeated
// timing leaves there (the cached-output cheat; the runner also re-poisons
// outputs between timed runs, docs/runner.md). An output is a memref the
// kernel writes (tile.store or tile.atomic_add, as for C2).
//
// For each tile.load of an output, the elements it reads in bounds, per
// block and iteration of the load, minus the elements a tile.store of the
// same block wrote before it in the same iteration of their common loops
// (the store precedes the load in program order), must be empty; the
// smallest remaining element is the witness. tile.atomic_add is declared
// accumulation: it reads the output by design and is not checked here (an
// accumulation that was never initialised starts from the runner's NaN
// poison and fails its checks). A store after the load inside a loop they
// share may have written the element in an earlier iteration, which this
// check does not order: a read it would refute then is unsupported instead.
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"

using namespace mlir;
using namespace mlir::presburger;

namespace kbench::detail {

/// Whether `a` runs before `b` in one iteration of every loop enclosing both:
/// their ancestors in the deepest block holding both are ordered.
static bool isBeforeInProgram(Operation *a, Operation *b) {
  for (Operation *ancestorA = a; ancestorA;
       ancestorA = ancestorA->getParentOp()) {
    for (Operation *ancestorB = b; ancestorB;
         ancestorB = ancestorB->getParentOp()) {
      if (ancestorA->getBlock() != ancestorB->getBlock())
        continue;
      return ancestorA != ancestorB && ancestorA->isBeforeInBlock(ancestorB);
    }
  }
  return false;
}

void checkOutputReads(CheckRun &run) {
  const KernelModel &model = run.model;
  for (const AccessInfo &load : model.getAccesses()) {
    if (!run.canContinue())
      return;
    if (load.kind != AccessInfo::Kind::Load || !load.hasView)
      continue;
    const ViewInfo &view = model.getViews()[load.view];
    SmallVector<const AccessInfo *> stores;
    bool written = false, laterInLoop = false;
    for (const AccessInfo &w : model.getAccesses()) {
      if (!w.isWrite() || !w.hasView ||
          model.getViews()[w.view].argIndex != view.argIndex)
        continue;
      written = true;
      if (w.kind != AccessInfo::Kind::Store)
        continue;
      if (isBeforeInProgram(w.op, load.op))
        stores.push_back(&w);
      else if (model.getCommonScope(w.scope, load.scope) >= 0)
        laterInLoop = true;
    }
    if (!written)
      continue; // an input
    if (isa<kbench::tile::GatherOp>(load.op)) {
      // Its positions along the gathered dim are data: which stored
      // elements it reads is unknown here.
      run.unsupported(load.op, "cannot check that " + describeOp(load.op) +
                                   " reads only elements of " + view.label() +
                                   " stored before: it gathers from an "
                                   "output, at positions that are data");
      continue;
    }
    if (!load.unsupported.empty()) {
      run.unsupported(load.op, "cannot check that " + describeOp(load.op) +
                                   " reads only elements of " + view.label() +
                                   " stored before: " + load.unsupported);
      continue;
    }
    unsigned rank = view.tileShape.size();
    // The same visible variables, in the same order, in both systems: the
    // shape, the element, then the load's block and iterations.
    auto emitRead = [&](LinearSystem &sys, SmallVector<LinearExpr> &syms,
                        SmallVector<LinearExpr> &x, Instance &inst) {
      syms = model.emitSymbols(sys);
      for (unsigned d = 0; d < rank; ++d) {
        x.push_back(LinearExpr::var(sys.addVar("x" + std::to_string(d))));
        sys.addGE(x.back());
        sys.addLT(x.back(), syms[view.dimSymbols[d]]);
      }
      inst = model.emitInstance(sys, syms, load.scope, "", false);
      AccessInstance a = model.emitAccess(sys, syms, inst, load, "load.", true);
      for (unsigned d = 0; d < rank; ++d)
        sys.addEQ(x[d], a.element[d]);
    };
    LinearSystem read;
    SmallVector<LinearExpr> syms, x;
    Instance inst;
    emitRead(read, syms, x, inst);
    PresburgerSet stored =
        PresburgerSet::getEmpty(run.toSet(read).getSpace());
    bool storesModelled = true;
    for (const AccessInfo *store : stores) {
      if (!store->unsupported.empty()) {
        storesModelled = false;
        break;
      }
      LinearSystem sys;
      SmallVector<LinearExpr> storeSyms, storeX;
      Instance storeInst;
      emitRead(sys, storeSyms, storeX, storeInst);
      Instance shared = model.restrictInstance(
          storeInst, model.getCommonScope(store->scope, load.scope));
      model.bindScope(sys, storeSyms, shared, store->scope, "store.", true);
      AccessInstance a =
          model.emitAccess(sys, storeSyms, shared, *store, "store.", true);
      for (unsigned d = 0; d < rank; ++d)
        sys.addEQ(storeX[d], a.element[d]);
      FailureOr<PresburgerSet> united = run.unite(stored, run.toSet(sys));
      if (failed(united))
        return;
      stored = std::move(*united);
    }
    if (!storesModelled) {
      run.unsupported(load.op, "cannot check that " + describeOp(load.op) +
                                   " reads only elements of " + view.label() +
                                   " stored before: a store is outside the "
                                   "affine fragment");
      continue;
    }
    if (!run.canContinue())
      return;
    FailureOr<PresburgerSet> unstored = run.subtract(run.toSet(read), stored);
    if (failed(unstored))
      return;
    SmallVector<int64_t> point;
    CheckRun::Outcome outcome = run.lexMinOfSet(*unstored, point);
    if (outcome == CheckRun::Outcome::Stopped)
      return;
    if (outcome == CheckRun::Outcome::Empty)
      continue;

    unsigned numSyms = syms.size();
    SymbolValues dims;
    for (unsigned i = 0; i < numSyms; ++i)
      dims[model.getSymbols()[i]] = point[i];
    SmallVector<int64_t> element(point.begin() + numSyms,
                                 point.begin() + numSyms + rank);
    // The instance's variables follow, in creation order.
    SmallVector<int64_t> values(read.getNumVars(), 0);
    for (auto [id, v] : llvm::zip(read.getVisibleVars(), point))
      values[id] = v;
    std::string message =
        describeOp(load.op) + " reads element " + tupleText(element) + " of " +
        view.label() + ", an output of the kernel, before any store of this "
        "block wrote it (" + dimsText(dims, model.getSymbols()) + ", " +
        instanceText(model, inst, values) +
        "): it reads what the output held before the launch, the previous "
        "run's result when timed; store the element first, or accumulate "
        "with tile.atomic_add";
    if (laterInLoop) {
      run.unsupported(load.op, "possible read before store, but a store in "
                               "an earlier iteration of a loop may write the "
                               "element first, which C13 does not order: " +
                                   message);
      continue;
    }
    Finding &finding = run.violation(load.op, "output_read", view.tensor,
                                     message, "store_first|atomic_add");
    finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
    addInstanceJSON(finding.witness, model, inst, values);
    finding.witness["element"] = toJSONArray(element);
    SmallVector<Operation *> related;
    for (const AccessInfo *store : stores)
      related.push_back(store->op);
    addRelated(finding, related);
    run.demoteIfFactsViolated(finding, dims);
  }
}

} // namespace kbench::detail
