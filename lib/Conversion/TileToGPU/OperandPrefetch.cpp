//===- OperandPrefetch.cpp - cp.async prefetch of a loop's mma operands ---===//
//
// A loop with `tile.pipeline_stages = S` that is not a K loop but whose
// tensor-core (mma_sync or wgmma) tile.mma ops read operands loaded in the
// loop body (PrefetchRules.h: attention's key and value tiles) lowers like a
// plain loop, plus, per prefetched
// operand, S swizzled stage buffers filled by cp.async S - 1 iterations
// ahead:
//
//   prologue: issue iterations 0 .. S-2 into stages 0 .. S-2 (one group each)
//   body k:   wait until at most S - 2 groups are pending (k's has landed)
//             barrier: k's tiles are visible to every thread, and every
//             thread has finished iteration k - 1, which read stage
//             (k - 1) mod S
//             issue iteration k + S - 1 into stage (k + S - 1) mod S
//             ... the body; its tile.mma ops read the operands from stage
//             k mod S
//   after:    wait for every group
//
// With the overlap_copies knob, on wgmma the copies of iteration k + S - 1
// are issued after the body's first wgmma group is committed, before it is
// waited for: the tensor cores run that group (attention's scores) while
// the warps compute the copies' addresses and issue them, instead of after.
// Their index arithmetic stays at the head; the tile.mma pattern emits the
// copies themselves (KernelContext::afterGroupCommit). No group in flight
// reads what they write: the group reads stage k mod S, a deferred group of
// k - 1 (below) stage (k - 1) mod S, and the copies fill stage
// (k + distance) mod S, distance being S - 1 or S - 2.
//
// Where the last wgmma of the body may stay in flight into the next
// iteration (getDeferredWaitMma, S >= 3), the copies run S - 2 iterations
// ahead instead (so stage (k - 1) mod S, still read by k - 1's deferred
// group until the first wgmma of k waits, is not overwritten before the
// barrier of k + 1), and the loop sits in `scf.if (lb < ub)` ending with a
// wait for every wgmma group. A loop that mma_overlap rotated
// (MmaOverlapRules.h) leaves both of its wgmma groups in flight and waits
// for each just before the first use of its result in the same iteration
// (getOverlapWaits), so the copies run S - 1 iterations ahead.
//
// With the stage_barriers knob the stages are paced by two mbarriers each
// instead of the wait for the thread's own copies and the CTA barrier:
//
//   full[s]   every thread's copies of the stage's iteration arrive on it
//             as they land (cp.async.mbarrier.arrive.noinc; a plain arrive
//             after the element stores of unaligned rows);
//   empty[s]  every thread arrives on it at the end of an iteration that
//             read stage s, when its groups reading the stage are done.
//
//   body k:   wait full[k mod S] (parity (k / S) & 1), proxy fence
//             if iteration k + S - 1 is in the loop: wait
//             empty[(k + S - 1) mod S] for iteration k - 1's release
//             (parity ((k + S - 1) / S + 1) & 1: a fresh barrier counts as
//             released), issue its copies, arrive on its full barrier
//             ... the body ...
//             arrive on empty[k mod S]
//
// A warp then waits only for the tiles it reads and for the one stage it
// overwrites, so the two warpgroups of attention need not run in step.
// With ping_pong as well they take turns to issue the body's first wgmma
// group (named barriers kPingPongBarrierId + w), so that one's softmax runs
// while the other's scores group does.
// Copies of iterations past the loop's end are not issued (nothing would
// consume their arrivals), and no group outlives its iteration (no deferred
// wait: the empty arrival must follow the last read of the stage).
//
// Each thread copies 16-byte chunks of the tile's rows (consecutive threads
// along a row) to emitStagedOffset(row, col), where the mma's impl reads
// them (rows as they are in memory: of K for an MxK A or NxK B, of M for a
// KxM A, of N for a KxN B; in wgmma's 1024-byte aligned blocks of 64
// elements for wgmma, whose reads go through the async proxy: a
// fence.proxy.async follows the wait, before the barrier). A chunk past the
// memref, or of an iteration past the loop's end, copies 0 bytes and
// zero-fills. 16-byte copies need rows whose length is a multiple of 8
// elements; the copies are versioned at run time on that, the other version
// loads elements (zero past the memref) and stores whole chunks.
//
// The copies' tile indices are the prefetched loads' own index expressions
// (scalar ops of the induction variable and values from outside the loop),
// cloned for the iteration being copied. The tile.load ops themselves then
// lower to nothing (MemoryLowering.cpp) and the tile.mma pattern reads the
// operands from KernelContext::prefetchedTiles (TensorCore.cpp).
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"
#include "TensorCore.h"
#include "kbench/Conversion/TileToGPU/MmaOverlapRules.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/PrefetchRules.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
/// One prefetched operand as the lowering copies it.
struct StagedOperand {
  PrefetchedOperand operand;
  View view;
  Value buffer;
  int64_t stageSize = 0;
  /// The plan of the operand's mma: where its impl reads each element.
  TensorCorePlan plan;
};

