//===- StagedEpilogue.cpp - A matmul epilogue through shared memory -------===//
//
// A tile.store marked tile.staged_epilogue (transform.tile.stage_epilogue;
// which stores qualify: EpilogueRules.h) is lowered without evaluating its
// elementwise chain on the accumulator fragment. Instead:
//
//   stage:  the row and column vectors the chain broadcasts (a bias) go to
//           shared memory once;
//   phase p (columns [p BNp, (p + 1) BNp) of the BM x BN tile):
//           barrier (p > 0: the previous phase's reads are done)
//           every thread stores the accumulators it holds in those columns
//           (static: a run's columns do not depend on the lane) into a
//           BM x BNp buffer whose rows are padded by 32 bytes
//           barrier
//           a rolled loop over row blocks of R = threads x C / BNp rows, C
//           = the elements of one 16-byte run of the output: each thread
//           reads its C contiguous accumulators of one row, evaluates the
//           chain once on them and stores one C-element run through the
//           tile.store lowering of an R x BNp sub-tile (bounds, alignment
//           and the 16-byte fast path as for any store)
//   after:  barrier when the store is in a loop (the buffer is reused).
//
// A store marked tile.tma_store (transform.tile.tma_store) writes each run
// into a second buffer instead, the phase's columns as consecutive boxes of
// [BM rows, 128 bytes] (unpadded: a warp's 16-byte runs of one row cover
// whole 128-byte lines), and after the loop every thread fences its writes
// for the async proxy, a barrier, and thread 0 stores the boxes with
// cp.async.bulk.tensor through the output's tensor map (TMA clips them at
// the tensor's edges), commits them and waits until they are read, before
// the next phase (after its barrier) writes the buffer again. Where the
// output's rows or base are not 16-byte aligned, which the tensor map
// cannot describe, the runs go to global memory as above (a branch on a
// value uniform across the CTA).
//
// The code of the chain is emitted once per phase instead of once per
// accumulator, and a warp's stores cover whole 128-byte lines. The phase
// width BNp is the widest power-of-two split of BN whose buffer fits in the
// shared memory left beside what the kernel already allocated, or in the
// operand stage buffers of the K loop that produced the accumulator, which
// are preferred unless they need more phases (KernelContext::
// lastKLoopStaging: every copy into them is complete when the loop ends; a
// barrier first ends the last reads).
//
//===----------------------------------------------------------------------===//

#include "GlobalAccess.h"
#include "Patterns.h"
#include "SharedMemory.h"
#include "StagedEpiloguePlan.h"
#include "kbench/Conversion/TileToGPU/EpilogueRules.h"
#include "kbench/Support/KernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// Alignment of a TMA store's shared buffer (and of the accumulator buffer
/// before it).
static constexpr int64_t kTmaStoreBufferAlign = 128;

namespace {
/// A tile of the stored shape the chain loads (a residual), read a run at a
/// time in the loop through the tile.load lowering of the same sub-tile of
/// its own view.
struct LoadedLeaf {
  tile::LoadOp load;
  View view;
  Value firstBlockRow, firstPhase;
};

/// Where a tile.tma_store writes: its buffer of BM x BNp output elements in
/// boxes, the tensor map, and whether the map holds at run time.
struct TmaStoreTarget {
  Value buffer, map, useTma;
  int64_t boxCols = 0;
};

/// Emits one staged epilogue (the steps of the file comment), for a plan
/// and a buffer already chosen.
class StagedEpilogueEmitter {
public:
  StagedEpilogueEmitter(KernelContext &ctx, ConversionPatternRewriter &rewriter,
                        StagedEpilogue epilogue, const EpiloguePlan &plan,
                        Value buffer)
      : ctx(ctx), rewriter(rewriter), b(rewriter), loc(ctx.loc),
        epilogue(epilogue), plan(plan), buffer(buffer),
        sourceLayout(layoutOf(epilogue.source)),
        sourceElement(getElementTypeOrSelf(epilogue.source.getType())),
        phases(plan.cols / plan.phaseCols), blockShape{plan.blockRows,
                                                       plan.phaseCols} {}

