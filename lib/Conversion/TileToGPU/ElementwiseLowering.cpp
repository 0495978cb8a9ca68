//===- ElementwiseLowering.cpp - Elementwise ops and constants on tiles ---===//
//
// Patterns for arith/math ops with the elementwise-mappable traits whose
// results are tiles (the same op over the per-thread vectors: the operands
// share the result's layout, tile-assign-layouts made it so) and for splat
// tile constants (a splat vector constant). Scalar arith/math/index ops are
// legal and stay as they are.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
/// Any elementwise-mappable op on tiles (arith, math).
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, KernelContext &ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          ctx.mlirContext),
        ctx(ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto isTile = llvm::IsaPred<RankedTensorType>;
    if (ctx.hadError || !OpTrait::hasElementwiseMappableTraits(op) ||
        isa<tile::TileDialect>(op->getDialect()) ||
        (!llvm::any_of(op->getResultTypes(), isTile) &&
         !llvm::any_of(op->getOperandTypes(), isTile)))
      return failure();
    if (failed(lower(op, operands, rewriter))) {
      ctx.hadError = true;
      return failure();
    }
    return success();
  }

  LogicalResult lower(Operation *op, ArrayRef<Value> operands,
                      ConversionPatternRewriter &rewriter) const {
    Value anchor = op->getNumResults() ? op->getResult(0) : Value();
    if (!anchor || !isa<RankedTensorType>(anchor.getType()))
      return op->emitOpError("has no tile result; tile-to-gpu lowers "
                             "elementwise ops whose results are tiles");
    Layout layout = layoutOf(anchor);
    if (failed(checkRegisterBudget(op, cast<RankedTensorType>(anchor.getType()),
                                   layout)))
      return failure();
    SmallVector<Type> types;
    for (Type type : op->getResultTypes())
      types.push_back(
          vectorType(layout, cast<RankedTensorType>(type).getElementType()));
    OperationState state(op->getLoc(), op->getName(), operands, types,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }

  KernelContext &ctx;
};

/// A splat tile constant.
struct ConstantLowering : KernelPattern<arith::ConstantOp> {
  using KernelPattern::KernelPattern;
  bool matches(arith::ConstantOp op) const override {
    return isa<RankedTensorType>(op.getType());
  }
  LogicalResult lower(arith::ConstantOp op, OpAdaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return op.emitOpError("non-splat tile constants are not supported by "
                            "tile-to-gpu; build the tile with tile.iota, "
                            "tile.splat and arith ops");
    Layout layout = layoutOf(op.getResult());
    if (failed(checkRegisterBudget(op, type, layout)))
      return failure();
    VectorType vt = vectorType(layout, type.getElementType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, vt, DenseElementsAttr::get(vt, dense.getSplatValue<Attribute>()));
    return success();
  }
};
} // namespace

void kbench::gpu_lowering::populateElementwisePatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  patterns.add<ElementwiseLowering, ConstantLowering>(converter, ctx);
}
