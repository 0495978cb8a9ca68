//===- MemoryLowering.cpp - Loads, stores, atomics, layout conversions ----===//
//
// Patterns for tile.load, tile.gather, tile.store, tile.atomic_add and
// tile.convert_layout.
//
// Global memory: a tile access becomes, per thread, one access per run of
// contiguous elements it owns. An `scf.if` on "the tile lies inside the
// memref" picks plain `vector.load`/`vector.store` (the interior fast path)
// or `vector.maskedload`/`vector.maskedstore` with `vector.create_mask`
// (boundary blocks; masked-off lanes read the view's pad). `alignment` is
// attached only when the run start is provably aligned: the innermost tile
// size is a multiple of the run, and the kernel is rank 1 or a `requires`
// fact makes the innermost dim a multiple of it (every row start is then
// aligned; base pointers are 16-byte aligned by the bundle ABI).
//
// Without that fact the access is versioned at run time, as Triton
// specialises on divisibility: the fast path (plain vector access with the
// alignment, so PTX gets ld.global.v4) runs when the tile is interior AND the
// innermost dim is a multiple of the aligned run (`dim % run == 0`, computed
// once per kernel); otherwise the masked path, which is correct for any
// alignment, runs. Without the alignment attribute LLVM would split every
// vector access into scalars, so versioning is what makes vector_width pay
// off on shapes the compiler cannot see. A boundary tile with aligned rows
// still takes the aligned access for every run wholly inside the memref
// (RunMode::WholeRuns) and masks only the runs at the edge; with unaligned
// rows every run is masked, with no per-run test. With the
// scalar_unaligned_rows knob, unaligned rows take the same two paths as
// aligned ones with only the proven alignment: an interior tile is plain
// access (LLVM splits each run into scalar accesses, with no branch), a
// boundary tile tests each run once and masks only the runs at the edge (a
// masked access becomes one branch per element). It is a knob, not the
// rule, because the extra version changes the whole kernel's code: measured
// faster at unaligned shapes and slower at some aligned ones.
//
// With the cache_hints knob, whole runs of the loads CacheHintRules.h plans
// for carry an L2 eviction priority (CacheHints.h emits them).
//
// A layout conversion stores the tile to shared memory in one layout and
// reads it back in the other (SharedMemory.h).
//
//===----------------------------------------------------------------------===//

#include "CacheHints.h"
#include "GlobalAccess.h"
#include "SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

FailureOr<View> kbench::gpu_lowering::lookupView(KernelContext &ctx,
                                                 Operation *op, Value view,
                                                 Value memref) {
  auto it = ctx.globalArgs.find(memref);
  auto type = dyn_cast<tile::PartitionType>(view.getType());
  if (it == ctx.globalArgs.end() || !type ||
      !view.getDefiningOp<tile::PartitionOp>())
    return op->emitOpError(
        "takes a view that is not a tile.partition result of the "
        "kernel body; tile-to-gpu does not carry views through "
        "block arguments or control flow");
  View result;
  result.memref = memref;
  result.dims = it->second.dims;
  result.multiples = it->second.multiples;
  result.tileShape = type.getShape();
  result.pad = type.getPad();
  result.elementType = type.getElementType();
  result.pointer = it->second.pointer;
  return result;
}

TypedAttr kbench::gpu_lowering::getPadAttr(tile::PadKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case tile::PadKind::neg_inf:
      return FloatAttr::get(type, APFloat::getInf(sem, /*Negative=*/true));
    case tile::PadKind::pos_inf:
      return FloatAttr::get(type, APFloat::getInf(sem));
    case tile::PadKind::nan:
      return FloatAttr::get(type, APFloat::getQNaN(sem));
    default:
      return FloatAttr::get(type, APFloat::getZero(sem));
    }
  }
  return IntegerAttr::get(type, 0);
}

//===----------------------------------------------------------------------===//
// Addressing
//===----------------------------------------------------------------------===//

