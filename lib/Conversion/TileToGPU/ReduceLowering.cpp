//===- ReduceLowering.cpp - Reductions, broadcasts and shape ops ----------===//
//
// tile.reduce in three levels: the elements a thread owns (a tree of
// elementwise combines over vector.shuffle'd slices), the lanes that share
// the reduced dim (one scalar `gpu.subgroup_reduce` per element, clustered
// when only some lanes do; the backend expands them to butterfly shuffles), and
// the warps that share it (partials through shared memory, combined in warp
// order so that every thread gets bit-identical results). The result is in the
// input layout minus the reduced dim, which is what a broadcast back along that
// dim needs.
//
// Broadcast, transpose, expand_dims, iota and splat are per-thread
// rearrangements (vector.shuffle / vector.broadcast / constants); only a
// layout mismatch costs a trip through shared memory (SharedMemory.h). One
// pattern per op.
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"
#include "Shuffle.h"

#include "kbench/Dialect/Tile/IR/ReduceKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

static int64_t flatten(ArrayRef<int64_t> pos, ArrayRef<int64_t> strides) {
  int64_t flat = 0;
  for (auto [p, s] : llvm::zip(pos, strides))
    flat += p * s;
  return flat;
}

/// `vec` rearranged by `mask`, or `vec` itself for the identity.
static Value shuffle(OpBuilder &b, Location loc, Value vec,
                     ArrayRef<int64_t> mask) {
  auto type = cast<VectorType>(vec.getType());
  bool identity = static_cast<int64_t>(mask.size()) == type.getNumElements();
  for (auto [i, m] : llvm::enumerate(mask))
    identity &= static_cast<int64_t>(i) == m;
  if (identity)
    return vec;
  if (type.getNumElements() == 1)
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({(int64_t)mask.size()}, type.getElementType()),
        vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{0}));
  return vector::ShuffleOp::create(b, loc, vec, vec, mask);
}

static gpu::AllReduceOperation gpuReduceKind(tile::ReduceKind kind,
                                             bool isFloat) {
  switch (kind) {
  case tile::ReduceKind::add:
    return gpu::AllReduceOperation::ADD;
  case tile::ReduceKind::mul:
    return gpu::AllReduceOperation::MUL;
  case tile::ReduceKind::max:
    return isFloat ? gpu::AllReduceOperation::MAXIMUMF
                   : gpu::AllReduceOperation::MAXSI;
  case tile::ReduceKind::min:
    return isFloat ? gpu::AllReduceOperation::MINIMUMF
                   : gpu::AllReduceOperation::MINSI;
  }
  return gpu::AllReduceOperation::ADD;
}

namespace {
struct ReduceLowering : KernelPattern<tile::ReduceOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::ReduceOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    TileValue in = {adaptor.getInput(), layoutOf(op.getInput())};
    const Layout &layout = in.layout;
    int64_t dim = op.getDim();
    Layout reduced = layout.drop({dim});
    Type elementType = op.getType().getElementType();
    bool isFloat = isa<FloatType>(elementType);

