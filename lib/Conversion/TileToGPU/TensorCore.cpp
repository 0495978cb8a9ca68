//===- TensorCore.cpp - Staging and K loops of the tensor-core impls ------===//
//
// What impl = mma_sync and impl = wgmma share (TensorCore.h): the plan, the
// staging of both operand tiles into swizzled shared memory and the two
// patterns that own a tensor-core tile.mma.
//
// A tile.mma outside a pipelined loop stores its operand tiles from the
// registers of their load layouts into the staged buffers (a transposed
// operand is transposed by this store), publishes them with a barrier and
// runs the impl's steps (emitMmaSyncSteps, emitWgmmaSteps). An A operand
// defined outside the loop the mma sits in (attention's query tile) is
// staged once, before the loop. An A operand whose layout already is the
// A fragment of the mma (getMmaSyncOperandALayout of the mma_sync warp
// grid; for wgmma the accumulator layout of a wgmma as wide as K) is not
// staged at all: its fragments are read from the registers. That is
// attention's probabilities, the bf16 cast of the score mma's result (on a
// warp_split(rows) grid for mma_sync, always for wgmma).
//
// A K loop with `tile.pipeline_stages = S` (2 <= S) around such a tile.mma
// (MmaSyncRules.h: A MxK and B NxK through zero-padded views) copies its
// operand tiles straight from global to shared memory with cp.async, S - 1
// steps ahead, into S swizzled buffers per operand:
//
//   prologue: issue steps lb .. lb + (S-2) step into buffers 0 .. S-2
//   loop k:   issue step k + (S-1) step into buffer (k - 1) mod S
//             wait until step k's group landed, (wgmma: proxy fence), barrier
//             the impl's steps from buffer k mod S, barrier
//   after:    wait for every group
//
// Each thread copies 16-byte chunks (8 halves or 4 floats of a row of K,
// consecutive threads along a row, so a warp's copies are coalesced); a chunk
// past the memref, or of a step past the end, copies 0 bytes and zero-fills
// (the operand views have pad(zero) or no pad). A 16-byte copy needs 16-byte
// aligned rows, which the kernel does not promise: each step's copies are
// versioned at run time, cp.async when both operands' K is a multiple of a
// chunk's elements, and
// otherwise element loads (zero past the memref) with one 16-byte shared
// store per chunk, in a loop LLVM must not unroll.
//
// With S >= 4 a wgmma loop keeps each step's group in flight while the next
// step's copies are issued, so the copies run S - 2 steps ahead:
//
//   loop k:   wait until step k's group landed, proxy fence, barrier
//             issue step k + (S-2) into buffer (k + S-2) mod S
//             wgmma group from buffer k mod S; wait until at most 1 is in
//             flight (none after the last step)
//
// and the loop carries the accumulators as wgmma's register structs.
//
// wgmma stages the rows of A in the order of its D fragment
// (wgmmaStagedRow); both impls swizzle by 16-byte chunk with the row's key
// (mmaSyncSwizzle), which for rows of 64 elements in 1024-byte aligned
// buffers is the 128-byte swizzle that wgmma's descriptors name.
//
//===----------------------------------------------------------------------===//

#include "TensorCore.h"
#include "ChunkCopy.h"
#include "GlobalAccess.h"
#include "SharedMemory.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/PrefetchRules.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

