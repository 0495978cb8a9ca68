//===- MaskBoundaryTiles.cpp - Masks on the boundary tiles only -----------===//
//
// transform.tile.mask_boundary_tiles: a mask such as `cols < N` or the causal
// `cols <= rows` is an arith.select on a comparison of lane indices, paid on
// every tile although every lane passes it on all but the boundary tiles.
// For a comparison of lane-index tiles `a + sum_d p_d i_d < b + sum_d q_d i_d`
// (a, b scalars, i_d the lane index along dim d, p and q counts of
// tile.iota), every lane passes exactly when the largest difference does:
//
//   a + sum_d max(0, p_d - q_d) (size_d - 1) < b
//
// so "some lane fails" is the negation, a scalar comparison. The rewrite
// wraps each chain of masking selects in `scf.if (some lane fails any of the
// chain's comparisons)`: the then branch is the chain itself, with the
// per-tile ops of its conditions cloned in (the inner tiles skip them); the
// else branch yields the unmasked tile, which is what the chain computes
// when every lane passes. Both are the same on every lane, so the rewrite
// keeps the kernel's meaning exactly.
//
// The derivation assumes the index arithmetic does not wrap: signed
// comparisons of index values far from the 64-bit limits (tile offsets and
// extents are), and for unsigned comparisons scalars this file can show are
// non-negative (constants, grid coordinates, extents, tile counts and sizes,
// loop induction variables from a non-negative bound, and sums, products,
// quotients and minima of those), since an unsigned comparison of a negative
// offset wraps per lane.
//
// Every check runs before any edit.
//
//===----------------------------------------------------------------------===//

#include "MaskBoundaryTiles.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

/// Deep enough for any lane-index expression a kernel writes by hand.
constexpr int kMaxDepth = 32;

/// Why a select's condition is not a lane mask, for the refusal's note.
using NotAMask = std::string;

/// Whether the index scalar `value` is provably >= 0 (see the file comment).
static bool isNonNegative(Value value, int depth = 0) {
  if (depth > kMaxDepth)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return false;
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    return step && *step > 0 && isNonNegative(loop.getLowerBound(), depth + 1);
  }
  Operation *def = value.getDefiningOp();
  if (auto constant = getConstantIntValue(value))
    return *constant >= 0;
  if (isa<GridOp, NumTilesOp, ExtentOp, TileSizeOp>(def))
    return true;
  if (isa<arith::AddIOp, arith::MulIOp, arith::DivUIOp, arith::DivSIOp,
          arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
          arith::MinSIOp, arith::MaxSIOp>(def))
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return isNonNegative(operand, depth + 1);
    });
  return false;
}

static std::string opName(Value value) {
  if (Operation *def = value.getDefiningOp())
    return ("'" + def->getName().getStringRef() + "'").str();
  return "a block argument";
}

/// Reads the lane-index tile `value` into `tile`; `ops` collects every op
/// read.
static std::optional<NotAMask> readLaneTile(Value value, LaneIndexTile &tile,
                                            llvm::SetVector<Operation *> &ops,
                                            int depth = 0) {
  if (depth > kMaxDepth)
    return NotAMask("its lane indices are nested too deeply");
  Operation *def = value.getDefiningOp();
  if (!def)
    return NotAMask("a compared tile is a block argument (a loop-carried "
                    "tile), not lane indices computed in the kernel");
  ops.insert(def);
  if (auto iota = dyn_cast<IotaOp>(def)) {
    tile.coeffs[iota.getDim()] += 1;
    return std::nullopt;
  }
  if (auto splat = dyn_cast<SplatOp>(def)) {
    tile.terms.push_back(splat.getValue());
    return std::nullopt;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!dense)
      return NotAMask("a compared tile is a constant whose lanes differ");
    tile.constant += dense.getSplatValue<APInt>().getSExtValue();
    return std::nullopt;
  }
  if (auto add = dyn_cast<arith::AddIOp>(def)) {
    if (std::optional<NotAMask> bad =
            readLaneTile(add.getLhs(), tile, ops, depth + 1))
      return bad;
    return readLaneTile(add.getRhs(), tile, ops, depth + 1);
  }
  return NotAMask("a compared tile comes from " + opName(value) +
                  "; lane indices are tile.iota, tile.splat of an index "
                  "and index constants, added by arith.addi");
}

