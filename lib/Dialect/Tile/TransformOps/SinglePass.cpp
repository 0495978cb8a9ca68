//===- SinglePass.cpp - The single-pass rewrite of row kernels ------------===//
//
// transform.tile.single_pass: a kernel that walks a row in several passes
// (top-level scf.for loops over the same tile.num_tiles) re-reads every tile
// of the row once per pass. When the row is one tile (extent <= tile size)
// the loops run exactly once, so the kernel is versioned on that condition:
// the then branch holds the passes inlined at j = 0 with each repeated
// tile.load replaced by the first one, the else branch the passes unchanged.
//
// The rewrite is structural, so it cannot go through PayloadEdits: a plan
// first builds the guarded fast path next to the untouched kernel (all the
// legality checks run on it), and only a commit moves the original passes
// into the else branch. A refused plan is erased and a committed one can be
// moved back, so a failing op leaves every kernel as it found it.
//
//===----------------------------------------------------------------------===//

#include "SinglePass.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

//===----------------------------------------------------------------------===//
// Row loops
//===----------------------------------------------------------------------===//

static bool isConstantIndex(Value value, int64_t expected) {
  APInt constant;
  return matchPattern(value, m_ConstantInt(&constant)) &&
         constant.getSExtValue() == expected;
}

/// The tile.num_tiles a row loop walks, or null when `loop` is not one
/// (`scf.for %j = 0 to tile.num_tiles %V[d] step 1`).
static NumTilesOp getRowLoopTiles(scf::ForOp loop) {
  if (!isConstantIndex(loop.getLowerBound(), 0) ||
      !isConstantIndex(loop.getStep(), 1))
    return {};
  return loop.getUpperBound().getDefiningOp<NumTilesOp>();
}

/// Whether two tile coordinates are equal in the fast path (the same value,
/// or equal constants).
static bool sameIndex(Value a, Value b) {
  if (a == b)
    return true;
  APInt ca, cb;
  return matchPattern(a, m_ConstantInt(&ca)) &&
         matchPattern(b, m_ConstantInt(&cb)) &&
         ca.getSExtValue() == cb.getSExtValue();
}

/// The memref a view partitions, or null when it is not a tile.partition.
static Value getViewSource(Value view) {
  auto partition = view.getDefiningOp<PartitionOp>();
  return partition ? partition.getSource() : Value();
}

//===----------------------------------------------------------------------===//
// Building the fast path
//===----------------------------------------------------------------------===//

/// Clones `ops` (the passes and what lies between them) into `builder`'s
/// block, each row loop inlined at its single iteration `zero`.
static void cloneInlined(OpBuilder &builder, ArrayRef<Operation *> ops,
                         Value zero, IRMapping &map) {
  for (Operation *op : ops) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || !getRowLoopTiles(loop)) {
      builder.clone(*op, map);
      continue;
    }
    map.map(loop.getInductionVar(), zero);
    for (auto [iterArg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      map.map(iterArg, map.lookupOrDefault(init));
    for (Operation &inner : loop.getBody()->without_terminator())
      builder.clone(inner, map);
    for (auto [result, yielded] :
         llvm::zip(loop.getResults(),
                   loop.getBody()->getTerminator()->getOperands()))
      map.map(result, map.lookupOrDefault(yielded));
  }
}

/// Replaces each top-level tile.load of `block` that reads a tile an earlier
/// load already read (no write into the same memref in between) by that
/// load. Returns how many loads it removed.
static int mergeRepeatedLoads(Block &block) {
  SmallVector<LoadOp> available;
  int merged = 0;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto same = llvm::find_if(available, [&](LoadOp earlier) {
        return earlier.getView() == load.getView() &&
               earlier.getType() == load.getType() &&
               llvm::all_of_zip(earlier.getIndices(), load.getIndices(),
                                sameIndex);
      });
      if (same != available.end()) {
        load.replaceAllUsesWith(same->getResult());
        load.erase();
        ++merged;
      } else {
        available.push_back(load);
      }
      continue;
    }
    // A write invalidates the loads of its memref (memref arguments do not
    // alias, as tile-verify assumes); one of an unknown memref, all of them.
    op.walk([&](ViewAccessOpInterface access) {
      if (!access.writesView())
        return;
      Value written = getViewSource(access.getView());
      llvm::erase_if(available, [&](LoadOp load) {
        return !written || getViewSource(load.getView()) == written;
      });
    });
  }
  return merged;
}

