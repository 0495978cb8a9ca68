//===- TmaPipeline.cpp - The wgmma K loop fed by TMA copies ---------------===//
//
// A pipelined wgmma K loop with `tile.operand_copies = "tma"` (TmaRules.h):
// one thread copies each step's operand tiles with cp.async.bulk.tensor
// (TMA) into S stage buffers; two mbarriers per stage pace the copies:
//
//   full[s]   completes when step n's copies landed (n % S == s): lane 0
//             of warp 0 arrives with the step's byte count as expected
//             transactions, the TMA copies complete them;
//   empty[s]  completes when every warpgroup's wgmma group of that step is
//             done (one arrival per warpgroup), so the buffer may be
//             overwritten.
//
//   prologue: warp 0 issues steps 0 .. S-2 into stages 0 .. S-2
//   loop n:   wait full[n % S] (parity (n / S) & 1)
//             wgmma group from stage n % S; wait until at most one group is
//             in flight (none after the last step): step n-1's group is done
//             each warpgroup's first thread arrives on empty[(n-1) % S]
//             warp 0 waits empty[(n+S-1) % S] for the release of step n-1;
//             its lane 0 issues step n + S - 1 into that stage
//
// Unlike the cp.async loop there is no CTA-wide barrier per step, and no
// thread but one spends instructions on copies. A full A tile is one box
// per warpgroup of the staged-rows view (TmaRules.h), whose rows land in
// wgmmaStagedRow order; a tile that reaches past M goes in 8-row boxes to
// where wgmmaStagedRow stages them. The 128-byte swizzle is the tensor
// map's. The producer runs in a warp-uniform branch (see isProducerWarp).
//
// TMA needs 16-byte aligned rows and base addresses. Where they are not
// (K % 8 != 0), the runner passes zero bytes instead of tensor maps and the
// loop copies each step with element loads (emitSynchronousTileCopy), every
// thread arriving on full[s] after a proxy fence: full[s] then counts every
// thread instead of one. The choice is made once per CTA at run time.
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"
#include "TensorCore.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
/// Builders for the shared-memory addresses and the mbarrier ops of one
/// loop.
struct TmaLoopEmitter {
  KernelContext &ctx;
  OpBuilder &b;
  Location loc;

  Value index(int64_t v) { return ctx.constIndex(b, v); }
  Value i32(Value indexValue) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), indexValue);
  }
  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(v));
  }
  /// The shared-memory pointer of element `element` (index) of `buffer`.
  Value sharedPointer(Value buffer, Value element, int64_t elementBytes) {
    return gpu_lowering::sharedPointer(b, loc, buffer, element, elementBytes);
  }
  void waitParity(Value barrier, Value parity) {
    emitMbarrierWaitParity(b, loc, barrier, parity);
  }
  void arrive(Value barrier) {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), barrier, Value());
  }
  /// An scf.if on `condition` without results; the builder is inside its
  /// then block until the guard goes out of scope.
  scf::IfOp ifThen(Value condition) {
    auto op = scf::IfOp::create(b, loc, TypeRange{}, condition,
                                /*withElseRegion=*/false);
    b.setInsertionPoint(op.thenBlock()->getTerminator());
    return op;
  }
  Value true_() {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  }
  Value isZero(Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                 index(0));
  }
};

/// A wgmma K loop whose operands are copied with TMA.
struct TmaPipelinedLoop : KernelPattern<scf::ForOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::ForOp op) const override {
    return getOperandCopies(op) == OperandCopies::Tma;
  }
  LogicalResult lower(scf::ForOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override;
};
} // namespace