  /// Step 1: the broadcast vectors, each once, indexed by its coordinate.
  void stageVectors();
  /// The loaded leaves' views and first sub-tiles; fails with an error on
  /// a load whose view cannot be lowered.
  LogicalResult planLoadedLeaves();
  /// Step 2 for `phase`: this thread's accumulator runs in its columns.
  void storeAccumulatorPhase(int64_t phase);
  /// Step 3 for `phase`: the loop of row blocks, each thread evaluating the
  /// chain on one run and storing it into sub-tiles of `view` from tile
  /// (`leading`..., `row`, `col`), `leading` the indices of the unit dims in
  /// front of a 2-D chain (StagedEpilogue::leadingUnitDims); fails when a
  /// loaded leaf cannot be loaded.
  LogicalResult emitPhaseLoop(int64_t phase, const View &view,
                              ValueRange leading, Value row, Value col,
                              const TmaStoreTarget *tma);
  /// After the phase loop of a tile.tma_store: fence, barrier, and thread
  /// 0 stores the phase's boxes of tile (`row`, `col`) and waits until
  /// they are read.
  void emitTmaStorePhase(int64_t phase, Value row, Value col,
                         const TmaStoreTarget &tma);

private:
  Value c(int64_t v) { return ctx.constIndex(b, v); }
  VectorType runOf(Type element) {
    return VectorType::get({plan.runElems}, element);
  }
  /// Sub-tile (row block, phase) of tile (i, j): (i BM / R, j P) + (it, p).
  std::pair<Value, Value> firstSubTile(Value i, Value j) {
    return {arith::MulIOp::create(b, loc, i, c(plan.rows / plan.blockRows)),
            arith::MulIOp::create(b, loc, j, c(phases))};
  }
  /// The chain's leaves and ops on one run, in `values`.
  LogicalResult mapRun(int64_t phase, Value it, IRMapping &values);

  KernelContext &ctx;
  ConversionPatternRewriter &rewriter;
  OpBuilder &b;
  Location loc;
  StagedEpilogue epilogue; // op handles: no const access
  const EpiloguePlan &plan;
  Value buffer;
  Layout sourceLayout;
  Type sourceElement;
  int64_t phases;
  SmallVector<int64_t> blockShape;
  SmallVector<Value> vectorBuffers;
  SmallVector<LoadedLeaf> loadedLeaves;
};
} // namespace

void StagedEpilogueEmitter::stageVectors() {
  for (tile::BroadcastOp broadcast : epilogue.broadcasts) {
    Value input = broadcast.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Value vectorBuffer =
        ctx.allocShared(b, type.getElementType(), type.getNumElements(), 16);
    storeToShared(
        ctx, b, {rewriter.getRemappedValue(input), layoutOf(input)},
        vectorBuffer, [](ValueRange coords) { return coords[0]; },
        /*innerContiguous=*/true);
    vectorBuffers.push_back(vectorBuffer);
  }
}

LogicalResult StagedEpilogueEmitter::planLoadedLeaves() {
  for (tile::LoadOp load : epilogue.loads) {
    FailureOr<View> view = lookupView(
        ctx, load, load.getView(), rewriter.getRemappedValue(load.getView()));
    if (failed(view))
      return failure();
    view->tileShape = blockShape;
    auto [row, phase] =
        firstSubTile(rewriter.getRemappedValue(load.getIndices()[0]),
                     rewriter.getRemappedValue(load.getIndices()[1]));
    loadedLeaves.push_back({load, *view, row, phase});
  }
  return success();
}