namespace {
/// Per-access addressing of one tile of a view for one layout.
struct TileAccess {
  SmallVector<Value> base;   // tile start + t(d) * perThread(d), per dim
  Value inBounds;            // the whole tile lies inside the memref; null
                             // when `requires` facts prove it for every tile
  IntegerAttr alignment;     // bytes, when provable (valid on every path)
  Value aligned;             // run-time `dim % run == 0` on the innermost dim;
                             // null when nothing better than `alignment` is
                             // reachable by checking it
  IntegerAttr fastAlignment; // bytes on the fast path (under `aligned`)

  /// Condition of the plain vector access path; null when it always runs.
  Value fastPath(OpBuilder &b, Location loc) const {
    if (inBounds && aligned)
      return arith::AndIOp::create(b, loc, inBounds, aligned);
    return inBounds ? inBounds : aligned;
  }
};
} // namespace

/// Alignment in bytes of a run start that is a multiple of `elems` elements
/// from a 16-byte aligned base (the largest power of two dividing the byte
/// offset, at most 16); 0 when no better than one element.
static int64_t runAlignment(int64_t elems, Type elementType) {
  int64_t pow2 = elems & -elems;
  if (pow2 <= 1)
    return 0;
  return std::min<int64_t>(16, pow2 * elementBytes(elementType));
}

static TileAccess addressTile(KernelContext &k, OpBuilder &b, const View &view,
                              ValueRange indices, const Layout &layout,
                              Location loc, bool checkBounds = true) {
  TileAccess access;
  int64_t rank = view.tileShape.size();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = view.tileShape[d];
    Value start =
        arith::MulIOp::create(b, loc, indices[d], k.constIndex(b, size));
    const DimLayout &dl = layout.dims[d];
    Value base = start;
    if (dl.threads() > 1) {
      Value offset = k.threadCoord(b, dl);
      if (dl.perThread > 1)
        offset = arith::MulIOp::create(b, loc, offset,
                                       k.constIndex(b, dl.perThread));
      base = arith::AddIOp::create(b, loc, start, offset);
    }
    access.base.push_back(base);
    // A dim known to be a multiple of the tile size has no partial tiles
    // (tile indices are in range: tile-verify proves it).
    if (!checkBounds || view.multiples[d] % size == 0)
      continue;
    Value end = arith::AddIOp::create(b, loc, start, k.constIndex(b, size));
    Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end,
                                       view.dims[d]);
    access.inBounds = access.inBounds
                          ? arith::AndIOp::create(b, loc, access.inBounds, fits)
                          : fits;
  }
  // Alignment of each run start: run starts within a tile row are multiples
  // of the run length and of the innermost tile size; a row starts at a
  // multiple of the row length (rank > 1), which `requires` facts may prove.
  int64_t run = layout.innerPerThread();
  int64_t inTile = std::gcd(run, view.tileShape.back());
  int64_t proven = inTile;
  if (rank > 1)
    proven = std::gcd(inTile, view.multiples.back());
  int64_t provenBytes = runAlignment(proven, view.elementType);
  if (provenBytes)
    access.alignment = b.getI64IntegerAttr(provenBytes);
  access.fastAlignment = access.alignment;
  // Rows not provably aligned: check the row length at run time for the
  // alignment the tile itself allows (not for atomics, which go element by
  // element and never take a fast path).
  int64_t wantedBytes = runAlignment(inTile, view.elementType);
  if (checkBounds && rank > 1 && wantedBytes > provenBytes) {
    int64_t divisor = wantedBytes / elementBytes(view.elementType);
    access.aligned = k.divisibleBy(b, view.dims.back(), divisor);
    access.fastAlignment = b.getI64IntegerAttr(wantedBytes);
  }
  return access;
}

