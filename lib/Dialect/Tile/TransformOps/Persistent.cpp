//===- Persistent.cpp - Persistent CTAs -----------------------------------===//
//
// transform.tile.persistent: one CTA per tile launches as many CTAs as the
// grid has tiles, each paying its start (index arithmetic, the pipeline's
// prologue) and leaving the SM idle while the next starts. The op marks the
// kernel tile.persistent; tile-to-gpu then wraps the kernel body from its
// tile.grid on in a loop over tiles, and the compile driver launches no
// more CTAs than the SMs hold at once. The tile IR keeps its meaning:
// tile-verify and the host target ignore the mark. The rules are
// PersistentRules.h's, shared with the lowering.
//
//===----------------------------------------------------------------------===//

#include "Persistent.h"

#include "kbench/Conversion/TileToGPU/PersistentRules.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

std::optional<KnobFailure>
kbench::transform::planPersistent(KernelOp kernel, int64_t value,
                                  PersistentPlan &plan) {
  plan = PersistentPlan{kernel, value == 1};
  if (std::optional<KnobFailure> failure = checkOnOff(
          kernel, "persistent", value, "walk the tiles on persistent CTAs"))
    return failure;
  if (value == 0)
    return std::nullopt;
  if (std::optional<std::string> why = gpu_lowering::whyNotPersistent(kernel))
    return KnobFailure{*why, kernel.getLoc(), "this kernel"};
  return std::nullopt;
}

void kbench::transform::applyPersistent(PersistentPlan &plan, int64_t) {
  if (plan.persistent)
    plan.kernel->setAttr(kPersistentAttrName,
                         UnitAttr::get(plan.kernel.getContext()));
  else
    plan.kernel->removeAttr(kPersistentAttrName);
}

std::optional<KnobFailure> kbench::transform::checkPersistent(KernelOp kernel) {
  if (!kernel->hasAttr(kPersistentAttrName))
    return std::nullopt;
  if (std::optional<std::string> why = gpu_lowering::whyNotPersistent(kernel))
    return KnobFailure{"tile.persistent: " + *why, kernel.getLoc(),
                       "this kernel"};
  return std::nullopt;
}
