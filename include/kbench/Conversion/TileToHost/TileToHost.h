//===- TileToHost.h - Tile kernels to host code --------------------*- C++ -*-===//
//
// The host target's lowering: the `tile-to-host` pass and the pipeline that
// takes a scheduled tile module down to the LLVM dialect. The host shared
// object (kbench/Target/Host/HostSharedObject.h) is built from its output.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOHOST_TILETOHOST_H
#define KBENCH_CONVERSION_TILETOHOST_TILETOHOST_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kbench {

#define GEN_PASS_DECL_TILETOHOST
#define GEN_PASS_DECL_TILEHOSTFRESHOUTPUTS
#define GEN_PASS_DECL_TILEHOSTFUSEELEMENTWISE
#include "kbench/Conversion/TileToHost/Passes.h.inc"

/// Adds `tile-to-host` and every pass after it down to the LLVM dialect:
/// elementwise ops to linalg, one-shot bufferization with deallocation,
/// linalg to loops, and the conversions to LLVM. The result holds one
/// `llvm.func` per kernel with the C signature of docs/bundle.md.
void buildTileToHostLLVMPipeline(mlir::OpPassManager &pm);

/// Registers the `tile-to-host` pass and the `tile-to-host-llvm` pipeline
/// with the global registry (for kbench-opt).
void registerTileToHostPasses();

} // namespace kbench

#endif // KBENCH_CONVERSION_TILETOHOST_TILETOHOST_H
