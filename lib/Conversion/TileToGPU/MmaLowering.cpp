//===- MmaLowering.cpp - tile.mma (impl = simt) ---------------------------===//
//
// The classic SIMT GEMM: A and B are staged k-major in shared memory
// (As[k][m], Bs[k][n], rows padded by 16 bytes against bank conflicts), and
// every thread accumulates a register micro-tile of C (getMmaLayout: 8x8 per
// thread for a 128x128 tile on 8 warps) with one outer product per k: 16-byte
// fragment loads from shared memory, then f32 FMAs.
//
// One pattern per impl of tile.mma (this file: simt; mma_sync and wgmma in
// TensorCore.cpp), and one for the pipelined K loop.
//
// A K loop marked `tile.pipeline_stages = 2` (Pipelining.h: a loop whose body
// only loads the two operands of one mma that accumulates into the loop's
// single iter_arg) is software-pipelined over two shared-memory buffers: the
// global loads of step k+1 are issued before the FMAs of step k and stored to
// the other buffer after them, with one barrier per step. Every load is guarded
// by `k < ub`: a tile past the end is not masked when `requires` facts make the
// K dim a multiple of BK.
//
//===----------------------------------------------------------------------===//

#include "GlobalAccess.h"
#include "SharedMemory.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/SharedBudget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
/// Static facts about one tile.mma.
struct MmaPlan {
  int64_t m, n, k;
  bool transA, transB;
  Type type; // accumulator element type; operands are staged in it
  Layout acc;
  int64_t strideA, strideB; // padded shared-memory row lengths
};
} // namespace

static FailureOr<MmaPlan> planMma(tile::MmaOp op, int64_t numWarps) {
  MmaPlan p;
  p.transA = op.getTransposeA();
  p.transB = op.getTransposeB();
  ArrayRef<int64_t> a = op.getA().getType().getShape();
  ArrayRef<int64_t> c = op.getAcc().getType().getShape();
  p.m = c[0];
  p.n = c[1];
  p.k = p.transA ? a[0] : a[1];
  p.type = op.getAcc().getType().getElementType();
  Type operandType = op.getA().getType().getElementType();
  if (!p.type.isF32() && !p.type.isF64())
    return op.emitOpError("accumulator element type ")
           << p.type << " is not supported by the SIMT lowering; use f32 "
           << "(or f64)";
  if (!isa<FloatType>(operandType) ||
      operandType.getIntOrFloatBitWidth() > p.type.getIntOrFloatBitWidth())
    return op.emitOpError("operand element type ")
           << operandType << " is not supported with a " << p.type
           << " accumulator by the SIMT lowering";
  std::optional<Layout> acc = getMmaLayout(c[0], c[1], numWarps);
  if (!acc)
    return op.emitOpError("accumulator tile ")
           << p.m << "x" << p.n << " cannot be split into per-thread "
           << "micro-tiles over " << 32 * numWarps
           << " threads: it needs at least as many elements as threads and "
           << "power-of-two dims; raise BM/BN or lower num_warps";
  p.acc = *acc;
  int64_t elementBytes = p.type.getIntOrFloatBitWidth() / 8;
  p.strideA = getSimtStagedRowLength(p.m, elementBytes);
  p.strideB = getSimtStagedRowLength(p.n, elementBytes);
  return p;
}

/// Operand tile `value` with elements of the accumulator type.
static TileValue widen(OpBuilder &b, Location loc, TileValue value, Type type) {
  auto vt = cast<VectorType>(value.vec.getType());
  if (vt.getElementType() == type)
    return value;
  return {arith::ExtFOp::create(b, loc, vt.clone(type), value.vec),
          value.layout};
}