LogicalResult
TmaPipelinedLoop::lower(scf::ForOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const {
  OpBuilder &b = rewriter;
  Location loc = op.getLoc();
  int64_t stages = getPipelineStages(op);
  if (std::optional<std::string> why =
          whyNotTmaPipeline(op, ctx.numWarps, stages))
    return op.emitOpError() << *why;
  FailureOr<TensorCoreLoop> plan = planTensorCoreLoop(ctx, op, rewriter);
  if (failed(plan))
    return failure();
  tile::MmaOp mma = plan->mma;
  tile::LoadOp loadA = plan->loadA, loadB = plan->loadB;
  const TensorCorePlan *p = &plan->plan;
  const View *viewA = &plan->viewA, *viewB = &plan->viewB;
  TmaOperandBoxes boxes = getTmaOperandBoxes(mma, ctx.numWarps);
  Value mapA = ctx.lookupTmaDescriptor(viewA->memref, boxes.aRows);
  Value mapAStaged = ctx.lookupTmaDescriptor(viewA->memref, boxes.aStaged);
  Value mapB = ctx.lookupTmaDescriptor(viewB->memref, boxes.b);
  if (!mapA || !mapAStaged || !mapB)
    return op.emitOpError("internal: tile-to-gpu made no tensor-map param "
                          "for the operands of this TMA K loop");

  TmaLoopEmitter e{ctx, b, loc};
  auto c = [&](int64_t v) { return e.index(v); };
  int64_t bytesPerElement = elementBytes(p->operandType);
  int64_t sizeA = p->m * p->k, sizeB = p->n * p->k;
  // Bytes of one 8-row box of A.
  int64_t groupBytes = kTmaRowsPerABox * p->k * bytesPerElement;
  int64_t threads = 32 * ctx.numWarps;
  int64_t warpgroups = ctx.numWarps / 4;
  int64_t stagingStart = llvm::alignTo(ctx.sharedBytes, p->bufferAlignment());
  Value bufA =
      ctx.allocShared(b, p->operandType, stages * sizeA, p->bufferAlignment());
  Value bufB =
      ctx.allocShared(b, p->operandType, stages * sizeB, p->bufferAlignment());
  int64_t stagingEnd = ctx.sharedBytes;
  // full[0 .. S) then empty[0 .. S).
  Value barriers = ctx.allocShared(b, b.getI64Type(), 2 * stages,
                                   kMbarrierBytes);
  auto full = [&](Value stage) {
    return e.sharedPointer(barriers, stage, kMbarrierBytes);
  };
  auto empty = [&](Value stage) {
    return e.sharedPointer(
        barriers, arith::AddIOp::create(b, loc, stage, c(stages)),
        kMbarrierBytes);
  };

  // TMA when the rows and base addresses are 16-byte aligned (the runner
  // encodes the maps exactly then).
  auto aligned16 = [&](const View &view) {
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view.memref);
    return arith::AndIOp::create(
        b, loc, ctx.divisibleBy(b, view.dims[1], 16 / bytesPerElement),
        e.isZero(arith::RemUIOp::create(b, loc, base, c(16))));
  };
  Value useTma =
      arith::AndIOp::create(b, loc, aligned16(*viewA), aligned16(*viewB));
  Value isThread0 = e.isZero(ctx.threadId);
  // Warp 0 issues the copies, in a branch ptxas knows to be warp-uniform
  // (the warp id read from lane 0 by a shuffle), with the instructions of
  // one thread predicated on lane 0. A branch on the thread id itself is
  // divergent to ptxas, which then serializes the wgmma groups in flight
  // (C7518); predicating the whole producer instead runs its address
  // arithmetic in every warp, which measured 1.4 to 2.5 times slower.
  Value laneZeroWarp =
      gpu::ShuffleOp::create(
          b, loc,
          arith::IndexCastOp::create(b, loc, b.getI32Type(), ctx.warpId),
          e.i32(0), e.i32(32), gpu::ShuffleMode::IDX)
          .getShuffleResult();
  Value isProducerWarp = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, laneZeroWarp, e.i32(0));
  Value isLane0 = e.isZero(ctx.laneId);

  // The barriers: thread 0 initializes them, a CTA barrier publishes them
  // (and, in an enclosing loop, ends every wait on the previous ones).
  if (inLoop(op))
    ctx.barrier(b);
  {
    OpBuilder::InsertionGuard guard(b);
    e.ifThen(isThread0);
    Value fullCount =
        arith::SelectOp::create(b, loc, useTma, e.i32(1), e.i32(threads));
    for (int64_t s = 0; s < stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, full(c(s)), fullCount, Value());
      NVVM::MBarrierInitOp::create(b, loc, empty(c(s)), e.i32(warpgroups),
                                   Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  ctx.barrier(b);

  LoopStepEmitter steps(*op.getBody(), op.getInductionVar(), rewriter);
  auto lookup = [&](Value v) { return steps.lookup(v); };
  Value lb = adaptor.getLowerBound();
  Value ub = adaptor.getUpperBound();
  Value step = adaptor.getStep();
  auto ivOfStep = [&](Value n) {
    return arith::AddIOp::create(b, loc, lb,
                                 arith::MulIOp::create(b, loc, n, step));
  };

  // Who copies a step: today's loop (warp 0 with TMA, else every thread
  // with element loads), the producer warpgroup of a warp-specialized
  // kernel (TMA only), or its consumers (element loads only, where TMA
  // cannot be used).
  enum class Copier { Warp0OrAll, Producer, ConsumersWithoutTma };

  // Copies step n (loop index lb + n * step, when below ub) into stage
  // n % S, after the release of step n - S when n >= S (`mayReuse`).
  auto issue = [&](Value n, bool mayReuse, Copier copier) {
    Value iv = ivOfStep(n);
    OpBuilder::InsertionGuard outer(b);
    e.ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub));
    steps.emitStep(iv);
    Value stage = arith::RemUIOp::create(b, loc, n, c(stages));
    Value rowA = arith::MulIOp::create(b, loc, lookup(loadA.getIndices()[0]),
                                       c(viewA->tileShape[0]));
    Value rowB = arith::MulIOp::create(b, loc, lookup(loadB.getIndices()[0]),
                                       c(viewB->tileShape[0]));
    Value col = arith::MulIOp::create(b, loc, lookup(loadA.getIndices()[1]),
                                      c(viewA->tileShape[1]));
    Value colB = arith::MulIOp::create(b, loc, lookup(loadB.getIndices()[1]),
                                       c(viewB->tileShape[1]));
    Value stageA = arith::MulIOp::create(b, loc, stage, c(sizeA));
    Value stageB = arith::MulIOp::create(b, loc, stage, c(sizeB));
    auto waitForRelease = [&]() {
      if (!mayReuse)
        return;
      OpBuilder::InsertionGuard guard(b);
      Value round = arith::DivUIOp::create(b, loc, n, c(stages));
      e.ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, round,
                                     c(1)));
      Value parity = arith::RemUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, round, c(1)), c(2));
      e.waitParity(empty(stage), e.i32(parity));
    };
    // One warp waits for the release and its lane 0 copies with TMA.
    auto copyWithTma = [&]() {
      waitForRelease();
      Value fullBarrier = full(stage);
      // A tile that reaches past M is copied in 8-row boxes, of which those
      // that start past M are skipped (their rows only reach accumulator
      // rows that are never stored); the step then expects fewer bytes.
      Value rowsLeft = arith::SubIOp::create(b, loc, viewA->dims[0], rowA);
      Value fullTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                             rowsLeft, c(p->m));
      Value groups = arith::MinUIOp::create(
          b, loc, c(p->m / kTmaRowsPerABox),
          arith::CeilDivUIOp::create(b, loc, rowsLeft, c(kTmaRowsPerABox)));
      Value bytes = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, groups, c(groupBytes)),
          c(sizeB * bytesPerElement));
      NVVM::MBarrierArriveExpectTxOp::create(
          b, loc, Type(), fullBarrier, e.i32(bytes), NVVM::MemScopeKind::CTA,
          /*relaxed=*/false, isLane0);
      auto copy = [&](Value map, Value buffer, Value element,
                      ValueRange coordinates, Value predicate) {
        Value shared = e.sharedPointer(buffer, element, bytesPerElement);
        Value cluster = LLVM::AddrSpaceCastOp::create(
            b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), shared);
        SmallVector<Value> i32s;
        for (Value coordinate : coordinates)
          i32s.push_back(e.i32(coordinate));
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            b, loc, cluster, map, i32s, fullBarrier, ValueRange{}, Value(),
            Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, nullptr,
            predicate);
      };
      auto ifFull = scf::IfOp::create(b, loc, TypeRange{}, fullTile,
                                      /*withElseRegion=*/true);
      {
        // A full tile: one box of the staged-rows view per warpgroup, its
        // rows already in wgmmaStagedRow order. Coordinates innermost first.
        OpBuilder::InsertionGuard fullGuard(b);
        b.setInsertionPoint(ifFull.thenBlock()->getTerminator());
        Value rowBlock =
            arith::DivUIOp::create(b, loc, rowA, c(16 * p->numWarps));
        for (int64_t wg = 0; wg < warpgroups; ++wg)
          copy(mapAStaged, bufA,
               arith::AddIOp::create(b, loc, stageA,
                                     c(wg * (p->m / warpgroups) * p->k)),
               ValueRange{col, c(0), c(0), c(4 * wg), rowBlock}, isLane0);
        // Else one box per 8-row group that starts below M, at the rows
        // wgmmaStagedRow gives it.
        b.setInsertionPoint(ifFull.elseBlock()->getTerminator());
        for (int64_t group = 0; group < p->m / kTmaRowsPerABox; ++group) {
          int64_t staged =
              wgmmaStagedRow(group * kTmaRowsPerABox, p->m, p->numWarps);
          Value belowM = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, c(group), groups);
          copy(mapA, bufA,
               arith::AddIOp::create(b, loc, stageA, c(staged * p->k)),
               ValueRange{col, arith::AddIOp::create(
                                   b, loc, rowA, c(group * kTmaRowsPerABox))},
               arith::AndIOp::create(b, loc, isLane0, belowM));
        }
      }
      copy(mapB, bufB, stageB, ValueRange{colB, rowB}, isLane0);
    };
    // Every consumer thread copies with element loads.
    auto copyWithElements = [&]() {
      waitForRelease();
      Value inRange = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
      emitSynchronousTileCopy(ctx, b, *p, *viewA, {rowA, col}, inRange, bufA,
                              stageA, /*isA=*/true);
      emitSynchronousTileCopy(ctx, b, *p, *viewB, {rowB, colB}, inRange, bufB,
                              stageB, /*isA=*/false);
      emitStagingFence(ctx, b, *p);
      e.arrive(full(stage));
    };
    switch (copier) {
    case Copier::Producer:
      copyWithTma();
      return;
    case Copier::ConsumersWithoutTma: {
      OpBuilder::InsertionGuard guard(b);
      e.ifThen(arith::XOrIOp::create(b, loc, useTma, e.true_()));
      copyWithElements();
      return;
    }
    case Copier::Warp0OrAll: {
      auto ifTma = scf::IfOp::create(b, loc, TypeRange{}, useTma,
                                     /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifTma.thenBlock()->getTerminator());
      e.ifThen(isProducerWarp);
      copyWithTma();
      b.setInsertionPoint(ifTma.elseBlock()->getTerminator());
      copyWithElements();
      return;
    }
    }
  };

  // A warp-specialized kernel: the producer warpgroup (the warps after the
  // consumers') gives up registers, its first warp issues every step as
  // soon as the consumers release its stage, and the warpgroup exits; the
  // consumers take the registers it gave up. The branch is on the warp id
  // read from lane 0, uniform to ptxas, like the copies' branch above.
  Copier consumerCopier = Copier::Warp0OrAll;
  if (ctx.warpSpecialized) {
    WarpSpecializedRegisters registers =
        getWarpSpecializedRegisters(ctx.numWarps);
    Value isProducerGroup = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, laneZeroWarp, e.i32(ctx.numWarps));
    {
      OpBuilder::InsertionGuard guard(b);
      e.ifThen(isProducerGroup);
      NVVM::SetMaxRegisterOp::create(b, loc, registers.producer,
                                     NVVM::SetMaxRegisterAction::decrease);
      Value firstProducerWarp = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, laneZeroWarp, e.i32(ctx.numWarps));
      {
        OpBuilder::InsertionGuard copyGuard(b);
        e.ifThen(arith::AndIOp::create(b, loc, useTma, firstProducerWarp));
        auto producerLoop = scf::ForOp::create(b, loc, lb, ub, step);
        b.setInsertionPoint(producerLoop.getBody()->getTerminator());
        Value n = arith::DivUIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc, producerLoop.getInductionVar(), lb),
            step);
        issue(n, /*mayReuse=*/true, Copier::Producer);
      }
      NVVM::Exit::create(b, loc);
    }
    if (registers.consumer > registers.kernel)
      NVVM::SetMaxRegisterOp::create(b, loc, registers.consumer,
                                     NVVM::SetMaxRegisterAction::increase);
    ctx.producerExited = true;
    consumerCopier = Copier::ConsumersWithoutTma;
  }

  for (int64_t s = 0; s + 1 < stages; ++s)
    issue(c(s), /*mayReuse=*/false, consumerCopier);

  TileValue init = convertLayout(
      ctx, b, {adaptor.getInitArgs()[0], layoutOf(op.getInitArgs()[0])}, p->acc,
      op);
  auto accType = cast<VectorType>(init.vec.getType());
  SmallVector<Value> elements;
  for (int64_t i = 0, n = accType.getNumElements(); i < n; ++i)
    elements.push_back(
        vector::ExtractOp::create(b, loc, init.vec, ArrayRef<int64_t>{i}));
  SmallVector<Value> initAcc = packWgmmaAccumulators(ctx, b, *p, elements);
  // Each step waits only for the group before its own, so that its group
  // runs while the next step's operands are awaited.
  scf::IfOp nonEmptyLoop = openInFlightWgmmaLoop(b, loc, lb, ub, initAcc);
  auto loop = scf::ForOp::create(b, loc, lb, ub, step, initAcc);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = loop.getBody();
    if (!body->empty())
      rewriter.eraseOp(body->getTerminator());
    b.setInsertionPointToEnd(body);
    Value iv = loop.getInductionVar();
    Value n = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, iv, lb), step);
    Value stage = arith::RemUIOp::create(b, loc, n, c(stages));
    Value parity = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, n, c(stages)), c(2));
    e.waitParity(full(stage), e.i32(parity));
    SmallVector<Value> yielded(loop.getRegionIterArgs());
    emitWgmmaGroup(ctx, b, *p, bufA, arith::MulIOp::create(b, loc, stage, c(sizeA)),
                   bufB, arith::MulIOp::create(b, loc, stage, c(sizeB)),
                   yielded, kWgmmaNoWait);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    // Step n - 1's group is done in this warpgroup: its first thread
    // releases the stage (an arrive with no transactions, predicated like
    // the copies).
    {
      Value leader = e.isZero(arith::RemUIOp::create(b, loc, ctx.threadId,
                                                      c(threads / warpgroups)));
      Value notFirst =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n, c(1));
      Value previous = arith::RemUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, n, c(stages - 1)), c(stages));
      NVVM::MBarrierArriveExpectTxOp::create(
          b, loc, Type(), empty(previous), e.i32(0), NVVM::MemScopeKind::CTA,
          /*relaxed=*/false, arith::AndIOp::create(b, loc, leader, notFirst));
    }
    issue(arith::AddIOp::create(b, loc, n, c(stages - 1)), /*mayReuse=*/true,
          consumerCopier);
    scf::YieldOp::create(b, loc, yielded);
  }
  ValueRange results =
      closeInFlightWgmmaLoop(b, loc, nonEmptyLoop, loop.getResults());
  unpackWgmmaAccumulators(ctx, b, *p, SmallVector<Value>(results), elements);
  // In an enclosing loop (a persistent kernel's loop over tiles) the next
  // iteration initializes the mbarriers again: once every thread is past
  // its last wait on them, thread 0 invalidates them, as an mbarrier must
  // be before it is initialized anew.
  if (inLoop(op)) {
    ctx.barrier(b);
    OpBuilder::InsertionGuard guard(b);
    e.ifThen(isThread0);
    for (int64_t s = 0; s < stages; ++s) {
      NVVM::MBarrierInvalOp::create(b, loc, full(c(s)));
      NVVM::MBarrierInvalOp::create(b, loc, empty(c(s)));
    }
  }
  // Every copy issued was waited for (a step is issued only below the upper
  // bound, and each is consumed), and every wgmma group was waited for
  // after the loop; the mbarriers lie past the stage buffers.
  ctx.lastKLoopStaging = KernelContext::StagingRange{
      op.getResult(0), stagingStart, stagingEnd - stagingStart};
  Value result = vector::FromElementsOp::create(b, loc, accType, elements);
  rewriter.replaceOp(
      op, convertLayout(ctx, b, {result, p->acc}, layoutOf(op.getResult(0)), op)
              .vec);
  return success();
}

void kbench::gpu_lowering::populateTmaPipelinePatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  // Outranks the cp.async loop (3), which leaves TMA loops alone anyway.
  patterns.add<TmaPipelinedLoop>(converter, ctx, /*benefit=*/4);
}
