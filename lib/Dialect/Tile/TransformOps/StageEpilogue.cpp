//===- StageEpilogue.cpp - A matmul epilogue through smem -----------------===//
//
// transform.tile.stage_epilogue: a matmul's epilogue (bias, activation,
// cast) runs on the accumulator fragment, unrolled over every accumulator a
// thread holds, and stores short runs. The rewrite only marks the stores of
// such epilogues (EpilogueRules.h says which); the tile IR keeps its meaning
// (tile-verify and the host target ignore the mark) and tile-to-gpu
// (StagedEpilogue.cpp) stages the accumulator through shared memory and
// evaluates the chain in a rolled loop of 16-byte runs.
//
//===----------------------------------------------------------------------===//

#include "StageEpilogue.h"

#include "kbench/Conversion/TileToGPU/EpilogueRules.h"


using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

std::optional<KnobFailure>
kbench::transform::planStageEpilogue(KernelOp kernel, int64_t value,
                                     StageEpiloguePlan &plan) {
  plan = StageEpiloguePlan{kernel, {}};
  if (std::optional<KnobFailure> failure =
          checkOnOff(kernel, "stage_epilogue", value,
                     "stage the matmul epilogue through shared memory"))
    return failure;
  if (value == 0)
    return std::nullopt;
  std::string firstWhy;
  StoreOp firstRefused;
  kernel.walk([&](StoreOp store) {
    std::string why;
    if (gpu_lowering::getStagedEpilogue(store, why))
      plan.stores.push_back(store);
    else if (!firstRefused) {
      firstRefused = store;
      firstWhy = why;
    }
  });
  if (!plan.stores.empty())
    return std::nullopt;
  if (!firstRefused)
    return KnobFailure{("@" + kernel.getSymName() +
                        " has no tile.store; stage_epilogue has nothing to "
                        "stage")
                           .str(),
                       kernel.getLoc(), "this kernel"};
  return KnobFailure{("@" + kernel.getSymName() +
                      " stores no matmul epilogue to stage: " + firstWhy)
                         .str(),
                     firstRefused.getLoc(), "this tile.store"};
}

void kbench::transform::applyStageEpilogue(StageEpiloguePlan &plan, int64_t) {
  for (StoreOp store : plan.stores)
    store->setAttr(gpu_lowering::kStagedEpilogueAttrName,
                   UnitAttr::get(store->getContext()));
}
