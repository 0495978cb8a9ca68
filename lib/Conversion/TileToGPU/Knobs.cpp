//===- Knobs.cpp - The knobs tile-to-gpu reads ------------------------===//
//
// Reads num_warps, vector_width, group_m, min_ctas_per_sm,
// scalar_unaligned_rows, cache_hints, fast_math, mma_overlap,
// overlap_copies, stage_barriers and ping_pong through the kernel config and
// refuses values the knob table and whyNotPingPong do not allow (Knobs.h).
//
//===----------------------------------------------------------------------===//

#include "Knobs.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Support/KernelConfig.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

FailureOr<KernelKnobs>
kbench::gpu_lowering::readKernelKnobs(tile::KernelOp kernel) {
  KernelConfig config = tile::getKernelConfig(kernel);
  if (std::optional<std::string> invalid = config.verify())
    return kernel.emitOpError("cannot be lowered by tile-to-gpu: ") << *invalid;
  KernelKnobs knobs;
  knobs.numWarps = config.numWarps;
  knobs.vectorWidth = config.vectorWidth;
  knobs.groupM = config.groupM;
  knobs.minCtasPerSm = config.minCtasPerSm;
  knobs.scalarUnalignedRows = config.scalarUnalignedRows != 0;
  knobs.cacheHints = config.cacheHints != 0;
  knobs.fastMath = config.fastMath != 0;
  knobs.mmaOverlap = config.mmaOverlap != 0;
  knobs.overlapCopies = config.overlapCopies != 0;
  knobs.stageBarriers = config.stageBarriers != 0;
  knobs.pingPong = config.pingPong != 0;
  return knobs;
}
