//===- RewriteProbes.cpp - Does a structural rewrite fit? ----------------===//
//
// Each probe plans the rewrite and throws the plan away. A single-pass plan
// builds IR beside the kernel's own ops, so it plans on a clone; a
// split-reduction, stage-transposes or mask-boundary-tiles plan edits nothing
// (the first needs the kernel's module, its launches), so they plan on the
// kernel itself.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/TransformOps/RewriteProbes.h"

#include "kbench/Conversion/TileToGPU/CacheHintRules.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"

#include "MaskBoundaryTiles.h"
#include "SinglePass.h"
#include "SplitReduction.h"
#include "StageEpilogue.h"
#include "StageTransposes.h"

using namespace mlir;
using namespace kbench;

bool kbench::singlePassFitsSomeSizes(Operation *kernelOp) {
  auto kernel = dyn_cast_or_null<tile::KernelOp>(kernelOp);
  if (!kernel)
    return false;
  auto copy = cast<tile::KernelOp>(kernel->clone());
  transform::SinglePassPlan plan;
  bool fits = !transform::planSinglePass(copy, plan, /*checkHeldTiles=*/false);
  copy->erase();
  return fits;
}

/// Whether `plan` accepts the tile.kernel `kernelOp` at `value`; for plans
/// that edit nothing.
template <typename Plan, typename PlanFn>
static bool plansOnKernel(Operation *kernelOp, int64_t value, PlanFn plan) {
  auto kernel = dyn_cast_or_null<tile::KernelOp>(kernelOp);
  if (!kernel)
    return false;
  Plan planned;
  return !plan(kernel, value, planned);
}

bool kbench::splitReductionFits(Operation *kernel) {
  return plansOnKernel<transform::SplitPlan>(kernel, /*chunkTiles=*/2,
                                             transform::planSplitReduction);
}

bool kbench::stageTransposesFits(Operation *kernel) {
  return plansOnKernel<transform::StageTransposesPlan>(
      kernel, /*value=*/1, transform::planStageTransposes);
}

bool kbench::stageEpilogueFits(Operation *kernel) {
  return plansOnKernel<transform::StageEpiloguePlan>(
      kernel, /*value=*/1, transform::planStageEpilogue);
}

bool kbench::maskBoundaryTilesFits(Operation *kernel) {
  return plansOnKernel<transform::MaskBoundaryTilesPlan>(
      kernel, /*value=*/1, transform::planMaskBoundaryTiles);
}

bool kbench::cacheHintsFits(Operation *kernelOp) {
  auto kernel = dyn_cast_or_null<tile::KernelOp>(kernelOp);
  return kernel && !gpu_lowering::planCacheHints(kernel).empty();
}

bool kbench::tensorCoreMmaFits(Operation *kernel, StringRef implName) {
  std::optional<tile::MmaImpl> impl = tile::symbolizeMmaImpl(implName);
  if (!isa_and_nonnull<tile::KernelOp>(kernel) || !impl)
    return false;
  bool fits = false;
  kernel->walk([&](tile::MmaOp mma) {
    fits |= !gpu_lowering::whyNotTensorCoreTypes(mma, *impl).has_value();
  });
  return fits;
}

bool kbench::tensorCoreKLoopFits(Operation *kernel) {
  if (!isa_and_nonnull<tile::KernelOp>(kernel))
    return false;
  bool fits = false;
  kernel->walk([&](scf::ForOp loop) {
    tile::MmaOp mma = gpu_lowering::getMmaLoopMma(loop);
    fits |= mma &&
            !gpu_lowering::whyNotTensorCoreTypes(mma, tile::MmaImpl::mma_sync)
                 .has_value();
  });
  return fits;
}

/// The K loops of the tile.kernel `kernel` (getMmaLoopMma's loop shape).
static SmallVector<scf::ForOp> getKLoops(tile::KernelOp kernel) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    if (gpu_lowering::getMmaLoopMma(loop))
      loops.push_back(loop);
  });
  return loops;
}

bool kbench::tmaCopiesFit(Operation *kernelOp) {
  auto kernel = dyn_cast_or_null<tile::KernelOp>(kernelOp);
  if (!kernel)
    return false;
  SmallVector<scf::ForOp> loops = getKLoops(kernel);
  return !loops.empty() &&
         llvm::all_of(loops, gpu_lowering::tmaCopiesFitSomeSizes);
}

bool kbench::warpSpecializeFits(Operation *kernelOp) {
  if (!tmaCopiesFit(kernelOp))
    return false;
  auto kernel = cast<tile::KernelOp>(kernelOp);
  SmallVector<scf::ForOp> loops = getKLoops(kernel);
  return loops.size() == 1 &&
         !gpu_lowering::whyNotProducerLoop(kernel, loops.front());
}
