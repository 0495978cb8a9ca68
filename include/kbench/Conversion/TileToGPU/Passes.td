//===- Passes.td - tile-to-gpu pass ---------------------------*- tablegen -*-===//
//
// The SIMT lowering of tile kernels to the gpu, vector, scf and memref
// dialects (docs/gpu-lowering.md).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_PASSES_TD
#define KBENCH_CONVERSION_TILETOGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileOverlapMma : Pass<"tile-overlap-mma", "::mlir::ModuleOp"> {
  let summary = "Rotate loops of two tile.mma so the work between them "
                "overlaps the tensor cores";
  let description = [{
    In every `tile.kernel` whose `mma_overlap` param is 1
    (transform.tile.mma_overlap), each `scf.for` whose body holds two
    wgmma `tile.mma` (attention: the scores, then the output) is rotated:
    the second mma and the load of its B tile run one iteration late, right
    after the next iteration's first mma and before the rest of that
    iteration (the online softmax, the rescale), which reads the
    accumulator as the late mma left it; a prologue and an epilogue inside
    `scf.if (lb < ub)` run the first and the last half step. The operands
    the late mma reads from its own iteration (P, the rescaled output)
    become extra iter_args. The rotated loop is marked `tile.mma_overlap`,
    and tile-to-gpu then waits for each wgmma group just before the first
    use of its result (docs/gpu-lowering.md, "Attention overlap"). Loops
    that do not have that shape are left alone; the transform op refuses
    the knob when a kernel has none. Run after tile-verify, before
    tile-assign-layouts.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Give every tile value a layout encoding for the GPU lowering";
  let description = [{
    Every tile value of every `tile.kernel` gets the `#tile.blocked`
    encoding of the thread layout it will have on the GPU in its tensor type,
    and a `tile.convert_layout` is inserted where a value's layout differs
    from what a use needs (docs/gpu-lowering.md, "Layouts"). Kernels that
    already carry encodings are left alone. `tile-to-gpu` runs the same
    assignment on kernels that reach it without encodings. Reads `num_warps`
    and `vector_width` from the kernel's params.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TilePlanPipelining : Pass<"tile-plan-pipelining", "::mlir::ModuleOp"> {
  let summary = "Record the software-pipelining decision on each K loop";
  let description = [{
    Sets `tile.pipeline_stages = 2` on every `scf.for` of a `tile.kernel`
    that has no such attribute yet and whose body only loads the two
    operands of one simt `tile.mma` accumulating into the loop's single
    iter_arg (run after `tile-assign-layouts`: a layout conversion in the
    body prevents it). `tile-to-gpu` double-buffers exactly the loops marked
    2, lowers loops marked 1 (or unmarked) plainly, and rejects other
    values; a schedule vetoes pipelining by setting 1. `tile-to-gpu` runs
    the same marking on unmarked loops.
  }];
}

def TileToGPU : Pass<"tile-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower tile.kernel ops to SIMT gpu.func kernels";
  let description = [{
    Every `tile.kernel` becomes a `gpu.func` kernel in `gpu.module
    @kbench_kernels`, with the launch ABI of docs/bundle.md: the arguments of
    `kbench::tile::getKernelABI` in order, a memref as a 64-bit global pointer
    (`!llvm.ptr<1>`), a dim as `i64` and a scalar as its value. The block has
    `32 * num_warps` threads (`known_block_size`); grid axis `i` is result `i`
    of `tile.grid`, remapped into grouped order when the kernel has a
    `group_m` param.

    Tiles become per-thread `vector` values under a blocked layout
    (`vector_width` contiguous elements per thread along the innermost dim).
    Loads and stores use `vector.load`/`vector.store` when the block's tile is
    in bounds and masked accesses otherwise; `alignment` is attached only when
    the tile start is provably aligned. `tile.reduce` reduces per thread, then
    across lanes with `gpu.subgroup_reduce`, then across warps through shared
    memory. `tile.mma` (impl = simt) stages its operands in shared memory and
    accumulates a register micro-tile per thread; a K loop marked
    `tile.pipeline_stages = 2` (tile-plan-pipelining) is software-pipelined
    over two shared-memory buffers. `tile.mma` (impl = mma_sync) stages its
    operands in XOR-swizzled shared memory and runs `ldmatrix` +
    `nvvm.mma.sync` m16n8k16 per warp, the accumulator in the mma.sync C
    fragment layout (docs/gpu-lowering.md). Layouts come from the tensor encodings
    (tile-assign-layouts, run here on kernels without them).

    Host-level functions that launch kernels (`tile.launch`) are erased: the
    bundle writer reads the launch sequence from the tile IR, and the result
    holds device code only.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // KBENCH_CONVERSION_TILETOGPU_PASSES_TD
