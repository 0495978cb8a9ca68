//===- PersistentRules.cpp - Which kernels may run persistent CTAs --------===//

#include "kbench/Conversion/TileToGPU/PersistentRules.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;

std::optional<std::string>
kbench::gpu_lowering::whyNotPersistent(tile::KernelOp kernel) {
  std::string name = ("@" + kernel.getSymName()).str();
  if (kernel->hasAttr(tile::kWarpSpecializedAttrName))
    return name + " is warp-specialized: its producer warpgroup exits after "
                  "the K loop of the first tile, so a persistent CTA would "
                  "have none for the next; drop transform.tile."
                  "warp_specialize or transform.tile.persistent";
  tile::GridOp grid;
  kernel.walk([&](tile::GridOp op) { grid = op; });
  if (grid && grid->getBlock() != &kernel.getBody().front())
    return llvm::formatv("{0} declares its tile.grid inside a `{1}`; a "
                         "persistent CTA loops over everything from the "
                         "tile.grid to the end of the kernel, so the grid "
                         "must be at the top level of the kernel body",
                         name, grid->getParentOp()->getName())
        .str();
  return std::nullopt;
}
