//===- MmaOverlap.cpp - The tile-overlap-mma pass -------------------------===//
//
// Rotates the loops of kernels with the mma_overlap knob as
// MmaOverlapRules.h describes. "Stage 1" below is the plan's second stage
// (the second tile.mma and the load of its B tile), "stage 0" the rest of
// the body: a prologue runs stage 0 of the first iteration, the loop runs
// stage 0 of iteration j with stage 1 of iteration j - 1 right after the
// first tile.mma, an epilogue runs stage 1 of the last iteration, all
// inside `scf.if (lb < ub)`.
//
// Values stage 1 reads from stage 0 become extra iter_args of the rotated
// loop, except scalar index arithmetic of the induction variable, which is
// recomputed for iteration j - 1, so that a tile.load of stage 1 keeps
// indices the operand prefetch can compute ahead (PrefetchRules.h).
//
// Runs on the tile IR after tile-verify proved it and before the layouts
// are assigned (lib/Target/GPU/PtxBackend.cpp).
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/MmaOverlapRules.h"
#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Conversion/TileToGPU/PrefetchRules.h"
#include "kbench/Support/KernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace kbench {
#define GEN_PASS_DEF_TILEOVERLAPMMA
#include "kbench/Conversion/TileToGPU/Passes.h.inc"
} // namespace kbench

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
/// Rotates one loop by its plan.
class LoopRotation {
public:
  LoopRotation(scf::ForOp loop, MmaOverlapPlan plan)
      : loop(loop), plan(plan), body(loop.getBody()),
        iv(loop.getInductionVar()),
        acc(loop.getRegionIterArgs()[plan.accumulatorIndex]) {
    collectStageInputs();
  }

  void rotate();

private:
  bool inSecondStage(Operation *op) const {
    Operation *owner = body->findAncestorOpInBlock(*op);
    return owner && plan.secondStage.contains(owner);
  }

  /// Sorts what stage 1 reads from the rest of the body into values to
  /// carry and scalars to recompute.
  void collectStageInputs() {
    for (Operation *op : plan.secondStage)
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands()) {
          if (v == iv || v == acc || loop.isDefinedOutsideOfLoop(v))
            continue;
          if (auto arg = dyn_cast<BlockArgument>(v);
              arg && arg.getOwner() != body)
            continue; // A block argument of a region inside stage 1.
          if (Operation *def = v.getDefiningOp(); def && inSecondStage(def))
            continue;
          if (isStepComputable(v, loop))
            recomputed.insert(v);
          else
            carried.insert(v);
        }
      });
  }

  /// Clones the scalar ops behind `v` at the builder's point, the
  /// induction variable as `mapping` maps it.
  Value recompute(OpBuilder &b, Value v, IRMapping &mapping) {
    if (Value done = mapping.lookupOrNull(v))
      return done;
    if (loop.isDefinedOutsideOfLoop(v))
      return v;
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      recompute(b, operand, mapping);
    b.clone(*def, mapping);
    return mapping.lookup(v);
  }

  /// Clones stage 1 at the builder's point for the iteration whose
  /// induction variable is `stepIv`, the accumulator and the carried
  /// values as given.
  IRMapping cloneSecondStage(OpBuilder &b, Value stepIv, Value accumulator,
                             ValueRange carriedValues) {
    IRMapping mapping;
    mapping.map(iv, stepIv);
    mapping.map(acc, accumulator);
    for (auto [from, to] : llvm::zip(carried, carriedValues))
      mapping.map(from, to);
    for (Value v : recomputed)
      recompute(b, v, mapping);
    for (Operation *op : plan.secondStage)
      b.clone(*op, mapping);
    return mapping;
  }

  scf::ForOp loop;
  MmaOverlapPlan plan;
  Block *body;
  Value iv;
  BlockArgument acc;
  llvm::SetVector<Value> carried, recomputed;
};
} // namespace

