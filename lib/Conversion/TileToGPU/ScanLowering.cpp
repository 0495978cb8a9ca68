//===- ScanLowering.cpp - Inclusive scans in four levels ------------------===//
//
// tile.scan along dim d in the blocked layout (Layout.h). Along d a
// coordinate is (rep * threads + t) * perThread + e with t = lane part +
// lanes * warp part, so the elements before a given one are, in order:
// every earlier rep, then (in its rep) the threads with a smaller t (the
// warps with a smaller warp part, then the lanes of its own warp with a
// smaller lane part), then its own earlier elements e. The lowering builds
// exactly that sum, per run of perThread elements:
//
//   1. in the thread: a running combine over e (the thread's total is the
//      last one);
//   2. across lanes: an inclusive Hillis-Steele scan of the thread totals
//      with index shuffles (log2(lanes) steps), one more shuffle for the
//      exclusive prefix and one for the warp segment's total;
//   3. across warps: the segment totals through shared memory, combined in
//      warp order (those before this thread's warp, and all of them for the
//      rep's total);
//   4. across reps: a running carry of the rep totals, in registers.
//
// Every level is skipped where the layout has one lane, warp or rep along d.
// The result is in the input layout; a different assigned layout costs a
// trip through shared memory (SharedMemory.h).
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"
#include "Shuffle.h"

#include "kbench/Dialect/Tile/IR/ReduceKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {

/// Per scan (a per-thread position off the scanned dim) and rep: one value.
using PerRun = SmallVector<SmallVector<Value>>;