FailureOr<TensorCorePlan>
kbench::gpu_lowering::planTensorCoreMma(tile::MmaOp op, int64_t numWarps,
                                        int64_t stages) {
  tile::MmaImpl impl = op.getImplKind();
  if (std::optional<std::string> why =
          whyNotTensorCore(op, impl, numWarps, stages))
    return op.emitOpError() << *why;
  TensorCorePlan p;
  p.impl = impl;
  p.numWarps = numWarps;
  p.transA = op.getTransposeA();
  p.transB = op.getTransposeB();
  ArrayRef<int64_t> c = op.getAcc().getType().getShape();
  p.m = c[0];
  p.n = c[1];
  p.k = p.transA ? op.getA().getType().getDimSize(0)
                 : op.getA().getType().getDimSize(1);
  p.operandType = op.getA().getType().getElementType();
  // A transposed operand keeps its rows (of M or N) in shared memory and is
  // read with ldmatrix.trans; rows of N need 16-element multiples for the
  // swizzle (M always is one).
  p.kMajorA = p.transA;
  // ldmatrix.trans is 16-bit: a tf32 KxN B is transposed by its store from
  // registers into rows of K (a tf32 A is MxK by the rules).
  p.kMajorB = !p.transB && p.n % 16 == 0 && !p.operandType.isF32();
  if (p.isWgmma()) {
    // A as rows of K (the rules ask for MxK); B as rows of K, or of N in
    // 64-element columns (a KxN B, N a multiple of 64 by the rules).
    p.grid = MmaSyncWarpGrid{numWarps, 1, 0, 0};
    p.acc = *getWgmmaLayout(p.m, p.n, numWarps);
    return p;
  }
  p.grid = *getMmaSyncWarpGrid(p.m, p.n, numWarps, op.getWarpSplitKind());
  p.acc = *getMmaSyncLayout(p.m, p.n, numWarps, op.getWarpSplitKind());
  return p;
}

/// A run of a thread stays in one 16-byte chunk when it is at most a chunk's
/// elements (runs start at multiples of their power-of-two length).
static bool runsFitChunks(const TileValue &v) {
  Type elementType = cast<VectorType>(v.vec.getType()).getElementType();
  return v.layout.innerPerThread() <= getChunkElements(elementType);
}

std::pair<int64_t, int64_t>
kbench::gpu_lowering::getStagedTileShape(const TensorCorePlan &p, bool isA) {
  if (isA)
    return p.transA ? std::pair{p.k, p.m} : std::pair{p.m, p.k};
  return p.transB ? std::pair{p.n, p.k} : std::pair{p.k, p.n};
}

Value kbench::gpu_lowering::emitStagedOffset(KernelContext &ctx, OpBuilder &b,
                                             const TensorCorePlan &p, bool isA,
                                             Value row, Value col) {
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };
  // wgmma: `rows` rows whose elements are split into blocks of 64 (one
  // 128-byte swizzle row each), block col / 64 holding every row's 64.
  auto wgmmaBlocks = [&](Value stagedRow, Value col, int64_t rows,
                         int64_t rowElems) -> Value {
    if (rowElems == kWgmmaRowElems)
      return emitMmaSyncSwizzle(ctx, b, stagedRow, col, kWgmmaRowElems);
    Value block = arith::DivUIOp::create(b, ctx.loc, col, c(kWgmmaRowElems));
    Value inBlock = arith::RemUIOp::create(b, ctx.loc, col, c(kWgmmaRowElems));
    return arith::AddIOp::create(
        b, ctx.loc,
        arith::MulIOp::create(b, ctx.loc, block, c(rows * kWgmmaRowElems)),
        emitMmaSyncSwizzle(ctx, b, stagedRow, inBlock, kWgmmaRowElems));
  };
  if (isA) {
    if (p.isWgmma())
      return wgmmaBlocks(emitWgmmaStagedRow(ctx, b, row, p.m, p.numWarps), col,
                         p.m, p.k);
    return emitMmaSyncSwizzle(ctx, b, row, col, p.kMajorA ? p.m : p.k,
                              p.elementBytes());
  }
  if (p.transB)
    return p.isWgmma()
               ? wgmmaBlocks(row, col, p.n, p.k)
               : emitMmaSyncSwizzle(ctx, b, row, col, p.k, p.elementBytes());
  if (!p.kMajorB) // transposed element by element into rows of K
    return emitMmaSyncSwizzle(ctx, b, col, row, p.k, p.elementBytes());
  if (!p.isWgmma())
    return emitMmaSyncSwizzle(ctx, b, row, col, p.n);
  // wgmma's N-major B: the K rows of N in blocks (columns) of 64 N.
  return wgmmaBlocks(row, col, p.k, p.n);
}