//===----------------------------------------------------------------------===//
// Held tiles
//===----------------------------------------------------------------------===//

/// The top-level op of `block` that contains `op`.
static Operation *topLevelIn(Block &block, Operation *op) {
  return block.findAncestorOpInBlock(*op);
}

/// The loads of a fast path that stay live across a row reduction: a use of
/// the tile comes after the first tile.reduce that depends on it (in a later
/// pass, or later in the same one).
static SmallVector<LoadOp> getHeldTiles(Block &fastPath) {
  SmallVector<LoadOp> held;
  for (Operation &op : fastPath) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load)
      continue;
    SetVector<Operation *> slice;
    getForwardSlice(load.getResult(), &slice);
    Operation *firstReduce = nullptr;
    for (Operation *user : slice) {
      Operation *top = topLevelIn(fastPath, user);
      if (isa<ReduceOp>(user) && top &&
          (!firstReduce || top->isBeforeInBlock(firstReduce)))
        firstReduce = top;
    }
    if (firstReduce && llvm::any_of(load->getUsers(), [&](Operation *user) {
          Operation *top = topLevelIn(fastPath, user);
          return top && firstReduce->isBeforeInBlock(top);
        }))
      held.push_back(load);
  }
  return held;
}

/// 32-bit registers per thread of a tile spread over `threads` threads.
static int64_t registersPerThread(RankedTensorType type, int64_t threads) {
  int64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
  return llvm::divideCeil(bits, 32 * threads);
}

static std::optional<KnobFailure> checkFastPath(KernelOp kernel,
                                                scf::IfOp fastPath) {
  int64_t threads = getBlockSize(kernel);
  SmallVector<LoadOp> held = getHeldTiles(*fastPath.thenBlock());
  int64_t registers = 0;
  std::string tiles;
  llvm::raw_string_ostream os(tiles);
  for (LoadOp load : held) {
    registers += registersPerThread(load.getType(), threads);
    os << (tiles.empty() ? "" : ", ") << load.getType();
  }
  int64_t limit = kSm90aLimits.heldTileRegisterLimit;
  if (registers <= limit)
    return std::nullopt;
  return KnobFailure{
      llvm::formatv("the single-pass fast path of @{0} keeps {1} live across "
                    "its passes: {2} registers per thread over {3} threads "
                    "(num_warps = {4}), above the held-tile limit of {5} "
                    "(KernelConfig.h); lower the tile sizes or raise "
                    "num_warps",
                    kernel.getSymName(), tiles, registers, threads,
                    threads / kSm90aLimits.warpSize, limit),
      held.front().getLoc(), "this tile stays in registers"};
}

//===----------------------------------------------------------------------===//
// Plan, commit, undo
//===----------------------------------------------------------------------===//

