//===- TileOpLowering.cpp - Tile ops to memref, tensor and linalg ---------===//
//
// One pattern per tile op, applied inside a kernel's host function. Memory ops
// work on memrefs, so that reads and writes of global memory happen exactly
// where the tile program has them: a load copies the in-bounds window of its
// tile into a fresh buffer filled with the pad value and hands that buffer to
// the tensor world (`to_tensor restrict writable`: the buffer is private); a
// store or atomic_add writes the in-bounds window of the tile's buffer. The
// compute ops become linalg ops on tensors, which one-shot bufferization turns
// into loops over buffers later in the pipeline.
//
// The in-bounds window along a dim of extent E, tile size T and tile
// coordinate c is [clamp(c*T, 0, E), clamp(c*T + T, 0, E)); it starts at
// clamp(c*T, 0, E) - c*T inside the tile. Coordinates outside the index space
// give an empty window: such a load reads only pad, such a store writes
// nothing.
//
//===----------------------------------------------------------------------===//

#include "PassDetail.h"

#include "kbench/Dialect/Tile/IR/ReduceKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <functional>

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;

//===----------------------------------------------------------------------===//
// Memory: load, store, atomic_add, num_tiles, extent
//===----------------------------------------------------------------------===//

namespace {
/// The in-bounds part of one tile: where it lies in the memref and in the
/// tile, and its extent.
struct TileWindow {
  SmallVector<OpFoldResult> memOffsets, tileOffsets, sizes, strides;
};
} // namespace

static TileWindow computeWindow(OpBuilder &b, Location loc, Value memref,
                                ArrayRef<int64_t> tileShape,
                                ValueRange coords) {
  TileWindow window;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [dim, tileSize] : llvm::enumerate(tileShape)) {
    Value size = arith::ConstantIndexOp::create(b, loc, tileSize);
    Value extent = memref::DimOp::create(b, loc, memref, dim);
    auto clamp = [&](Value v) -> Value {
      Value low = arith::MaxSIOp::create(b, loc, v, zero);
      return arith::MinSIOp::create(b, loc, low, extent);
    };
    Value begin = arith::MulIOp::create(b, loc, coords[dim], size);
    Value end = arith::AddIOp::create(b, loc, begin, size);
    Value lo = clamp(begin);
    Value hi = clamp(end);
    Value inTile = arith::SubIOp::create(b, loc, lo, begin);
    // Keeps the (empty) window of a tile past the end inside the tile.
    inTile = arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, inTile, zero), size);
    window.memOffsets.push_back(lo);
    window.tileOffsets.push_back(inTile);
    window.sizes.push_back(arith::SubIOp::create(b, loc, hi, lo).getResult());
    window.strides.push_back(b.getIndexAttr(1));
  }
  return window;
}

/// The value out-of-bounds elements of a load read. `none` promises that
/// there are none; zero keeps the result defined if the promise is broken.
static TypedAttr getPadValue(PadKind pad, Type elementType) {
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType || pad == PadKind::none || pad == PadKind::zero)
    return cast<TypedAttr>(OpBuilder(elementType.getContext())
                               .getZeroAttr(elementType));
  const llvm::fltSemantics &sem = floatType.getFloatSemantics();
  APFloat value = pad == PadKind::nan ? APFloat::getQNaN(sem)
                                      : APFloat::getInf(sem, pad == PadKind::neg_inf);
  return FloatAttr::get(floatType, value);
}

/// The memref a view partitions. The pass checked that every view is a
/// tile.partition result.
static PartitionOp getPartition(Value view) {
  return view.getDefiningOp<PartitionOp>();
}

/// The buffer of tile `tile` as a memref with a fully dynamic layout, so that
/// bufferization may hand over any buffer it chose.
static Value getReadOnlyBuffer(OpBuilder &b, Location loc, Value tile) {
  auto type = cast<RankedTensorType>(tile.getType());
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                       strides);
  auto bufferType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  return bufferization::ToBufferOp::create(b, loc, bufferType, tile,
                                           /*read_only=*/true);
}