/// Number of leading elements of a run inside the memref: 0 when an outer
/// coordinate is out of bounds (create_mask clamps the rest).
static Value runExtent(KernelContext &k, OpBuilder &b, const View &view,
                       ArrayRef<Value> coords, Location loc) {
  int64_t rank = coords.size();
  Value n = arith::SubIOp::create(b, loc, view.dims[rank - 1], coords.back());
  Value rowsOk;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                     coords[d], view.dims[d]);
    rowsOk = rowsOk ? arith::AndIOp::create(b, loc, rowsOk, ok) : ok;
  }
  if (rowsOk)
    n = arith::SelectOp::create(b, loc, rowsOk, n, k.constIndex(b, 0));
  return n;
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

/// `scf.if cond -> type { then() } else { otherwise() }`; returns its result.
static Value emitIfElse(OpBuilder &b, Location loc, Type type, Value cond,
                        function_ref<Value()> then,
                        function_ref<Value()> otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  scf::YieldOp::create(b, loc, then());
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, otherwise());
  return ifOp.getResult(0);
}

/// `scf.if cond { then() } else { otherwise() }` without results.
static void emitIfElse(OpBuilder &b, Location loc, Value cond,
                       function_ref<void()> then,
                       function_ref<void()> otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
  then();
  b.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
  otherwise();
}

/// `result` with the run `chunk` at element `flat` (the run itself when it is
/// the whole per-thread vector).
static Value insertRun(OpBuilder &b, Location loc, Value chunk, Value result,
                       int64_t flat) {
  if (chunk.getType() == result.getType())
    return chunk;
  return vector::InsertStridedSliceOp::create(b, loc, chunk, result,
                                              ArrayRef<int64_t>{flat},
                                              ArrayRef<int64_t>{1})
      .getResult();
}

namespace {
/// How the runs of one tile access are emitted.
enum class RunMode {
  Plain,     ///< every run in bounds: plain vector access
  WholeRuns, ///< plain access for each run wholly in bounds, masked for the
             ///< runs that straddle the edge
  Masked,    ///< masked access for every run
};

/// Emits the runs of a tile in one mode; plain accesses carry
/// `plainAlignment` (null: the element's own). Returns the tile value for a
/// load, null for a store.
using EmitRuns = function_ref<Value(RunMode mode, IntegerAttr plainAlignment)>;
} // namespace

/// `scf.if` on `cond` picking `then` or `otherwise`, with a result of `type`
/// (a load) or none (a store, `type` null).
static Value emitBranch(OpBuilder &b, Location loc, Type type, Value cond,
                        function_ref<Value()> then,
                        function_ref<Value()> otherwise) {
  if (type)
    return emitIfElse(b, loc, type, cond, then, otherwise);
  emitIfElse(
      b, loc, cond, [&] { then(); }, [&] { otherwise(); });
  return Value();
}

/// The modes of a boundary tile by default, with the condition that picks
/// the first: (WholeRuns, Masked) under the run-time row-alignment check of a
/// versioned access; WholeRuns alone when the alignment is proven; Masked
/// alone when the access has no alignment to offer. A boundary tile then
/// costs 16-byte accesses for all runs but those at the edge, and unaligned
/// rows pay no per-run test.
static std::pair<Value, SmallVector<RunMode, 2>>
boundaryModes(const TileAccess &access, int64_t run) {
  if (run == 1 || !access.fastAlignment)
    return {Value(), {RunMode::Masked}};
  if (access.aligned)
    return {access.aligned, {RunMode::WholeRuns, RunMode::Masked}};
  return {Value(), {RunMode::WholeRuns}};
}

/// The access versioned by default: one test of "interior and aligned rows"
/// picks the plain vector access; everything else is a boundary tile
/// (boundaryModes), so unaligned rows mask every element.
static Value emitVersionedMasked(OpBuilder &b, Location loc, Type type,
                                 const TileAccess &access, int64_t run,
                                 EmitRuns emit) {
  Value fast = access.fastPath(b, loc);
  if (!fast)
    return emit(RunMode::Plain, access.fastAlignment);
  return emitBranch(
      b, loc, type, fast,
      [&] { return emit(RunMode::Plain, access.fastAlignment); },
      [&]() -> Value {
        auto [aligned, modes] = boundaryModes(access, run);
        if (!aligned)
          return emit(modes.front(), access.fastAlignment);
        return emitBranch(
            b, loc, type, aligned,
            [&] { return emit(modes[0], access.fastAlignment); },
            [&] { return emit(modes[1], access.fastAlignment); });
      });
}