std::optional<KnobFailure>
kbench::transform::planSinglePass(KernelOp kernel, SinglePassPlan &plan,
                                  bool checkHeldTiles) {
  Block &body = kernel.getBody().front();
  auto where = [&](StringRef text) {
    return (Twine("@") + kernel.getSymName() + text).str();
  };
  bool applied = false;
  kernel.walk([&](scf::IfOp ifOp) {
    applied |= ifOp->hasAttr(kSinglePassAttrName);
  });
  if (applied)
    return KnobFailure{where(" already has a single-pass fast path (the "
                             "scf.if marked tile.single_pass); apply the op "
                             "once per kernel"),
                       kernel.getLoc(), "this kernel"};

  SmallVector<scf::ForOp> loops;
  for (Operation &op : body)
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && getRowLoopTiles(loop))
      loops.push_back(loop);
  if (loops.empty())
    return KnobFailure{
        where(" has no row loop: single_pass fuses top-level scf.for loops "
              "from 0 to a tile.num_tiles value with step 1 (the passes over "
              "the tiles of a row)"),
        kernel.getLoc(), "this kernel"};
  NumTilesOp tiles = getRowLoopTiles(loops.front());
  for (scf::ForOp loop : loops)
    if (NumTilesOp other = getRowLoopTiles(loop);
        other.getView() != tiles.getView() ||
        other.getDim() != tiles.getDim())
      return KnobFailure{
          where(llvm::formatv(
              " has row loops over different tile counts (tile.num_tiles of "
              "dim {0} and of dim {1}, or of two views); single_pass needs "
              "every pass to walk the same tiles",
              tiles.getDim(), other.getDim())
                    .str()),
          loop.getLoc(), "this loop walks other tiles than the first"};

  // The passes and everything after them move into the branches (tile.return
  // has no operands, so nothing after them needs their values).
  Operation *terminator = body.getTerminator();
  SmallVector<Operation *> ops;
  for (Operation *op = loops.front(); op != terminator; op = op->getNextNode())
    ops.push_back(op);

  OpBuilder builder(loops.front());
  Location loc = loops.front().getLoc();
  auto extent = ExtentOp::create(builder, loc, tiles.getView(),
                                 tiles.getDimAttr());
  auto size = TileSizeOp::create(builder, loc, tiles.getView(),
                                 tiles.getDimAttr());
  auto fits = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                    extent, size);
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, fits,
                                /*withElseRegion=*/true);
  ifOp->setAttr(kSinglePassAttrName, builder.getUnitAttr());
  plan = SinglePassPlan{kernel, ifOp, {extent, size, fits}, ops};

  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  IRMapping map;
  cloneInlined(builder, ops, zero, map);
  if (mergeRepeatedLoads(*ifOp.thenBlock()) == 0) {
    discardSinglePass(plan);
    return KnobFailure{
        where(" loads no tile twice at the same coordinates once its passes "
              "are fused (one pass, or a store into the same memref between "
              "the loads), so a fast path would read as much as the loops "
              "do; drop the op for this kernel"),
        loops.front().getLoc(), "the first row loop"};
  }
  if (!checkHeldTiles)
    return std::nullopt;
  if (std::optional<KnobFailure> failure = checkFastPath(kernel, ifOp)) {
    discardSinglePass(plan);
    // The fast path is gone: point at the load in the original pass.
    failure->where = loops.front().getLoc();
    failure->note = "the tiles of this row loop would stay in registers";
    return failure;
  }
  return std::nullopt;
}

void kbench::transform::discardSinglePass(SinglePassPlan &plan) {
  plan.ifOp.erase();
  for (Operation *op : llvm::reverse(plan.guard))
    op->erase();
  plan = {};
}

void kbench::transform::commitSinglePass(SinglePassPlan &plan) {
  Operation *yield = plan.ifOp.elseBlock()->getTerminator();
  for (Operation *op : plan.moved)
    op->moveBefore(yield);
}

void kbench::transform::undoSinglePass(SinglePassPlan &plan) {
  for (Operation *op : plan.moved)
    op->moveBefore(plan.ifOp);
  discardSinglePass(plan);
}

std::optional<KnobFailure> kbench::transform::checkSinglePass(KernelOp kernel) {
  std::optional<KnobFailure> failure;
  kernel.walk([&](scf::IfOp ifOp) {
    if (!failure && ifOp->hasAttr(kSinglePassAttrName))
      failure = checkFastPath(kernel, ifOp);
  });
  return failure;
}
