//===- RewriteProbes.cpp - Would a structural rewrite fit a kernel? -------===//
//
// Each probe plans the rewrite on a clone of the kernel (a plan builds IR
// beside the kernel's own ops) and throws the clone away.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/TransformOps/RewriteProbes.h"

#include "SinglePass.h"

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