/// Reads one comparison into `chain` (its LaneComparison and its ops).
static std::optional<NotAMask> readComparison(arith::CmpIOp cmp,
                                              MaskChain &chain) {
  auto type = dyn_cast<RankedTensorType>(cmp.getLhs().getType());
  if (!type || !type.getElementType().isIndex()) {
    std::string what = "scalars";
    if (type) {
      what.clear();
      llvm::raw_string_ostream os(what);
      os << type.getElementType();
    }
    return NotAMask("its arith.cmpi compares tiles of " + what +
                    ", not index tiles");
  }
  using P = arith::CmpIPredicate;
  LaneComparison comparison;
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  switch (cmp.getPredicate()) {
  case P::slt:
  case P::ult:
  case P::sle:
  case P::ule:
    break;
  case P::sgt:
  case P::ugt:
  case P::sge:
  case P::uge:
    std::swap(lhs, rhs); // a > b is b < a
    break;
  default:
    return NotAMask(("its arith.cmpi is '" +
                     arith::stringifyCmpIPredicate(cmp.getPredicate()) +
                     "'; only the orderings (lt, le, gt, ge) bound a range "
                     "of lanes")
                        .str());
  }
  P pred = cmp.getPredicate();
  comparison.strict =
      llvm::is_contained({P::slt, P::ult, P::sgt, P::ugt}, pred);
  comparison.isSigned =
      llvm::is_contained({P::slt, P::sle, P::sgt, P::sge}, pred);
  comparison.lhs.coeffs.assign(type.getRank(), 0);
  comparison.rhs.coeffs.assign(type.getRank(), 0);
  llvm::SetVector<Operation *> ops;
  ops.insert(cmp);
  if (std::optional<NotAMask> bad = readLaneTile(lhs, comparison.lhs, ops))
    return bad;
  if (std::optional<NotAMask> bad = readLaneTile(rhs, comparison.rhs, ops))
    return bad;
  if (!comparison.isSigned) {
    for (const LaneIndexTile *side : {&comparison.lhs, &comparison.rhs}) {
      if (side->constant < 0)
        return NotAMask("its unsigned arith.cmpi adds a negative constant to "
                        "the lane indices (each lane's comparison would wrap "
                        "where the guard's does not)");
      for (Value term : side->terms)
        if (!isNonNegative(term))
          return NotAMask("its unsigned arith.cmpi offsets the lanes by a "
                          "scalar from " +
                          opName(term) +
                          " that is not provably non-negative (each "
                          "lane's comparison would wrap where the "
                          "guard's does not); compare signed, or offset "
                          "by grid coordinates, extents, tile sizes and "
                          "loop counters");
    }
  }
  comparison.compared = cmp.getLhs();
  for (Operation *op : ops)
    if (!llvm::is_contained(chain.conditionOps, op))
      chain.conditionOps.push_back(op);
  chain.comparisons.push_back(std::move(comparison));
  return std::nullopt;
}

/// Reads a select's condition (comparisons joined by arith.andi) into
/// `chain`.
static std::optional<NotAMask> readCondition(Value cond, MaskChain &chain,
                                             int depth = 0) {
  if (depth > kMaxDepth)
    return NotAMask("its condition is nested too deeply");
  Operation *def = cond.getDefiningOp();
  if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(def))
    return readComparison(cmp, chain);
  if (auto both = dyn_cast_or_null<arith::AndIOp>(def)) {
    if (!llvm::is_contained(chain.conditionOps, def))
      chain.conditionOps.push_back(def);
    if (std::optional<NotAMask> bad =
            readCondition(both.getLhs(), chain, depth + 1))
      return bad;
    return readCondition(both.getRhs(), chain, depth + 1);
  }
  return NotAMask("its condition comes from " + opName(cond) +
                  ", not an arith.cmpi of lane indices or an arith.andi "
                  "of such comparisons");
}