void LoopRotation::rotate() {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  unsigned accIndex = plan.accumulatorIndex;
  unsigned numResults = loop.getNumResults();

  Value anySteps =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  auto guard = scf::IfOp::create(b, loc, loop.getResultTypes(), anySteps,
                                 /*withElseRegion=*/true);
  b.setInsertionPointToStart(guard.elseBlock());
  scf::YieldOp::create(b, loc, loop.getInitArgs());
  b.setInsertionPointToStart(guard.thenBlock());

  // Prologue: stage 0 of the first iteration.
  IRMapping prologue;
  prologue.map(iv, lb);
  for (auto [arg, init] :
       llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
    prologue.map(arg, init);
  for (Operation &op : body->without_terminator())
    if (!plan.secondStage.contains(&op))
      b.clone(op, prologue);

  // The rotated loop: the original iter_args (the accumulator still at its
  // initial value), then the carried values of iteration 0.
  SmallVector<Value> inits;
  for (unsigned i = 0; i < numResults; ++i)
    inits.push_back(i == accIndex
                        ? loop.getInitArgs()[i]
                        : prologue.lookupOrDefault(yield.getOperand(i)));
  for (Value v : carried)
    inits.push_back(prologue.lookupOrDefault(v));
  Value second = arith::AddIOp::create(b, loc, lb, step);
  auto rotated = scf::ForOp::create(b, loc, second, ub, step, inits);
  rotated->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  rotated->setAttr(kMmaOverlapAttrName, b.getUnitAttr());
  {
    OpBuilder::InsertionGuard insertion(b);
    Block *newBody = rotated.getBody();
    b.setInsertionPointToStart(newBody);
    ValueRange args = rotated.getRegionIterArgs();
    IRMapping current;
    current.map(iv, rotated.getInductionVar());
    for (unsigned i = 0; i < numResults; ++i)
      if (i != accIndex)
        current.map(loop.getRegionIterArgs()[i], args[i]);
    Value previous =
        arith::SubIOp::create(b, loc, rotated.getInductionVar(), step);
    IRMapping late;
    for (Operation &op : body->without_terminator()) {
      if (plan.secondStage.contains(&op))
        continue;
      b.clone(op, current);
      if (&op == plan.first.getOperation()) {
        late = cloneSecondStage(b, previous, args[accIndex],
                                args.drop_front(numResults));
        // The rest of the step reads the accumulator after it.
        current.map(acc, late.lookup(plan.second.getResult()));
      }
    }
    SmallVector<Value> yielded;
    for (unsigned i = 0; i < numResults; ++i)
      yielded.push_back(i == accIndex
                            ? late.lookup(plan.second.getResult())
                            : current.lookupOrDefault(yield.getOperand(i)));
    for (Value v : carried)
      yielded.push_back(current.lookupOrDefault(v));
    scf::YieldOp::create(b, loc, yielded);
  }

  // Epilogue: stage 1 of the last iteration, lb + (ub - lb - 1) / step *
  // step (the guard ensures ub > lb).
  Value lastIndex = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb),
                            arith::ConstantIndexOp::create(b, loc, 1)),
      step);
  Value lastIv = arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, lastIndex, step));
  IRMapping epilogue =
      cloneSecondStage(b, lastIv, rotated.getResult(accIndex),
                       rotated.getResults().drop_front(numResults));
  SmallVector<Value> results(rotated.getResults().take_front(numResults));
  results[accIndex] = epilogue.lookup(plan.second.getResult());
  scf::YieldOp::create(b, loc, results);

  loop.replaceAllUsesWith(guard.getResults());
  loop.erase();
}

namespace {
struct TileOverlapMmaPass
    : kbench::impl::TileOverlapMmaBase<TileOverlapMmaPass> {
  void runOnOperation() override {
    // Only the one param: the host pipeline runs this pass too, and the
    // other knobs are the GPU lowering's to check.
    StringRef param = getKnobSpec(Knob::MmaOverlap).param;
    for (auto kernel : getOperation().getOps<tile::KernelOp>()) {
      std::optional<int64_t> overlap = kernel.getParamValue(param);
      if (!overlap || *overlap == 0)
        continue;
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        MmaOverlapPlan plan;
        if (!planMmaOverlap(loop, plan))
          LoopRotation(loop, plan).rotate();
      }
    }
  }
};
} // namespace
