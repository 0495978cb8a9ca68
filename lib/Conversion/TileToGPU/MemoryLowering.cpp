//===- MemoryLowering.cpp - Partitions, loads, stores, shared memory ------===//
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
// rows every run is masked, with no per-run test.
//
// Shared memory: one byte buffer per CTA carved into 16-byte aligned views;
// layout conversions store a tile in one layout and read it in another.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

static int64_t elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

//===----------------------------------------------------------------------===//
// Partitions
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerPartition(tile::PartitionOp op) {
  auto arg = dyn_cast<BlockArgument>(op.getSource());
  if (!arg || arg.getOwner()->getParentOp() != kernel.getOperation())
    return op.emitOpError("must partition a kernel argument");
  View view;
  view.memref = scalars.lookup(op.getSource());
  for (StringRef name : kernel.getArgDimNames(arg.getArgNumber())) {
    view.dimNames.push_back(name.str());
    view.dims.push_back(dimValues.lookup(name));
  }
  auto type = op.getResult().getType();
  view.tileShape.assign(type.getShape().begin(), type.getShape().end());
  view.pad = op.getPadKind();
  view.elementType = type.getElementType();
  views[op.getResult()] = std::move(view);
  return success();
}

const View *KernelLowering::lookupView(Operation *op, Value view) {
  auto it = views.find(view);
  if (it != views.end())
    return &it->second;
  op->emitOpError("takes a view that is not a tile.partition result of the "
                  "kernel body; tile-to-gpu does not carry views through "
                  "block arguments or control flow");
  return nullptr;
}

LogicalResult KernelLowering::lowerNumTiles(tile::NumTilesOp op) {
  const View *found = lookupView(op, op.getView());
  if (!found)
    return failure();
  const View &view = *found;
  int64_t tileSize = view.tileShape[op.getDim()];
  Value dim = view.dims[op.getDim()];
  Value n = arith::CeilDivUIOp::create(b, op.getLoc(), dim,
                                       constIndex(tileSize));
  scalars.map(op.getResult(), n);
  return success();
}

LogicalResult KernelLowering::lowerExtent(tile::ExtentOp op) {
  const View *view = lookupView(op, op.getView());
  if (!view)
    return failure();
  // The dim param of the ABI, already an index value.
  scalars.map(op.getResult(), view->dims[op.getDim()]);
  return success();
}

LogicalResult KernelLowering::lowerTileSize(tile::TileSizeOp op) {
  scalars.map(op.getResult(), constIndex(op.getSize()));
  return success();
}

//===----------------------------------------------------------------------===//
// Addressing
//===----------------------------------------------------------------------===//

namespace {
/// Per-access addressing of one tile of a view for one layout.
struct TileAccess {
  SmallVector<Value> base; // tile start + t(d) * perThread(d), per dim
  Value inBounds;          // the whole tile lies inside the memref; null
                           // when `requires` facts prove it for every tile
  IntegerAttr alignment;   // bytes, when provable (valid on every path)
  Value aligned;           // run-time `dim % run == 0` on the innermost dim;
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

Value KernelLowering::divisibleBy(Value dim, int64_t divisor) {
  Value &cached = divisibility[{dim, divisor}];
  if (cached)
    return cached;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueEnd);
  Location loc = kernel.getLoc();
  Value rem = arith::RemUIOp::create(b, loc, dim, constIndex(divisor));
  cached = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                 constIndex(0));
  return cached;
}