/// Whether `select` already sits in a boundary branch: the branch of an
/// scf.if whose other branch yields the tile that the select (through the
/// selects before it in the branch) masks; the hand-written form of this
/// rewrite, as in the attention kernels. A second guard inside would test
/// again what the first did.
static bool isInBoundaryBranch(arith::SelectOp select) {
  auto branch = dyn_cast<scf::IfOp>(select->getParentOp());
  if (!branch || branch.getElseRegion().empty())
    return false;
  Value unmasked = select.getTrueValue();
  while (auto earlier = unmasked.getDefiningOp<arith::SelectOp>()) {
    if (earlier->getBlock() != select->getBlock())
      break;
    unmasked = earlier.getTrueValue();
  }
  Region *own = select->getParentRegion();
  Region &other = own == &branch.getThenRegion() ? branch.getElseRegion()
                                                 : branch.getThenRegion();
  auto yield = cast<scf::YieldOp>(other.front().getTerminator());
  return llvm::is_contained(yield.getOperands(), unmasked);
}

/// Fills the sizes of every planned comparison: the tile.tile_size of the
/// partition whose param sizes a dim, or its literal size. One analysis of
/// the kernel's tile dims serves all comparisons.
static std::optional<KnobFailure> resolveSizes(MaskBoundaryTilesPlan &plan) {
  std::vector<LaneComparison *> comparisons;
  SmallVector<Value> compared;
  for (MaskChain &chain : plan.chains)
    for (LaneComparison &comparison : chain.comparisons) {
      comparisons.push_back(&comparison);
      compared.push_back(comparison.compared);
    }
  std::vector<SmallVector<std::optional<StringRef>>> params =
      tileDimParams(plan.kernel, compared);
  // The first partition dim each param sizes.
  llvm::StringMap<std::pair<PartitionOp, int64_t>> sizedBy;
  plan.kernel.walk([&](PartitionOp view) {
    for (auto [viewDim, attr] : llvm::enumerate(view.getTileSizes()))
      if (auto name = dyn_cast<StringAttr>(attr))
        sizedBy.try_emplace(name.getValue(), view, viewDim);
  });
  for (auto [comparison, dims] : llvm::zip_equal(comparisons, params)) {
    auto type = cast<RankedTensorType>(comparison->compared.getType());
    for (auto [d, param] : llvm::enumerate(dims)) {
      LaneDimSize size;
      size.literal = type.getDimSize(d);
      if (param) {
        auto it = sizedBy.find(*param);
        // Defensive: a param anchors a dim class only through a partition.
        if (it == sizedBy.end())
          return KnobFailure{
              llvm::formatv("dim {0} of a compared tile is sized by the param "
                            "{1}, which no tile.partition takes as a tile "
                            "size",
                            d, *param),
              comparison->compared.getLoc(), "this tile"};
        size.view = it->second.first;
        size.viewDim = it->second.second;
      }
      comparison->sizes.push_back(size);
    }
  }
  return std::nullopt;
}