namespace {
struct LoadOpLowering : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    PartitionOp partition = getPartition(op.getView());
    if (!partition)
      return rewriter.notifyMatchFailure(op, "view is not a tile.partition");
    Location loc = op.getLoc();
    PartitionType view = partition.getResult().getType();
    RankedTensorType tileType = op.getResult().getType();
    TileWindow window = computeWindow(rewriter, loc, partition.getSource(),
                                      view.getShape(), op.getIndices());
    auto bufferType =
        MemRefType::get(tileType.getShape(), tileType.getElementType());
    Value buffer = memref::AllocOp::create(rewriter, loc, bufferType);
    Value pad = arith::ConstantOp::create(
        rewriter, loc, getPadValue(view.getPad(), tileType.getElementType()));
    linalg::FillOp::create(rewriter, loc, ValueRange{pad}, ValueRange{buffer});
    Value source = memref::SubViewOp::create(
        rewriter, loc, partition.getSource(), window.memOffsets, window.sizes,
        window.strides);
    Value target = memref::SubViewOp::create(rewriter, loc, buffer,
                                             window.tileOffsets, window.sizes,
                                             window.strides);
    linalg::CopyOp::create(rewriter, loc, ValueRange{source},
                           ValueRange{target});
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
        op, tileType, buffer, /*restrict=*/true, /*writable=*/true);
    return success();
  }
};

/// tile.store and tile.atomic_add: write the in-bounds window of the tile.
template <typename OpTy>
struct StoreLikeOpLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    PartitionOp partition = getPartition(op.getView());
    if (!partition)
      return rewriter.notifyMatchFailure(op, "view is not a tile.partition");
    Location loc = op.getLoc();
    PartitionType view = partition.getResult().getType();
    TileWindow window = computeWindow(rewriter, loc, partition.getSource(),
                                      view.getShape(), op.getIndices());
    Value tile = getReadOnlyBuffer(rewriter, loc, op.getValue());
    Value source = memref::SubViewOp::create(
        rewriter, loc, tile, window.tileOffsets, window.sizes, window.strides);
    Value target = memref::SubViewOp::create(
        rewriter, loc, partition.getSource(), window.memOffsets, window.sizes,
        window.strides);
    if constexpr (std::is_same_v<OpTy, StoreOp>) {
      linalg::CopyOp::create(rewriter, loc, ValueRange{source},
                             ValueRange{target});
    } else {
      // Blocks run one after another on the host, so a read-modify-write is
      // atomic with respect to every other block.
      int64_t rank = view.getRank();
      AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
      SmallVector<utils::IteratorType> iterators(rank,
                                                 utils::IteratorType::parallel);
      linalg::GenericOp::create(
          rewriter, loc, ValueRange{source}, ValueRange{target},
          ArrayRef<AffineMap>{identity, identity}, iterators,
          [](OpBuilder &b, Location loc, ValueRange args) {
            Value sum =
                isa<FloatType>(args[0].getType())
                    ? arith::AddFOp::create(b, loc, args[1], args[0]).getResult()
                    : arith::AddIOp::create(b, loc, args[1], args[0])
                          .getResult();
            linalg::YieldOp::create(b, loc, sum);
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct NumTilesOpLowering : OpRewritePattern<NumTilesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NumTilesOp op,
                                PatternRewriter &rewriter) const override {
    PartitionOp partition = getPartition(op.getView());
    if (!partition)
      return rewriter.notifyMatchFailure(op, "view is not a tile.partition");
    Location loc = op.getLoc();
    int64_t dim = op.getDim();
    Value extent =
        memref::DimOp::create(rewriter, loc, partition.getSource(), dim);
    Value size = arith::ConstantIndexOp::create(
        rewriter, loc, partition.getResult().getType().getShape()[dim]);
    rewriter.replaceOpWithNewOp<arith::CeilDivSIOp>(op, extent, size);
    return success();
  }
};
struct ExtentOpLowering : OpRewritePattern<ExtentOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExtentOp op,
                                PatternRewriter &rewriter) const override {
    PartitionOp partition = getPartition(op.getView());
    if (!partition)
      return rewriter.notifyMatchFailure(op, "view is not a tile.partition");
    rewriter.replaceOpWithNewOp<memref::DimOp>(op, partition.getSource(),
                                               op.getDim());
    return success();
  }
};
struct TileSizeOpLowering : OpRewritePattern<TileSizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TileSizeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, op.getSize());
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Compute: broadcast, reduce, mma, transpose, expand_dims, iota, splat
//===----------------------------------------------------------------------===//

static Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

/// Converts an mma operand element to the accumulator type.
static Value extendTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (isa<FloatType>(type))
    return arith::ExtFOp::create(b, loc, type, value);
  return arith::ExtSIOp::create(b, loc, type, value);
}

namespace {
struct BroadcastOpLowering : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    Value init = createEmpty(rewriter, op.getLoc(), op.getResult().getType());
    SmallVector<int64_t> dims(op.getDims());
    llvm::sort(dims);
    auto broadcast = linalg::BroadcastOp::create(rewriter, op.getLoc(),
                                                 op.getInput(), init, dims);
    rewriter.replaceOp(op, broadcast.getResult());
    return success();
  }
};

