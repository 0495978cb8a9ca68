//===- TmaStore.cpp - A staged epilogue written with TMA ------------------===//
//
// transform.tile.tma_store: a staged epilogue (StageEpilogue.cpp) evaluates
// its chain in 16-byte runs that every thread stores to global memory. The
// op marks the staged stores tile.tma_store; tile-to-gpu then writes the
// evaluated runs to shared memory and one thread stores each phase with
// cp.async.bulk.tensor (StagedEpilogue.cpp). The tile IR keeps its
// meaning: tile-verify and the host target ignore the mark. The rules are
// EpilogueRules.h's, shared with the lowering.
//
//===----------------------------------------------------------------------===//

#include "TmaStore.h"

#include "kbench/Conversion/TileToGPU/EpilogueRules.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

std::optional<KnobFailure> kbench::transform::planTmaStore(KernelOp kernel,
                                                           int64_t value,
                                                           TmaStorePlan &plan) {
  plan = TmaStorePlan{kernel, {}};
  if (std::optional<KnobFailure> failure =
          checkOnOff(kernel, "tma_store", value,
                     "write the staged epilogue's output with TMA"))
    return failure;
  std::optional<KnobFailure> failure;
  kernel.walk([&](StoreOp store) {
    if (failure)
      return;
    if (value == 0) {
      if (store->hasAttr(gpu_lowering::kTmaStoreAttrName))
        plan.stores.push_back(store);
      return;
    }
    if (!store->hasAttr(gpu_lowering::kStagedEpilogueAttrName))
      return;
    if (std::optional<std::string> why = gpu_lowering::whyNotTmaStore(store))
      failure = KnobFailure{*why, store.getLoc(), "this tile.store"};
    else
      plan.stores.push_back(store);
  });
  if (failure || value == 0 || !plan.stores.empty())
    return failure;
  return KnobFailure{("@" + kernel.getSymName() +
                      " has no staged epilogue store (tile.staged_epilogue); "
                      "tma_store writes the output of one, so apply "
                      "transform.tile.stage_epilogue 1 first")
                         .str(),
                     kernel.getLoc(), "this kernel"};
}

void kbench::transform::applyTmaStore(TmaStorePlan &plan, int64_t value) {
  for (StoreOp store : plan.stores) {
    if (value == 1)
      store->setAttr(gpu_lowering::kTmaStoreAttrName,
                     UnitAttr::get(store->getContext()));
    else
      store->removeAttr(gpu_lowering::kTmaStoreAttrName);
  }
}

std::optional<KnobFailure> kbench::transform::checkTmaStores(KernelOp kernel) {
  std::optional<KnobFailure> failure;
  kernel.walk([&](StoreOp store) {
    if (failure || !store->hasAttr(gpu_lowering::kTmaStoreAttrName))
      return;
    if (std::optional<std::string> why = gpu_lowering::whyNotTmaStore(store))
      failure = KnobFailure{*why, store.getLoc(), "this tile.store"};
  });
  return failure;
}
