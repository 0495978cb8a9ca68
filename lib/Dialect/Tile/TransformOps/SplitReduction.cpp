//===- SplitReduction.cpp - Split a row reduction across CTAs -------------===//
//
// transform.tile.split_reduction: a kernel that sums each row over its row
// tiles in one loop (one CTA per row tile) leaves most of the GPU idle when
// rows are few and long. The rewrite gives the grid one more dim, over
// chunks of `chunk` row tiles (a second partition of x with tile size BS =
// chunk x BN along the row), walks only the block's chunk, [c * per,
// min(c * per + per, nt)) with per = BS / BN, and combines the partial sums
// with tile.atomic_add. The output must then start at zero: the rewrite adds
// a kernel @<name>_zero that stores zeros over it and launches it before
// every launch of the kernel, so the task's bundle has two launches and no
// workspace (docs/rewrites.md says why atomics rather than a second
// reduction launch). The row loop may carry several sums (a column's sum and
// sum of squares in one pass over x): each is split alike and its store
// becomes an atomic add, and one zeroing kernel clears all the outputs.
//
// Everything that can refuse is checked by planSplitReduction before any
// edit, so a refusal leaves the payload untouched.
//
//===----------------------------------------------------------------------===//

#include "SplitReduction.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

static bool isConstantIndex(Value value, int64_t expected) {
  APInt constant;
  return matchPattern(value, m_ConstantInt(&constant)) &&
         constant.getSExtValue() == expected;
}

/// Whether `value` is a splat 0.0 constant.
static bool isZeroSplat(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto dense = constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue())
                        : DenseFPElementsAttr();
  return dense && dense.isSplat() &&
         dense.getSplatValue<APFloat>().isZero();
}