static TileAccess addressTile(KernelLowering &k, const View &view,
                              ValueRange indices, const Layout &layout,
                              Location loc, bool checkBounds = true) {
  OpBuilder &b = k.b;
  TileAccess access;
  int64_t rank = view.tileShape.size();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = view.tileShape[d];
    Value start = arith::MulIOp::create(b, loc, indices[d], k.constIndex(size));
    const DimLayout &dl = layout.dims[d];
    Value base = start;
    if (dl.threads() > 1) {
      Value offset = k.threadCoord(dl);
      if (dl.perThread > 1)
        offset = arith::MulIOp::create(b, loc, offset,
                                       k.constIndex(dl.perThread));
      base = arith::AddIOp::create(b, loc, start, offset);
    }
    access.base.push_back(base);
    // A dim known to be a multiple of the tile size has no partial tiles
    // (tile indices are in range: tile-verify proves it).
    if (!checkBounds || k.knownMultiple(view.dimNames[d]) % size == 0)
      continue;
    Value end = arith::AddIOp::create(b, loc, start, k.constIndex(size));
    Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end,
                                       view.dims[d]);
    access.inBounds =
        access.inBounds ? arith::AndIOp::create(b, loc, access.inBounds, fits)
                        : fits;
  }
  // Alignment of each run start: run starts within a tile row are multiples
  // of the run length and of the innermost tile size; a row starts at a
  // multiple of the row length (rank > 1), which `requires` facts may prove.
  int64_t run = layout.innerPerThread();
  int64_t inTile = std::gcd(run, view.tileShape.back());
  int64_t proven = inTile;
  if (rank > 1)
    proven = std::gcd(inTile, k.knownMultiple(view.dimNames.back()));
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
    access.aligned = k.divisibleBy(view.dims.back(), divisor);
    access.fastAlignment = b.getI64IntegerAttr(wantedBytes);
  }
  return access;
}

/// Tile coordinates of a run: base + offsets.
static SmallVector<Value> runCoords(KernelLowering &k,
                                    ArrayRef<Value> base,
                                    ArrayRef<int64_t> offsets, Location loc) {
  SmallVector<Value> coords;
  for (auto [value, offset] : llvm::zip(base, offsets))
    coords.push_back(offset ? arith::AddIOp::create(k.b, loc, value,
                                                    k.constIndex(offset))
                                  .getResult()
                            : value);
  return coords;
}

/// Number of leading elements of a run inside the memref: 0 when an outer
/// coordinate is out of bounds (create_mask clamps the rest).
static Value runExtent(KernelLowering &k, const View &view,
                       ArrayRef<Value> coords, Location loc) {
  OpBuilder &b = k.b;
  int64_t rank = coords.size();
  Value n = arith::SubIOp::create(b, loc, view.dims[rank - 1], coords.back());
  Value rowsOk;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                     coords[d], view.dims[d]);
    rowsOk = rowsOk ? arith::AndIOp::create(b, loc, rowsOk, ok) : ok;
  }
  if (rowsOk)
    n = arith::SelectOp::create(b, loc, rowsOk, n, k.constIndex(0));
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

namespace {
/// How the runs of one tile access are emitted.
enum class RunMode {
  Plain,     ///< every run in bounds: plain vector access with fastAlignment
  WholeRuns, ///< rows aligned: plain access for each run wholly in bounds,
             ///< masked for the runs that straddle the edge
  Masked,    ///< masked access for every run (any alignment)
};
} // namespace

/// The modes of a boundary tile, with the condition that picks the first:
/// (WholeRuns, Masked) under the run-time row-alignment check of a versioned
/// access; WholeRuns alone when the alignment is proven; Masked alone when
/// the access has no alignment to offer. A boundary tile then costs 16-byte
/// accesses for all runs but those at the edge, and unaligned rows pay no
/// per-run test (masked accesses become one branch per element in LLVM).
static std::pair<Value, SmallVector<RunMode, 2>>
boundaryModes(const TileAccess &access, int64_t run) {
  if (run == 1 || !access.fastAlignment)
    return {Value(), {RunMode::Masked}};
  if (access.aligned)
    return {access.aligned, {RunMode::WholeRuns, RunMode::Masked}};
  return {Value(), {RunMode::WholeRuns}};
}

