//===- Patterns.h - The conversion patterns of tile-to-gpu ------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. tile-to-gpu is an upstream dialect
// conversion: one OpConversionPattern per op (or per op and variant, such as
// the impl of a tile.mma), the TileTypeConverter (TypeConverter.h) turning
// every tile value into the registers one thread holds, and a KernelContext
// (KernelContext.h) with the facts of the kernel being lowered. The pass
// (TileToGPU.cpp) builds the gpu.func with the ABI and the prologue, moves
// the kernel body into it and applies these patterns to it.
//
// Where the patterns live (each file has a populate function below):
//   ControlFlowLowering.cpp  scf.for, scf.if, scf.yield, tile.return
//   ViewLowering.cpp         tile.partition, tile.grid, tile.num_tiles,
//                            tile.extent, tile.tile_size
//   ElementwiseLowering.cpp  elementwise arith/math on tiles, tile constants
//   MemoryLowering.cpp       loads, stores, atomics, tile.convert_layout
//                            (L2-hinted loads in CacheHints.cpp)
//   ReduceLowering.cpp       tile.reduce, broadcast, transpose, expand_dims,
//                            iota, splat
//   MmaLowering.cpp          tile.mma (impl = simt) and its pipelined K loop
//   TensorCore.cpp           tile.mma (impl = mma_sync, wgmma): operand
//                            staging and the cp.async pipelined K loop, with
//                            the instruction steps in MmaSyncLowering.cpp
//                            (ldmatrix, mma.sync) and WgmmaLowering.cpp
//                            (descriptors, wgmma.mma_async)
//
// Include graph (acyclic; every arrow points to a header that includes none
// of the headers above it):
//   *Lowering.cpp, TileToGPU.cpp -> Patterns.h
//   Patterns.h -> KernelContext.h -> Knobs.h, Layout.h
//   MemoryLowering.cpp -> CacheHints.h
//   Patterns.h -> TypeConverter.h -> Layout.h
//   ViewLowering.cpp, MemoryLowering.cpp, MmaLowering.cpp -> GlobalAccess.h
//     -> Patterns.h
//   MemoryLowering.cpp, ReduceLowering.cpp, MmaLowering.cpp,
//   TensorCore.cpp -> SharedMemory.h -> Patterns.h
//   TensorCore.cpp, MmaSyncLowering.cpp, WgmmaLowering.cpp -> TensorCore.h
//     -> Patterns.h
//
// Adding an op is adding a pattern to the file of its concept and to its
// populate function; adding a layout is adding a type conversion and the
// patterns that produce and consume it. No dispatcher is edited.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_PATTERNS_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_PATTERNS_H

#include "KernelContext.h"
#include "TypeConverter.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kbench::gpu_lowering {

/// A lowered tile with its layout: the per-thread vector and how the tile is
/// spread over the threads (read off the unconverted type).
struct TileValue {
  mlir::Value vec;
  Layout layout;
};

/// Base of the tile-to-gpu patterns. `lower` either succeeds or reports an
/// error on the op and fails; the error stops the conversion (later patterns
/// decline, KernelContext::hadError) so that a kernel gets one message.
/// `matches` selects the variant of the op a pattern handles.
template <typename OpT>
class KernelPattern : public mlir::OpConversionPattern<OpT> {
public:
  using OpAdaptor = typename mlir::OpConversionPattern<OpT>::OpAdaptor;

  KernelPattern(const mlir::TypeConverter &converter, KernelContext &ctx,
                mlir::PatternBenefit benefit = 1)
      : mlir::OpConversionPattern<OpT>(converter, ctx.mlirContext, benefit),
        ctx(ctx) {}

  mlir::LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const final {
    if (ctx.hadError || !matches(op))
      return mlir::failure();
    if (mlir::failed(lower(op, adaptor, rewriter))) {
      ctx.hadError = true;
      return mlir::failure();
    }
    return mlir::success();
  }

protected:
  virtual bool matches(OpT) const { return true; }
  virtual mlir::LogicalResult
  lower(OpT op, OpAdaptor adaptor,
        mlir::ConversionPatternRewriter &rewriter) const = 0;

  KernelContext &ctx;
};

void populateControlFlowPatterns(const TileTypeConverter &converter,
                                 KernelContext &ctx,
                                 mlir::RewritePatternSet &patterns);
void populateViewPatterns(const TileTypeConverter &converter,
                          KernelContext &ctx,
                          mlir::RewritePatternSet &patterns);
void populateElementwisePatterns(const TileTypeConverter &converter,
                                 KernelContext &ctx,
                                 mlir::RewritePatternSet &patterns);
void populateMemoryPatterns(const TileTypeConverter &converter,
                            KernelContext &ctx,
                            mlir::RewritePatternSet &patterns);
void populateReducePatterns(const TileTypeConverter &converter,
                            KernelContext &ctx,
                            mlir::RewritePatternSet &patterns);
void populateScanPatterns(const TileTypeConverter &converter,
                          KernelContext &ctx,
                          mlir::RewritePatternSet &patterns);
void populateMmaPatterns(const TileTypeConverter &converter, KernelContext &ctx,
                         mlir::RewritePatternSet &patterns);
void populateTensorCorePatterns(const TileTypeConverter &converter,
                                KernelContext &ctx,
                                mlir::RewritePatternSet &patterns);
void populateOperandPrefetchPatterns(const TileTypeConverter &converter,
                                     KernelContext &ctx,
                                     mlir::RewritePatternSet &patterns);
/// The stores marked tile.staged_epilogue (StagedEpilogue.cpp).
void populateStagedEpiloguePatterns(const TileTypeConverter &converter,
                                    KernelContext &ctx,
                                    mlir::RewritePatternSet &patterns);

/// All of the above: the lowering of one kernel's body.
void populateTileToGPUPatterns(const TileTypeConverter &converter,
                               KernelContext &ctx,
                               mlir::RewritePatternSet &patterns);

/// The body of a pipelined K loop re-emitted for one step at a time: its
/// scalar ops (all but the tile.load, tile.squeeze and tile.mma ops) cloned
/// with the induction variable bound to the step being issued, so that the
/// operands of a later step can be loaded while an earlier one computes. Shared
/// by the simt pipeline (MmaLowering.cpp) and the cp.async pipeline
/// (TensorCore.cpp); defined in MmaLowering.cpp.
class LoopStepEmitter {
public:
  LoopStepEmitter(mlir::Block &body, mlir::Value inductionVar,
                  mlir::ConversionPatternRewriter &rewriter)
      : body(body), inductionVar(inductionVar), rewriter(rewriter) {}

  /// Clones the body's scalar ops at the insertion point for step `iv`.
  void emitStep(mlir::Value iv);
  /// `v` as of the last emitted step: the clone of a body value, else the
  /// converted value of one from outside the loop.
  mlir::Value lookup(mlir::Value v) const;

private:
  mlir::Block &body;
  mlir::Value inductionVar;
  mlir::ConversionPatternRewriter &rewriter;
  mlir::IRMapping mapping;
};

/// The message for an op no pattern lowers.
mlir::InFlightDiagnostic emitUnsupported(mlir::Operation *op);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_PATTERNS_H
