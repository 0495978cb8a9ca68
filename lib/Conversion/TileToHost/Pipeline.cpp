//===- Pipeline.cpp - Tile kernels down to the LLVM dialect ---------------===//
//
// The host target's pipeline, stage by stage, and the registration of the
// pass and the pipeline for kbench-opt. kbench::buildHostSharedObject runs the
// same pipeline before translating to LLVM IR.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToHost/TileToHost.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kbench::buildTileToHostLLVMPipeline(OpPassManager &pm) {
  // Tile ops to memref/tensor/linalg, one host function per kernel.
  pm.addPass(createTileToHost());
  // Bottom-up: on a long chain of index arithmetic (i+1-1+1...) the default
  // top-down order takes time quadratic in its length (5,000 ops: 1.5 s),
  // bottom-up linear (0.05 s).
  pm.addPass(createCanonicalizerPass(
      GreedyRewriteConfig().setUseTopDownTraversal(false)));
  pm.addPass(createCSEPass());
  // Runs of elementwise ops become one generic each (linear in kernel size);
  // what is left (an op whose shape differs from its neighbours') gets a
  // generic of its own.
  pm.addNestedPass<func::FuncOp>(createTileHostFuseElementwise());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createTileHostFreshOutputs());

  // Tensors to buffers; every buffer is freed where it dies. A loop may
  // yield a fresh tile (a reduction result, a tile chosen by scf.if) as its
  // carried value.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Loops, then LLVM. Integer powers (math.ipowi, math.fpowi) have no LLVM
  // intrinsic: they become calls of generated functions, which the rest of
  // the pipeline lowers with the kernels.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Math on f16/bf16 and bf16 arithmetic run in f32; the conversions back to
  // bf16 become integer code (round to nearest even), since gcc 12's libgcc
  // has no __truncsfbf2 for LLVM's own bf16 legalization to call.
  pm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void kbench::registerTileToHostPasses() {
  registerPass([] { return createTileToHost(); });
  registerPass([] { return createTileHostFreshOutputs(); });
  registerPass([] { return createTileHostFuseElementwise(); });
  PassPipelineRegistration<>(
      "tile-to-host-llvm",
      "Lower tile kernels to LLVM-dialect functions with the host kernel ABI",
      buildTileToHostLLVMPipeline);
}