struct ReduceOpLowering : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    ReduceKind kind = op.getKind();
    Value identity = arith::ConstantOp::create(
        rewriter, loc, getReduceIdentity(kind, resultType.getElementType()));
    Value init =
        linalg::FillOp::create(rewriter, loc, ValueRange{identity},
                               ValueRange{createEmpty(rewriter, loc, resultType)})
            .getResult(0);
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{op.getInput()}, ValueRange{init},
        ArrayRef<int64_t>{static_cast<int64_t>(op.getDim())},
        [kind](OpBuilder &b, Location loc, ValueRange args) {
          // args = (element, accumulator): acc = acc <op> element, in order.
          linalg::YieldOp::create(
              b, loc, combineReduceKind(b, loc, kind, args[1], args[0]));
        });
    rewriter.replaceOp(op, reduce.getResult(0));
    return success();
  }
};

/// An inclusive scan as a loop nest over a copy of the input, the scanned
/// dim innermost and from 1: element j becomes combine(element j - 1,
/// element j), in order, so a float sum adds left to right as a sequential
/// reference would. Scalar tensor.extract / tensor.insert on the carried
/// tensor bufferize in place (slices of it would be copied).
struct ScanOpLowering : OpRewritePattern<ScanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScanOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getResult().getType();
    int64_t dim = op.getDim();
    int64_t rank = type.getRank();
    ReduceKind kind = op.getKind();
    // An explicit linalg.copy becomes loops, where a copy that bufferization
    // inserted (the input may have other readers) would be a call into a
    // runtime library.
    Value copy = linalg::CopyOp::create(rewriter, loc, op.getInput(),
                                        createEmpty(rewriter, loc, type))
                     .getResult(0);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<int64_t> order;
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim)
        order.push_back(d);
    order.push_back(dim);
    SmallVector<Value> index(rank);
    // Builds the loop over order[level] and everything inside it; returns
    // the tensor the loop yields.
    std::function<Value(OpBuilder &, unsigned, Value)> nest =
        [&](OpBuilder &b, unsigned level, Value acc) -> Value {
      int64_t d = order[level];
      Value begin = d == dim ? one : zero;
      Value end = arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
      auto loop = scf::ForOp::create(
          b, loc, begin, end, one, ValueRange{acc},
          [&](OpBuilder &b, Location loc, Value iv, ValueRange carried) {
            index[d] = iv;
            Value next;
            if (level + 1 < order.size()) {
              next = nest(b, level + 1, carried.front());
            } else {
              SmallVector<Value> before(index);
              before[dim] = arith::SubIOp::create(b, loc, iv, one);
              Value prev =
                  tensor::ExtractOp::create(b, loc, carried.front(), before);
              Value cur =
                  tensor::ExtractOp::create(b, loc, carried.front(), index);
              next = tensor::InsertOp::create(
                  b, loc, combineReduceKind(b, loc, kind, prev, cur),
                  carried.front(), index);
            }
            scf::YieldOp::create(b, loc, next);
          });
      return loop.getResult(0);
    };
    rewriter.replaceOp(op, nest(rewriter, 0, copy));
    return success();
  }
};

/// acc + a * b as one linalg.generic over (m, n, k): operands are extended to
/// the accumulator type before the multiply, so the sum is carried in it.
struct MmaOpLowering : OpRewritePattern<MmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MmaOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto map = [&](AffineExpr row, AffineExpr col) {
      return AffineMap::get(3, 0, {row, col}, ctx);
    };
    SmallVector<AffineMap> maps = {
        op.getTransposeA() ? map(k, m) : map(m, k),
        op.getTransposeB() ? map(n, k) : map(k, n), map(m, n)};
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};
    Type accType = op.getResult().getType().getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{op.getResult().getType()},
        ValueRange{op.getA(), op.getB()}, ValueRange{op.getAcc()}, maps,
        iterators, [accType](OpBuilder &b, Location loc, ValueRange args) {
          Value a = extendTo(b, loc, args[0], accType);
          Value bv = extendTo(b, loc, args[1], accType);
          Value sum;
          if (isa<FloatType>(accType))
            sum = arith::AddFOp::create(
                b, loc, args[2], arith::MulFOp::create(b, loc, a, bv));
          else
            sum = arith::AddIOp::create(
                b, loc, args[2], arith::MulIOp::create(b, loc, a, bv));
          linalg::YieldOp::create(b, loc, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct TransposeOpLowering : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Value init = createEmpty(rewriter, op.getLoc(), op.getResult().getType());
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), op.getInput(), init, op.getPerm());
    rewriter.replaceOp(op, transpose.getResult());
    return success();
  }
};