/// The access versioned with scalar_unaligned_rows, on both checks:
///
///   interior, aligned rows     Plain, fastAlignment (16-byte vectors)
///   interior, unaligned rows   Plain, proven alignment (scalar, no branch)
///   boundary, aligned rows     WholeRuns, fastAlignment
///   boundary, unaligned rows   WholeRuns, proven alignment
///
/// A boundary tile masks every run when the access has no alignment to gain
/// from whole runs (runs of one element, or no alignment at all).
static Value emitVersionedScalar(OpBuilder &b, Location loc, Type type,
                                 const TileAccess &access, int64_t run,
                                 EmitRuns emit) {
  if (!access.inBounds && !access.aligned)
    return emit(RunMode::Plain, access.fastAlignment);
  auto onRows = [&](RunMode mode) -> Value {
    if (!access.aligned)
      return emit(mode, access.fastAlignment);
    return emitBranch(
        b, loc, type, access.aligned,
        [&] { return emit(mode, access.fastAlignment); },
        [&] { return emit(mode, access.alignment); });
  };
  if (!access.inBounds)
    return onRows(RunMode::Plain);
  bool wholeRunsPay = run > 1 && access.fastAlignment;
  return emitBranch(
      b, loc, type, access.inBounds, [&] { return onRows(RunMode::Plain); },
      [&] {
        return wholeRunsPay ? onRows(RunMode::WholeRuns)
                            : emit(RunMode::Masked, IntegerAttr());
      });
}

/// The access of one tile, versioned on what is checked at run time: whether
/// the tile lies inside the memref (`inBounds`) and whether rows start
/// aligned for the tile's runs (`aligned`).
static Value emitVersioned(KernelContext &k, OpBuilder &b, Location loc,
                           Type type, const TileAccess &access, int64_t run,
                           EmitRuns emit) {
  if (k.scalarUnalignedRows)
    return emitVersionedScalar(b, loc, type, access, run, emit);
  return emitVersionedMasked(b, loc, type, access, run, emit);
}

FailureOr<TileValue>
kbench::gpu_lowering::emitLoad(KernelContext &ctx, OpBuilder &b,
                               tile::LoadOp op, const View &view,
                               ValueRange indices, const Layout &layout) {
  Location loc = op.getLoc();
  if (failed(checkRegisterBudget(op, op.getType(), layout)))
    return failure();
  Type elementType = view.elementType;
  VectorType vt = vectorType(layout, elementType);
  int64_t run = layout.innerPerThread();
  VectorType runType = VectorType::get({run}, elementType);
  TileAccess access = addressTile(ctx, b, view, indices, layout, loc);
  TypedAttr pad = getPadAttr(view.pad, elementType);
  // The L2 priority of whole runs (cache_hints; CacheHintRules.h).
  std::optional<L2Priority> priority;
  if (auto it = ctx.l2Priorities.find(op); it != ctx.l2Priorities.end())
    priority = it->second;

  // The tile value with every run emitted in `mode`, at the insertion point.
  auto emitRuns = [&](RunMode mode, IntegerAttr plainAlignment) -> Value {
    Value result = arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, cast<Attribute>(pad)));
    // What masked-off lanes read; only masked runs need it.
    Value padRun =
        mode == RunMode::Plain
            ? Value()
            : arith::ConstantOp::create(
                  b, loc, runType,
                  DenseElementsAttr::get(runType, cast<Attribute>(pad)))
                  .getResult();
    layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
      SmallVector<Value> coords = runCoords(ctx, b, access.base, offsets, loc);
      auto plainLoad = [&]() -> Value {
        if (priority && view.pointer)
          if (Value hinted = emitHintedLoad(
                  b, loc, runType, view.pointer, view.dims, coords,
                  plainAlignment ? plainAlignment.getInt() : 0, *priority))
            return hinted;
        return vector::LoadOp::create(b, loc, runType, view.memref, coords,
                                      /*nontemporal=*/false, plainAlignment)
            .getResult();
      };
      Value chunk;
      if (mode == RunMode::Plain) {
        chunk = plainLoad();
      } else {
        Value extent = runExtent(ctx, b, view, coords, loc);
        auto maskedLoad = [&] {
          Value mask = vector::CreateMaskOp::create(
              b, loc, VectorType::get({run}, b.getI1Type()),
              ValueRange{extent});
          return vector::MaskedLoadOp::create(b, loc, runType, view.memref,
                                              coords, mask, padRun,
                                              access.alignment)
              .getResult();
        };
        if (mode == RunMode::Masked) {
          chunk = maskedLoad();
        } else {
          Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              extent, ctx.constIndex(b, run));
          chunk = emitIfElse(b, loc, runType, whole, plainLoad, maskedLoad);
        }
      }
      result = insertRun(b, loc, chunk, result, flat);
    });
    return result;
  };

  Value value = emitVersioned(ctx, b, loc, vt, access, run, emitRuns);
  return TileValue{value, layout};
}

