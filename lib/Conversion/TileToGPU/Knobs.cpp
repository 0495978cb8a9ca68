//===- Knobs.cpp - The knobs tile-to-gpu reads
//-----------------------------===//
//
// Reads num_warps, vector_width and group_m from a kernel's params and
// rejects values the SIMT lowering cannot build (Knobs.h).
//
//===----------------------------------------------------------------------===//

#include "Knobs.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

FailureOr<KernelKnobs>
kbench::gpu_lowering::readKernelKnobs(tile::KernelOp kernel) {
  KernelKnobs knobs;
  knobs.numWarps = kernel.getParamValue("num_warps").value_or(4);
  if (knobs.numWarps < 1 || knobs.numWarps > 32 ||
      !llvm::isPowerOf2_64(knobs.numWarps))
    return kernel.emitOpError("num_warps = ")
           << knobs.numWarps << " is not supported by tile-to-gpu: it must be "
           << "a power of two from 1 to 32 (at most 1024 threads per CTA)";
  knobs.vectorWidth = kernel.getParamValue("vector_width").value_or(1);
  if (knobs.vectorWidth < 1 || knobs.vectorWidth > 16 ||
      !llvm::isPowerOf2_64(knobs.vectorWidth))
    return kernel.emitOpError("vector_width = ")
           << knobs.vectorWidth << " is not supported by tile-to-gpu: it must "
           << "be a power of two from 1 to 16";
  // Params are positive integers (the kernel verifier checks it).
  knobs.groupM = kernel.getParamValue("group_m").value_or(1);
  return knobs;
}