struct ScanLowering : KernelPattern<tile::ScanOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::ScanOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    tile::ReduceKind kind = op.getKind();
    Layout layout = layoutOf(op.getInput());
    if (failed(checkRegisterBudget(op, op.getType(), layout)))
      return failure();
    Value input = adaptor.getInput();
    int64_t dim = op.getDim();
    const DimLayout &dl = layout.dims[dim];
    Type elementType = op.getType().getElementType();
    SmallVector<int64_t> counts = layout.counts();
    int64_t numElements = layout.numElements();

    // A thread's elements along `dim` are `reps` runs of `run` contiguous
    // coordinates; every position off `dim` is a scan of its own.
    int64_t run = std::min(dl.perThread, counts[dim]);
    int64_t reps = counts[dim] / run;
    int64_t scans = numElements / counts[dim];
    // flatOf[s][p]: the flat vector index of scan s at position p along dim.
    SmallVector<SmallVector<int64_t>> flatOf(
        scans, SmallVector<int64_t>(counts[dim], 0));
    SmallVector<int64_t> otherCounts(counts);
    otherCounts.erase(otherCounts.begin() + dim);
    for (int64_t q = 0; q < numElements; ++q) {
      SmallVector<int64_t> pos = layoutPositions(q, counts);
      int64_t p = pos[dim], s = 0;
      pos.erase(pos.begin() + dim);
      for (auto [x, c] : llvm::zip(pos, otherCounts))
        s = s * c + x;
      flatOf[s][p] = q;
    }
    auto perRun = [&] { return PerRun(scans, SmallVector<Value>(reps)); };

    // 1. In the thread: running combines over each run.
    SmallVector<Value> local(numElements);
    PerRun runTotal = perRun();
    for (int64_t s = 0; s < scans; ++s)
      for (int64_t r = 0; r < reps; ++r) {
        Value acc;
        for (int64_t e = 0; e < run; ++e) {
          int64_t q = flatOf[s][r * run + e];
          acc = tile::combineReduceKind(
              b, loc, kind, acc,
              vector::ExtractOp::create(b, loc, input, ArrayRef<int64_t>{q}));
          local[q] = acc;
        }
        runTotal[s][r] = acc;
      }

    // 2. Across lanes: what the lanes before this one hold (null: nothing,
    // statically) and what the warp's segment holds.
    PerRun laneBefore = perRun(), segment = runTotal;
    if (dl.lanes > 1) {
      Value lane = ctx.laneId;
      // The lane part of t(dim) alone (threadCoord of a warp-less dim).
      DimLayout laneDim;
      laneDim.lanes = dl.lanes;
      laneDim.laneStride = dl.laneStride;
      Value tLane = ctx.threadCoord(b, laneDim);
      // Whether a lane `k` steps back along `dim` exists, and its id (this
      // lane's own where not, so that the shuffle stays in the warp).
      auto back = [&](int64_t k) -> std::pair<Value, Value> {
        Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                          tLane, ctx.constIndex(b, k));
        Value src = arith::SubIOp::create(
            b, loc, lane, ctx.constIndex(b, k * dl.laneStride));
        return {has, arith::SelectOp::create(b, loc, has, src, lane)};
      };
      Value toLast = arith::SubIOp::create(
          b, loc, ctx.constIndex(b, dl.lanes - 1), tLane);
      Value lastLane = arith::AddIOp::create(
          b, loc, lane,
          arith::MulIOp::create(b, loc, toLast,
                                ctx.constIndex(b, dl.laneStride)));
      Value none = arith::ConstantOp::create(
          b, loc, tile::getReduceIdentity(kind, elementType));
      for (int64_t s = 0; s < scans; ++s)
        for (int64_t r = 0; r < reps; ++r) {
          Value inclusive = runTotal[s][r];
          for (int64_t k = 1; k < dl.lanes; k *= 2) {
            auto [has, src] = back(k);
            Value earlier = shuffleFrom(b, loc, inclusive, src);
            inclusive = arith::SelectOp::create(
                b, loc, has,
                tile::combineReduceKind(b, loc, kind, earlier, inclusive),
                inclusive);
          }
          auto [has, src] = back(1);
          laneBefore[s][r] = arith::SelectOp::create(
              b, loc, has, shuffleFrom(b, loc, inclusive, src), none);
          // The segment's total feeds the warps after this one and the reps
          // after this one; without either it is not needed.
          if (dl.warps > 1 || r + 1 < reps)
            segment[s][r] = shuffleFrom(b, loc, inclusive, lastLane);
        }
    }

    // 3. Across warps: the segments of the warps before this one along
    // `dim`, and the whole rep's total, in warp order.
    PerRun warpBefore = perRun(), repTotal = segment;
    if (dl.warps > 1) {
      int64_t perThread = scans * reps;
      Value buffer =
          ctx.allocShared(b, elementType, perThread * 32 * ctx.numWarps);
      Value base = arith::MulIOp::create(b, loc, ctx.threadId,
                                         ctx.constIndex(b, perThread));
      for (int64_t s = 0; s < scans; ++s)
        for (int64_t r = 0; r < reps; ++r)
          memref::StoreOp::create(
              b, loc, segment[s][r], buffer,
              ValueRange{arith::AddIOp::create(
                  b, loc, base, ctx.constIndex(b, s * reps + r))});
      ctx.barrier(b);
      // The warp part of t(dim) alone (threadCoord of a lane-less dim).
      DimLayout warpDim;
      warpDim.warps = dl.warps;
      warpDim.warpStride = dl.warpStride;
      Value tWarp = ctx.threadCoord(b, warpDim);
      Value firstWarp = arith::SubIOp::create(
          b, loc, ctx.warpId,
          arith::MulIOp::create(b, loc, tWarp,
                                ctx.constIndex(b, dl.warpStride)));
      Value none = arith::ConstantOp::create(
          b, loc, tile::getReduceIdentity(kind, elementType));
      for (int64_t s = 0; s < scans; ++s)
        for (int64_t r = 0; r < reps; ++r) {
          Value before = none, total;
          for (int64_t w = 0; w < dl.warps; ++w) {
            Value warp = arith::AddIOp::create(
                b, loc, firstWarp, ctx.constIndex(b, w * dl.warpStride));
            Value thread = arith::AddIOp::create(
                b, loc, ctx.laneId,
                arith::MulIOp::create(b, loc, warp, ctx.constIndex(b, 32)));
            Value at = arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(b, loc, thread,
                                      ctx.constIndex(b, perThread)),
                ctx.constIndex(b, s * reps + r));
            Value v = memref::LoadOp::create(b, loc, buffer, ValueRange{at});
            Value earlier = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, ctx.constIndex(b, w), tWarp);
            before = arith::SelectOp::create(
                b, loc, earlier,
                tile::combineReduceKind(b, loc, kind, before, v), before);
            total = tile::combineReduceKind(b, loc, kind, total, v);
          }
          warpBefore[s][r] = before;
          repTotal[s][r] = total;
        }
      if (inLoop(op))
        ctx.barrier(b);
    }

    // 4. Across reps, then every element: earlier reps, earlier warps,
    // earlier lanes, then the thread's own running value.
    SmallVector<Value> out(numElements);
    for (int64_t s = 0; s < scans; ++s) {
      Value carry;
      for (int64_t r = 0; r < reps; ++r) {
        Value before = tile::combineReduceKind(
            b, loc, kind,
            tile::combineReduceKind(b, loc, kind, carry, warpBefore[s][r]),
            laneBefore[s][r]);
        for (int64_t e = 0; e < run; ++e) {
          int64_t q = flatOf[s][r * run + e];
          out[q] = tile::combineReduceKind(b, loc, kind, before, local[q]);
        }
        if (r + 1 < reps)
          carry = tile::combineReduceKind(b, loc, kind, carry, repTotal[s][r]);
      }
    }
    Value vec = vector::FromElementsOp::create(
        b, loc, vectorType(layout, elementType), out);
    rewriter.replaceOp(op, convertLayout(ctx, b, {vec, layout},
                                         layoutOf(op.getResult()), op)
                               .vec);
    return success();
  }
};

} // namespace

void kbench::gpu_lowering::populateScanPatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, ctx);
}