std::optional<KnobFailure>
kbench::transform::planMaskBoundaryTiles(KernelOp kernel, int64_t value,
                                         MaskBoundaryTilesPlan &plan) {
  plan = MaskBoundaryTilesPlan{kernel, {}};
  std::string name = ("@" + kernel.getSymName()).str();
  if (std::optional<KnobFailure> failure =
          checkOnOff(kernel, "mask_boundary_tiles", value,
                     "mask only the tiles that need it"))
    return failure;
  if (value == 0)
    return std::nullopt;

  bool applied = false;
  kernel.walk([&](scf::IfOp branch) {
    applied |= branch->hasAttr(kBoundaryMasksAttrName);
  });
  if (applied)
    return KnobFailure{name + " already masks only its boundary tiles (the "
                              "scf.if marked tile.boundary_masks); apply the "
                              "op once per kernel",
                       kernel.getLoc(), "this kernel"};

  // Every select on a tile of i1 conditions, read as a one-select chain; the
  // first that is not a lane mask explains a refusal.
  llvm::MapVector<Operation *, MaskChain> single;
  std::optional<NotAMask> firstRefused;
  std::optional<Location> firstRefusedAt;
  kernel.walk([&](arith::SelectOp select) {
    if (!isa<RankedTensorType>(select.getCondition().getType()))
      return;
    if (isInBoundaryBranch(select)) {
      if (!firstRefused) {
        firstRefused = NotAMask("it is in a branch of an scf.if whose other "
                                "branch yields the unmasked tile (the "
                                "kernel masks only its boundary tiles "
                                "already)");
        firstRefusedAt = select.getLoc();
      }
      return;
    }
    MaskChain chain;
    chain.selects.push_back(select);
    if (std::optional<NotAMask> bad =
            readCondition(select.getCondition(), chain)) {
      if (!firstRefused) {
        firstRefused = bad;
        firstRefusedAt = select.getLoc();
      }
      return;
    }
    single.insert({select.getOperation(), std::move(chain)});
  });

  // Chains: a mask select whose unmasked operand is another's sole use in
  // the same block continues that one's chain.
  auto previous = [&](arith::SelectOp select) -> Operation * {
    Operation *def = select.getTrueValue().getDefiningOp();
    if (def && single.count(def) && def->hasOneUse() &&
        def->getBlock() == select->getBlock())
      return def;
    return nullptr;
  };
  for (auto &[op, head] : single) {
    if (previous(cast<arith::SelectOp>(op)))
      continue; // part of the chain of the select it continues
    MaskChain chain = head;
    Operation *last = op;
    while (last->hasOneUse()) {
      Operation *user = *last->user_begin();
      auto next = dyn_cast<arith::SelectOp>(user);
      if (!next || !single.count(user) || previous(next) != last)
        break;
      const MaskChain &more = single.find(user)->second;
      chain.selects.push_back(next);
      chain.comparisons.insert(chain.comparisons.end(),
                               more.comparisons.begin(),
                               more.comparisons.end());
      for (Operation *conditionOp : more.conditionOps)
        if (!llvm::is_contained(chain.conditionOps, conditionOp))
          chain.conditionOps.push_back(conditionOp);
      last = user;
    }
    plan.chains.push_back(std::move(chain));
  }
  if (!plan.chains.empty())
    return resolveSizes(plan);
  std::string message = name + " has no arith.select on a comparison of lane "
                               "indices; mask_boundary_tiles has no mask to "
                               "move";
  if (firstRefused)
    return KnobFailure{message, *firstRefusedAt,
                       "this select is not one: " + *firstRefused};
  return KnobFailure{message, kernel.getLoc(), "this kernel"};
}

/// `sum(tile.terms) + tile.constant`, or null for an empty sum.
static Value buildBase(OpBuilder &b, Location loc, const LaneIndexTile &tile) {
  Value sum;
  auto add = [&](Value term) {
    sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
  };
  for (Value term : tile.terms)
    add(term);
  if (tile.constant != 0 || !sum)
    add(arith::ConstantIndexOp::create(b, loc, tile.constant));
  return sum;
}

/// `tile_size - 1` of a view's dim, built once per chain.
using LastLaneCache = llvm::DenseMap<std::pair<Operation *, int64_t>, Value>;

