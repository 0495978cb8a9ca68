//===- CacheHintRules.cpp - Which loads take an L2 eviction priority -----===//
//
// The plan read off the IR; see CacheHintRules.h for why.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/CacheHintRules.h"

#include "kbench/Conversion/TileToGPU/TmaRules.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// Whether `op` is or contains a tile.load of `memref`.
static bool loadsFrom(Operation *op, Value memref) {
  return op
      ->walk([&](tile::LoadOp load) {
        return getPartitionedKernelArg(load.getView()) == memref
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

llvm::DenseMap<Operation *, L2Priority>
kbench::gpu_lowering::planCacheHints(tile::KernelOp kernel) {
  llvm::DenseMap<Operation *, L2Priority> plan;
  kernel.walk([&](tile::LoadOp load) {
    Value memref = getPartitionedKernelArg(load.getView());
    if (!memref)
      return;
    // Each level from the load out to the kernel body: the ops after the
    // one holding the load run later (a later pass), the ops before it ran
    // earlier. An enclosing loop's own later iterations are not a later
    // pass: a row loop reads each tile of the row once.
    bool readLater = false, readBefore = false;
    for (Operation *at = load; at && at != kernel.getOperation();
         at = at->getParentOp()) {
      for (Operation *next = at->getNextNode(); next && !readLater;
           next = next->getNextNode())
        readLater = loadsFrom(next, memref);
      for (Operation *prev = at->getPrevNode(); prev && !readBefore;
           prev = prev->getPrevNode())
        readBefore = loadsFrom(prev, memref);
    }
    if (readLater)
      plan[load] = L2Priority::EvictLast;
    else if (readBefore)
      plan[load] = L2Priority::EvictFirst;
  });
  return plan;
}