std::optional<KnobFailure>
kbench::transform::planSplitReduction(KernelOp kernel, int64_t chunkTiles,
                                      SplitPlan &plan) {
  std::string name = ("@" + kernel.getSymName()).str();
  auto fail = [&](const Twine &text, Location where, StringRef note) {
    return KnobFailure{(name + " " + text).str(), where, note.str()};
  };
  if (chunkTiles < 2 || chunkTiles > kSm90aLimits.maxKnobValue)
    return KnobFailure{llvm::formatv("chunk = {0} is outside 2..{1}; a chunk "
                                     "holds at least two row tiles",
                                     chunkTiles, kSm90aLimits.maxKnobValue),
                       kernel.getLoc(), "in this kernel"};
  bool split = false;
  kernel.walk([&](scf::ForOp loop) {
    split |= loop->hasAttr(kSplitReductionAttrName);
  });
  if (split)
    return fail("already splits its reduction (the scf.for marked "
                "tile.split_reduction); apply the op once per kernel",
                kernel.getLoc(), "this kernel");
  if (kernel.getParamValue(kSplitChunkParam))
    return fail(Twine("already has a param ") + kSplitChunkParam +
                    ", which the op would add for the chunk size",
                kernel.getLoc(), "this kernel");

  // One row loop: a one-pass kernel.
  SmallVector<scf::ForOp> loops;
  for (Operation &op : kernel.getBody().front())
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && isConstantIndex(loop.getLowerBound(), 0) &&
        isConstantIndex(loop.getStep(), 1) &&
        loop.getUpperBound().getDefiningOp<NumTilesOp>())
      loops.push_back(loop);
  if (loops.size() != 1)
    return fail(llvm::formatv(
                    "has {0} row loops (top-level scf.for from 0 to a "
                    "tile.num_tiles step 1); split_reduction splits a "
                    "one-pass kernel, whose only row loop sums the row",
                    loops.size()),
                kernel.getLoc(), "this kernel");
  scf::ForOp loop = loops.front();
  auto tiles = loop.getUpperBound().getDefiningOp<NumTilesOp>();
  auto rowView = tiles.getView().getDefiningOp<PartitionOp>();
  auto notASum = [&]() {
    return fail("does not sum its row into tile.stores: split_reduction "
                "combines partial sums with tile.atomic_add, so each tile the "
                "row loop carries must be f32, start at zero and grow by "
                "arith.addf, and one tile.reduce add of it along the row dim "
                "must be stored once",
                loop.getLoc(), "the row loop");
  };
  if (!rowView || loop.getNumRegionIterArgs() == 0)
    return notASum();
  // Every carried tile is a sum: zero init, one addf of itself and another
  // value, reduced along the row once and stored once.
  SmallVector<StoreOp> stores;
  SmallVector<unsigned> outputArgs;
  Operation *yield = loop.getBody()->getTerminator();
  for (auto [i, acc] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!isZeroSplat(loop.getInitArgs()[i]))
      return notASum();
    auto add = yield->getOperand(i).getDefiningOp<arith::AddFOp>();
    if (!add || (add.getLhs() != acc && add.getRhs() != acc) ||
        add.getLhs() == add.getRhs() || !acc.hasOneUse() ||
        !cast<RankedTensorType>(acc.getType()).getElementType().isF32())
      return notASum();
    Value result = loop.getResult(i);
    auto reduce = result.hasOneUse()
                      ? dyn_cast<ReduceOp>(*result.getUsers().begin())
                      : ReduceOp();
    if (!reduce || reduce.getKind() != ReduceKind::add ||
        int64_t(reduce.getDim()) != int64_t(tiles.getDim()) ||
        !reduce.getResult().hasOneUse())
      return notASum();
    auto store = dyn_cast<StoreOp>(*reduce.getResult().getUsers().begin());
    auto output =
        store ? store.getView().getDefiningOp<PartitionOp>() : PartitionOp();
    auto outputArg =
        output ? dyn_cast<BlockArgument>(output.getSource()) : BlockArgument();
    if (!store || !outputArg || outputArg.getOwner()->getParentOp() != kernel)
      return notASum();
    stores.push_back(store);
    outputArgs.push_back(outputArg.getArgNumber());
  }
  int64_t writes = 0;
  kernel.walk(
      [&](ViewAccessOpInterface access) { writes += access.writesView(); });
  if (writes != int64_t(stores.size()))
    return fail("writes memory other than by its row sums' tile.stores; "
                "split_reduction needs them to be its only writes",
                stores.front().getLoc(), "the row sum's store");
  // One zeroing kernel clears every output, so they share type and dims;
  // atomics into one output from two sums would add them together.
  Block &body = kernel.getBody().front();
  for (auto [i, arg] : llvm::enumerate(outputArgs)) {
    if (llvm::is_contained(ArrayRef(outputArgs).take_front(i), arg))
      return fail(llvm::formatv("stores two of its row sums into argument "
                                "{0}; split_reduction adds each sum into its "
                                "own output",
                                arg),
                  stores[i].getLoc(), "the second store");
    if (body.getArgument(arg).getType() !=
            body.getArgument(outputArgs.front()).getType() ||
        kernel.getArgDimNames(arg) != kernel.getArgDimNames(outputArgs.front()))
      return fail(llvm::formatv("stores its row sums into outputs of "
                                "different types or dims (arguments {0} and "
                                "{1}); split_reduction zeroes them all with "
                                "one kernel",
                                outputArgs.front(), arg),
                  stores[i].getLoc(), "this store");
  }

  // The grid: each coordinate indexes a row-view dim of the same name and
  // tile size, so the chunk view can carry it; one more dim must fit.
  SmallVector<GridOp> grids;
  kernel.walk([&](GridOp grid) { grids.push_back(grid); });
  GridOp grid = grids.front();
  auto gridView = grid.getView().getDefiningOp<PartitionOp>();
  // Views have rank 3 at most and each grid dim must map to a row-view dim
  // other than the row's, so the new grid has 3 dims at most.
  SmallVector<int64_t> gridDims = grid.getGridDims();
  auto argDims = [&](PartitionOp view) -> SmallVector<StringRef> {
    auto arg = dyn_cast<BlockArgument>(view.getSource());
    if (!arg || arg.getOwner()->getParentOp() != kernel)
      return {};
    return kernel.getArgDimNames(arg.getArgNumber());
  };
  SmallVector<StringRef> rowNames = argDims(rowView);
  SmallVector<StringRef> gridNames =
      gridView ? argDims(gridView) : SmallVector<StringRef>();
  SmallVector<int64_t> mapped;
  for (int64_t g : gridDims) {
    int64_t match = -1;
    for (auto [e, rowName] : llvm::enumerate(rowNames))
      if (int64_t(e) != int64_t(tiles.getDim()) && g < int64_t(gridNames.size()) &&
          rowName == gridNames[g] &&
          rowView.getTileSizes()[e] == gridView.getTileSizes()[g])
        match = e;
    if (match < 0)
      return fail(llvm::formatv(
                      "has a grid dim (dim {0} of its view) that no dim of "
                      "the row view tiles alike (same dim name, same tile "
                      "size); split_reduction grids over chunks of the row "
                      "view and must keep every block coordinate",
                      g),
                  grid.getLoc(), "the grid");
    mapped.push_back(match);
  }
  SmallVector<LaunchOp> launches;
  if (auto module = kernel->getParentOfType<ModuleOp>())
    module.walk([&](LaunchOp launch) {
      if (launch.getKernel() == kernel.getSymName())
        launches.push_back(launch);
    });
  if (launches.empty())
    return fail("is launched by no tile.launch; split_reduction zeroes the "
                "output before each launch, so the module must launch it",
                kernel.getLoc(), "this kernel");
  std::string zeroName = (kernel.getSymName() + "_zero").str();
  if (auto module = kernel->getParentOfType<ModuleOp>();
      module && module.lookupSymbol(zeroName))
    return fail("cannot get its zeroing kernel: @" + zeroName +
                    " already exists",
                kernel.getLoc(), "this kernel");

  plan = SplitPlan{kernel,  loop,   rowView, unsigned(tiles.getDim()),
                   grid,    mapped, stores,  outputArgs,
                   launches};
  return std::nullopt;
}