/// Writes operands into the k-major buffers at element offsets `baseA` and
/// `baseB` (index values).
static void stageOperands(KernelContext &k, OpBuilder &b, const MmaPlan &p,
                          TileValue a, TileValue bTile, Value bufA, Value baseA,
                          Value bufB, Value baseB) {
  Location loc = k.loc;
  auto index = [&](Value base, int64_t stride, Value kk, Value mn) -> Value {
    Value v = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, kk, k.constIndex(b, stride)), mn);
    return arith::AddIOp::create(b, loc, base, v);
  };
  // a is MxK (coords (m, k)) or, transposed, KxM (coords (k, m)).
  storeToShared(
      k, b, a, bufA,
      [&](ValueRange c) {
        return p.transA ? index(baseA, p.strideA, c[0], c[1])
                        : index(baseA, p.strideA, c[1], c[0]);
      },
      /*innerContiguous=*/p.transA);
  // b is KxN (coords (k, n)) or, transposed, NxK (coords (n, k)).
  storeToShared(
      k, b, bTile, bufB,
      [&](ValueRange c) {
        return p.transB ? index(baseB, p.strideB, c[1], c[0])
                        : index(baseB, p.strideB, c[0], c[1]);
      },
      /*innerContiguous=*/!p.transB);
}

/// The per-thread fragment of one k-row of a staged operand along a layout
/// dim: runs of `perThread` elements, 16-byte loads where they fit.
static SmallVector<Value> loadFragment(KernelContext &k, OpBuilder &b,
                                       const MmaPlan &p, const DimLayout &dim,
                                       Value buffer, Value rowStart) {
  Location loc = k.loc;
  int64_t run = dim.perThread;
  VectorType runType = VectorType::get({run}, p.type);
  int64_t bytes =
      std::min<int64_t>(16, run * p.type.getIntOrFloatBitWidth() / 8);
  IntegerAttr align = run > 1 ? b.getI64IntegerAttr(bytes) : IntegerAttr();
  Value base = rowStart;
  if (dim.threads() > 1)
    base = arith::AddIOp::create(b, loc, base,
                                 arith::MulIOp::create(b, loc,
                                                       k.threadCoord(b, dim),
                                                       k.constIndex(b, run)));
  SmallVector<Value> runs;
  for (int64_t r = 0; r < dim.count(); r += run) {
    Value at = dim.offset(r) ? arith::AddIOp::create(
                                   b, loc, base, k.constIndex(b, dim.offset(r)))
                                   .getResult()
                             : base;
    runs.push_back(vector::LoadOp::create(b, loc, runType, buffer, at,
                                          /*nontemporal=*/false, align));
  }
  return runs;
}

/// Outer products for k in [0, count) starting at k-row `first` (index):
/// rows[i] += a[i] * bRow.
static void emitOuterProducts(KernelContext &k, OpBuilder &b, const MmaPlan &p,
                              Value bufA, Value baseA, Value bufB, Value baseB,
                              Value first, int64_t count,
                              SmallVector<Value> &rows) {
  Location loc = k.loc;
  const DimLayout &rowsDim = p.acc.dims[0], &colsDim = p.acc.dims[1];
  int64_t en = colsDim.count();
  VectorType rowType = VectorType::get({en}, p.type);
  Value startA = arith::AddIOp::create(
      b, loc, baseA,
      arith::MulIOp::create(b, loc, first, k.constIndex(b, p.strideA)));
  Value startB = arith::AddIOp::create(
      b, loc, baseB,
      arith::MulIOp::create(b, loc, first, k.constIndex(b, p.strideB)));
  for (int64_t kk = 0; kk < count; ++kk) {
    Value rowA =
        arith::AddIOp::create(b, loc, startA, k.constIndex(b, kk * p.strideA));
    Value rowB =
        arith::AddIOp::create(b, loc, startB, k.constIndex(b, kk * p.strideB));
    SmallVector<Value> aRuns = loadFragment(k, b, p, rowsDim, bufA, rowA);
    SmallVector<Value> bRuns = loadFragment(k, b, p, colsDim, bufB, rowB);
    Value bFrag = bRuns.front();
    if (bRuns.size() > 1) {
      bFrag = ub::PoisonOp::create(b, loc, rowType);
      for (auto [i, run] : llvm::enumerate(bRuns))
        bFrag = vector::InsertStridedSliceOp::create(
            b, loc, run, bFrag,
            ArrayRef<int64_t>{static_cast<int64_t>(i) * colsDim.perThread},
            ArrayRef<int64_t>{1});
    }
    for (int64_t i = 0, em = rowsDim.count(); i < em; ++i) {
      Value a =
          vector::ExtractOp::create(b, loc, aRuns[i / rowsDim.perThread],
                                    ArrayRef<int64_t>{i % rowsDim.perThread});
      Value aRow = vector::BroadcastOp::create(b, loc, rowType, a);
      rows[i] = vector::FMAOp::create(b, loc, aRow, bFrag, rows[i]);
    }
  }
}