    // 1. Per thread: one slice per position along `dim`, combined as a tree.
    SmallVector<int64_t> counts = layout.counts(),
                         strides = layout.countStrides();
    SmallVector<int64_t> outCounts = reduced.counts();
    int64_t outN = reduced.numElements();
    SmallVector<Value> parts;
    for (int64_t j = 0; j < counts[dim]; ++j) {
      SmallVector<int64_t> mask;
      for (int64_t q = 0; q < outN; ++q) {
        SmallVector<int64_t> pos = layoutPositions(q, outCounts);
        pos.insert(pos.begin() + dim, j);
        mask.push_back(flatten(pos, strides));
      }
      parts.push_back(shuffle(b, loc, in.vec, mask));
    }
    while (parts.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < parts.size(); i += 2)
        next.push_back(tile::combineReduceKind(b, loc, op.getKind(), parts[i],
                                               parts[i + 1]));
      if (parts.size() % 2)
        next.push_back(parts.back());
      parts = std::move(next);
    }
    Value partial = parts.front();

    // 2. Across the lanes that own the same reduced coordinates.
    // One scalar reduction per element: the upstream shuffle lowering takes
    // scalars (and vectors of at most 32 bits), not vector<4xf32>.
    const DimLayout &dl = layout.dims[dim];
    gpu::AllReduceOperation kind = gpuReduceKind(op.getKind(), isFloat);
    if (dl.lanes > 1) {
      SmallVector<Value> elements;
      // The upstream lowering shuffles 32-bit values only: index and 64-bit
      // values go through a butterfly of our own (every lane combines with
      // the lane `offset` away, offsets halving), which gives every lane the
      // same result as the subgroup reduction would.
      bool wide = elementType.isIndex() ||
                  elementType.getIntOrFloatBitWidth() > 32;
      for (int64_t i = 0; i < outN; ++i) {
        Value element =
            vector::ExtractOp::create(b, loc, partial, ArrayRef<int64_t>{i});
        if (wide) {
          for (int64_t k = dl.lanes / 2; k >= 1; k /= 2) {
            Value partner = arith::XOrIOp::create(
                b, loc, ctx.laneId, ctx.constIndex(b, k * dl.laneStride));
            element =
                tile::combineReduceKind(b, loc, op.getKind(), element,
                                        shuffleFrom(b, loc, element, partner));
          }
        } else if (dl.lanes == 32)
          element = gpu::SubgroupReduceOp::create(b, loc, element, kind,
                                                  /*uniform=*/true);
        else
          element = gpu::SubgroupReduceOp::create(
              b, loc, element, kind, /*uniform=*/true,
              static_cast<uint32_t>(dl.lanes),
              static_cast<uint32_t>(dl.laneStride));
        elements.push_back(element);
      }
      partial =
          vector::FromElementsOp::create(b, loc, partial.getType(), elements);
    }

    // 3. Across warps: every thread writes its partial, then combines the
    // partials of the warps along `dim` in warp order.
    if (dl.warps > 1) {
      VectorType partialType = cast<VectorType>(partial.getType());
      Value buffer = ctx.allocShared(b, elementType, outN * 32 * ctx.numWarps);
      IntegerAttr align;
      int64_t bytes = outN * elementBytes(elementType);
      if (bytes >= 8 && llvm::isPowerOf2_64(bytes))
        align = b.getI64IntegerAttr(std::min<int64_t>(16, bytes));
      Value slot =
          arith::MulIOp::create(b, loc, ctx.threadId, ctx.constIndex(b, outN));
      vector::StoreOp::create(b, loc, partial, buffer, slot,
                              /*nontemporal=*/false, align);
      ctx.barrier(b);
      // The warp with coordinate 0 along `dim` in this thread's group.
      Value along = arith::RemUIOp::create(
          b, loc,
          arith::DivUIOp::create(b, loc, ctx.warpId,
                                 ctx.constIndex(b, dl.warpStride)),
          ctx.constIndex(b, dl.warps));
      Value first = arith::SubIOp::create(
          b, loc, ctx.warpId,
          arith::MulIOp::create(b, loc, along,
                                ctx.constIndex(b, dl.warpStride)));
      Value acc;
      for (int64_t w = 0; w < dl.warps; ++w) {
        Value warp = arith::AddIOp::create(
            b, loc, first, ctx.constIndex(b, w * dl.warpStride));
        Value thread = arith::AddIOp::create(
            b, loc, ctx.laneId,
            arith::MulIOp::create(b, loc, warp, ctx.constIndex(b, 32)));
        Value at =
            arith::MulIOp::create(b, loc, thread, ctx.constIndex(b, outN));
        Value v = vector::LoadOp::create(b, loc, partialType, buffer, at,
                                         /*nontemporal=*/false, align);
        acc = acc ? tile::combineReduceKind(b, loc, op.getKind(), acc, v) : v;
      }
      partial = acc;
      if (inLoop(op))
        ctx.barrier(b);
    }
    rewriter.replaceOp(op, convertLayout(ctx, b, {partial, reduced},
                                         layoutOf(op.getResult()), op)
                               .vec);
    return success();
  }
};

struct BroadcastLowering : KernelPattern<tile::BroadcastOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::BroadcastOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Layout layout = layoutOf(op.getResult());
    if (failed(checkRegisterBudget(op, op.getType(), layout)))
      return failure();
    ArrayRef<int64_t> dims = op.getDims();
    TileValue in =
        convertLayout(ctx, b, {adaptor.getInput(), layoutOf(op.getInput())},
                      layout.drop(dims), op);
    SmallVector<int64_t> counts = layout.counts();
    SmallVector<int64_t> inStrides = in.layout.countStrides();
    SmallVector<int64_t> mask;
    for (int64_t q = 0, n = layout.numElements(); q < n; ++q) {
      SmallVector<int64_t> pos = layoutPositions(q, counts), inPos;
      for (auto [d, p] : llvm::enumerate(pos))
        if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
          inPos.push_back(p);
      mask.push_back(flatten(inPos, inStrides));
    }
    rewriter.replaceOp(op, shuffle(b, op.getLoc(), in.vec, mask));
    return success();
  }
};