FailureOr<TileValue> KernelLowering::emitLoad(tile::LoadOp op,
                                              ValueRange indices,
                                              const Layout &layout) {
  Location loc = op.getLoc();
  const View *found = lookupView(op, op.getView());
  if (!found)
    return failure();
  const View &view = *found;
  if (failed(checkRegisterBudget(op, op.getType(), layout)))
    return failure();
  Type elementType = view.elementType;
  VectorType vt = vectorType(layout, elementType);
  int64_t run = layout.innerPerThread();
  VectorType runType = VectorType::get({run}, elementType);
  TileAccess access = addressTile(*this, view, indices, layout, loc);
  TypedAttr pad = getPadAttr(view.pad, elementType);

  // The tile value with every run emitted in `mode`, at the insertion point.
  auto emitRuns = [&](RunMode mode) -> Value {
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
      SmallVector<Value> coords = runCoords(*this, access.base, offsets, loc);
      auto plainLoad = [&] {
        return vector::LoadOp::create(b, loc, runType, view.memref, coords,
                                      /*nontemporal=*/false,
                                      access.fastAlignment)
            .getResult();
      };
      Value chunk;
      if (mode == RunMode::Plain) {
        chunk = plainLoad();
      } else {
        Value extent = runExtent(*this, view, coords, loc);
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
                                              extent, constIndex(run));
          chunk = emitIfElse(b, loc, runType, whole, plainLoad, maskedLoad);
        }
      }
      result = run == vt.getNumElements()
                   ? chunk
                   : vector::InsertStridedSliceOp::create(
                         b, loc, chunk, result, ArrayRef<int64_t>{flat},
                         ArrayRef<int64_t>{1})
                         .getResult();
    });
    return result;
  };

  Value fast = access.fastPath(b, loc);
  if (!fast)
    return TileValue{emitRuns(RunMode::Plain), layout};
  auto boundary = [&]() -> Value {
    auto [aligned, modes] = boundaryModes(access, run);
    if (!aligned)
      return emitRuns(modes.front());
    return emitIfElse(
        b, loc, vt, aligned, [&] { return emitRuns(modes[0]); },
        [&] { return emitRuns(modes[1]); });
  };
  Value value = emitIfElse(
      b, loc, vt, fast, [&] { return emitRuns(RunMode::Plain); }, boundary);
  return TileValue{value, layout};
}

LogicalResult KernelLowering::lowerLoad(tile::LoadOp op) {
  SmallVector<Value> indices;
  for (Value index : op.getIndices())
    indices.push_back(scalars.lookup(index));
  FailureOr<TileValue> value = emitLoad(op, indices, layoutOf(op.getResult()));
  if (failed(value))
    return failure();
  tiles[op.getResult()] = *value;
  return success();
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

LogicalResult KernelLowering::lowerStore(tile::StoreOp op) {
  Location loc = op.getLoc();
  const View *found = lookupView(op, op.getView());
  if (!found)
    return failure();
  const View &view = *found;
  // Stores work from any layout: no conversion.
  TileValue value = tileOf(op.getValue());
  const Layout &layout = value.layout;
  SmallVector<Value> indices;
  for (Value index : op.getIndices())
    indices.push_back(scalars.lookup(index));
  int64_t run = layout.innerPerThread();
  int64_t n = layout.numElements();
  Value owner = ownerPredicate(layout);
  emitUnder(b, loc, owner, [&] {
    TileAccess access = addressTile(*this, view, indices, layout, loc);
    // Every run stored in `mode`, at the insertion point.
    auto storeRuns = [&](RunMode mode) {
      layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
        SmallVector<Value> coords =
            runCoords(*this, access.base, offsets, loc);
        Value chunk = run == n ? value.vec
                               : vector::ExtractStridedSliceOp::create(
                                     b, loc, value.vec,
                                     ArrayRef<int64_t>{flat},
                                     ArrayRef<int64_t>{run},
                                     ArrayRef<int64_t>{1})
                                     .getResult();
        auto plainStore = [&] {
          vector::StoreOp::create(b, loc, chunk, view.memref, coords,
                                  /*nontemporal=*/false, access.fastAlignment);
        };
        if (mode == RunMode::Plain)
          return plainStore();
        Value extent = runExtent(*this, view, coords, loc);
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
                                            extent, constIndex(run));
        emitIfElse(b, loc, whole, plainStore, maskedStore);
      });
    };

    Value fast = access.fastPath(b, loc);
    if (!fast)
      return storeRuns(RunMode::Plain);
    emitIfElse(
        b, loc, fast, [&] { storeRuns(RunMode::Plain); },
        [&] {
          auto [aligned, modes] = boundaryModes(access, run);
          if (!aligned)
            return storeRuns(modes.front());
          emitIfElse(
              b, loc, aligned, [&] { storeRuns(modes[0]); },
              [&] { storeRuns(modes[1]); });
        });
  });
  return success();
}