/// The outer products of all p.k k-rows. Up to kUnroll k steps are emitted
/// straight; longer K runs an scf.for over groups of kUnroll so that ptxas
/// does not hoist the fragment loads of the whole tile (which cost twice the
/// registers for a 64x64x32 tile).
static void emitMicroKernel(KernelContext &k, OpBuilder &b, const MmaPlan &p,
                            Value bufA, Value baseA, Value bufB, Value baseB,
                            SmallVector<Value> &rows) {
  constexpr int64_t kUnroll = 8;
  Location loc = k.loc;
  if (p.k <= kUnroll || p.k % kUnroll != 0)
    return emitOuterProducts(k, b, p, bufA, baseA, bufB, baseB,
                             k.constIndex(b, 0), p.k, rows);
  auto loop =
      scf::ForOp::create(b, loc, k.constIndex(b, 0), k.constIndex(b, p.k),
                         k.constIndex(b, kUnroll), rows);
  OpBuilder::InsertionGuard guard(b);
  Block *body = loop.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  b.setInsertionPointToEnd(body);
  SmallVector<Value> carried(loop.getRegionIterArgs());
  emitOuterProducts(k, b, p, bufA, baseA, bufB, baseB, loop.getInductionVar(),
                    kUnroll, carried);
  scf::YieldOp::create(b, loc, carried);
  rows.assign(loop.getResults().begin(), loop.getResults().end());
}

static SmallVector<Value> splitRows(OpBuilder &b, Location loc, Value acc,
                                    const Layout &layout) {
  int64_t em = layout.dims[0].count(), en = layout.dims[1].count();
  SmallVector<Value> rows;
  for (int64_t i = 0; i < em; ++i)
    rows.push_back(vector::ExtractStridedSliceOp::create(
        b, loc, acc, ArrayRef<int64_t>{i * en}, ArrayRef<int64_t>{en},
        ArrayRef<int64_t>{1}));
  return rows;
}

static Value joinRows(OpBuilder &b, Location loc, ArrayRef<Value> rows,
                      VectorType type) {
  Value acc = ub::PoisonOp::create(b, loc, type);
  int64_t en = cast<VectorType>(rows.front().getType()).getNumElements();
  for (auto [i, row] : llvm::enumerate(rows))
    acc = vector::InsertStridedSliceOp::create(
        b, loc, row, acc, ArrayRef<int64_t>{static_cast<int64_t>(i) * en},
        ArrayRef<int64_t>{1});
  return acc;
}

void LoopStepEmitter::emitStep(Value iv) {
  mapping.map(inductionVar, iv);
  for (Operation &inner : body.without_terminator()) {
    // The tiles are the pipeline's to copy; only the scalars are cloned.
    if (isa<tile::LoadOp, tile::SqueezeOp, tile::MmaOp>(inner))
      continue;
    for (Value operand : inner.getOperands())
      mapping.map(operand, lookup(operand));
    rewriter.clone(inner, mapping);
  }
}

Value LoopStepEmitter::lookup(Value v) const {
  if (Value mapped = mapping.lookupOrNull(v))
    return mapped;
  return rewriter.getRemappedValue(v);
}

