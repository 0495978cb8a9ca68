//===- Passes.h - kbench's tile-level passes ---------------------*- C++ -*-===//
//
// Declarations generated from Passes.td: tile-verify and tile-mutate.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TRANSFORMS_PASSES_H
#define KBENCH_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace kbench {

#define GEN_PASS_DECL
#include "kbench/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kbench/Transforms/Passes.h.inc"

} // namespace kbench

#endif // KBENCH_TRANSFORMS_PASSES_H