/// Stores operand A into its swizzled buffer: a is MxK (coords (m, k)) or,
/// transposed, KxM (coords (k, m)), staged as it is (rows of K, or of M for
/// ldmatrix.trans).
static void stageOperandA(KernelContext &ctx, OpBuilder &b,
                          const TensorCorePlan &p, const TileValue &a,
                          Value bufA) {
  storeToShared(
      ctx, b, a, bufA,
      [&](ValueRange c) {
        return emitStagedOffset(ctx, b, p, /*isA=*/true, c[0], c[1]);
      },
      /*innerContiguous=*/runsFitChunks(a));
}

/// Stores operand B into its swizzled buffer: b is KxN (coords (k, n)) or,
/// transposed, NxK (coords (n, k)), staged as it is (rows of N for
/// ldmatrix.trans or wgmma's N-major B, or of K), except a KxN tile whose N
/// is not a multiple of 16, which the store transposes element by element.
static void stageOperandB(KernelContext &ctx, OpBuilder &b,
                          const TensorCorePlan &p, const TileValue &bTile,
                          Value bufB) {
  storeToShared(
      ctx, b, bTile, bufB,
      [&](ValueRange c) {
        return emitStagedOffset(ctx, b, p, /*isA=*/false, c[0], c[1]);
      },
      /*innerContiguous=*/(p.transB || p.kMajorB) && runsFitChunks(bTile));
}

/// The loop around `op` when `op` sits directly in it and its A operand is
/// defined outside: A is the same every iteration (attention's query tile).
static scf::ForOp getLoopInvariantALoop(tile::MmaOp op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop || !loop.isDefinedOutsideOfLoop(op.getA()))
    return {};
  return loop;
}

/// The impl's steps over one staged K tile.
static void emitTensorCoreSteps(KernelContext &ctx, OpBuilder &b,
                                const TensorCorePlan &p, Value bufA,
                                Value baseA, Value bufB, Value baseB,
                                SmallVectorImpl<Value> &acc,
                                bool waitForGroup = true,
                                function_ref<void()> afterCommit = {}) {
  if (p.isWgmma())
    emitWgmmaSteps(ctx, b, p, bufA, baseA, bufB, baseB, acc, Value(),
                   waitForGroup, afterCommit);
  else
    emitMmaSyncSteps(ctx, b, p, bufA, baseA, bufB, baseB, acc);
}

SmallVector<Value>
kbench::gpu_lowering::getRegisterFragmentA(OpBuilder &b, Location loc,
                                           const TensorCorePlan &p, Value a,
                                           int64_t tile, int64_t kk) {
  int64_t rowStride = p.k / 4; // column positions per row repeat
  SmallVector<Value> pairs;
  for (int64_t reg = 0; reg < 4; ++reg) {
    int64_t flat = (2 * tile + reg % 2) * rowStride + 4 * kk + 2 * (reg / 2);
    pairs.push_back(vector::ExtractStridedSliceOp::create(
        b, loc, a, ArrayRef<int64_t>{flat}, ArrayRef<int64_t>{2},
        ArrayRef<int64_t>{1}));
  }
  return pairs;
}

/// Whether A, in layout `aLayout`, already holds in every thread the A
/// fragments that thread needs (getRegisterFragmentA), so that the mma reads
/// it from registers and A gets no shared buffer. For wgmma that layout is
/// the accumulator layout of a wgmma as wide as K on the same warps: the
/// bf16 cast of one wgmma's result (attention's probabilities) is the A of
/// the next without leaving the registers.
static bool isAInFragmentRegisters(const TensorCorePlan &p,
                                   const Layout &aLayout) {
  // The layouts below hold k16 fragments of 16-bit pairs; tf32's A fragment
  // (m16n8k8) is another, which no layout names yet.
  if (p.transA || p.isTf32())
    return false;
  if (p.isWgmma())
    return aLayout == getWgmmaLayout(p.m, p.k, p.numWarps);
  return aLayout ==
         getMmaSyncOperandALayout(p.m, p.k, p.numWarps, p.grid.warpsM);
}