/// One iteration's copies before they are emitted: whether the iteration
/// is in the loop, and each operand's tile starts.
struct IterationCopies {
  Value inRange;
  SmallVector<SmallVector<Value>> starts;
};

/// Copies the tiles of `copies` into stage `stage` (cp.async where
/// `rowsAligned`, else element loads and 16-byte shared stores, each chunk
/// zero past the memref or when the iteration is past the loop's end) and
/// commits them as one group (empty, and complete at once, where rows are
/// not aligned), or, given the stage's `full` mbarrier, arrives on it when
/// they land.
static void emitIterationCopies(KernelContext &ctx, OpBuilder &b,
                                ArrayRef<StagedOperand> operands,
                                Value rowsAligned,
                                const IterationCopies &copies, Value stage,
                                Value full = {}) {
  Location loc = ctx.loc;
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, rowsAligned,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    for (bool aligned : {true, false}) {
      b.setInsertionPoint(aligned ? ifOp.thenBlock()->getTerminator()
                                  : ifOp.elseBlock()->getTerminator());
      for (auto [staged, start] : llvm::zip(operands, copies.starts)) {
        Value stageBase = arith::MulIOp::create(
            b, loc, stage, ctx.constIndex(b, staged.stageSize));
        emitStagedTileCopy(ctx, b, staged.plan, staged.operand.isA, staged.view,
                           start, copies.inRange, staged.buffer, stageBase,
                           aligned);
      }
      if (!full)
        continue;
      // .noinc: the barrier's count already holds this arrival.
      if (aligned)
        NVVM::CpAsyncMBarrierArriveOp::create(b, loc, full,
                                              /*noinc=*/true);
      else
        NVVM::MBarrierArriveOp::create(b, loc, Type(), full, Value());
    }
  }
  if (!full)
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

/// The two mbarriers of each stage of a loop paced by stage_barriers:
/// full[0 .. S) then empty[0 .. S), each counting every thread.
struct StageBarriers {
  Value barriers;
  int64_t stages = 0;

  explicit operator bool() const { return static_cast<bool>(barriers); }
  Value full(OpBuilder &b, Location loc, Value stage) const {
    return sharedPointer(b, loc, barriers, stage, kMbarrierBytes);
  }
  Value empty(OpBuilder &b, Location loc, Value stage) const {
    Value index = arith::AddIOp::create(
        b, loc, stage, arith::ConstantIndexOp::create(b, loc, stages));
    return sharedPointer(b, loc, barriers, index, kMbarrierBytes);
  }
  /// Waits until the phase of `barrier` with parity `parity` (index, 0 or
  /// 1) completed.
  static void wait(OpBuilder &b, Location loc, Value barrier, Value parity) {
    emitMbarrierWaitParity(
        b, loc, barrier,
        arith::IndexCastOp::create(b, loc, b.getI32Type(), parity));
  }
};