void StagedEpilogueEmitter::storeAccumulatorPhase(int64_t phase) {
  Value source = rewriter.getRemappedValue(epilogue.source);
  SmallVector<Value> base = threadBase(ctx, b, sourceLayout);
  // A run starts at a multiple of its length in a row whose stride is one
  // too (runs of up to 8 elements, rows padded by 32 bytes).
  int64_t run = sourceLayout.innerPerThread();
  IntegerAttr alignment = plan.rowStride % run == 0
                              ? sharedAlignment(b, run, sourceElement)
                              : IntegerAttr();
  int64_t firstCol = phase * plan.phaseCols;
  sourceLayout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
    if (offsets[1] / plan.phaseCols != phase)
      return;
    SmallVector<Value> coords = runCoords(ctx, b, base, offsets, loc);
    Value at = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, coords[0], c(plan.rowStride)),
        arith::SubIOp::create(b, loc, coords[1], c(firstCol)));
    Value chunk = vector::ExtractStridedSliceOp::create(
        b, loc, source, ArrayRef<int64_t>{flat}, ArrayRef<int64_t>{run},
        ArrayRef<int64_t>{1});
    vector::StoreOp::create(b, loc, chunk, buffer, ValueRange{at},
                            /*nontemporal=*/false, alignment);
  });
}

LogicalResult StagedEpilogueEmitter::mapRun(int64_t phase, Value it,
                                            IRMapping &values) {
  int64_t firstCol = phase * plan.phaseCols;
  Value blockRow0 = arith::MulIOp::create(b, loc, it, c(plan.blockRows));
  values.map(
      epilogue.source,
      loadFromShared(
          ctx, b, plan.block, sourceElement, buffer,
          [&](ValueRange coords) -> Value {
            Value row = arith::AddIOp::create(b, loc, blockRow0, coords[0]);
            return arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, row, c(plan.rowStride)),
                coords[1]);
          },
          /*innerContiguous=*/true));
  for (auto [broadcast, vectorBuffer] :
       llvm::zip(epilogue.broadcasts, vectorBuffers)) {
    Type element = broadcast.getType().getElementType();
    bool perColumn = broadcast.getDims()[0] == 0;
    // A thread's run lies in one row: per column it reads the run's columns,
    // per row the row's one value.
    Layout along = plan.block.drop({perColumn ? 0 : 1});
    Value loaded = loadFromShared(
        ctx, b, along, element, vectorBuffer,
        [&](ValueRange coords) -> Value {
          return perColumn
                     ? arith::AddIOp::create(b, loc, coords[0], c(firstCol))
                     : arith::AddIOp::create(b, loc, coords[0], blockRow0);
        },
        /*innerContiguous=*/true);
    if (!perColumn)
      loaded = vector::BroadcastOp::create(
          b, loc, runOf(element),
          vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{0}));
    values.map(broadcast.getResult(), loaded);
  }
  for (LoadedLeaf &leaf : loadedLeaves) {
    FailureOr<TileValue> loaded = emitLoad(
        ctx, b, leaf.load, leaf.view,
        ValueRange{arith::AddIOp::create(b, loc, leaf.firstBlockRow, it),
                   arith::AddIOp::create(b, loc, leaf.firstPhase, c(phase))},
        plan.block);
    if (failed(loaded))
      return failure();
    values.map(leaf.load.getResult(), loaded->vec);
  }
  for (arith::ConstantOp constant : epilogue.constants) {
    auto dense = cast<DenseElementsAttr>(constant.getValue());
    VectorType type = runOf(dense.getElementType());
    values.map(
        constant.getResult(),
        arith::ConstantOp::create(
            b, loc, type,
            DenseElementsAttr::get(type, dense.getSplatValue<Attribute>())));
  }
  for (Operation *chainOp : epilogue.chain) {
    // Every value of the loop is one run in the sub-tile's layout.
    if (auto convert = dyn_cast<tile::ConvertLayoutOp>(chainOp)) {
      values.map(convert.getResult(), values.lookup(convert.getInput()));
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : chainOp->getOperands())
      operands.push_back(values.lookup(operand));
    SmallVector<Type> types;
    for (Type type : chainOp->getResultTypes())
      types.push_back(runOf(cast<RankedTensorType>(type).getElementType()));
    OperationState state(chainOp->getLoc(), chainOp->getName(), operands, types,
                         chainOp->getAttrs());
    values.map(chainOp->getResult(0), b.create(state)->getResult(0));
  }
  return success();
}