namespace {
/// tile.mma with impl = mma_sync or wgmma, operands staged from registers.
struct TensorCoreMmaLowering : KernelPattern<tile::MmaOp> {
  using KernelPattern::KernelPattern;
  bool matches(tile::MmaOp op) const override {
    return isTensorCoreImpl(op.getImplKind());
  }
  LogicalResult lower(tile::MmaOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    FailureOr<TensorCorePlan> p = planTensorCoreMma(op, ctx.numWarps);
    if (failed(p))
      return failure();
    TileValue a{adaptor.getA(), layoutOf(op.getA())};
    TileValue bTile{adaptor.getB(), layoutOf(op.getB())};
    TileValue acc = convertLayout(
        ctx, b, {adaptor.getAcc(), layoutOf(op.getAcc())}, p->acc, op);
    // A tile its loop prefetched (OperandPrefetch.cpp) is already staged,
    // and published by the barrier at the head of the loop body.
    const KernelContext::PrefetchedTile *prefetchedA =
        ctx.lookupPrefetched(getSqueezedLoad(op.getA()));
    const KernelContext::PrefetchedTile *prefetchedB =
        ctx.lookupPrefetched(getSqueezedLoad(op.getB()));
    bool aInRegisters = !prefetchedA && isAInFragmentRegisters(*p, a.layout);
    Value bufA = prefetchedA ? prefetchedA->buffer
                 : aInRegisters
                     ? Value()
                     : ctx.allocShared(b, p->operandType, p->m * p->k,
                                       p->bufferAlignment());
    Value baseA = prefetchedA ? prefetchedA->base : Value();
    Value bufB = prefetchedB ? prefetchedB->buffer
                             : ctx.allocShared(b, p->operandType, p->n * p->k,
                                               p->bufferAlignment());
    Value baseB = prefetchedB ? prefetchedB->base : Value();
    // Whether this op stages an operand at its own place, which a barrier
    // must then publish (and, in a loop, guard from the next iteration).
    bool stagesHere = !prefetchedB;
    // A loop-invariant A is staged once, before its loop; the barrier after
    // every step only guards B's buffer then.
    if (prefetchedA || aInRegisters) {
      // Nothing to stage.
    } else if (scf::ForOp loop = getLoopInvariantALoop(op)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop);
      stageOperandA(ctx, b, *p, a, bufA);
      emitStagingFence(ctx, b, *p);
      ctx.barrier(b);
    } else {
      stageOperandA(ctx, b, *p, a, bufA);
      stagesHere = true;
    }
    if (!prefetchedB)
      stageOperandB(ctx, b, *p, bTile, bufB);
    if (stagesHere) {
      emitStagingFence(ctx, b, *p);
      ctx.barrier(b);
    }
    auto accType = cast<VectorType>(acc.vec.getType());
    SmallVector<Value> elements;
    for (int64_t i = 0, e = accType.getNumElements(); i < e; ++i)
      elements.push_back(
          vector::ExtractOp::create(b, loc, acc.vec, ArrayRef<int64_t>{i}));
    // The loop chose to leave this group in flight (OperandPrefetch.cpp);
    // only operands nothing rewrites before the next iteration's first
    // wgmma may be read then: prefetched stages, registers, an A staged
    // before the loop. The result keeps the accumulator layout, so nothing
    // reads the registers before that wait.
    bool waitForGroup = !ctx.deferredWaitMmas.contains(op) || stagesHere ||
                        layoutOf(op.getResult()) != p->acc;
    // The loop's next copies, where it placed them after this group
    // (OperandPrefetch.cpp).
    std::function<void(OpBuilder &)> copies = ctx.afterGroupCommit.lookup(op);
    auto afterCommit = [&] {
      copies(b);
      ctx.afterGroupCommit.erase(op);
    };
    function_ref<void()> issueCopies;
    if (copies)
      issueCopies = afterCommit;
    if (aInRegisters && p->isWgmma())
      emitWgmmaSteps(ctx, b, *p, Value(), Value(), bufB, baseB, elements, a.vec,
                     waitForGroup, issueCopies);
    else if (aInRegisters)
      emitMmaSyncSteps(ctx, b, *p, Value(), Value(), bufB, baseB, elements,
                       a.vec);
    else
      emitTensorCoreSteps(ctx, b, *p, bufA, baseA, bufB, baseB, elements,
                          waitForGroup, issueCopies);
    // In a loop the next iteration's staging overwrites the buffers, so the
    // reads of this one must end first: a barrier, unless the loop
    // prefetches an operand of this mma, whose lowering puts a barrier at
    // the head of every iteration (OperandPrefetch.cpp), before this op's
    // next staging; the reads here are complete by then (mma_sync reads
    // with ldmatrix, and each wgmma group is waited for). A loop paced by
    // stage barriers has no such barrier.
    bool loopHeadBarrier = (prefetchedA || prefetchedB) && !ctx.stageBarriers;
    if (stagesHere && inLoop(op) && !loopHeadBarrier)
      ctx.barrier(b);
    Value result = vector::FromElementsOp::create(b, loc, accType, elements);
    rewriter.replaceOp(op, convertLayout(ctx, b, {result, p->acc},
                                         layoutOf(op.getResult()), op)
                               .vec);
    return success();
  }
};
} // namespace

