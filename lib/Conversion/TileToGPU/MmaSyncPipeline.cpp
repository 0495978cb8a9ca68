//===- MmaSyncPipeline.cpp - cp.async pipelined K loop of impl = mma_sync -===//
//
// A K loop with `tile.pipeline_stages = S` (2 <= S) around an mma_sync
// tile.mma (MmaSyncRules.h: A MxK and B NxK through zero-padded views)
// copies its operand tiles straight from global to shared memory with
// cp.async, S - 1 steps ahead, into S swizzled buffers per operand:
//
//   prologue: issue steps lb .. lb + (S-2) step into buffers 0 .. S-2
//   loop k:   issue step k + (S-1) step into buffer (k - 1) mod S
//             wait until step k's group landed, barrier
//             ldmatrix + mma.sync from buffer k mod S, barrier
//   after:    wait for every group
//
// Each thread copies 16-byte chunks (8 elements of a row of K, consecutive
// threads along a row, so a warp's copies are coalesced); a chunk past the
// memref, or of a step past the end, copies 0 bytes and zero-fills (the
// operand views have pad(zero) or no pad). A 16-byte copy needs 16-byte
// aligned rows: versionMmaSyncPipelines wraps every such loop in
// `scf.if K % 8 == 0` (both operands) at the tile level, with the pipelined
// loop (marked tile.mma_sync_aligned) in the then-branch and the same loop
// with one stage (register staging, MmaSyncLowering.cpp) in the else-branch.
//
//===----------------------------------------------------------------------===//

#include "GlobalAccess.h"
#include "MmaSync.h"
#include "SharedMemory.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// Marks the pipelined copy of a versioned loop: its rows are 16-byte
/// aligned.
static constexpr llvm::StringLiteral kAlignedAttrName =
    "tile.mma_sync_aligned";

/// The mma_sync tile.mma of `loop` if the loop asks for a cp.async pipeline
/// the rules accept, else null.
static tile::MmaOp getAsyncPipelinedMma(scf::ForOp loop, int64_t numWarps) {
  if (getPipelineStages(loop) < 2)
    return {};
  tile::MmaOp mma = getMmaLoopMma(loop);
  if (!mma || mma.getImplKind() != tile::MmaImpl::mma_sync ||
      whyNotMmaSync(mma, numWarps, getPipelineStages(loop)))
    return {};
  return mma;
}

void kbench::gpu_lowering::versionMmaSyncPipelines(tile::KernelOp kernel,
                                                   int64_t numWarps) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(kAlignedAttrName) &&
        getAsyncPipelinedMma(loop, numWarps))
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    tile::MmaOp mma = getMmaLoopMma(loop);
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c8 = arith::ConstantIndexOp::create(b, loc, 8);
    Value aligned;
    for (Value operand : {mma.getA(), mma.getB()}) {
      Value view = operand.getDefiningOp<tile::LoadOp>().getView();
      // Rows of K: the innermost dim of both views.
      Value extent = tile::ExtentOp::create(b, loc, view, 1);
      Value ok = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, extent, c8), c0);
      aligned = aligned ? arith::AndIOp::create(b, loc, aligned, ok) : ok;
    }
    auto ifOp = scf::IfOp::create(b, loc, loop.getResultTypes(), aligned,
                                  /*withElseRegion=*/true);
    for (bool pipelined : {true, false}) {
      Region &region = pipelined ? ifOp.getThenRegion() : ifOp.getElseRegion();
      OpBuilder inner = OpBuilder::atBlockEnd(&region.front());
      Operation *copy = inner.clone(*loop);
      if (pipelined)
        copy->setAttr(kAlignedAttrName, inner.getUnitAttr());
      else
        copy->setAttr(kPipelineStagesAttrName, inner.getI64IntegerAttr(1));
      scf::YieldOp::create(inner, loc, copy->getResults());
    }
    loop->replaceAllUsesWith(ifOp.getResults());
    loop->erase();
  }
}

namespace {
/// The versioned (aligned) mma_sync K loop with S >= 2 stages.
struct MmaSyncPipelinedLoop : KernelPattern<scf::ForOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::ForOp op) const override {
    return op->hasAttr(kAlignedAttrName) &&
           getAsyncPipelinedMma(op, ctx.numWarps);
  }
  LogicalResult lower(scf::ForOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override;
};
} // namespace