LogicalResult StagedEpilogueEmitter::emitPhaseLoop(int64_t phase,
                                                   const View &view,
                                                   ValueRange leading,
                                                   Value row, Value col,
                                                   const TmaStoreTarget *tma) {
  // The sub-tiles keep the view's unit dims in front: [1..., R, BNp].
  SmallVector<int64_t> blockTileShape(leading.size(), 1);
  llvm::append_range(blockTileShape, blockShape);
  View blockView = view;
  blockView.tileShape = blockTileShape;
  Layout storedLayout = plan.block;
  for (size_t i = 0; i < leading.size(); ++i)
    storedLayout = storedLayout.insertUnitDim(0);
  auto [firstBlockRow, firstPhase] = firstSubTile(row, col);
  auto loop = scf::ForOp::create(b, loc, c(0), c(plan.iterations), c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value it = loop.getInductionVar();
  IRMapping values;
  if (failed(mapRun(phase, it, values)))
    return failure();
  Value stored = values.lookup(epilogue.stored);
  auto storeToGlobal = [&, blockRow = firstBlockRow, phaseRow = firstPhase]() {
    SmallVector<Value> indices(leading);
    indices.push_back(arith::AddIOp::create(b, loc, blockRow, it));
    indices.push_back(arith::AddIOp::create(b, loc, phaseRow, c(phase)));
    emitStore(ctx, b, loc, blockView, {stored, storedLayout}, indices);
  };
  if (!tma) {
    storeToGlobal();
    return success();
  }
  auto ifTma = scf::IfOp::create(b, loc, TypeRange{}, tma->useTma,
                                 /*withElseRegion=*/true);
  b.setInsertionPoint(ifTma.elseBlock()->getTerminator());
  storeToGlobal();
  // Element (r, c) of the phase lies in box c / B, at row r of its B
  // columns.
  b.setInsertionPoint(ifTma.thenBlock()->getTerminator());
  Value blockRow0 = arith::MulIOp::create(b, loc, it, c(plan.blockRows));
  storeToShared(
      ctx, b, {stored, plan.block}, tma->buffer,
      [&](ValueRange coords) -> Value {
        Value r = arith::AddIOp::create(b, loc, blockRow0, coords[0]);
        Value box = arith::DivUIOp::create(b, loc, coords[1], c(tma->boxCols));
        Value inBox =
            arith::RemUIOp::create(b, loc, coords[1], c(tma->boxCols));
        return arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, box, c(plan.rows * tma->boxCols)),
            arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, r, c(tma->boxCols)),
                inBox));
      },
      /*innerContiguous=*/true);
  return success();
}

void StagedEpilogueEmitter::emitTmaStorePhase(int64_t phase, Value row,
                                              Value col,
                                              const TmaStoreTarget &tma) {
  OpBuilder::InsertionGuard guard(b);
  auto ifTma = scf::IfOp::create(b, loc, TypeRange{}, tma.useTma,
                                 /*withElseRegion=*/false);
  b.setInsertionPoint(ifTma.thenBlock()->getTerminator());
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  ctx.barrier(b);
  Value isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          ctx.threadId, c(0));
  auto ifThread0 = scf::IfOp::create(b, loc, TypeRange{}, isThread0,
                                     /*withElseRegion=*/false);
  b.setInsertionPoint(ifThread0.thenBlock()->getTerminator());
  auto i32 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
  };
  int64_t outBytes =
      elementBytes(getElementTypeOrSelf(epilogue.stored.getType()));
  Value row0 = arith::MulIOp::create(b, loc, row, c(plan.rows));
  Value col0 = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, col, c(plan.cols)),
      c(phase * plan.phaseCols));
  for (int64_t box = 0, boxes = plan.phaseCols / tma.boxCols; box < boxes;
       ++box) {
    Value pointer = sharedPointer(b, loc, tma.buffer,
                                  c(box * plan.rows * tma.boxCols), outBytes);
    // Coordinates innermost first: the column, then the row.
    Value boxCol = arith::AddIOp::create(b, loc, col0, c(box * tma.boxCols));
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, loc, tma.map, pointer, ValueRange{i32(boxCol), i32(row0)},
        /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
        /*predicate=*/Value());
  }
  NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
  NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, b.getUnitAttr());
}