/// The parity of phase `iteration / stages` of a stage's barrier.
static Value phaseParity(KernelContext &ctx, OpBuilder &b, Value iteration,
                         int64_t stages) {
  Location loc = ctx.loc;
  Value phase =
      arith::DivUIOp::create(b, loc, iteration, ctx.constIndex(b, stages));
  return arith::RemUIOp::create(b, loc, phase, ctx.constIndex(b, 2));
}

/// An scf.if that only thread 0 enters; the builder is inside it until the
/// returned guard goes out of scope.
static OpBuilder::InsertionGuard enterThread0(KernelContext &ctx,
                                              OpBuilder &b) {
  auto isThread0 = scf::IfOp::create(
      b, ctx.loc, TypeRange{},
      arith::CmpIOp::create(b, ctx.loc, arith::CmpIPredicate::eq, ctx.threadId,
                            ctx.constIndex(b, 0)),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(isThread0.thenBlock()->getTerminator());
  return guard;
}

/// One iteration's copies into `stage` in a loop paced by `barriers`:
/// nothing when the iteration is past the loop's end; else, unless
/// `emptyParity` is null (a stage's first fill), the wait for the stage's
/// release, the copies and their arrival on the stage's full barrier.
static void emitPacedIterationCopies(KernelContext &ctx, OpBuilder &b,
                                     ArrayRef<StagedOperand> operands,
                                     Value rowsAligned,
                                     const IterationCopies &copies, Value stage,
                                     const StageBarriers &barriers,
                                     Value emptyParity) {
  Location loc = ctx.loc;
  auto inRange = scf::IfOp::create(b, loc, TypeRange{}, copies.inRange,
                                   /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(inRange.thenBlock()->getTerminator());
  if (emptyParity)
    StageBarriers::wait(b, loc, barriers.empty(b, loc, stage), emptyParity);
  emitIterationCopies(ctx, b, operands, rowsAligned, copies, stage,
                      barriers.full(b, loc, stage));
}

/// Emits the copies of every prefetched operand for one iteration.
class PrefetchEmitter {
public:
  PrefetchEmitter(KernelContext &ctx, OpBuilder &b, scf::ForOp loop,
                  ConversionPatternRewriter &rewriter,
                  ArrayRef<StagedOperand> operands, Value upperBound,
                  Value rowsAligned)
      : ctx(ctx), b(b), loop(loop), rewriter(rewriter), operands(operands),
        upperBound(upperBound), rowsAligned(rowsAligned) {}

  /// The index arithmetic of iteration `iv`'s copies.
  IterationCopies prepare(Value iv) {
    IterationCopies copies;
    copies.inRange = arith::CmpIOp::create(
        b, ctx.loc, arith::CmpIPredicate::slt, iv, upperBound);
    for (const StagedOperand &staged : operands)
      copies.starts.push_back(tileStarts(staged, iv));
    return copies;
  }

  /// Copies iteration `iv`'s tiles into stage `stage` and commits them as
  /// one group (empty, and complete at once, where rows are not aligned).
  void issue(Value iv, Value stage) {
    emitIterationCopies(ctx, b, operands, rowsAligned, prepare(iv), stage);
  }

  /// Copies iteration `iv`'s tiles into stage `stage` of a loop paced by
  /// `barriers` (emitPacedIterationCopies).
  void issuePaced(Value iv, Value stage, const StageBarriers &barriers,
                  Value emptyParity) {
    emitPacedIterationCopies(ctx, b, operands, rowsAligned, prepare(iv), stage,
                             barriers, emptyParity);
  }

private:
  Value c(int64_t v) { return ctx.constIndex(b, v); }

  /// The load's index `index` at iteration `iv`: its scalar ops cloned with
  /// the induction variable replaced (PrefetchRules.h guarantees the form).
  Value indexAt(Value index, Value iv, IRMapping &mapping) {
    if (index == loop.getInductionVar())
      return iv;
    if (loop.isDefinedOutsideOfLoop(index))
      return rewriter.getRemappedValue(index);
    if (Value done = mapping.lookupOrNull(index))
      return done;
    Operation *def = index.getDefiningOp();
    for (Value operand : def->getOperands())
      mapping.map(operand, indexAt(operand, iv, mapping));
    Operation *clone = b.clone(*def, mapping);
    for (auto [from, to] : llvm::zip(def->getResults(), clone->getResults()))
      mapping.map(from, to);
    return mapping.lookup(index);
  }

  /// The first global coordinate of the tile along each dim at `iv`.
  SmallVector<Value> tileStarts(const StagedOperand &staged, Value iv) {
    IRMapping mapping;
    SmallVector<Value> starts;
    tile::LoadOp load = staged.operand.load;
    for (auto [index, size] :
         llvm::zip(load.getIndices(), staged.view.tileShape))
      starts.push_back(arith::MulIOp::create(
          b, ctx.loc, indexAt(index, iv, mapping), c(size)));
    return starts;
  }

  KernelContext &ctx;
  OpBuilder &b;
  scf::ForOp loop;
  ConversionPatternRewriter &rewriter;
  ArrayRef<StagedOperand> operands;
  Value upperBound, rowsAligned;
};

/// The first tile.mma directly in `loop`'s body (not in a branch: every
/// iteration issues its group) when it reads a prefetched operand on
/// wgmma, else null.
static tile::MmaOp getFirstWgmmaOfBody(scf::ForOp loop,
                                       ArrayRef<StagedOperand> operands) {
  auto mmas = loop.getBody()->getOps<tile::MmaOp>();
  if (mmas.empty())
    return {};
  tile::MmaOp first = *mmas.begin();
  for (const StagedOperand &staged : operands)
    if (staged.operand.mma == first)
      return staged.plan.isWgmma() ? first : tile::MmaOp();
  return {};
}

/// Whether the converter knows every result type of `op`.
static bool resultsConvert(const TypeConverter &converter, Operation *op) {
  SmallVector<Type> types;
  return succeeded(converter.convertTypes(op->getResultTypes(), types));
}

/// The loop of PrefetchRules.h.
struct PrefetchedLoopLowering : KernelPattern<scf::ForOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::ForOp op) const override {
    int64_t stages = getPipelineStages(op);
    return stages >= 2 && !getMmaLoopMma(op) &&
           !whyNotOperandPrefetch(op, ctx.numWarps, stages) &&
           resultsConvert(*getTypeConverter(), op);
  }
  LogicalResult lower(scf::ForOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override;
};
} // namespace

