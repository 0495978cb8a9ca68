//===- RowsPerCta.cpp - Several row tiles per CTA -------------------------===//
//
// transform.tile.rows_per_cta: on launch-bound shapes (many small CTAs) a CTA
// that handles R consecutive tiles of the grid's first dim amortizes its
// start. The rewrite grids over a coarser partition of the grid's view (tile
// BRC = R x the tile size along that dim, a new param) and wraps everything
// after the grid in `scf.for %r = c * per to min(c * per + per, nt) step 1`,
// per = BRC / tile size, the body using %r where it used the block
// coordinate. The machinery is split_reduction's (a coarser partition to
// grid over, a loop bounded by a min), which tile-verify models exactly.
//
// Every check runs before any edit.
//
//===----------------------------------------------------------------------===//

#include "RowsPerCta.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

std::optional<KnobFailure>
kbench::transform::planRowsPerCta(KernelOp kernel, int64_t rows,
                                  RowsPerCtaPlan &plan) {
  std::string name = ("@" + kernel.getSymName()).str();
  if (rows < 2 || rows > kSm90aLimits.maxKnobValue)
    return KnobFailure{llvm::formatv("rows = {0} is outside 2..{1}; a CTA "
                                     "takes at least two row tiles",
                                     rows, kSm90aLimits.maxKnobValue),
                       kernel.getLoc(), "in this kernel"};
  bool applied = false;
  kernel.walk([&](scf::ForOp loop) {
    applied |= loop->hasAttr(kRowsPerCtaAttrName);
  });
  if (applied)
    return KnobFailure{name + " already takes several row tiles per CTA (the "
                              "scf.for marked tile.rows_per_cta); apply the op "
                              "once per kernel",
                       kernel.getLoc(), "this kernel"};
  if (kernel.getParamValue(kRowsPerCtaParam))
    return KnobFailure{(name + " already has a param " + kRowsPerCtaParam +
                        ", which the op would add for the coarser tile"),
                       kernel.getLoc(), "this kernel"};
  GridOp grid;
  kernel.walk([&](GridOp op) { grid = op; });
  auto view = grid.getView().getDefiningOp<PartitionOp>();
  if (!view || grid->getBlock() != &kernel.getBody().front())
    return KnobFailure{name + "'s tile.grid is not at the kernel's top level "
                              "over a tile.partition; rows_per_cta wraps "
                              "what follows the grid in a loop",
                       grid.getLoc(), "the grid"};
  plan = RowsPerCtaPlan{kernel, grid, view, grid.getGridDims().front()};
  return std::nullopt;
}

void kbench::transform::applyRowsPerCta(RowsPerCtaPlan &plan, int64_t rows) {
  KernelOp kernel = plan.kernel;
  MLIRContext *ctx = kernel.getContext();
  PartitionOp view = plan.view;
  int64_t d = plan.dim;
  int64_t tile = view.getType().getShape()[d];

  PayloadEdits edits;
  setParam(kernel, kRowsPerCtaParam, rows * tile, edits);

  // The coarser view: the grid's view with BRC along its first grid dim.
  OpBuilder b(plan.grid);
  auto coarse = cast<PartitionOp>(b.clone(*view));
  SmallVector<Attribute> sizes(view.getTileSizes().begin(),
                               view.getTileSizes().end());
  sizes[d] = StringAttr::get(ctx, kRowsPerCtaParam);
  coarse.setTileSizesAttr(ArrayAttr::get(ctx, sizes));
  SmallVector<int64_t> shape(view.getType().getShape());
  shape[d] = rows * tile;
  coarse.getResult().setType(PartitionType::get(
      ctx, shape, view.getType().getElementType(), view.getType().getPad()));
  auto grid = GridOp::create(b, plan.grid.getLoc(), coarse,
                             plan.grid.getDimsAttr());
  for (auto [oldCoord, newCoord] :
       llvm::zip(plan.grid.getCoords().drop_front(),
                 grid.getCoords().drop_front()))
    oldCoord.replaceAllUsesWith(newCoord);
  Value block = plan.grid.getCoords().front();

  // for %r = c * per to min(c * per + per, nt): the rest of the kernel.
  Location loc = plan.grid.getLoc();
  auto dimAttr = b.getI64IntegerAttr(d);
  Value big = TileSizeOp::create(b, loc, coarse, dimAttr);
  Value small = TileSizeOp::create(b, loc, view, dimAttr);
  Value per = arith::DivUIOp::create(b, loc, big, small);
  Value first = arith::MulIOp::create(b, loc, grid.getCoords().front(), per);
  Value end = arith::AddIOp::create(b, loc, first, per);
  Value tiles = NumTilesOp::create(b, loc, view, dimAttr);
  Value last = arith::MinSIOp::create(b, loc, end, tiles);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, first, last, one);
  loop->setAttr(kRowsPerCtaAttrName, UnitAttr::get(ctx));
  Block &body = kernel.getBody().front();
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation *op = loop->getNextNode(), *next = nullptr;
       op && op != body.getTerminator(); op = next) {
    next = op->getNextNode();
    op->moveBefore(yield);
  }
  block.replaceAllUsesWith(loop.getInductionVar());
  plan.grid.erase();
}

std::optional<KnobFailure> kbench::transform::checkRowsPerCta(KernelOp kernel) {
  std::optional<KnobFailure> failure;
  kernel.walk([&](scf::ForOp loop) {
    if (failure || !loop->hasAttr(kRowsPerCtaAttrName))
      return;
    auto first = loop.getLowerBound().getDefiningOp<arith::MulIOp>();
    auto per = first ? first.getRhs().getDefiningOp<arith::DivUIOp>()
                     : arith::DivUIOp();
    auto big = per ? per.getLhs().getDefiningOp<TileSizeOp>() : TileSizeOp();
    auto small = per ? per.getRhs().getDefiningOp<TileSizeOp>() : TileSizeOp();
    if (!big || !small ||
        (big.getSize() % small.getSize() == 0 &&
         big.getSize() > small.getSize()))
      return;
    failure = KnobFailure{
        llvm::formatv("@{0} takes tiles of {1} = {2} rows per CTA, which is "
                      "not a multiple (of at least two) of its tile size {3}; "
                      "the coarser tile must hold whole tiles",
                      kernel.getSymName(), kRowsPerCtaParam, big.getSize(),
                      small.getSize()),
        loop.getLoc(), "the loop over the CTA's row tiles"};
  });
  return failure;
}
