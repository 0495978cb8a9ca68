//===- ViewLowering.cpp - Partitions, the grid and the view scalars -------===//
//
// Patterns for the ops that only name a view or ask about it: a
// tile.partition lowers to the global memref of the kernel argument it cuts
// (the type converter maps `!tile.part` to that memref; its extents and
// facts are the kernel ABI in KernelContext::globalArgs), tile.grid to the
// block ids (in grouped order when group_m > 1), and tile.num_tiles,
// tile.extent and tile.tile_size to index arithmetic on the extents.
//
//===----------------------------------------------------------------------===//

#include "GlobalAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
struct PartitionLowering : KernelPattern<tile::PartitionOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::PartitionOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    // The source is a memref argument (the op's verifier), which the pass
    // replaced by its global memref.
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

struct GridLowering : KernelPattern<tile::GridOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::GridOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    static constexpr gpu::Dimension axes[] = {
        gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z};
    SmallVector<Value> ids;
    // The grid's extents along x and y: the launch's, or, for a persistent
    // kernel, the tile counts of the view (the launch is one-dimensional and
    // smaller), its tile index taking the place of the block ids in the
    // same order: x fastest.
    Value gx, gy;
    if (ctx.persistentTile) {
      FailureOr<View> view =
          lookupView(ctx, op, op.getView(), adaptor.getView());
      if (failed(view))
        return failure();
      SmallVector<Value> extents;
      for (int64_t dim : op.getGridDims())
        extents.push_back(arith::CeilDivUIOp::create(
            b, loc, view->dims[dim], ctx.constIndex(b, view->tileShape[dim])));
      Value rest = ctx.persistentTile;
      for (auto [i, extent] : llvm::enumerate(extents)) {
        bool last = i + 1 == extents.size();
        ids.push_back(last ? rest
                           : arith::RemUIOp::create(b, loc, rest, extent));
        if (!last)
          rest = arith::DivUIOp::create(b, loc, rest, extent);
      }
      if (extents.size() >= 2) {
        gx = extents[0];
        gy = extents[1];
      }
    } else {
      for (unsigned i = 0, e = op.getNumResults(); i < e; ++i)
        ids.push_back(gpu::BlockIdOp::create(b, loc, axes[i]));
      if (ids.size() >= 2) {
        gx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
        gy = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
      }
    }
    if (ctx.groupM > 1 && ids.size() >= 2) {
      // Grouped order (bijective): consecutive blocks walk groups of group_m
      // tiles along result 0 before moving along result 1, so neighbours
      // share operand tiles in L2.
      Value g = ctx.constIndex(b, ctx.groupM);
      Value pid = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, ids[1], gx), ids[0]);
      Value width = arith::MulIOp::create(b, loc, g, gy);
      Value group = arith::DivUIOp::create(b, loc, pid, width);
      Value first = arith::MulIOp::create(b, loc, group, g);
      Value size = arith::MinUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, gx, first), g);
      Value inGroup = arith::RemUIOp::create(b, loc, pid, width);
      ids[0] = arith::AddIOp::create(
          b, loc, first, arith::RemUIOp::create(b, loc, inGroup, size));
      ids[1] = arith::DivUIOp::create(b, loc, inGroup, size);
    }
    rewriter.replaceOp(op, ids);
    return success();
  }
};

struct NumTilesLowering : KernelPattern<tile::NumTilesOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::NumTilesOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<View> view = lookupView(ctx, op, op.getView(), adaptor.getView());
    if (failed(view))
      return failure();
    int64_t tileSize = view->tileShape[op.getDim()];
    Value dim = view->dims[op.getDim()];
    rewriter.replaceOp(
        op, arith::CeilDivUIOp::create(rewriter, op.getLoc(), dim,
                                       ctx.constIndex(rewriter, tileSize)));
    return success();
  }
};

struct ExtentLowering : KernelPattern<tile::ExtentOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::ExtentOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<View> view = lookupView(ctx, op, op.getView(), adaptor.getView());
    if (failed(view))
      return failure();
    // The dim param of the ABI, already an index value.
    rewriter.replaceOp(op, view->dims[op.getDim()]);
    return success();
  }
};

struct TileSizeLowering : KernelPattern<tile::TileSizeOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::TileSizeOp op, OpAdaptor,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, ctx.constIndex(rewriter, op.getSize()));
    return success();
  }
};
} // namespace

void kbench::gpu_lowering::populateViewPatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  patterns.add<PartitionLowering, GridLowering, NumTilesLowering,
               ExtentLowering, TileSizeLowering>(converter, ctx);
}