LogicalResult
PrefetchedLoopLowering::lower(scf::ForOp op, OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const {
  OpBuilder &b = rewriter;
  Location loc = op.getLoc();
  int64_t stages = getPipelineStages(op);
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };
  SmallVector<StagedOperand, 4> operands;
  Value rowsAligned;
  for (const PrefetchedOperand &operand : getPrefetchedOperands(op)) {
    tile::LoadOp load = operand.load;
    FailureOr<View> view = lookupView(
        ctx, load, load.getView(), rewriter.getRemappedValue(load.getView()));
    if (failed(view))
      return failure();
    FailureOr<TensorCorePlan> plan =
        planTensorCoreMma(operand.mma, ctx.numWarps);
    if (failed(plan))
      return failure();
    StagedOperand staged{operand, *view, Value(),
                         operand.rows * operand.rowElems, *plan};
    staged.buffer =
        ctx.allocShared(b, view->elementType, stages * staged.stageSize,
                        plan->bufferAlignment());
    Value aligned =
        ctx.divisibleBy(b, view->dims.back(), plan->chunkElements());
    rowsAligned =
        rowsAligned
            ? arith::AndIOp::create(b, loc, rowsAligned, aligned).getResult()
            : aligned;
    operands.push_back(staged);
  }
  Value lb = adaptor.getLowerBound(), ub = adaptor.getUpperBound(),
        step = adaptor.getStep();
  // How many iterations ahead the copies run: S - 1, or S - 2 where a
  // group stays in flight past its iteration and still reads its stage.
  // A loop rotated by mma_overlap waits for each group at its result's
  // first use (MmaOverlapRules.h); another may defer its last group's wait
  // to the next iteration's first wgmma (PrefetchRules.h).
  SmallVector<WgmmaWait> overlapWaits = getOverlapWaits(op, stages);
  // With stage barriers each thread releases a stage at the end of the
  // iteration that read it, so no group may outlive its iteration.
  tile::MmaOp deferred = overlapWaits.empty() && !ctx.stageBarriers
                             ? getDeferredWaitMma(op, stages)
                             : tile::MmaOp();
  if (deferred)
    ctx.deferredWaitMmas.insert(deferred);
  if (!overlapWaits.empty())
    for (auto mma : op.getBody()->getOps<tile::MmaOp>())
      ctx.deferredWaitMmas.insert(mma);
  // A rotated loop waits for both groups inside the iteration: only a
  // deferred group outlives it.
  int64_t distance = deferred ? stages - 2 : stages - 1;

  // The stage barriers: thread 0 initializes them, a CTA barrier publishes
  // them (and, in an enclosing loop, ends every use of the previous ones).
  StageBarriers paced;
  if (ctx.stageBarriers) {
    paced.stages = stages;
    paced.barriers =
        ctx.allocShared(b, b.getI64Type(), 2 * stages, kMbarrierBytes);
    if (inLoop(op))
      ctx.barrier(b);
    {
      OpBuilder::InsertionGuard thread0 = enterThread0(ctx, b);
      Value threads = arith::ConstantOp::create(
          b, loc, b.getI32Type(), b.getI32IntegerAttr(32 * ctx.numWarps));
      for (int64_t s = 0; s < stages; ++s) {
        NVVM::MBarrierInitOp::create(b, loc, paced.full(b, loc, c(s)), threads,
                                     Value());
        NVVM::MBarrierInitOp::create(b, loc, paced.empty(b, loc, c(s)), threads,
                                     Value());
      }
      NVVM::FenceMbarrierInitOp::create(b, loc);
    }
    ctx.barrier(b);
  }

  // With ping_pong the two warpgroups take turns to issue the body's first
  // wgmma group: warpgroup w waits on named barrier kPingPongBarrierId + w
  // before it and arrives on the other's after its commit; the second
  // arrives on the first's before the loop, so the first goes first, and
  // the first consumes the second's last arrival after the loop. Both
  // barriers count the two warpgroups' threads. The warpgroup index is read
  // from lane 0 so that ptxas knows the branches on it to be warp-uniform
  // (a divergent branch near wgmma serializes it, C7518).
  tile::MmaOp firstWgmma = getFirstWgmmaOfBody(op, operands);
  bool turns = paced && ctx.pingPong && firstWgmma;
  Value ownTurn, otherTurn, isFirstWarpgroup, turnThreads;
  if (turns) {
    auto i32 = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                       b.getI32IntegerAttr(v));
    };
    Value warp = gpu::ShuffleOp::create(b, loc,
                                        arith::IndexCastOp::create(
                                            b, loc, b.getI32Type(), ctx.warpId),
                                        i32(0), i32(32), gpu::ShuffleMode::IDX)
                     .getShuffleResult();
    Value warpgroup = arith::DivUIOp::create(b, loc, warp, i32(4));
    ownTurn = arith::AddIOp::create(b, loc, i32(kPingPongBarrierId), warpgroup);
    otherTurn =
        arith::SubIOp::create(b, loc, i32(kPingPongBarrierId + 1), warpgroup);
    turnThreads = i32(32 * ctx.numWarps);
    isFirstWarpgroup = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             warpgroup, i32(0));
    auto second = scf::IfOp::create(b, loc, TypeRange{}, isFirstWarpgroup,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(second.elseBlock()->getTerminator());
    NVVM::BarrierArriveOp::create(b, loc, i32(kPingPongBarrierId), turnThreads);
  }

  // Prologue: iterations 0 .. distance - 1 (each stage's first fill).
  {
    PrefetchEmitter prologue(ctx, b, op, rewriter, operands, ub, rowsAligned);
    for (int64_t s = 0; s < distance; ++s) {
      Value iv = arith::AddIOp::create(
          b, loc, lb, arith::MulIOp::create(b, loc, step, c(s)));
      if (paced)
        prologue.issuePaced(iv, c(s), paced, /*emptyParity=*/Value());
      else
        prologue.issue(iv, c(s));
    }
  }

  // The head of the body, emitted into the old body before it moves (its
  // induction variable is then remapped with the rest of the body).
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.getBody());
    Value iv = op.getInductionVar();
    Value iteration = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, iv, lb), step);
    Value stage = arith::RemUIOp::create(b, loc, iteration, c(stages));
    if (paced)
      StageBarriers::wait(b, loc, paced.full(b, loc, stage),
                          phaseParity(ctx, b, iteration, stages));
    else
      NVVM::CpAsyncWaitGroupOp::create(b, loc, distance - 1);
    // wgmma reads the stages through the async proxy. With stage barriers
    // the fence follows the wait: the copies' threads cannot fence after
    // their cp.async land, the barrier's phase orders them before it.
    if (const StagedOperand *wgmma = llvm::find_if(
            operands,
            [](const StagedOperand &staged) { return staged.plan.isWgmma(); });
        wgmma != operands.end())
      emitStagingFence(ctx, b, wgmma->plan);
    if (!paced)
      ctx.barrier(b);
    if (turns)
      NVVM::BarrierOp::create(b, loc, TypeRange{}, ownTurn, turnThreads,
                              NVVM::BarrierReductionAttr(), Value());
    Value ahead = arith::AddIOp::create(
        b, loc, iv, arith::MulIOp::create(b, loc, step, c(distance)));
    Value aheadIteration =
        arith::AddIOp::create(b, loc, iteration, c(distance));
    Value aheadStage =
        arith::RemUIOp::create(b, loc, aheadIteration, c(stages));
    // The release of the stage's previous iteration, aheadIteration - S:
    // that phase of empty[aheadStage] has parity
    // (aheadIteration / S - 1) & 1; before a stage's first release the
    // barrier is in phase 0 and a wait for parity 1 returns at once.
    Value emptyParity =
        paced ? phaseParity(
                    ctx, b,
                    arith::AddIOp::create(b, loc, aheadIteration, c(stages)),
                    stages)
              : Value();
    PrefetchEmitter body(ctx, b, op, rewriter, operands, ub, rowsAligned);
    // With overlap_copies, the copies wait for the first wgmma group of the
    // body to be committed: the tensor cores then run it while the warps
    // issue them (the stage they fill is none that an in-flight group
    // reads: it is `distance` ahead of the one this iteration reads, and the
    // deferred group of the previous iteration reads the stage before it).
    // A loop that mma_overlap rotated keeps them at its head. With
    // ping_pong the other warpgroup's turn begins at that commit too.
    bool copiesAfterCommit =
        ctx.overlapCopies && firstWgmma && overlapWaits.empty();
    if (copiesAfterCommit || turns) {
      std::optional<IterationCopies> copies;
      if (copiesAfterCommit)
        copies = body.prepare(ahead);
      std::vector<StagedOperand> staged(operands.begin(), operands.end());
      KernelContext &kernel = ctx;
      ctx.afterGroupCommit[firstWgmma] = [&kernel, staged, rowsAligned, copies,
                                          aheadStage, paced, emptyParity,
                                          otherTurn,
                                          turnThreads](OpBuilder &at) {
        if (otherTurn)
          NVVM::BarrierArriveOp::create(at, kernel.loc, otherTurn, turnThreads);
        if (!copies)
          return;
        if (paced)
          emitPacedIterationCopies(kernel, at, staged, rowsAligned, *copies,
                                   aheadStage, paced, emptyParity);
        else
          emitIterationCopies(kernel, at, staged, rowsAligned, *copies,
                              aheadStage);
      };
    }
    if (!copiesAfterCommit) {
      if (paced)
        body.issuePaced(ahead, aheadStage, paced, emptyParity);
      else
        body.issue(ahead, aheadStage);
    }
    // Every group of the iteration was waited for before its end (none is
    // deferred with stage barriers): the thread is done with the stage.
    if (paced) {
      OpBuilder::InsertionGuard end(b);
      b.setInsertionPoint(op.getBody()->getTerminator());
      NVVM::MBarrierArriveOp::create(b, loc, Type(), paced.empty(b, loc, stage),
                                     Value());
    }
    for (const StagedOperand &staged : operands)
      ctx.prefetchedTiles[staged.operand.load] = {
          staged.buffer,
          arith::MulIOp::create(b, loc, stage, c(staged.stageSize))};
    for (const WgmmaWait &wait : overlapWaits) {
      b.setInsertionPoint(wait.before);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, wait.pending);
    }
  }

  // A deferred group is waited for after the loop, in a branch that only
  // runs loops of at least one step (openInFlightWgmmaLoop).
  scf::IfOp nonEmptyLoop;
  if (deferred)
    nonEmptyLoop = openInFlightWgmmaLoop(b, loc, lb, ub, adaptor.getInitArgs());
  auto newFor =
      scf::ForOp::create(rewriter, loc, lb, ub, step, adaptor.getInitArgs());
  rewriter.eraseBlock(newFor.getBody());
  rewriter.inlineRegionBefore(op.getRegion(), newFor.getRegion(),
                              newFor.getRegion().end());
  if (failed(rewriter.convertRegionTypes(&newFor.getRegion(),
                                         *getTypeConverter())))
    return failure();
  ValueRange results = newFor.getResults();
  if (deferred)
    results = closeInFlightWgmmaLoop(b, loc, nonEmptyLoop, results);
  if (turns) {
    // The second warpgroup's last arrival on the first's barrier.
    auto first = scf::IfOp::create(b, loc, TypeRange{}, isFirstWarpgroup,
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(first.thenBlock()->getTerminator());
    NVVM::BarrierOp::create(
        b, loc, TypeRange{},
        arith::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(kPingPongBarrierId)),
        turnThreads, NVVM::BarrierReductionAttr(), Value());
  }
  if (!paced) {
    // Copies of iterations past the end are still zero-filling.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  } else if (inLoop(op)) {
    // Every copy landed (each was waited for); the enclosing loop's next
    // iteration initializes the barriers again, which a barrier must be
    // invalidated for once every thread is past its last wait on it.
    ctx.barrier(b);
    OpBuilder::InsertionGuard thread0 = enterThread0(ctx, b);
    for (int64_t s = 0; s < 2 * stages; ++s)
      NVVM::MBarrierInvalOp::create(
          b, loc, sharedPointer(b, loc, paced.barriers, c(s), kMbarrierBytes));
  }
  rewriter.replaceOp(op, results);
  return success();
}

void kbench::gpu_lowering::populateOperandPrefetchPatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  // Outranks the plain and the unsupported-depth scf.for patterns.
  patterns.add<PrefetchedLoopLowering>(converter, ctx, /*benefit=*/3);
}