/// Text of the kernel `name` that zeroes `count` arguments of type `type`
/// (dims `dims`): one grid over the first, a store of zeros into each.
static std::string zeroKernelText(StringRef name, MemRefType type,
                                  ArrayRef<StringRef> dims, size_t count) {
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t rank = type.getRank();
  std::string tile, shape, coords;
  for (int64_t d = 0; d < rank; ++d) {
    bool last = d == rank - 1;
    tile += (d ? ", " : "") + std::string(last ? "BZ" : "1");
    shape += (d ? "x" : "") + std::string(last ? "1024" : "1");
    coords += (d ? ", " : "") + ("%c" + std::to_string(d));
  }
  std::string part = "!tile.part<" + shape + "x" + "f32>";
  // One output keeps the plain names %Y and %Yv; several are %Y0, %Y1, ...
  auto suffix = [&](size_t i) {
    return count == 1 ? std::string() : std::to_string(i);
  };
  os << "tile.kernel @" << name << "(";
  for (size_t i = 0; i < count; ++i) {
    os << (i ? ", " : "") << "%Y" << suffix(i) << ": " << type
       << " {tile.dims = [";
    llvm::interleaveComma(dims, os,
                          [&](StringRef d) { os << '"' << d << '"'; });
    os << "]}";
  }
  os << ") params {BZ = 1024, num_warps = 4} {\n";
  for (size_t i = 0; i < count; ++i)
    os << "  %Yv" << suffix(i) << " = tile.partition %Y" << suffix(i)
       << " tile [" << tile << "] : " << type << " -> " << part << "\n";
  os << "  " << coords << " = tile.grid %Yv" << suffix(0) << " : " << part
     << "\n"
     << "  %z = arith.constant dense<0.0> : tensor<" << shape << "xf32>\n";
  for (size_t i = 0; i < count; ++i)
    os << "  tile.store %z, %Yv" << suffix(i) << "[" << coords << "] : tensor<"
       << shape << "xf32>, " << part << "\n";
  os << "  tile.return\n}\n";
  return text;
}

