//===- Passes.td - The tile-to-host conversion -------------*- tablegen -*-===//
//
// The host target's lowering of tile kernels: the reference semantics of a
// tile program, run by CI without a GPU (docs/host-target.md).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOHOST_PASSES_TD
#define KBENCH_CONVERSION_TILETOHOST_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileToHost : Pass<"tile-to-host", "::mlir::ModuleOp"> {
  let summary = "Lower every tile.kernel to a host function with the kernel ABI";
  let description = [{
    Every `tile.kernel @k` becomes

    ```mlir
    func.func @k(%params: !llvm.ptr, %grid_x: i64, %grid_y: i64, %grid_z: i64)
    ```

    which, once lowered to LLVM, is the C entry point
    `void k(void **params, int64_t grid_x, int64_t grid_y, int64_t grid_z)` of
    docs/bundle.md: `params[i]` points at argument `i` in
    `kbench::tile::getKernelABI` order. The body reads the arguments, builds a
    dense row-major memref for every memref argument from its data pointer and
    its named dims, and runs the kernel body once per block in an `scf.for`
    nest (z outermost, x innermost); `tile.grid` result `i` is the block
    coordinate along grid axis `i`.

    Tile ops become tensor and linalg ops on the same static tiles:
    `tile.load` copies the in-bounds part of the tile into a buffer filled with
    the view's pad value (zero for `pad(none)`), `tile.store` and
    `tile.atomic_add` write only the in-bounds part, `tile.reduce`,
    `tile.broadcast`, `tile.transpose`, `tile.iota`, `tile.splat` and
    `tile.mma` (accumulating in the accumulator's type) become linalg ops and
    `tile.expand_dims` a `tensor.expand_shape`. `arith`, `math` and `scf` ops
    stay as they are (the pipeline turns elementwise ops on tensors into
    linalg). Host-level `func.func`s, which hold the `tile.launch` sequence the
    runner reads from the manifest, are erased.

    A kernel that uses an op the host target cannot lower fails the pass with
    an error naming that op.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TileHostFreshOutputs
    : Pass<"tile-host-fresh-outputs", "::mlir::func::FuncOp"> {
  let summary = "Give elementwise linalg ops an empty tensor as their output";
  let description = [{
    convert-elementwise-to-linalg uses an input of the op as the output of the
    `linalg.generic` it builds. A chain of N elementwise ops then makes one
    chain of in-place candidates that all alias, and one-shot bufferization's
    conflict analysis takes time cubic in N (400 ops: 49 s). Where the payload
    does not read the output, this pass replaces it by a `tensor.empty` of the
    same shape: every op writes a fresh buffer (freed by the deallocation
    pipeline where it dies) and the analysis is linear.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def TileHostFuseElementwise
    : Pass<"tile-host-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "One linalg.generic per run of elementwise tensor ops";
  let description = [{
    Every run of consecutive elementwise tensor ops (arith, math: ops with the
    ElementwiseMappable traits) on one static shape becomes one
    `linalg.generic` whose payload holds the scalar forms of the ops in the
    same order; results used after the run are its outputs, each written to a
    fresh `tensor.empty`. The values computed are bit for bit those of the
    unfused ops.

    Without it every elementwise op becomes a loop nest of its own, and
    scf-to-cf, one-shot bufferization and the deallocation simplification
    are quadratic in the number of loop nests of a block (a 4,000-op chain:
    19 s and 2.4 GB). The pass itself is one walk, linear in the number of
    ops.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // KBENCH_CONVERSION_TILETOHOST_PASSES_TD