/// The reassociation between a tile of rank `rank` and the same tile with a
/// unit dim at `unitDim`: the unit dim joins the group of the dim it precedes
/// (or the last one when it is last); rank 0 has no groups.
static SmallVector<ReassociationIndices> unitDimGroups(int64_t rank,
                                                       int64_t unitDim) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    groups.push_back({d < unitDim ? d : d + 1});
  if (rank > 0) {
    if (unitDim < rank)
      groups[unitDim].insert(groups[unitDim].begin(), unitDim);
    else
      groups.back().push_back(unitDim);
  }
  return groups;
}

struct ExpandDimsOpLowering : OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, op.getResult().getType(), op.getInput(),
        unitDimGroups(op.getInput().getType().getRank(), op.getDim()));
    return success();
  }
};

struct SqueezeOpLowering : OpRewritePattern<SqueezeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SqueezeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, op.getResult().getType(), op.getInput(),
        unitDimGroups(op.getResult().getType().getRank(), op.getDim()));
    return success();
  }
};

struct IotaOpLowering : OpRewritePattern<IotaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IotaOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResult().getType();
    int64_t dim = op.getDim();
    AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    Type elementType = type.getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{type}, ValueRange{},
        ValueRange{createEmpty(rewriter, op.getLoc(), type)},
        ArrayRef<AffineMap>{identity}, iterators,
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value index = linalg::IndexOp::create(b, loc, dim);
          if (!elementType.isIndex())
            index = arith::IndexCastOp::create(b, loc, elementType, index);
          linalg::YieldOp::create(b, loc, index);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// tile.gather: a linalg.generic over the index tile whose body reads one
/// element of the memref, or the pad where the element's position is out of
/// bounds along any dim (the gathered position comes from the index tile).
struct GatherOpLowering : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    PartitionOp partition = getPartition(op.getView());
    if (!partition)
      return rewriter.notifyMatchFailure(op, "view is not a tile.partition");
    Location loc = op.getLoc();
    Value memref = partition.getSource();
    PartitionType view = partition.getResult().getType();
    RankedTensorType type = op.getResult().getType();
    int64_t rank = type.getRank();
    int64_t gathered = op.getDim();
    SmallVector<Value> coords(op.getIndices());
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value pad = arith::ConstantOp::create(
        rewriter, loc, getPadValue(view.getPad(), type.getElementType()));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{op.getOffsets()},
        ValueRange{createEmpty(rewriter, loc, type)},
        ArrayRef<AffineMap>{identity, identity}, iterators,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value zero = arith::ConstantIndexOp::create(b, loc, 0);
          Value inBounds = arith::ConstantIntOp::create(b, loc, 1, 1);
          SmallVector<Value> position(rank);
          for (int64_t d = 0; d < rank; ++d) {
            Value size =
                arith::ConstantIndexOp::create(b, loc, view.getShape()[d]);
            Value first = arith::MulIOp::create(b, loc, coords[d], size);
            Value within = d == gathered
                               ? arith::IndexCastOp::create(
                                     b, loc, b.getIndexType(), args[0])
                                     .getResult()
                               : linalg::IndexOp::create(b, loc, d).getResult();
            position[d] = arith::AddIOp::create(b, loc, first, within);
            Value extent = memref::DimOp::create(b, loc, memref, d);
            Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              position[d], zero);
            Value high = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, position[d], extent);
            inBounds = arith::AndIOp::create(
                b, loc, inBounds, arith::AndIOp::create(b, loc, low, high));
          }
          auto read = scf::IfOp::create(
              b, loc, inBounds,
              [&](OpBuilder &b, Location loc) {
                Value element =
                    memref::LoadOp::create(b, loc, memref, position);
                scf::YieldOp::create(b, loc, element);
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, pad);
              });
          linalg::YieldOp::create(b, loc, read.getResult(0));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct SplatOpLowering : OpRewritePattern<SplatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SplatOp op,
                                PatternRewriter &rewriter) const override {
    Value init = createEmpty(rewriter, op.getLoc(), op.getResult().getType());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, ValueRange{op.getValue()},
                                                ValueRange{init});
    return success();
  }
};
} // namespace

void tile_to_host::populateTileOpLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LoadOpLowering, StoreLikeOpLowering<StoreOp>,
               StoreLikeOpLowering<AtomicAddOp>, NumTilesOpLowering,
               ExtentOpLowering, TileSizeOpLowering, BroadcastOpLowering,
               ReduceOpLowering, ScanOpLowering, MmaOpLowering,
               TransposeOpLowering, ExpandDimsOpLowering, SqueezeOpLowering,
               IotaOpLowering, SplatOpLowering, GatherOpLowering>(
      patterns.getContext());
}