void kbench::transform::applySplitReduction(SplitPlan &plan,
                                            int64_t chunkTiles) {
  KernelOp kernel = plan.kernel;
  MLIRContext *ctx = kernel.getContext();
  PartitionOp rowView = plan.rowView;
  unsigned d = plan.rowDim;
  int64_t rowTile = rowView.getType().getShape()[d];

  // The chunk size is a param, so the search can retile it.
  PayloadEdits edits;
  setParam(kernel, kSplitChunkParam, chunkTiles * rowTile, edits);

  // The chunk view: the row view with BS along the row.
  OpBuilder b(plan.grid);
  auto chunkView = cast<PartitionOp>(b.clone(*rowView));
  SmallVector<Attribute> sizes(rowView.getTileSizes().begin(),
                               rowView.getTileSizes().end());
  sizes[d] = StringAttr::get(ctx, kSplitChunkParam);
  chunkView.setTileSizesAttr(ArrayAttr::get(ctx, sizes));
  SmallVector<int64_t> shape(rowView.getType().getShape());
  shape[d] = chunkTiles * rowTile;
  chunkView.getResult().setType(PartitionType::get(
      ctx, shape, rowView.getType().getElementType(),
      rowView.getType().getPad()));

  // The grid over chunks: the old coordinates, then the chunk.
  SmallVector<int64_t> dims(plan.gridDims);
  dims.push_back(d);
  auto grid = GridOp::create(b, plan.grid.getLoc(), chunkView,
                             b.getDenseI64ArrayAttr(dims));
  for (auto [oldCoord, newCoord] :
       llvm::zip(plan.grid.getCoords(), grid.getCoords()))
    oldCoord.replaceAllUsesWith(newCoord);
  plan.grid.erase();
  Value chunk = grid.getCoords().back();

  // The row loop walks its chunk: [c * per, min(c * per + per, nt)).
  scf::ForOp loop = plan.loop;
  b.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  auto dimAttr = b.getI64IntegerAttr(d);
  Value bs = TileSizeOp::create(b, loc, chunkView, dimAttr);
  Value bn = TileSizeOp::create(b, loc, rowView, dimAttr);
  Value per = arith::DivUIOp::create(b, loc, bs, bn);
  Value first = arith::MulIOp::create(b, loc, chunk, per);
  Value end = arith::AddIOp::create(b, loc, first, per);
  Value last = arith::MinSIOp::create(b, loc, end, loop.getUpperBound());
  loop.getLowerBoundMutable().assign(first);
  loop.getUpperBoundMutable().assign(last);
  loop->setAttr(kSplitReductionAttrName, UnitAttr::get(ctx));

  // Partial sums combine atomically.
  for (StoreOp store : plan.stores) {
    b.setInsertionPoint(store);
    AtomicAddOp::create(b, store.getLoc(), store.getValue(), store.getView(),
                        store.getIndices());
    store.erase();
  }

  // The zeroing kernel, launched before every launch of the kernel.
  auto module = kernel->getParentOfType<ModuleOp>();
  std::string zeroName = (kernel.getSymName() + "_zero").str();
  unsigned firstOutput = plan.outputArgs.front();
  auto outputType =
      cast<MemRefType>(kernel.getBody().getArgument(firstOutput).getType());
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(
      zeroKernelText(zeroName, outputType, kernel.getArgDimNames(firstOutput),
                     plan.outputArgs.size()),
      ctx);
  Operation *zero = parsed->getBody()->front().clone();
  module.getBody()->getOperations().insert(Block::iterator(kernel), zero);
  zero->setLoc(kernel.getLoc());
  for (LaunchOp launch : plan.launches) {
    b.setInsertionPoint(launch);
    SmallVector<Value> outputs;
    for (unsigned arg : plan.outputArgs)
      outputs.push_back(launch.getArgs()[arg]);
    LaunchOp::create(b, launch.getLoc(), FlatSymbolRefAttr::get(ctx, zeroName),
                     outputs);
  }
}

std::optional<KnobFailure>
kbench::transform::checkSplitReduction(KernelOp kernel) {
  std::optional<KnobFailure> failure;
  kernel.walk([&](scf::ForOp loop) {
    if (failure || !loop->hasAttr(kSplitReductionAttrName))
      return;
    auto first = loop.getLowerBound().getDefiningOp<arith::MulIOp>();
    auto per = first ? first.getRhs().getDefiningOp<arith::DivUIOp>()
                     : arith::DivUIOp();
    auto bs = per ? per.getLhs().getDefiningOp<TileSizeOp>() : TileSizeOp();
    auto bn = per ? per.getRhs().getDefiningOp<TileSizeOp>() : TileSizeOp();
    if (!bs || !bn)
      return;
    if (bs.getSize() % bn.getSize() == 0 && bs.getSize() > bn.getSize())
      return;
    failure = KnobFailure{
        llvm::formatv("the split reduction of @{0} walks chunks of {1} = {2} "
                      "elements, which is not a multiple (of at least two) of "
                      "its row tile size {3}; chunks must tile the row",
                      kernel.getSymName(), kSplitChunkParam, bs.getSize(),
                      bn.getSize()),
        loop.getLoc(), "the split row loop"};
  });
  return failure;
}