/// Emits `body` under `scf.if cond` (no results), or directly when null.
static void emitUnder(OpBuilder &b, Location loc, Value cond,
                      function_ref<void()> body) {
  if (!cond)
    return body();
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  body();
}

namespace {
struct LoadLowering : KernelPattern<tile::LoadOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::LoadOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    // Its loop copies the tile into shared memory (OperandPrefetch.cpp) and
    // the tile.mma reads it there: nothing to load into registers.
    if (ctx.lookupPrefetched(op)) {
      Type type = getTypeConverter()->convertType(op.getResult().getType());
      rewriter.replaceOpWithNewOp<ub::PoisonOp>(op, type);
      return success();
    }
    FailureOr<View> view = lookupView(ctx, op, op.getView(), adaptor.getView());
    if (failed(view))
      return failure();
    FailureOr<TileValue> value =
        emitLoad(ctx, rewriter, op, *view, adaptor.getIndices(),
                 layoutOf(op.getResult()));
    if (failed(value))
      return failure();
    rewriter.replaceOp(op, value->vec);
    return success();
  }
};
} // namespace

/// The store of tile `value` at tile `indices` of `view`, from any layout
/// (each element is written by one of its replicas).
void kbench::gpu_lowering::emitStore(KernelContext &ctx, OpBuilder &b,
                                     Location loc, const View &view,
                                     const TileValue &value,
                                     ValueRange indices) {
  const Layout &layout = value.layout;
  int64_t run = layout.innerPerThread();
  int64_t n = layout.numElements();
  Value owner = ctx.ownerPredicate(b, layout);
  emitUnder(b, loc, owner, [&] {
    TileAccess access = addressTile(ctx, b, view, indices, layout, loc);
    // Every run stored in `mode`, at the insertion point.
    auto storeRuns = [&](RunMode mode, IntegerAttr plainAlignment) -> Value {
      layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
        SmallVector<Value> coords =
            runCoords(ctx, b, access.base, offsets, loc);
        Value chunk = run == n
                          ? value.vec
                          : vector::ExtractStridedSliceOp::create(
                                b, loc, value.vec, ArrayRef<int64_t>{flat},
                                ArrayRef<int64_t>{run}, ArrayRef<int64_t>{1})
                                .getResult();
        auto plainStore = [&] {
          vector::StoreOp::create(b, loc, chunk, view.memref, coords,
                                  /*nontemporal=*/false, plainAlignment);
        };
        if (mode == RunMode::Plain)
          return plainStore();
        Value extent = runExtent(ctx, b, view, coords, loc);
        auto maskedStore = [&] {
          Value mask = vector::CreateMaskOp::create(
              b, loc, VectorType::get({run}, b.getI1Type()),
              ValueRange{extent});
          vector::MaskedStoreOp::create(b, loc, view.memref, coords, mask,
                                        chunk, access.alignment);
        };
        if (mode == RunMode::Masked)
          return maskedStore();
        Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            extent, ctx.constIndex(b, run));
        emitIfElse(b, loc, whole, plainStore, maskedStore);
      });
      return Value();
    };

    emitVersioned(ctx, b, loc, Type(), access, run, storeRuns);
  });
}

