//===- MmaOverlapRules.cpp - Loops whose two mmas overlap -----------------===//
//
// The stage split of MmaOverlapRules.h, free of IR building so that
// transform.tile.mma_overlap, the rotation and the lowering read one
// definition.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/MmaOverlapRules.h"

#include "kbench/Conversion/TileToGPU/PrefetchRules.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// The op of `body` that holds `op` (itself or an ancestor), or null.
static Operation *inBody(Block *body, Operation *op) {
  return body->findAncestorOpInBlock(*op);
}

std::optional<std::string>
kbench::gpu_lowering::planMmaOverlap(scf::ForOp loop, MmaOverlapPlan &plan) {
  Block *body = loop.getBody();
  SmallVector<tile::MmaOp> mmas;
  bool nested = false;
  loop.walk([&](tile::MmaOp mma) {
    nested |= mma->getBlock() != body;
    mmas.push_back(mma);
  });
  if (nested || mmas.size() != 2)
    return llvm::formatv("mma_overlap rotates a loop whose body holds exactly "
                         "two tile.mma, both directly in it; this scf.for "
                         "holds {0}{1}",
                         mmas.size(), nested ? ", not all directly" : "")
        .str();
  for (tile::MmaOp mma : mmas)
    if (mma.getImplKind() != tile::MmaImpl::wgmma)
      return "mma_overlap overlaps the wgmma groups of the loop with the "
             "work between them, so both tile.mma need impl = wgmma; set "
             "transform.tile.mma_impl wgmma before it";
  // Rotated steps reorder the body's memory accesses: only reads may move.
  WalkResult writes = loop.getBody()->walk([&](Operation *op) {
    if (isPure(op) || isa<tile::LoadOp, tile::MmaOp>(op) ||
        op->hasTrait<OpTrait::IsTerminator>() || isa<scf::IfOp, scf::ForOp>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (writes.wasInterrupted())
    return "mma_overlap moves work of one step past the next step's, so the "
           "loop body may only read memory (tile.load) and compute; this "
           "scf.for has an op with other effects";

  plan.first = mmas[0];
  plan.second = mmas[1];
  Value result = plan.second.getResult();
  if (!result.hasOneUse() ||
      result.getUses().begin()->getOwner() != body->getTerminator())
    return "mma_overlap runs the second tile.mma one step late, so its "
           "result must feed only the scf.yield (the loop-carried "
           "accumulator)";
  plan.accumulatorIndex = result.getUses().begin()->getOperandNumber();
  BlockArgument acc = loop.getRegionIterArgs()[plan.accumulatorIndex];

  // Stage 1: the second mma and the load (and squeezes) of its B tile, when
  // they feed it alone.
  plan.secondStage.clear();
  plan.secondStage.insert(plan.second);
  Value b = plan.second.getB();
  while (Operation *def = b.getDefiningOp()) {
    if (def->getBlock() != body || !isa<tile::LoadOp, tile::SqueezeOp>(def) ||
        !b.hasOneUse() || !llvm::all_of(def->getUsers(), [&](Operation *user) {
          return plan.secondStage.contains(user);
        }))
      break;
    plan.secondStage.insert(def);
    auto squeeze = dyn_cast<tile::SqueezeOp>(def);
    if (!squeeze)
      break;
    b = squeeze.getInput();
  }
  // Stage 0 reads the accumulator after the second mma of the step before,
  // which the rotated loop issues right after the first mma.
  for (Operation *user : acc.getUsers()) {
    Operation *reader = inBody(body, user);
    if (reader && reader != plan.second.getOperation() &&
        reader != body->getTerminator() && !plan.first->isBeforeInBlock(reader))
      return llvm::formatv(
                 "mma_overlap issues the second tile.mma of the step before "
                 "right after the first one, so the loop-carried "
                 "accumulator may only be read after the first tile.mma; "
                 "'{0}' reads it before",
                 reader->getName())
          .str();
  }
  // Body order, so that the rotation and its tests see a stable order.
  SmallVector<Operation *> ordered;
  for (Operation &op : body->without_terminator())
    if (plan.secondStage.contains(&op))
      ordered.push_back(&op);
  plan.secondStage.clear();
  plan.secondStage.insert(ordered.begin(), ordered.end());
  return std::nullopt;
}

std::optional<MmaOverlapRefusal>
kbench::gpu_lowering::whyNotMmaOverlap(tile::KernelOp kernel) {
  std::optional<MmaOverlapRefusal> firstRefusal;
  bool found = false;
  kernel.walk([&](scf::ForOp loop) {
    if (found)
      return;
    bool hasMma = false;
    loop.getBody()->walk([&](tile::MmaOp) { hasMma = true; });
    if (!hasMma)
      return;
    MmaOverlapPlan plan;
    std::optional<std::string> why = planMmaOverlap(loop, plan);
    if (!why)
      found = true;
    else if (!firstRefusal)
      firstRefusal = MmaOverlapRefusal{*why, loop};
  });
  if (found)
    return std::nullopt;
  if (firstRefusal)
    return firstRefusal;
  return MmaOverlapRefusal{"mma_overlap rotates loops of two tile.mma, and "
                           "this kernel has no scf.for with a tile.mma",
                           kernel};
}

/// The first op of `body` (in order) that holds a use of `value`, the
/// terminator excluded, or null.
static Operation *getFirstReader(Block *body, Value value) {
  Operation *first = nullptr;
  for (Operation *user : value.getUsers()) {
    Operation *op = inBody(body, user);
    if (op && op != body->getTerminator() &&
        (!first || op->isBeforeInBlock(first)))
      first = op;
  }
  return first;
}

SmallVector<WgmmaWait> kbench::gpu_lowering::getOverlapWaits(scf::ForOp loop,
                                                             int64_t stages) {
  if (!loop->hasAttr(kMmaOverlapAttrName) || stages < 2 ||
      getPrefetchedOperands(loop).empty())
    return {};
  Block *body = loop.getBody();
  SmallVector<tile::MmaOp> mmas = getBodyWgmmas(loop);
  if (mmas.size() != 2)
    return {};
  tile::MmaOp first = mmas[0], second = mmas[1];
  Operation *firstReader = getFirstReader(body, first.getResult());
  Operation *secondReader = getFirstReader(body, second.getResult());
  if (!firstReader || !secondReader)
    return {};
  auto groupsBefore = [&](Operation *op) {
    return llvm::count_if(
        mmas, [&](tile::MmaOp mma) { return mma->isBeforeInBlock(op); });
  };
  // Groups issued between each mma and its result's first reader stay
  // pending.
  return {{firstReader, groupsBefore(firstReader) - 1},
          {secondReader, groupsBefore(secondReader) - 2}};
}