/// Copies chunk `chunk` of the operand tile of `view` at `starts` (rows of
/// `rowElems`, consecutive chunks along a row) to its staged place in
/// `buffer` after `stageBase`: with cp.async (`async`) or element loads.
static void emitStagedChunk(KernelContext &ctx, OpBuilder &b,
                            const TensorCorePlan &p, bool isA, const View &view,
                            ArrayRef<Value> starts, Value chunk,
                            int64_t rowElems, Value inRange, Value buffer,
                            Value stageBase, bool async) {
  Location loc = ctx.loc;
  int64_t chunkElements = p.chunkElements();
  Value chunksPerRow = ctx.constIndex(b, rowElems / chunkElements);
  Value row = arith::DivUIOp::create(b, loc, chunk, chunksPerRow);
  Value col = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, chunk, chunksPerRow),
      ctx.constIndex(b, chunkElements));
  ChunkSource source = getChunkSource(ctx, b, view, starts, row, col, inRange);
  Value dst = arith::AddIOp::create(b, loc, stageBase,
                                    emitStagedOffset(ctx, b, p, isA, row, col));
  if (async)
    emitChunkCopyAsync(ctx, b, view, source, buffer, dst);
  else
    emitChunkCopyByElements(ctx, b, view, source, buffer, dst);
}

void kbench::gpu_lowering::emitStagedTileCopy(KernelContext &ctx, OpBuilder &b,
                                              const TensorCorePlan &p, bool isA,
                                              const View &view,
                                              ArrayRef<Value> starts,
                                              Value inRange, Value buffer,
                                              Value stageBase, bool async) {
  auto [rows, rowElems] = getStagedTileShape(p, isA);
  int64_t chunks = rows * rowElems / p.chunkElements();
  for (int64_t first = 0; first < chunks; first += 32 * p.numWarps)
    emitStagedChunk(ctx, b, p, isA, view, starts,
                    arith::AddIOp::create(b, ctx.loc, ctx.threadId,
                                          ctx.constIndex(b, first)),
                    rowElems, inRange, buffer, stageBase, async);
}

