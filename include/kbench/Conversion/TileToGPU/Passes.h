//===- Passes.h - tile-to-gpu pass --------------------------------*- C++ -*-===//
//
// Declaration and registration of the SIMT lowering from the tile dialect to
// gpu/vector/scf/memref (ODS: Passes.td next to this header).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_PASSES_H
#define KBENCH_CONVERSION_TILETOGPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace kbench {

#define GEN_PASS_DECL
#include "kbench/Conversion/TileToGPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kbench/Conversion/TileToGPU/Passes.h.inc"

/// Name of the gpu.module that holds every lowered kernel.
inline constexpr llvm::StringLiteral kKernelModuleName = "kbench_kernels";

/// Attribute on each lowered gpu.func: bytes of dynamic shared memory its
/// launch must request (absent or 0 when it only uses static shared memory).
inline constexpr llvm::StringLiteral kDynamicSharedMemoryAttrName =
    "kbench.dynamic_shared_memory";

/// Attributes on a lowered gpu.func with TMA K loops (TmaRules.h): the
/// argument numbers of its tensor-map params (each a generic pointer to a
/// by-value CUtensorMap that kbench-nvvm-grid-constant-params marks byval
/// and grid-constant), and per param a dictionary {param = memref param
/// name, box = [rows, cols], swizzle = bytes} for the bundle manifest.
inline constexpr llvm::StringLiteral kTmaDescriptorArgsAttrName =
    "kbench.tma_descriptor_args";
inline constexpr llvm::StringLiteral kTmaDescriptorsAttrName =
    "kbench.tma_descriptors";

} // namespace kbench

#endif // KBENCH_CONVERSION_TILETOGPU_PASSES_H
