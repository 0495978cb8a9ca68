//===- Knobs.h - The knobs and limits tile-to-gpu reads ---------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. The one place where the GPU lowering
// reads a kernel's knobs (num_warps, vector_width, group_m from `params`)
// and states the sm_90a limits it checks, so that the layout assignment and
// the lowering agree and a typed kernel config can replace this file alone.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_KNOBS_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_KNOBS_H

#include "kbench/Dialect/Tile/IR/Tile.h"

namespace kbench::gpu_lowering {

/// Shared memory a CTA may use on sm_90a (227 KB) and the most a kernel may
/// declare statically (48 KB); above that the lowering switches to dynamic
/// shared memory, which the launch must request.
inline constexpr int64_t kMaxSharedMemory = 232448;
inline constexpr int64_t kMaxStaticSharedMemory = 49152;
/// Elements one thread may own for one tile value. More than this cannot live
/// in registers and makes LLVM's compile time explode.
inline constexpr int64_t kMaxElementsPerThread = 1024;

/// The knobs of one kernel as the lowering uses them.
struct KernelKnobs {
  int64_t numWarps = 4;
  int64_t vectorWidth = 1;
  int64_t groupM = 1;
};

/// Reads and checks the knobs of `kernel`; on failure an error naming the
/// knob and its allowed values has been emitted on the kernel.
mlir::FailureOr<KernelKnobs> readKernelKnobs(tile::KernelOp kernel);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_KNOBS_H
