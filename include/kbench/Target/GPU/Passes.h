//===- Passes.h - Device-only NVVM backend passes -----------------*- C++ -*-===//
//
// Declarations and registration of the backend passes (ODS: Passes.td next to
// this header). The C++ entry points are in GPUBackend.h.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TARGET_GPU_PASSES_H
#define KBENCH_TARGET_GPU_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace kbench {

#define GEN_PASS_DECL
#include "kbench/Target/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kbench/Target/GPU/Passes.h.inc"

} // namespace kbench

#endif // KBENCH_TARGET_GPU_PASSES_H