/// The atomic add of tile `value` into tile `indices` of `view`: one
/// bounds-checked atomic per element, by one replica.
static void emitAtomicAdd(KernelContext &ctx, OpBuilder &b, Location loc,
                          const View &view, const TileValue &value,
                          ValueRange indices) {
  const Layout &layout = value.layout;
  bool isFloat = isa<FloatType>(view.elementType);
  Value owner = ctx.ownerPredicate(b, layout);
  emitUnder(b, loc, owner, [&] {
    TileAccess access = addressTile(ctx, b, view, indices, layout, loc,
                                    /*checkBounds=*/false);
    int64_t rank = view.tileShape.size();
    layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
      for (int64_t e = 0; e < layout.innerPerThread(); ++e) {
        SmallVector<int64_t> elementOffsets(offsets);
        elementOffsets.back() += e;
        SmallVector<Value> coords =
            runCoords(ctx, b, access.base, elementOffsets, loc);
        Value ok;
        for (int64_t d = 0; d < rank; ++d) {
          Value inDim = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              coords[d], view.dims[d]);
          ok = ok ? arith::AndIOp::create(b, loc, ok, inDim) : inDim;
        }
        Value element = vector::ExtractOp::create(b, loc, value.vec,
                                                  ArrayRef<int64_t>{flat + e});
        emitUnder(b, loc, ok, [&] {
          memref::AtomicRMWOp::create(b, loc,
                                      isFloat ? arith::AtomicRMWKind::addf
                                              : arith::AtomicRMWKind::addi,
                                      element, view.memref, coords);
        });
      }
    });
  });
}

