//===- WarpSpecialize.cpp - A producer warpgroup for TMA copies -----------===//
//
// transform.tile.warp_specialize: the TMA K loop's copies are issued by one
// warp of the consumers today (TmaPipeline.cpp), in a branch between their
// wgmma groups. The op marks the kernel tile.warp_specialized; tile-to-gpu
// then launches a producer warpgroup beside the kernel's num_warps warps
// that issues every step's copies as soon as a stage is released, gives its
// registers to the consumers (setmaxnreg) and exits after the loop. The
// tile IR keeps its meaning: tile-verify and the host target ignore the
// mark. The rules are TmaRules.h's, shared with the lowering.
//
//===----------------------------------------------------------------------===//

#include "WarpSpecialize.h"

#include "kbench/Conversion/TileToGPU/TmaRules.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

/// The failure of the rules for `kernel`, located at its TMA K loop when it
/// has exactly one.
static std::optional<KnobFailure> checkRules(KernelOp kernel,
                                             StringRef prefix) {
  std::optional<std::string> why = gpu_lowering::whyNotWarpSpecialized(kernel);
  if (!why)
    return std::nullopt;
  scf::ForOp loop = gpu_lowering::getWarpSpecializedLoop(kernel);
  return KnobFailure{(prefix + *why).str(),
                     loop ? loop.getLoc() : kernel.getLoc(),
                     loop ? "the TMA K loop" : "this kernel"};
}

std::optional<KnobFailure>
kbench::transform::planWarpSpecialize(KernelOp kernel, int64_t value,
                                      WarpSpecializePlan &plan) {
  plan = WarpSpecializePlan{kernel, value == 1};
  if (std::optional<KnobFailure> failure =
          checkOnOff(kernel, "warp_specialize", value,
                     "give the TMA copies a producer warpgroup"))
    return failure;
  if (value == 0)
    return std::nullopt;
  return checkRules(kernel, "");
}

void kbench::transform::applyWarpSpecialize(WarpSpecializePlan &plan, int64_t) {
  if (plan.specialize)
    plan.kernel->setAttr(kWarpSpecializedAttrName,
                         UnitAttr::get(plan.kernel.getContext()));
  else
    plan.kernel->removeAttr(kWarpSpecializedAttrName);
}

std::optional<KnobFailure>
kbench::transform::checkWarpSpecialization(KernelOp kernel) {
  if (!kernel->hasAttr(kWarpSpecializedAttrName))
    return std::nullopt;
  return checkRules(kernel, "tile.warp_specialized: ");
}