struct TransposeLowering : KernelPattern<tile::TransposeOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::TransposeOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    TileValue in = {adaptor.getInput(), layoutOf(op.getInput())};
    ArrayRef<int64_t> perm = op.getPerm();
    Layout natural = in.layout.permute(perm);
    SmallVector<int64_t> counts = natural.counts();
    SmallVector<int64_t> inStrides = in.layout.countStrides();
    SmallVector<int64_t> mask;
    for (int64_t q = 0, n = natural.numElements(); q < n; ++q) {
      SmallVector<int64_t> pos = layoutPositions(q, counts);
      SmallVector<int64_t> inPos(pos.size());
      for (auto [i, p] : llvm::enumerate(perm))
        inPos[p] = pos[i];
      mask.push_back(flatten(inPos, inStrides));
    }
    Value vec = shuffle(b, op.getLoc(), in.vec, mask);
    rewriter.replaceOp(
        op, convertLayout(ctx, b, {vec, natural}, layoutOf(op.getResult()), op)
                .vec);
    return success();
  }
};

/// tile.expand_dims and tile.squeeze insert or drop a unit dim, which holds
/// one position per thread: every thread keeps its elements in the same
/// order, and only the layout's dims change (takeAxes).
template <typename UnitDimOp>
struct UnitDimLowering : KernelPattern<UnitDimOp> {
  using KernelPattern<UnitDimOp>::KernelPattern;
  using OpAdaptor = typename KernelPattern<UnitDimOp>::OpAdaptor;
  LogicalResult lower(UnitDimOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    TileValue in = {adaptor.getInput(), layoutOf(op.getInput())};
    Layout moved = in.layout.takeAxes(op.getResultAxisSources());
    rewriter.replaceOp(op, convertLayout(this->ctx, b, {in.vec, moved},
                                         layoutOf(op.getResult()), op)
                               .vec);
    return success();
  }
};

struct IotaLowering : KernelPattern<tile::IotaOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::IotaOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    Layout layout = layoutOf(op.getResult());
    if (failed(checkRegisterBudget(op, op.getType(), layout)))
      return failure();
    Type elementType = op.getType().getElementType();
    VectorType vt = vectorType(layout, elementType);
    int64_t dim = op.getDim();
    const DimLayout &dl = layout.dims[dim];
    SmallVector<int64_t> counts = layout.counts();
    SmallVector<Attribute> offsets;
    for (int64_t q = 0, n = layout.numElements(); q < n; ++q)
      offsets.push_back(
          IntegerAttr::get(elementType, dl.offset(layoutPositions(q, counts)[dim])));
    Value vec = arith::ConstantOp::create(b, loc, vt,
                                          DenseElementsAttr::get(vt, offsets));
    if (dl.threads() > 1) {
      Value base = ctx.threadCoord(b, dl);
      if (dl.perThread > 1)
        base = arith::MulIOp::create(b, loc, base,
                                     ctx.constIndex(b, dl.perThread));
      if (!elementType.isIndex())
        base = arith::IndexCastOp::create(b, loc, elementType, base);
      vec = arith::AddIOp::create(
          b, loc, vec, vector::BroadcastOp::create(b, loc, vt, base));
    }
    rewriter.replaceOp(op, vec);
    return success();
  }
};

struct SplatLowering : KernelPattern<tile::SplatOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::SplatOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Layout layout = layoutOf(op.getResult());
    if (failed(checkRegisterBudget(op, op.getType(), layout)))
      return failure();
    VectorType vt = vectorType(layout, op.getType().getElementType());
    rewriter.replaceOp(op, vector::BroadcastOp::create(b, op.getLoc(), vt,
                                                       adaptor.getValue()));
    return success();
  }
};
} // namespace

void kbench::gpu_lowering::populateReducePatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, BroadcastLowering, TransposeLowering,
               UnitDimLowering<tile::ExpandDimsOp>,
               UnitDimLowering<tile::SqueezeOp>, IotaLowering, SplatLowering>(
      converter, ctx);
}