LogicalResult KernelLowering::lowerAtomicAdd(tile::AtomicAddOp op) {
  Location loc = op.getLoc();
  const View *found = lookupView(op, op.getView());
  if (!found)
    return failure();
  const View &view = *found;
  TileValue value = tileOf(op.getValue());
  const Layout &layout = value.layout;
  SmallVector<Value> indices;
  for (Value index : op.getIndices())
    indices.push_back(scalars.lookup(index));
  bool isFloat = isa<FloatType>(view.elementType);
  Value owner = ownerPredicate(layout);
  emitUnder(b, loc, owner, [&] {
    TileAccess access = addressTile(*this, view, indices, layout, loc,
                                    /*checkBounds=*/false);
    int64_t rank = view.tileShape.size();
    layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
      for (int64_t e = 0; e < layout.innerPerThread(); ++e) {
        SmallVector<int64_t> elementOffsets(offsets);
        elementOffsets.back() += e;
        SmallVector<Value> coords =
            runCoords(*this, access.base, elementOffsets, loc);
        Value ok;
        for (int64_t d = 0; d < rank; ++d) {
          Value inDim = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              coords[d], view.dims[d]);
          ok = ok ? arith::AndIOp::create(b, loc, ok, inDim) : inDim;
        }
        Value element = vector::ExtractOp::create(b, loc, value.vec,
                                                  ArrayRef<int64_t>{flat + e});
        emitUnder(b, loc, ok, [&] {
          memref::AtomicRMWOp::create(
              b, loc,
              isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi,
              element, view.memref, coords);
        });
      }
    });
  });
  return success();
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

Value KernelLowering::allocShared(Type elementType, int64_t count) {
  Location loc = kernel.getLoc();
  MLIRContext *ctx = kernel.getContext();
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueEnd);
  if (!sharedBase)
    sharedBase = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
  int64_t offset = llvm::alignTo(sharedBytes, 16);
  sharedBytes = offset + count * elementBytes(elementType);
  auto type = MemRefType::get({count}, elementType,
                              MemRefLayoutAttrInterface(), workgroup);
  return memref::ViewOp::create(b, loc, type, sharedBase, constIndex(offset),
                                ValueRange{});
}

/// Alignment in bytes of runs of `run` elements whose starts are multiples of
/// `run` in a 16-byte aligned buffer.
static IntegerAttr sharedAlignment(OpBuilder &b, int64_t run, Type type) {
  int64_t bytes = std::min<int64_t>(16, run * elementBytes(type));
  if (run == 1 || !llvm::isPowerOf2_64(bytes))
    return {};
  return b.getI64IntegerAttr(bytes);
}

void KernelLowering::storeToShared(const TileValue &value, Value buffer,
                                   function_ref<Value(ValueRange)> index,
                                   bool innerContiguous) {
  Location loc = kernel.getLoc();
  const Layout &layout = value.layout;
  int64_t run = layout.innerPerThread();
  int64_t n = layout.numElements();
  Type elementType = cast<VectorType>(value.vec.getType()).getElementType();
  SmallVector<Value> base;
  for (const DimLayout &d : layout.dims) {
    Value t = threadCoord(d);
    base.push_back(d.perThread > 1 && d.threads() > 1
                       ? arith::MulIOp::create(b, loc, t,
                                               constIndex(d.perThread))
                             .getResult()
                       : t);
  }
  layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
    if (innerContiguous && run > 1) {
      SmallVector<Value> coords = runCoords(*this, base, offsets, loc);
      Value chunk = run == n ? value.vec
                             : vector::ExtractStridedSliceOp::create(
                                   b, loc, value.vec, ArrayRef<int64_t>{flat},
                                   ArrayRef<int64_t>{run},
                                   ArrayRef<int64_t>{1})
                                   .getResult();
      vector::StoreOp::create(b, loc, chunk, buffer, index(coords),
                              /*nontemporal=*/false,
                              sharedAlignment(b, run, elementType));
      return;
    }
    for (int64_t e = 0; e < run; ++e) {
      SmallVector<int64_t> elementOffsets(offsets);
      if (!elementOffsets.empty())
        elementOffsets.back() += e;
      SmallVector<Value> coords = runCoords(*this, base, elementOffsets, loc);
      Value element = vector::ExtractOp::create(b, loc, value.vec,
                                                ArrayRef<int64_t>{flat + e});
      memref::StoreOp::create(b, loc, element, buffer, index(coords));
    }
  });
}