/// The i1 scalar "some lane fails `comparison`".
static Value buildSomeLaneFails(OpBuilder &b, Location loc,
                                const LaneComparison &comparison,
                                LastLaneCache &lastLanes) {
  // The largest lhs - rhs over the lanes: the lhs base plus, along each dim
  // where lhs grows faster than rhs, the growth over size - 1 lanes.
  Value high = buildBase(b, loc, comparison.lhs);
  for (auto [d, size] : llvm::enumerate(comparison.sizes)) {
    int64_t growth = comparison.lhs.coeffs[d] - comparison.rhs.coeffs[d];
    if (growth <= 0)
      continue;
    Value span;
    if (size.view) {
      Value &lastLane = lastLanes[{size.view, size.viewDim}];
      if (!lastLane) {
        PartitionOp view = size.view;
        Value extent =
            TileSizeOp::create(b, loc, view, b.getI64IntegerAttr(size.viewDim));
        lastLane = arith::SubIOp::create(
            b, loc, extent, arith::ConstantIndexOp::create(b, loc, 1));
      }
      span = lastLane;
      if (growth != 1)
        span = arith::MulIOp::create(
            b, loc, span, arith::ConstantIndexOp::create(b, loc, growth));
    } else {
      span =
          arith::ConstantIndexOp::create(b, loc, growth * (size.literal - 1));
    }
    high = arith::AddIOp::create(b, loc, high, span);
  }
  Value low = buildBase(b, loc, comparison.rhs);
  using P = arith::CmpIPredicate;
  P fails = comparison.strict ? (comparison.isSigned ? P::sge : P::uge)
                              : (comparison.isSigned ? P::sgt : P::ugt);
  return arith::CmpIOp::create(b, loc, fails, high, low);
}

void kbench::transform::applyMaskBoundaryTiles(MaskBoundaryTilesPlan &plan,
                                               int64_t value) {
  if (value == 0)
    return;
  MLIRContext *ctx = plan.kernel.getContext();
  llvm::SetVector<Operation *> moved;
  for (MaskChain &chain : plan.chains) {
    arith::SelectOp first = chain.selects.front(), last = chain.selects.back();
    Block *block = last->getBlock();
    Location loc = last.getLoc();
    OpBuilder b(last);
    Value guard;
    LastLaneCache lastLanes;
    for (const LaneComparison &comparison : chain.comparisons) {
      Value fails = buildSomeLaneFails(b, loc, comparison, lastLanes);
      guard = guard ? arith::OrIOp::create(b, loc, guard, fails).getResult()
                    : fails;
    }
    // The per-tile ops of the conditions (those in the chain's block) and
    // the selects, in program order, go into the then branch.
    SmallVector<Operation *> toClone;
    for (Operation *op : chain.conditionOps)
      if (op->getBlock() == block)
        toClone.push_back(op);
    for (arith::SelectOp select : chain.selects)
      toClone.push_back(select);
    llvm::sort(toClone, [](Operation *x, Operation *y) {
      return x->isBeforeInBlock(y);
    });
    auto branch = scf::IfOp::create(
        b, loc, guard,
        [&](OpBuilder &then, Location thenLoc) {
          IRMapping mapping;
          for (Operation *op : toClone)
            then.clone(*op, mapping);
          scf::YieldOp::create(then, thenLoc, mapping.lookup(last.getResult()));
        },
        [&](OpBuilder &otherwise, Location elseLoc) {
          scf::YieldOp::create(otherwise, elseLoc, first.getTrueValue());
        });
    branch->setAttr(kBoundaryMasksAttrName, UnitAttr::get(ctx));
    last.getResult().replaceAllUsesWith(branch.getResult(0));
    for (arith::SelectOp select : llvm::reverse(chain.selects))
      select->erase();
    for (Operation *op : toClone)
      if (!isa<arith::SelectOp>(op))
        moved.insert(op);
  }
  // The originals of the cloned condition ops, where nothing else uses them.
  // Each chain's ops were added in program order and every op's operands
  // among them came with it (readLaneTile walks the whole tree), so users
  // precede their operands in reverse and one pass erases every dead one.
  for (Operation *op : llvm::reverse(moved.getArrayRef()))
    if (op->use_empty())
      op->erase();
}
