//===- ControlFlowLowering.cpp - scf.for, scf.if and the kernel's end -----===//
//
// Patterns for the structured control flow that carries tiles: an scf.for
// or scf.if with tile results becomes the same op over the per-thread
// vectors (its regions are moved over and their block arguments converted by
// the driver), its scf.yield yields the converted values, and tile.return
// becomes gpu.return. Views (`!tile.part`) are not carried through control
// flow: each names a kernel argument, which a block argument could not.
//
// An scf.for with a `tile.pipeline_stages` decision other than 1 is the
// pipelined K loop of MmaLowering.cpp or TensorCore.cpp, or the operand
// prefetch of OperandPrefetch.cpp, when it has that shape; otherwise it is
// refused here.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/PrefetchRules.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// The error for control flow that carries a view, or success.
static LogicalResult checkNoViews(Operation *op) {
  if (llvm::any_of(op->getResultTypes(), llvm::IsaPred<tile::PartitionType>))
    return op->emitOpError("carries a tile view (!tile.part) through control "
                           "flow; tile-to-gpu needs every view to be a "
                           "tile.partition of the kernel body");
  return success();
}

namespace {
/// Whether the converter knows every result type of `op` (else no pattern
/// applies and the pass reports the op as unsupported).
static bool resultsConvert(const TypeConverter &converter, Operation *op) {
  SmallVector<Type> types;
  return succeeded(converter.convertTypes(op->getResultTypes(), types));
}

/// A plain (not pipelined) loop.
struct ForLowering : KernelPattern<scf::ForOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::ForOp op) const override {
    return getPipelineStages(op) == 1 &&
           resultsConvert(*getTypeConverter(), op);
  }
  LogicalResult lower(scf::ForOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (failed(checkNoViews(op)))
      return failure();
    auto newFor = scf::ForOp::create(
        rewriter, op.getLoc(), adaptor.getLowerBound(), adaptor.getUpperBound(),
        adaptor.getStep(), adaptor.getInitArgs());
    rewriter.eraseBlock(newFor.getBody());
    rewriter.inlineRegionBefore(op.getRegion(), newFor.getRegion(),
                                newFor.getRegion().end());
    // Cannot fail: the block arguments have the result types (matches()).
    if (failed(rewriter.convertRegionTypes(&newFor.getRegion(),
                                           *getTypeConverter())))
      return failure();
    rewriter.replaceOp(op, newFor.getResults());
    return success();
  }
};

/// A loop with a pipelining decision the lowering cannot honour (the
/// pipelined pattern, of higher benefit, took the ones it can).
struct UnsupportedPipelineLowering : KernelPattern<scf::ForOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::ForOp op) const override {
    return getPipelineStages(op) != 1;
  }
  LogicalResult lower(scf::ForOp op, OpAdaptor,
                      ConversionPatternRewriter &) const override {
    if (failed(checkNoViews(op)))
      return failure();
    // A tensor-core K loop has its impl's depth rule (MmaSyncRules.h,
    // WgmmaRules.h); another loop with tensor-core mma ops the operand
    // prefetch's (PrefetchRules.h).
    tile::MmaOp tensorCoreMma;
    op.getBody()->walk([&](tile::MmaOp mma) {
      if (isTensorCoreImpl(mma.getImplKind()))
        tensorCoreMma = mma;
    });
    if (tensorCoreMma) {
      tile::MmaOp kLoopMma = getMmaLoopMma(op);
      std::optional<std::string> why =
          kLoopMma
              ? whyNotTensorCore(kLoopMma, kLoopMma.getImplKind(), ctx.numWarps,
                                 getPipelineStages(op))
              : whyNotOperandPrefetch(op, ctx.numWarps, getPipelineStages(op));
      if (why)
        return op.emitOpError() << *why;
    }
    return op.emitOpError(kPipelineStagesAttrName)
           << " = " << getPipelineStages(op) << " is not supported: "
           << "tile-to-gpu pipelines with 2 stages a K loop whose body only "
           << "loads the two operands of one simt tile.mma accumulating into "
           << "the loop's single iter_arg";
  }
};

struct IfLowering : KernelPattern<scf::IfOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::IfOp op) const override {
    return resultsConvert(*getTypeConverter(), op);
  }
  LogicalResult lower(scf::IfOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (failed(checkNoViews(op)))
      return failure();
    SmallVector<Type> types;
    (void)getTypeConverter()->convertTypes(op.getResultTypes(), types);
    bool hasElse = !op.getElseRegion().empty();
    auto newIf = scf::IfOp::create(rewriter, op.getLoc(), types,
                                   adaptor.getCondition(), hasElse);
    for (auto [from, to] :
         {std::pair(&op.getThenRegion(), &newIf.getThenRegion()),
          std::pair(&op.getElseRegion(), &newIf.getElseRegion())}) {
      if (from->empty())
        continue;
      rewriter.eraseBlock(&to->front());
      rewriter.inlineRegionBefore(*from, *to, to->end());
    }
    rewriter.replaceOp(op, newIf.getResults());
    return success();
  }
};

struct YieldLowering : KernelPattern<scf::YieldOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(scf::YieldOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getOperands());
    return success();
  }
};

struct ReturnLowering : KernelPattern<tile::ReturnOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::ReturnOp op, OpAdaptor,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::ReturnOp>(op);
    return success();
  }
};
} // namespace

void kbench::gpu_lowering::populateControlFlowPatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  patterns.add<ForLowering, UnsupportedPipelineLowering, IfLowering,
               YieldLowering, ReturnLowering>(converter, ctx);
}