void kbench::gpu_lowering::emitSynchronousTileCopy(
    KernelContext &ctx, OpBuilder &b, const TensorCorePlan &p, const View &view,
    ArrayRef<Value> starts, Value inRange, Value buffer, Value stageBase,
    bool isA) {
  Location loc = ctx.loc;
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };
  auto [rows, rowElems] = getStagedTileShape(p, isA);
  int64_t chunksPerRow = rowElems / p.chunkElements();
  int64_t threads = 32 * p.numWarps;
  // A rolled loop: unrolled, the element loads of every chunk would be in
  // flight at once, in registers the accumulators need.
  auto chunkLoop =
      scf::ForOp::create(b, loc, c(0), c(rows * chunksPerRow), c(threads));
  // LLVM would unroll it all the same (8 trips), and its loads would then be
  // hoisted together: 62 more registers at 128x128 on 4 warps. SCF-to-CF
  // moves the LLVM attribute onto the loop's branch.
  MLIRContext *mlirCtx = b.getContext();
  chunkLoop->setAttr(kLoopAnnotationAttrName,
                     LLVM::LoopAnnotationAttr::get(
                         mlirCtx, {}, {}, {},
                         LLVM::LoopUnrollAttr::get(mlirCtx, b.getBoolAttr(true),
                                                   {}, {}, {}, {}, {}, {}),
                         {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(chunkLoop.getBody()->getTerminator());
  // The thread's chunk: consecutive threads along a row.
  Value chunk =
      arith::AddIOp::create(b, loc, ctx.threadId, chunkLoop.getInductionVar());
  emitStagedChunk(ctx, b, p, isA, view, starts, chunk, rowElems, inRange,
                  buffer, stageBase, /*async=*/false);
}

/// The first global coordinate of `load`'s tile along each dim, its indices
/// mapped by `lookup`.
static SmallVector<Value> getTileStarts(KernelContext &ctx, OpBuilder &b,
                                        tile::LoadOp load, const View &view,
                                        function_ref<Value(Value)> lookup) {
  SmallVector<Value> starts;
  for (auto [index, size] : llvm::zip(load.getIndices(), view.tileShape))
    starts.push_back(arith::MulIOp::create(b, ctx.loc, lookup(index),
                                           ctx.constIndex(b, size)));
  return starts;
}

FailureOr<TensorCoreLoop>
kbench::gpu_lowering::planTensorCoreLoop(KernelContext &ctx, scf::ForOp loop,
                                         ConversionPatternRewriter &rewriter) {
  TensorCoreLoop result;
  result.stages = getPipelineStages(loop);
  result.mma = getMmaLoopMma(loop);
  result.loadA = getSqueezedLoad(result.mma.getA());
  result.loadB = getSqueezedLoad(result.mma.getB());
  FailureOr<TensorCorePlan> plan =
      planTensorCoreMma(result.mma, ctx.numWarps, result.stages);
  if (failed(plan))
    return failure();
  result.plan = *plan;
  for (auto [load, view] : {std::pair{result.loadA, &result.viewA},
                            std::pair{result.loadB, &result.viewB}}) {
    FailureOr<View> lowered =
        lookupView(ctx, load, load.getView(),
                   rewriter.getRemappedValue(load.getView()));
    if (failed(lowered))
      return failure();
    *view = *lowered;
  }
  return result;
}

/// The tensor-core tile.mma of `loop` if the loop asks for a cp.async pipeline
/// the rules accept, else null.
static tile::MmaOp getAsyncPipelinedMma(scf::ForOp loop, int64_t numWarps) {
  if (getPipelineStages(loop) < 2 ||
      getOperandCopies(loop) != OperandCopies::CpAsync)
    return {};
  tile::MmaOp mma = getMmaLoopMma(loop);
  if (!mma || !isTensorCoreImpl(mma.getImplKind()) ||
      whyNotTensorCore(mma, mma.getImplKind(), numWarps,
                       getPipelineStages(loop)))
    return {};
  return mma;
}

namespace {
/// A tensor-core K loop with S >= 2 stages: the cp.async pipeline, each
/// step's copies versioned at run time on the alignment of the rows.
struct TensorCorePipelinedLoop : KernelPattern<scf::ForOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::ForOp op) const override {
    return getAsyncPipelinedMma(op, ctx.numWarps);
  }
  LogicalResult lower(scf::ForOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override;
};
} // namespace

LogicalResult
TensorCorePipelinedLoop::lower(scf::ForOp op, OpAdaptor adaptor,
                            ConversionPatternRewriter &rewriter) const {
  OpBuilder &b = rewriter;
  Location loc = op.getLoc();
  FailureOr<TensorCoreLoop> plan = planTensorCoreLoop(ctx, op, rewriter);
  if (failed(plan))
    return failure();
  int64_t stages = plan->stages;
  tile::LoadOp loadA = plan->loadA, loadB = plan->loadB;
  const TensorCorePlan *p = &plan->plan;
  const View *viewA = &plan->viewA, *viewB = &plan->viewB;
  int64_t sizeA = p->m * p->k, sizeB = p->n * p->k;
  int64_t stagingStart = llvm::alignTo(ctx.sharedBytes, p->bufferAlignment());
  Value bufA =
      ctx.allocShared(b, p->operandType, stages * sizeA, p->bufferAlignment());
  Value bufB =
      ctx.allocShared(b, p->operandType, stages * sizeB, p->bufferAlignment());
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };

  LoopStepEmitter steps(*op.getBody(), op.getInductionVar(), rewriter);
  auto lookup = [&](Value v) { return steps.lookup(v); };
  Value ub = adaptor.getUpperBound();
  // Rows are 16-byte aligned when both operands' innermost dims are
  // multiples of a chunk's elements.
  int64_t chunkElements = p->chunkElements();
  Value rowsAligned = arith::AndIOp::create(
      b, loc, ctx.divisibleBy(b, viewA->dims.back(), chunkElements),
      ctx.divisibleBy(b, viewB->dims.back(), chunkElements));
  // Issues the copies of step `iv` into stage buffer `stage` and commits
  // them as one group (synchronous: copies them).
  auto issue = [&](Value iv, Value stage) {
    steps.emitStep(iv);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
    // Each tile as it is in memory (rows of its innermost dim), into the
    // place its impl reads it from (emitStagedOffset).
    auto copyTile = [&](tile::LoadOp load, const View &view, Value buffer,
                        int64_t stageSize, bool isA, bool synchronous) {
      SmallVector<Value> starts = getTileStarts(ctx, b, load, view, lookup);
      Value stageBase = arith::MulIOp::create(b, loc, stage, c(stageSize));
      if (synchronous)
        emitSynchronousTileCopy(ctx, b, *p, view, starts, inRange, buffer,
                                stageBase, isA);
      else
        emitStagedTileCopy(ctx, b, *p, isA, view, starts, inRange, buffer,
                           stageBase, /*async=*/true);
    };
    auto copyBoth = [&](bool synchronous) {
      copyTile(loadA, *viewA, bufA, sizeA, /*isA=*/true, synchronous);
      copyTile(loadB, *viewB, bufB, sizeB, /*isA=*/false, synchronous);
    };
    // One loop for both: two versions of the loop (one per alignment) made
    // ptxas spend more registers than either alone.
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, rowsAligned,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      copyBoth(/*synchronous=*/false);
      b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      copyBoth(/*synchronous=*/true);
    }
    // An empty group (synchronous copies) completes at once.
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  };

  // wgmma with 4 or more stages leaves each step's group in flight while the
  // next step's copies are issued, so the copies run one step less ahead
  // (the buffer of the step before is still being read). With 3 stages two
  // steps of copies in flight measured faster than one step and a group
  // (H200, docs/gpu-lowering.md).
  int64_t wgmmaInFlight = p->isWgmma() && stages >= 4 ? 1 : 0;
  int64_t lookahead = stages - 1 - wgmmaInFlight;
  Value lb = adaptor.getLowerBound();
  Value step = adaptor.getStep();
  for (int64_t s = 0; s < lookahead; ++s)
    issue(arith::AddIOp::create(
              b, loc, lb, arith::MulIOp::create(b, loc, step, c(s))),
          c(s));

  TileValue init = convertLayout(
      ctx, b, {adaptor.getInitArgs()[0], layoutOf(op.getInitArgs()[0])}, p->acc,
      op);
  auto accType = cast<VectorType>(init.vec.getType());
  SmallVector<Value> elements;
  for (int64_t i = 0, e = accType.getNumElements(); i < e; ++i)
    elements.push_back(
        vector::ExtractOp::create(b, loc, init.vec, ArrayRef<int64_t>{i}));
  // The loop carries the stage index and the accumulators: one vector
  // (mma_sync), or wgmma's per-tile register structs.
  SmallVector<Value> initAcc =
      p->isWgmma() ? packWgmmaAccumulators(ctx, b, *p, elements)
                   : SmallVector<Value>{init.vec};
  SmallVector<Value> iterInit = initAcc;
  iterInit.push_back(c(0));
  scf::IfOp nonEmptyLoop;
  if (wgmmaInFlight)
    nonEmptyLoop = openInFlightWgmmaLoop(b, loc, lb, ub, iterInit);
  auto loop = scf::ForOp::create(b, loc, lb, ub, step, iterInit);
  int64_t accCount = initAcc.size();
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = loop.getBody();
    if (!body->empty())
      rewriter.eraseOp(body->getTerminator());
    b.setInsertionPointToEnd(body);
    Value iv = loop.getInductionVar();
    Value stage = loop.getRegionIterArgs()[accCount];
    Value ahead = arith::AddIOp::create(
        b, loc, iv, arith::MulIOp::create(b, loc, step, c(lookahead)));
    Value aheadStage = arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, stage, c(lookahead)),
        c(stages));
    // Without a group in flight the copies of step k + S - 1 go first, into
    // the buffer that step k - 1 read before the barrier that ended it.
    if (!wgmmaInFlight)
      issue(ahead, aheadStage);
    // Step k's group is complete once at most lookahead - 1 newer ones are
    // pending (without a group in flight: counting the one just issued).
    NVVM::CpAsyncWaitGroupOp::create(b, loc,
                                     wgmmaInFlight ? lookahead - 1 : lookahead);
    emitStagingFence(ctx, b, *p);
    ctx.barrier(b);
    // With a group in flight this barrier also ends the reads of the buffer
    // the copies overwrite: step k - 2's group, which each warpgroup waited
    // for before arriving here.
    if (wgmmaInFlight)
      issue(ahead, aheadStage);
    Value baseA = arith::MulIOp::create(b, loc, stage, c(sizeA));
    Value baseB = arith::MulIOp::create(b, loc, stage, c(sizeB));
    SmallVector<Value> yielded(loop.getRegionIterArgs().take_front(accCount));
    if (p->isWgmma()) {
      emitWgmmaGroup(ctx, b, *p, bufA, baseA, bufB, baseB, yielded,
                     wgmmaInFlight ? kWgmmaNoWait : 0);
      if (wgmmaInFlight)
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    } else {
      SmallVector<Value> stepElements;
      for (int64_t i = 0, e = accType.getNumElements(); i < e; ++i)
        stepElements.push_back(vector::ExtractOp::create(
            b, loc, yielded[0], ArrayRef<int64_t>{i}));
      emitTensorCoreSteps(ctx, b, *p, bufA, baseA, bufB, baseB, stepElements);
      yielded[0] = vector::FromElementsOp::create(b, loc, accType, stepElements);
    }
    // The next step's copies overwrite the buffer read by this one.
    if (!wgmmaInFlight)
      ctx.barrier(b);
    yielded.push_back(arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, stage, c(1)), c(stages)));
    scf::YieldOp::create(b, loc, yielded);
  }
  ValueRange results = loop.getResults();
  if (nonEmptyLoop)
    results = closeInFlightWgmmaLoop(b, loc, nonEmptyLoop, results);
  Value result = results[0];
  if (p->isWgmma()) {
    unpackWgmmaAccumulators(
        ctx, b, *p, SmallVector<Value>(results.take_front(accCount)), elements);
    result = vector::FromElementsOp::create(b, loc, accType, elements);
  }
  // The copies of steps past the end zero-fill buffers nobody reads again;
  // they still finish before the epilogue.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  ctx.lastKLoopStaging = KernelContext::StagingRange{
      op.getResult(0), stagingStart, ctx.sharedBytes - stagingStart};
  rewriter.replaceOp(
      op, convertLayout(ctx, b, {result, p->acc}, layoutOf(op.getResult(0)), op)
              .vec);
  return success();
}

void kbench::gpu_lowering::populateTensorCorePatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  // The impls' tile.mma patterns match disjoint ops (simt: MmaLowering.cpp).
  patterns.add<TensorCoreMmaLowering>(converter, ctx, /*benefit=*/2);
  // Outranks the plain and the unsupported-depth scf.for patterns.
  patterns.add<TensorCorePipelinedLoop>(converter, ctx, /*benefit=*/3);
  populateTmaPipelinePatterns(converter, ctx, patterns);
  populateOperandPrefetchPatterns(converter, ctx, patterns);
}