namespace {
struct StagedEpilogueLowering : KernelPattern<tile::StoreOp> {
  using KernelPattern::KernelPattern;
  bool matches(tile::StoreOp op) const override {
    return op->hasAttr(kStagedEpilogueAttrName);
  }
  LogicalResult lower(tile::StoreOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override;
};
} // namespace

LogicalResult
StagedEpilogueLowering::lower(tile::StoreOp op, OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const {
  OpBuilder &b = rewriter;
  // lowerKernel read it (and refused the stores the rules refuse) before
  // the conversion moved any loop body.
  auto found = ctx.stagedEpilogues.find(op);
  if (found == ctx.stagedEpilogues.end())
    return op.emitOpError("tile.staged_epilogue: the store was not planned "
                          "before the lowering started");
  const StagedEpilogue *epilogue = &found->second;
  // lowerKernel checked whyNotTmaStore while the stored memref was still a
  // kernel argument.
  bool tmaStore = op->hasAttr(kTmaStoreAttrName);
  FailureOr<View> view = lookupView(ctx, op, op.getView(), adaptor.getView());
  if (failed(view))
    return failure();
  Type sourceElement = getElementTypeOrSelf(epilogue->source.getType());
  Layout sourceLayout = layoutOf(epilogue->source);
  // The stored view's last two dims are the chain's; unit dims may come
  // first (EpilogueRules.h), indexed as the store indexes them.
  int64_t unitDims = epilogue->leadingUnitDims;
  int64_t rows = view->tileShape[unitDims],
          cols = view->tileShape[unitDims + 1];
  ValueRange indices = adaptor.getIndices();
  Value row = indices[unitDims], col = indices[unitDims + 1];
  int64_t freeBytes = kSm90aLimits.sharedMemoryPerBlock - ctx.sharedBytes -
                      1024; // alignment of the new buffers
  for (tile::BroadcastOp broadcast : epilogue->broadcasts)
    freeBytes -= 16 + broadcast.getInput().getType().getNumElements() *
                          elementBytes(broadcast.getType().getElementType());
  // A TMA store's buffer of BM x BNp output elements, 128-byte aligned,
  // comes after the accumulator's in the same bytes.
  int64_t outBytes = elementBytes(view->elementType);
  auto accumulatorBytes = [&](const EpiloguePlan &plan) {
    return llvm::alignTo(plan.rows * plan.rowStride *
                             elementBytes(sourceElement),
                         kTmaStoreBufferAlign);
  };
  auto totalBytes = [&](const EpiloguePlan &plan) {
    return accumulatorBytes(plan) +
           (tmaStore ? plan.rows * plan.phaseCols * outBytes : 0);
  };
  // The widest phase whose buffers fit `bytes`: planEpilogue sizes the
  // accumulator's alone, so with a TMA store its budget halves until both
  // fit.
  auto planFor = [&](int64_t bytes,
                     std::string &reason) -> FailureOr<EpiloguePlan> {
    for (int64_t budget = bytes; budget > 0; budget /= 2) {
      FailureOr<EpiloguePlan> plan =
          planEpilogue(rows, cols, view->elementType, sourceElement,
                       sourceLayout, ctx.numWarps, budget, reason);
      if (failed(plan) || static_cast<int64_t>(totalBytes(*plan)) <= bytes)
        return plan;
    }
    return failure();
  };
  std::string why;
  FailureOr<EpiloguePlan> planned = planFor(freeBytes, why);
  // The K loop's stage buffers, free once every thread is past it, hold the
  // accumulator without growing the kernel's shared memory, at the cost of
  // one barrier: taken unless they need more phases than a new buffer.
  std::optional<KernelContext::StagingRange> reuse;
  if (ctx.lastKLoopStaging &&
      ctx.lastKLoopStaging->loopResult == epilogue->source) {
    std::string ignored;
    FailureOr<EpiloguePlan> inStaging =
        planFor(ctx.lastKLoopStaging->bytes, ignored);
    if (succeeded(inStaging) &&
        (failed(planned) || inStaging->phaseCols >= planned->phaseCols)) {
      planned = inStaging;
      reuse = ctx.lastKLoopStaging;
    }
  }
  if (failed(planned))
    return op.emitOpError("tile.staged_epilogue: ") << why;
  const EpiloguePlan &plan = *planned;
  TmaStoreTarget tma;
  if (tmaStore) {
    SmallVector<int64_t> box = getTmaStoreBox(op);
    tma.boxCols = box[1];
    if (plan.phaseCols % tma.boxCols != 0)
      return op.emitOpError("tile.tma_store: the staged epilogue writes ")
             << plan.phaseCols << " columns per phase, fewer than one box of "
             << tma.boxCols << " (the shared memory left holds no wider "
             << "phase); lower the tile's rows or the pipeline stages";
    tma.map = ctx.lookupTmaDescriptor(view->memref, box);
    if (!tma.map)
      return op.emitOpError("tile.tma_store: the kernel has no tensor map of "
                            "the stored argument (the ABI did not ask for it)");
  }

  // The buffer's view is hoisted; the vectors go first, then (reused stage
  // buffers) a barrier ends every warp's last reads of them.
  int64_t count = plan.rows * plan.rowStride;
  Value buffer = reuse ? ctx.viewShared(b, sourceElement, count, reuse->offset)
                       : ctx.allocShared(b, sourceElement, count,
                                         tmaStore ? kTmaStoreBufferAlign : 16);
  if (tmaStore) {
    int64_t outCount = plan.rows * plan.phaseCols;
    tma.buffer = reuse ? ctx.viewShared(b, view->elementType, outCount,
                                        reuse->offset + accumulatorBytes(plan))
                       : ctx.allocShared(b, view->elementType, outCount,
                                         kTmaStoreBufferAlign);
    // The tensor map describes rows whose stride and base are multiples of
    // 16 bytes; the runner encodes none otherwise.
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, ctx.loc,
                                                                view->memref);
    Value zero = ctx.constIndex(b, 0);
    tma.useTma = arith::AndIOp::create(
        b, ctx.loc, ctx.divisibleBy(b, view->dims[1], 16 / outBytes),
        arith::CmpIOp::create(
            b, ctx.loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(b, ctx.loc, base, ctx.constIndex(b, 16)),
            zero));
  }
  StagedEpilogueEmitter emitter(ctx, rewriter, *epilogue, plan, buffer);
  emitter.stageVectors();
  if (reuse)
    ctx.barrier(b);
  if (failed(emitter.planLoadedLeaves()))
    return failure();
  for (int64_t phase = 0, phases = plan.cols / plan.phaseCols; phase < phases;
       ++phase) {
    if (phase > 0)
      ctx.barrier(b);
    emitter.storeAccumulatorPhase(phase);
    ctx.barrier(b);
    if (failed(emitter.emitPhaseLoop(phase, *view, indices.take_front(unitDims),
                                     row, col, tmaStore ? &tma : nullptr)))
      return failure();
    if (tmaStore)
      emitter.emitTmaStorePhase(phase, row, col, tma);
  }
  if (inLoop(op))
    ctx.barrier(b);
  rewriter.eraseOp(op);
  return success();
}

void kbench::gpu_lowering::populateStagedEpiloguePatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  // Outranks the plain tile.store pattern on the marked stores.
  patterns.add<StagedEpilogueLowering>(converter, ctx, /*benefit=*/2);
}