namespace {
/// tile.mma with impl = simt.
struct MmaSimtLowering : KernelPattern<tile::MmaOp> {
  using KernelPattern::KernelPattern;
  bool matches(tile::MmaOp op) const override {
    return op.getImplKind() == tile::MmaImpl::simt;
  }
  LogicalResult lower(tile::MmaOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    FailureOr<MmaPlan> p = planMma(op, ctx.numWarps);
    if (failed(p))
      return failure();
    TileValue a = widen(b, loc, {adaptor.getA(), layoutOf(op.getA())}, p->type);
    TileValue bTile =
        widen(b, loc, {adaptor.getB(), layoutOf(op.getB())}, p->type);
    TileValue acc = convertLayout(
        ctx, b, {adaptor.getAcc(), layoutOf(op.getAcc())}, p->acc, op);
    Value bufA = ctx.allocShared(b, p->type, p->k * p->strideA);
    Value bufB = ctx.allocShared(b, p->type, p->k * p->strideB);
    Value zero = ctx.constIndex(b, 0);
    stageOperands(ctx, b, *p, a, bTile, bufA, zero, bufB, zero);
    ctx.barrier(b);
    SmallVector<Value> rows = splitRows(b, loc, acc.vec, p->acc);
    emitMicroKernel(ctx, b, *p, bufA, zero, bufB, zero, rows);
    if (inLoop(op))
      ctx.barrier(b); // the next staging overwrites the buffers
    Value result = joinRows(b, loc, rows, cast<VectorType>(acc.vec.getType()));
    rewriter.replaceOp(op, convertLayout(ctx, b, {result, p->acc},
                                         layoutOf(op.getResult()), op)
                               .vec);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pipelined K loop
//===----------------------------------------------------------------------===//

/// An scf.for with `tile.pipeline_stages = 2` of the pipelinable shape
/// (Pipelining.h): the loop, its loads and its mma in one pattern.
struct PipelinedMmaLoopLowering : KernelPattern<scf::ForOp> {
  using KernelPattern::KernelPattern;
  bool matches(scf::ForOp op) const override {
    return getPipelineStages(op) == 2 && isPipelinableMmaLoop(op, ctx.numWarps);
  }
  LogicalResult lower(scf::ForOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override;
};
} // namespace

LogicalResult
PipelinedMmaLoopLowering::lower(scf::ForOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const {
  OpBuilder &b = rewriter;
  Location loc = op.getLoc();
  tile::MmaOp mma = getPipelinableMma(op);
  auto loadA = mma.getA().getDefiningOp<tile::LoadOp>();
  auto loadB = mma.getB().getDefiningOp<tile::LoadOp>();
  FailureOr<MmaPlan> p = planMma(mma, ctx.numWarps);
  if (failed(p))
    return failure();
  Layout layoutA = layoutOf(loadA.getResult());
  Layout layoutB = layoutOf(loadB.getResult());
  int64_t sizeA = p->k * p->strideA, sizeB = p->k * p->strideB;
  Value bufA = ctx.allocShared(b, p->type, 2 * sizeA);
  Value bufB = ctx.allocShared(b, p->type, 2 * sizeB);

  LoopStepEmitter steps(*op.getBody(), op.getInductionVar(), rewriter);
  auto lookup = [&](Value v) { return steps.lookup(v); };
  // Loads both operand tiles of step `iv`.
  auto loadOperands =
      [&](Value iv) -> FailureOr<std::pair<TileValue, TileValue>> {
    steps.emitStep(iv);
    auto load = [&](tile::LoadOp load,
                    const Layout &layout) -> FailureOr<TileValue> {
      FailureOr<View> view =
          lookupView(ctx, load, load.getView(), lookup(load.getView()));
      if (failed(view))
        return failure();
      SmallVector<Value> indices;
      for (Value index : load.getIndices())
        indices.push_back(lookup(index));
      return emitLoad(ctx, b, load, *view, indices, layout);
    };
    FailureOr<TileValue> a = load(loadA, layoutA);
    if (failed(a))
      return failure();
    FailureOr<TileValue> bv = load(loadB, layoutB);
    if (failed(bv))
      return failure();
    return std::make_pair(widen(b, loc, *a, p->type),
                          widen(b, loc, *bv, p->type));
  };
  auto stage = [&](std::pair<TileValue, TileValue> operands, Value buffer) {
    Value baseA =
        arith::MulIOp::create(b, loc, buffer, ctx.constIndex(b, sizeA));
    Value baseB =
        arith::MulIOp::create(b, loc, buffer, ctx.constIndex(b, sizeB));
    stageOperands(ctx, b, *p, operands.first, operands.second, bufA, baseA,
                  bufB, baseB);
  };

  // Both operand tiles of step `iv` if `iv < ub`, zeros otherwise: a tile
  // past the end is not masked when `requires` facts make the K dim a
  // multiple of BK, so it must not be loaded at all.
  Value lb = adaptor.getLowerBound();
  Value ub = adaptor.getUpperBound();
  Value step = adaptor.getStep();
  VectorType typeA = vectorType(layoutA, p->type);
  VectorType typeB = vectorType(layoutB, p->type);
  auto loadIfInRange =
      [&](Value iv) -> FailureOr<std::pair<TileValue, TileValue>> {
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{typeA, typeB}, inRange,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    auto loaded = loadOperands(iv);
    if (failed(loaded))
      return failure();
    scf::YieldOp::create(b, loc,
                         ValueRange{loaded->first.vec, loaded->second.vec});
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value zeroA = arith::ConstantOp::create(
        b, loc, typeA, DenseElementsAttr::get(typeA, b.getZeroAttr(p->type)));
    Value zeroB = arith::ConstantOp::create(
        b, loc, typeB, DenseElementsAttr::get(typeB, b.getZeroAttr(p->type)));
    scf::YieldOp::create(b, loc, ValueRange{zeroA, zeroB});
    return std::make_pair(TileValue{ifOp.getResult(0), layoutA},
                          TileValue{ifOp.getResult(1), layoutB});
  };

  // Prologue: step lb into buffer 0.
  auto first = loadIfInRange(lb);
  if (failed(first))
    return failure();
  stage(*first, ctx.constIndex(b, 0));
  ctx.barrier(b);

  TileValue init = convertLayout(
      ctx, b, {adaptor.getInitArgs()[0], layoutOf(op.getInitArgs()[0])}, p->acc,
      op);
  SmallVector<Value> inits = splitRows(b, loc, init.vec, p->acc);
  int64_t numRows = inits.size();
  inits.push_back(ctx.constIndex(b, 0));
  auto loop = scf::ForOp::create(b, loc, lb, ub, step, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = loop.getBody();
    if (!body->empty())
      rewriter.eraseOp(body->getTerminator());
    b.setInsertionPointToEnd(body);
    Value buffer = loop.getRegionIterArgs().back();
    // Prefetch step k+1 into registers before the FMAs of step k.
    Value next = arith::AddIOp::create(b, loc, loop.getInductionVar(), step);
    auto operands = loadIfInRange(next);
    if (failed(operands))
      return failure();
    SmallVector<Value> rows(loop.getRegionIterArgs().take_front(numRows));
    Value baseA =
        arith::MulIOp::create(b, loc, buffer, ctx.constIndex(b, sizeA));
    Value baseB =
        arith::MulIOp::create(b, loc, buffer, ctx.constIndex(b, sizeB));
    emitMicroKernel(ctx, b, *p, bufA, baseA, bufB, baseB, rows);
    Value other = arith::SubIOp::create(b, loc, ctx.constIndex(b, 1), buffer);
    stage(*operands, other);
    ctx.barrier(b);
    rows.push_back(other);
    scf::YieldOp::create(b, loc, rows);
  }
  SmallVector<Value> rows(loop.getResults().take_front(numRows));
  Value result = joinRows(b, loc, rows, cast<VectorType>(init.vec.getType()));
  rewriter.replaceOp(
      op, convertLayout(ctx, b, {result, p->acc}, layoutOf(op.getResult(0)), op)
              .vec);
  return success();
}

void kbench::gpu_lowering::populateMmaPatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  // One pattern per impl (mma_sync and wgmma: TensorCore.cpp). The
  // pipelined loop outranks the plain scf.for pattern.
  patterns.add<MmaSimtLowering>(converter, ctx, /*benefit=*/2);
  populateTensorCorePatterns(converter, ctx, patterns);
  patterns.add<PipelinedMmaLoopLowering>(converter, ctx, /*benefit=*/2);
}