Value KernelLowering::loadFromShared(const Layout &layout, Type elementType,
                                     Value buffer,
                                     function_ref<Value(ValueRange)> index,
                                     bool innerContiguous) {
  Location loc = kernel.getLoc();
  int64_t run = layout.innerPerThread();
  VectorType vt = vectorType(layout, elementType);
  VectorType runType = VectorType::get({run}, elementType);
  SmallVector<Value> base;
  for (const DimLayout &d : layout.dims) {
    Value t = threadCoord(d);
    base.push_back(d.perThread > 1 && d.threads() > 1
                       ? arith::MulIOp::create(b, loc, t,
                                               constIndex(d.perThread))
                             .getResult()
                       : t);
  }
  SmallVector<Value> elements;
  Value result;
  layout.forEachChunk([&](int64_t flat, ArrayRef<int64_t> offsets) {
    if (innerContiguous && run > 1) {
      SmallVector<Value> coords = runCoords(*this, base, offsets, loc);
      Value chunk = vector::LoadOp::create(
          b, loc, runType, buffer, index(coords), /*nontemporal=*/false,
          sharedAlignment(b, run, elementType));
      if (run == vt.getNumElements()) {
        result = chunk;
        return;
      }
      if (!result)
        result = ub::PoisonOp::create(b, loc, vt);
      result = vector::InsertStridedSliceOp::create(
          b, loc, chunk, result, ArrayRef<int64_t>{flat}, ArrayRef<int64_t>{1});
      return;
    }
    for (int64_t e = 0; e < run; ++e) {
      SmallVector<int64_t> elementOffsets(offsets);
      if (!elementOffsets.empty())
        elementOffsets.back() += e;
      SmallVector<Value> coords = runCoords(*this, base, elementOffsets, loc);
      elements.push_back(memref::LoadOp::create(b, loc, buffer, index(coords)));
    }
  });
  if (!elements.empty())
    return vector::FromElementsOp::create(b, loc, vt, elements);
  return result;
}

TileValue KernelLowering::convert(const TileValue &value, const Layout &to) {
  if (value.layout == to)
    return value;
  Location loc = kernel.getLoc();
  Type elementType = cast<VectorType>(value.vec.getType()).getElementType();
  SmallVector<int64_t> shape;
  for (const DimLayout &d : to.dims)
    shape.push_back(d.size);
  int64_t count = 1;
  for (int64_t s : shape)
    count *= s;
  Value buffer = allocShared(elementType, count);
  auto linear = [&](ValueRange coords) -> Value {
    Value index = constIndex(0);
    int64_t stride = 1;
    for (int64_t d = coords.size() - 1; d >= 0; --d) {
      Value term = stride == 1 ? coords[d]
                               : arith::MulIOp::create(b, loc, coords[d],
                                                       constIndex(stride))
                                     .getResult();
      index = d == static_cast<int64_t>(coords.size()) - 1
                  ? term
                  : arith::AddIOp::create(b, loc, index, term).getResult();
      stride *= shape[d];
    }
    return index;
  };
  storeToShared(value, buffer, linear, /*innerContiguous=*/true);
  barrier();
  Value vec = loadFromShared(to, elementType, buffer, linear,
                             /*innerContiguous=*/true);
  if (inLoop(currentOp))
    barrier();
  return {vec, to};
}
