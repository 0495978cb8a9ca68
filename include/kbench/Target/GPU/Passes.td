//===- Passes.td - Device-only NVVM backend passes ------------*- tablegen -*-===//
//
// The passes around upstream convert-gpu-to-nvvm that turn the output of
// tile-to-gpu into PTX (docs/gpu-lowering.md, "Backend").
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TARGET_GPU_PASSES_TD
#define KBENCH_TARGET_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GPUPrepareForNVVM
    : Pass<"kbench-gpu-prepare-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower what convert-gpu-to-nvvm leaves alone";
  let description = [{
    The stock NVVM conversion of MLIR 22 does not expand f32
    `gpu.subgroup_reduce` and leaves `vector.create_mask` unconverted. This
    pass expands subgroup reductions (clustered or not, scalar or vector) into
    butterfly `gpu.shuffle xor` trees
    (`populateGpuLowerSubgroupReduceToShufflePatterns`, 32 lanes, 32-bit
    shuffles), materializes 1-D masks as comparisons, and lowers strided
    slice insertions and extractions to `vector.shuffle`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def NVVMExternDynamicSharedMemory
    : Pass<"kbench-nvvm-extern-dynamic-shared", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give the dynamic shared memory global external linkage";
  let description = [{
    convert-gpu-to-nvvm lowers `gpu.dynamic_shared_memory` to an *internal*
    zero-sized `addr_space = 3` global; the NVPTX backend then demotes it to a
    1-byte static `.shared` variable, so the kernel would address shared
    memory it never declared. With external linkage the backend emits
    `.extern .shared .align 16 .b8 __dynamic_shmem__0[]`, the declaration
    that `cuLaunchKernel`'s dynamic shared memory size applies to.
  }];
}

def NVVMGridConstantParams
    : Pass<"kbench-nvvm-grid-constant-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the tensor-map params of TMA kernels byval grid constants";
  let description = [{
    tile-to-gpu gives a kernel with TMA K loops one trailing `!llvm.ptr`
    param per tensor map and lists them in `kbench.tma_descriptor_args`.
    convert-gpu-to-nvvm keeps neither `llvm.byval` nor `nvvm.grid_constant`
    on gpu.func arguments (the NVVM verifier accepts the latter only on
    kernel llvm.funcs), so this pass sets them on the lowered llvm.func:
    `llvm.byval = !llvm.array<128 x i8>`, `llvm.align = 64` and
    `nvvm.grid_constant`. The NVPTX backend then declares the param as
    `.param .align 64 .b8 p[128]` and takes its generic address with
    cvta.param, which cp.async.bulk.tensor accepts for a CUtensorMap passed
    by value (`__grid_constant__`).
  }];
}

def NVVMCheckTranslatable
    : Pass<"kbench-nvvm-check-translatable", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Refuse, at the op, what LLVM IR translation cannot take";
  let description = [{
    Runs after convert-gpu-to-nvvm, before gpu-module-to-binary translates
    the module to LLVM IR. Every op left must belong to the `llvm` or `nvvm`
    dialect: an op the NVVM conversion has no pattern for (`math.trunc`,
    `math.ctlz`, `math.ipowi`, ... in MLIR 22.1) would otherwise fail inside
    the translation with a dump of the whole module. The error is at the op's
    location in the kernel and names it.
  }];
}

def GPUToPtx : Pass<"kbench-gpu-to-ptx", "::mlir::ModuleOp"> {
  let summary = "Device-only NVVM backend: gpu.module to PTX (and cubin)";
  let description = [{
    Runs the device-only pipeline of kbench::buildGPUToPtxPipeline on every
    `gpu.module`: nvvm-attach-target, kbench-gpu-prepare-nvvm,
    convert-gpu-to-nvvm, kbench-nvvm-extern-dynamic-shared,
    reconcile-unrealized-casts, kbench-nvvm-check-translatable and
    gpu-module-to-binary{format=isa}, with
    32-bit shared-memory pointers (the LLVM option `--nvptx-short-ptr`).
    With `ptx-file` the PTX is written there (`-` for stdout). With
    `cubin-file` it is also assembled by `ptxas -arch=<chip> -v` and a remark
    per kernel reports registers, spills and shared memory.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target SM">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX ISA features">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "LLVM optimization level">,
    Option<"shortPointers", "short-ptr", "bool", /*default=*/"true",
           "32-bit pointers for shared/local/const memory (--nvptx-short-ptr)">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root for libdevice (default: $CUDA_HOME, $CUDA_PATH, "
           "/usr/local/cuda)">,
    Option<"ptxFile", "ptx-file", "std::string", /*default=*/"\"\"",
           "Write the PTX of every gpu.module here ('-' for stdout)">,
    Option<"cubinFile", "cubin-file", "std::string", /*default=*/"\"\"",
           "Assemble the PTX with ptxas into this cubin and report resources">,
  ];
}

#endif // KBENCH_TARGET_GPU_PASSES_TD