LogicalResult
MmaSyncPipelinedLoop::lower(scf::ForOp op, OpAdaptor adaptor,
                            ConversionPatternRewriter &rewriter) const {
  OpBuilder &b = rewriter;
  Location loc = op.getLoc();
  int64_t stages = getPipelineStages(op);
  tile::MmaOp mma = getMmaLoopMma(op);
  auto loadA = mma.getA().getDefiningOp<tile::LoadOp>();
  auto loadB = mma.getB().getDefiningOp<tile::LoadOp>();
  FailureOr<MmaSyncPlan> p = planMmaSync(mma, ctx.numWarps, stages);
  if (failed(p))
    return failure();
  FailureOr<View> viewA = lookupView(ctx, loadA, loadA.getView(),
                                     rewriter.getRemappedValue(loadA.getView()));
  if (failed(viewA))
    return failure();
  FailureOr<View> viewB = lookupView(ctx, loadB, loadB.getView(),
                                     rewriter.getRemappedValue(loadB.getView()));
  if (failed(viewB))
    return failure();
  int64_t sizeA = p->m * p->k, sizeB = p->n * p->k;
  Value bufA = ctx.allocShared(b, p->operandType, stages * sizeA);
  Value bufB = ctx.allocShared(b, p->operandType, stages * sizeB);
  int64_t threads = 32 * ctx.numWarps;
  int64_t chunksPerRow = p->k / 8;
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };

  LoopStepEmitter steps(*op.getBody(), op.getInductionVar(), rewriter);
  auto lookup = [&](Value v) { return steps.lookup(v); };
  Value ub = adaptor.getUpperBound();
  Type tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  // Issues the copies of step `iv` into stage buffer `stage` and commits
  // them as one group.
  auto issue = [&](Value iv, Value stage) {
    steps.emitStep(iv);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
    auto copyTile = [&](tile::LoadOp load, const View &view, int64_t rows,
                        Value buffer, int64_t stageSize) {
      Value rowStart = arith::MulIOp::create(
          b, loc, lookup(load.getIndices()[0]), c(view.tileShape[0]));
      Value colStart = arith::MulIOp::create(
          b, loc, lookup(load.getIndices()[1]), c(view.tileShape[1]));
      Value stageBase = arith::MulIOp::create(b, loc, stage, c(stageSize));
      for (int64_t first = 0; first < rows * chunksPerRow; first += threads) {
        Value chunk = arith::AddIOp::create(b, loc, ctx.threadId, c(first));
        Value row = arith::DivUIOp::create(b, loc, chunk, c(chunksPerRow));
        Value col = arith::MulIOp::create(
            b, loc, arith::RemUIOp::create(b, loc, chunk, c(chunksPerRow)),
            c(8));
        Value globalRow = arith::AddIOp::create(b, loc, rowStart, row);
        Value globalCol = arith::AddIOp::create(b, loc, colStart, col);
        // K % 8 == 0 (versioned): a chunk is wholly inside or outside.
        Value valid = arith::AndIOp::create(
            b, loc, inRange,
            arith::AndIOp::create(
                b, loc,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      globalRow, view.dims[0]),
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      globalCol, view.dims[1])));
        Value srcElements =
            arith::SelectOp::create(b, loc, valid, c(8), c(0));
        // A chunk that copies nothing still needs an address in the memref.
        Value srcRow = arith::SelectOp::create(b, loc, valid, globalRow, c(0));
        Value srcCol = arith::SelectOp::create(b, loc, valid, globalCol, c(0));
        Value dst = arith::AddIOp::create(
            b, loc, stageBase, emitMmaSyncSwizzle(ctx, b, row, col, p->k));
        nvgpu::DeviceAsyncCopyOp::create(
            b, loc, tokenType, buffer, ValueRange{dst}, view.memref,
            ValueRange{srcRow, srcCol}, b.getIndexAttr(8), srcElements,
            b.getUnitAttr());
      }
    };
    copyTile(loadA, *viewA, p->m, bufA, sizeA);
    copyTile(loadB, *viewB, p->n, bufB, sizeB);
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  };

  Value lb = adaptor.getLowerBound();
  Value step = adaptor.getStep();
  for (int64_t s = 0; s + 1 < stages; ++s)
    issue(arith::AddIOp::create(
              b, loc, lb, arith::MulIOp::create(b, loc, step, c(s))),
          c(s));

  TileValue init = convertLayout(
      ctx, b, {adaptor.getInitArgs()[0], layoutOf(op.getInitArgs()[0])}, p->acc,
      op);
  auto accType = cast<VectorType>(init.vec.getType());
  auto loop = scf::ForOp::create(b, loc, lb, ub, step,
                                 ValueRange{init.vec, c(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = loop.getBody();
    if (!body->empty())
      rewriter.eraseOp(body->getTerminator());
    b.setInsertionPointToEnd(body);
    Value iv = loop.getInductionVar();
    Value stage = loop.getRegionIterArgs()[1];
    Value ahead = arith::AddIOp::create(
        b, loc, iv, arith::MulIOp::create(b, loc, step, c(stages - 1)));
    Value aheadStage = arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, stage, c(stages - 1)),
        c(stages));
    issue(ahead, aheadStage);
    // Step k's group is complete once at most S - 1 newer ones are pending.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, stages - 1);
    ctx.barrier(b);
    SmallVector<Value> elements;
    Value acc = loop.getRegionIterArgs()[0];
    for (int64_t i = 0, e = accType.getNumElements(); i < e; ++i)
      elements.push_back(
          vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
    emitMmaSyncSteps(ctx, b, *p, bufA,
                     arith::MulIOp::create(b, loc, stage, c(sizeA)), bufB,
                     arith::MulIOp::create(b, loc, stage, c(sizeB)), elements);
    // The next step's copies overwrite the buffer read one step ago.
    ctx.barrier(b);
    Value next = arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, stage, c(1)), c(stages));
    scf::YieldOp::create(
        b, loc,
        ValueRange{vector::FromElementsOp::create(b, loc, accType, elements),
                   next});
  }
  // The copies of steps past the end zero-fill buffers nobody reads again;
  // they still finish before the epilogue.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  rewriter.replaceOp(op, convertLayout(ctx, b, {loop.getResult(0), p->acc},
                                       layoutOf(op.getResult(0)), op)
                             .vec);
  return success();
}

void kbench::gpu_lowering::populateMmaSyncPipelinePatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  // Outranks the plain and the unsupported-depth scf.for patterns.
  patterns.add<MmaSyncPipelinedLoop>(converter, ctx, /*benefit=*/3);
}