namespace {
struct StoreLowering : KernelPattern<tile::StoreOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::StoreOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<View> view = lookupView(ctx, op, op.getView(), adaptor.getView());
    if (failed(view))
      return failure();
    // Stores work from any layout: no conversion.
    emitStore(ctx, rewriter, op.getLoc(), *view,
              {adaptor.getValue(), layoutOf(op.getValue())},
              adaptor.getIndices());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AtomicAddLowering : KernelPattern<tile::AtomicAddOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::AtomicAddOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<View> view = lookupView(ctx, op, op.getView(), adaptor.getView());
    if (failed(view))
      return failure();
    emitAtomicAdd(ctx, rewriter, op.getLoc(), *view,
                  {adaptor.getValue(), layoutOf(op.getValue())},
                  adaptor.getIndices());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether every run of `offsets` (the index tile of a gather along
/// `gathered`) holds one index: the tile is a broadcast along the innermost
/// dim, seen through layout conversions.
static bool indexSharedAlongRuns(Value offsets, int64_t gathered) {
  int64_t inner = cast<RankedTensorType>(offsets.getType()).getRank() - 1;
  if (gathered == inner)
    return false;
  while (auto convert = offsets.getDefiningOp<tile::ConvertLayoutOp>())
    offsets = convert.getInput();
  auto broadcast = offsets.getDefiningOp<tile::BroadcastOp>();
  return broadcast && llvm::is_contained(broadcast.getDims(), inner);
}

/// The runs of one thread's part of a tile.gather result, each emitted in one
/// of three forms (GatherLowering picks per run).
struct GatherRuns {
  KernelContext &ctx;
  OpBuilder &b;
  Location loc;
  const View &view;
  TileAccess access;
  Value offsets;    // the thread's index elements, in the result's layout
  Value firstCoord; // the tile coordinate the indices add to
  int64_t gathered, run;
  VectorType runType;
  TypedAttr pad;

  Value padRun() const {
    return arith::ConstantOp::create(
        b, loc, runType, DenseElementsAttr::get(runType, cast<Attribute>(pad)));
  }

  /// The memref coordinates of element `flat`, at `tileOffsets` in the tile.
  SmallVector<Value> coords(int64_t flat, ArrayRef<int64_t> tileOffsets) const {
    SmallVector<Value> result =
        runCoords(ctx, b, access.base, tileOffsets, loc);
    Value index =
        vector::ExtractOp::create(b, loc, offsets, ArrayRef<int64_t>{flat});
    index = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
    result[gathered] = arith::AddIOp::create(b, loc, firstCoord, index);
    return result;
  }

  /// One index for the whole run: a plain aligned load when the run is whole
  /// (and the rows aligned), masked with the pad otherwise.
  Value sharedIndex(int64_t flat, ArrayRef<int64_t> tileOffsets) const {
    SmallVector<Value> at = coords(flat, tileOffsets);
    Value extent = runExtent(ctx, b, view, at, loc);
    auto maskedLoad = [&]() -> Value {
      Value mask = vector::CreateMaskOp::create(
          b, loc, VectorType::get({run}, b.getI1Type()), ValueRange{extent});
      return vector::MaskedLoadOp::create(b, loc, runType, view.memref, at,
                                          mask, padRun(), access.alignment)
          .getResult();
    };
    if (run == 1 || !access.fastAlignment)
      return maskedLoad();
    Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                        extent, ctx.constIndex(b, run));
    if (access.aligned)
      whole = arith::AndIOp::create(b, loc, whole, access.aligned);
    return emitIfElse(
        b, loc, runType, whole,
        [&] {
          return vector::LoadOp::create(b, loc, runType, view.memref, at,
                                        /*nontemporal=*/false,
                                        access.fastAlignment)
              .getResult();
        },
        maskedLoad);
  }

  /// One guarded scalar load per element.
  Value elementwise(int64_t flat, ArrayRef<int64_t> tileOffsets) const {
    Value result = padRun();
    for (int64_t e = 0; e < run; ++e) {
      SmallVector<int64_t> elementOffsets(tileOffsets);
      elementOffsets.back() += e;
      SmallVector<Value> at = coords(flat + e, elementOffsets);
      Value ok;
      for (auto [coord, extent] : llvm::zip(at, view.dims)) {
        Value inDim = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            coord, extent);
        ok = ok ? arith::AndIOp::create(b, loc, ok, inDim) : inDim;
      }
      Value element = emitIfElse(
          b, loc, runType.getElementType(), ok,
          [&] {
            return memref::LoadOp::create(b, loc, view.memref, at).getResult();
          },
          [&] { return arith::ConstantOp::create(b, loc, pad).getResult(); });
      result = vector::InsertOp::create(b, loc, element, result,
                                        ArrayRef<int64_t>{e});
    }
    return result;
  }

  /// Gathered along the innermost dim: a run whose indices are consecutive
  /// (a rotated or shifted column range) is contiguous in memory. Checked at
  /// run time, with the run in bounds and 16-byte aligned (`rowsAligned`:
  /// the row length a multiple of the run; and the first position), it is
  /// one vector load; otherwise the elementwise loads.
  Value consecutive(int64_t flat, ArrayRef<int64_t> tileOffsets,
                    Value rowsAligned) const {
    SmallVector<Value> at = coords(flat, tileOffsets);
    Value firstIndex =
        vector::ExtractOp::create(b, loc, offsets, ArrayRef<int64_t>{flat});
    Type indexType = firstIndex.getType();
    Value fast = rowsAligned;
    auto both = [&](Value cond) {
      fast = arith::AndIOp::create(b, loc, fast, cond);
    };
    for (int64_t e = 1; e < run; ++e) {
      Value next = vector::ExtractOp::create(b, loc, offsets,
                                             ArrayRef<int64_t>{flat + e});
      Value expected = arith::AddIOp::create(
          b, loc, firstIndex,
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(indexType, e)));
      both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                 expected));
    }
    Value start = at[gathered];
    both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, start,
                               view.dims[gathered]));
    both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                               runExtent(ctx, b, view, at, loc),
                               ctx.constIndex(b, run)));
    both(arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, start, ctx.constIndex(b, run)),
        ctx.constIndex(b, 0)));
    int64_t alignBytes =
        std::min<int64_t>(16, run * elementBytes(runType.getElementType()));
    return emitIfElse(
        b, loc, runType, fast,
        [&] {
          return vector::LoadOp::create(b, loc, runType, view.memref, at,
                                        /*nontemporal=*/false,
                                        b.getI64IntegerAttr(alignBytes))
              .getResult();
        },
        [&] { return elementwise(flat, tileOffsets); });
  }
};

