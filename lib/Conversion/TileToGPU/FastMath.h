//===- FastMath.h - The fast_math knob on a lowered kernel ------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. With the fast_math knob
// (transform.tile.fast_math), the lowered gpu.func's floating-point arith ops
// may contract (an fmul whose product only feeds an fadd becomes one fma in
// the NVPTX backend) and its f32 math.exp2 ops become ex2.approx.ftz.f32,
// the bare MUFU.EX2, instead of the denormal-preserving ex2.approx.f32 that
// ptxas expands to four instructions. Applied once the body is converted, so
// every op the patterns emitted is covered, whichever pattern built it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_FASTMATH_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_FASTMATH_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace kbench::gpu_lowering {

/// Marks the floating-point arith ops of `func` `contract` and rewrites its
/// f32 (scalar or vector) math.exp2 ops into llvm.nvvm.ex2.approx.ftz calls,
/// one per element.
void applyFastMath(mlir::gpu::GPUFuncOp func);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_FASTMATH_H
