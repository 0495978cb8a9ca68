//===- PrepareForNVVM.cpp - Fill the gaps of convert-gpu-to-nvvm ----------===//
//
// Four small passes around the upstream NVVM conversion (MLIR 22.1):
// kbench-gpu-prepare-nvvm runs before it and lowers the ops it leaves alone
// (f32 subgroup reductions, vector masks, strided slices);
// kbench-nvvm-extern-dynamic-shared runs after it and fixes the linkage of
// the dynamic shared memory global; kbench-nvvm-grid-constant-params makes
// the tensor-map params of TMA kernels byval grid constants; kbench-nvvm-check-translatable then
// refuses, at the op, what is still not LLVM or NVVM. All are measured gaps,
// pinned by tests in test/Target/GPU.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/GPU/Passes.h"

#include "kbench/Conversion/TileToGPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kbench {
#define GEN_PASS_DEF_GPUPREPAREFORNVVM
#define GEN_PASS_DEF_NVVMEXTERNDYNAMICSHAREDMEMORY
#define GEN_PASS_DEF_NVVMCHECKTRANSLATABLE
#define GEN_PASS_DEF_NVVMGRIDCONSTANTPARAMS
#include "kbench/Target/GPU/Passes.h.inc"
} // namespace kbench

using namespace mlir;

namespace {
struct GPUPrepareForNVVMPass
    : kbench::impl::GPUPrepareForNVVMBase<GPUPrepareForNVVMPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Vectors and sub-32-bit values are split into 32-bit reductions first,
    // then every reduction becomes a butterfly of shuffles.
    populateGpuBreakDownSubgroupReducePatterns(patterns,
                                               /*maxShuffleBitwidth=*/32);
    populateGpuLowerSubgroupReduceToShufflePatterns(
        patterns, /*subgroupSize=*/32, /*shuffleBitwidth=*/32);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, /*subgroupSize=*/32, /*shuffleBitwidth=*/32);
    vector::populateVectorMaskMaterializationPatterns(
        patterns, /*force32BitVectorIndices=*/false);
    vector::populateVectorMaskOpLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

struct NVVMExternDynamicSharedMemoryPass
    : kbench::impl::NVVMExternDynamicSharedMemoryBase<
          NVVMExternDynamicSharedMemoryPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      if (global.getAddrSpace() == 3 &&
          global.getSymName().starts_with("__dynamic_shmem__"))
        global.setLinkage(LLVM::Linkage::External);
    });
  }
};
struct NVVMGridConstantParamsPass
    : kbench::impl::NVVMGridConstantParamsBase<NVVMGridConstantParamsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    // The size and alignment of a CUtensorMap.
    Type tensorMap = LLVM::LLVMArrayType::get(b.getI8Type(), 128);
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto args = func->getAttrOfType<DenseI64ArrayAttr>(
          kbench::kTmaDescriptorArgsAttrName);
      if (!args)
        return;
      for (int64_t arg : args.asArrayRef()) {
        func.setArgAttr(arg, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(tensorMap));
        func.setArgAttr(arg, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(64));
        func.setArgAttr(arg, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
    });
  }
};

struct NVVMCheckTranslatablePass
    : kbench::impl::NVVMCheckTranslatableBase<NVVMCheckTranslatablePass> {
  void runOnOperation() override {
    bool refused = false;
    getOperation().getBody()->walk([&](Operation *op) {
      if (isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(op->getDialect()))
        return;
      refused = true;
      emitError(op->getLoc())
          << "'" << op->getName() << "' does not lower to NVVM for "
          << "sm_90a: MLIR's NVVM conversion leaves it as is and LLVM IR "
          << "translation has no rule for it (docs/tile-ir.md, \"Which arith "
          << "and math ops lower\"); compute it from ops that lower, or "
          << "compile for the host target";
    });
    if (refused)
      signalPassFailure();
  }
};
} // namespace