/// tile.gather: the per-thread elements of the result's layout, each at its
/// tile coordinate plus its index along the gathered dim. Every position is
/// checked against the memref's extents (runExtent: unsigned compares, so a
/// negative index is out of bounds too); out-of-bounds elements read the pad.
/// When the index is constant along each run (token ids broadcast along the
/// embedding dim), a run is one vector access: plain and aligned when it is
/// whole and the rows are aligned, masked otherwise. Gathered along the
/// innermost dim, a run whose indices turn out consecutive at run time (the
/// partner columns of a rotary embedding) and lie aligned and in bounds is
/// one aligned vector load. Else each element is a guarded scalar load.
struct GatherLowering : KernelPattern<tile::GatherOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::GatherOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<View> view = lookupView(ctx, op, op.getView(), adaptor.getView());
    if (failed(view))
      return failure();
    const Layout &layout = layoutOf(op.getResult());
    if (failed(checkRegisterBudget(op, op.getType(), layout)))
      return failure();
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    int64_t gathered = op.getDim();
    int64_t run = layout.innerPerThread();
    Type elementType = view->elementType;
    GatherRuns runs{
        ctx,
        b,
        loc,
        *view,
        addressTile(ctx, b, *view, adaptor.getIndices(), layout, loc),
        adaptor.getOffsets(),
        adaptor.getIndices()[gathered],
        gathered,
        run,
        VectorType::get({run}, elementType),
        getPadAttr(view->pad, elementType)};
    VectorType vt = vectorType(layout, elementType);
    Value result = arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, cast<Attribute>(runs.pad)));
    bool shared = indexSharedAlongRuns(op.getOffsets(), gathered);
    bool innermost =
        !shared && run > 1 &&
        gathered == static_cast<int64_t>(view->tileShape.size()) - 1;
    // Rows start 16-byte aligned for runs of `run` elements when the
    // innermost dim is a multiple of the run: computed once per kernel.
    Value rowsAligned =
        innermost ? ctx.divisibleBy(b, view->dims.back(), run) : Value();
    layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> tileOffsets) {
      Value chunk = shared ? runs.sharedIndex(flat, tileOffsets)
                    : innermost
                        ? runs.consecutive(flat, tileOffsets, rowsAligned)
                        : runs.elementwise(flat, tileOffsets);
      result = insertRun(b, loc, chunk, result, flat);
    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tile.convert_layout: through shared memory (SharedMemory.h), with padded
/// rows for the staged stores of transform.tile.stage_transposes.
struct ConvertLayoutLowering : KernelPattern<tile::ConvertLayoutOp> {
  using KernelPattern::KernelPattern;
  LogicalResult lower(tile::ConvertLayoutOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    TileValue in = {adaptor.getInput(), layoutOf(op.getInput())};
    bool padRows = op->hasAttr(tile::kStageThroughSharedAttrName);
    rewriter.replaceOp(op, convertLayout(ctx, rewriter, in,
                                         layoutOf(op.getResult()), op, padRows)
                               .vec);
    return success();
  }
};
} // namespace

void kbench::gpu_lowering::populateMemoryPatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  patterns.add<LoadLowering, GatherLowering, StoreLowering, AtomicAddLowering,
               ConvertLayoutLowering>(converter, ctx);
}
