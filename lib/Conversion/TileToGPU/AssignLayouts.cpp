//===- AssignLayouts.cpp - The tile-assign-layouts pass -------------------===//
//
// Writes the answer of LayoutPlan into the IR. Every tile value gets the
// `#tile.blocked` encoding of its layout in its tensor type:
//   - an op result gets the layout the op produces by construction: for
//     tile.reduce, tile.transpose and tile.expand_dims the one derived from
//     the input (the input minus the reduced dim, permuted, with a unit dim),
//     for tile.mma the accumulator micro-tile layout, for every other op the
//     planned layout;
//   - an operand that must be in a given layout gets it: elementwise
//     operands the layout of the op's first result, the input of
//     tile.broadcast the result's layout minus the broadcast dims, the
//     accumulator of tile.mma the micro-tile layout, scf.for inits and
//     scf.yield operands the layout of the loop or if result;
// and a tile.convert_layout is inserted right after a result whose produced
// layout differs from the planned one, and right before a use that needs
// another layout than the value has. Operands of tile.store, tile.atomic_add,
// tile.reduce, tile.transpose, tile.expand_dims and the A/B operands of
// tile.mma (staged through shared memory) take any layout, except a store
// marked tile.stage_through_shared, which takes its own coalesced layout.
//
// The conversions land where the lowering used to convert on demand, so the
// generated code is the same as before the encodings were in the IR.
//
//===----------------------------------------------------------------------===//

#include "AssignLayouts.h"
#include "Knobs.h"
#include "LayoutPlan.h"

#include "kbench/Conversion/TileToGPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"

namespace kbench {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "kbench/Conversion/TileToGPU/Passes.h.inc"
} // namespace kbench

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

static bool isTile(Value v) { return isa<RankedTensorType>(v.getType()); }

bool kbench::gpu_lowering::hasLayouts(tile::KernelOp kernel) {
  auto encoded = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.getEncoding();
  };
  return kernel
      .walk([&](Operation *op) {
        if (llvm::any_of(op->getResultTypes(), encoded))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
/// Rewrites one kernel; see the file comment.
class Assigner {
public:
  Assigner(tile::KernelOp kernel, const KernelKnobs &knobs)
      : plan(kernel, knobs.numWarps, knobs.vectorWidth),
        numWarps(knobs.numWarps), vectorWidth(knobs.vectorWidth) {}

  void run(tile::KernelOp kernel) {
    kernel.walk<WalkOrder::PreOrder>([&](Operation *op) { visit(op); });
  }

private:
  /// The layout `v` has so far. Values the walk does not define (block
  /// arguments of ops tile-to-gpu rejects, such as scf.while) keep their
  /// type and count as planned.
  Layout current(Value v) {
    if (std::optional<Layout> layout =
            getLayout(cast<RankedTensorType>(v.getType())))
      return *layout;
    return plan.get(v);
  }

  /// Makes operand `i` of `op` be in `layout`, through a conversion before
  /// `op` when it is not.
  /// Returns the conversion, or null when none was needed.
  tile::ConvertLayoutOp require(Operation *op, unsigned i,
                                const Layout &layout) {
    Value v = op->getOperand(i);
    if (current(v) == layout)
      return {};
    OpBuilder b(op);
    auto type = withLayout(cast<RankedTensorType>(v.getType()), layout);
    auto convert = tile::ConvertLayoutOp::create(b, op->getLoc(), type, v);
    op->setOperand(i, convert);
    return convert;
  }

  /// A store marked tile.stage_through_shared (transform.tile.stage_transposes)
  /// takes its tile in the store's own layout, the default blocked one of
  /// the tile's shape (lanes along the innermost dim, vector_width elements
  /// each), through a conversion that SharedMemory.cpp pads; the mark moves
  /// to that conversion.
  void stageStore(Operation *op, unsigned i) {
    auto type = cast<RankedTensorType>(op->getOperand(i).getType());
    Layout coalesced = getBlockedLayout(type.getShape(), numWarps, vectorWidth);
    if (tile::ConvertLayoutOp convert = require(op, i, coalesced))
      convert->setAttr(tile::kStageThroughSharedAttrName,
                       UnitAttr::get(op->getContext()));
  }

  /// Gives `v` (a result or block argument) layout `produced`, then converts
  /// it to `planned` for its uses when they differ.
  void define(Value v, const Layout &produced, const Layout &planned) {
    auto type = cast<RankedTensorType>(v.getType());
    v.setType(withLayout(type, produced));
    if (produced == planned)
      return;
    OpBuilder b(v.getContext());
    b.setInsertionPointAfterValue(v);
    auto convert = tile::ConvertLayoutOp::create(b, v.getLoc(),
                                                 withLayout(type, planned), v);
    v.replaceAllUsesExcept(convert.getResult(), convert);
  }

  std::optional<Layout> mmaLayout(tile::MmaOp mma) const {
    return getAccumulatorLayout(mma, numWarps);
  }

  void visit(Operation *op) {
    if (isa<tile::ConvertLayoutOp>(op))
      return;
    // Operands first: their layouts decide what the op produces.
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      for (auto [i, result] : llvm::enumerate(forOp.getResults()))
        if (isTile(result))
          require(op, forOp.getInitArgs().getBeginOperandIndex() + i,
                  plan.get(result));
    } else if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      if (isa<scf::ForOp, scf::IfOp>(parent))
        for (auto [i, result] : llvm::enumerate(parent->getResults()))
          if (isTile(result))
            require(op, i, current(result));
    } else if (auto map = dyn_cast<tile::AxisMapOpInterface>(op);
               map && layoutFollowsResult(map)) {
      OpOperand &input = *llvm::find_if(op->getOpOperands(), [&](OpOperand &o) {
        return o.get() == map.getMappedInput();
      });
      require(op, input.getOperandNumber(),
              plan.get(op->getResult(0)).takeAxes(inputAxesInResult(map)));
    } else if (auto gather = dyn_cast<tile::GatherOp>(op)) {
      // Each element reads at its own index: the index tile is laid out as
      // the result.
      require(op, gather.getOffsetsMutable().getOperandNumber(),
              plan.get(gather.getResult()));
    } else if (auto mma = dyn_cast<tile::MmaOp>(op)) {
      if (std::optional<Layout> acc = mmaLayout(mma))
        require(op, mma.getAccMutable().getOperandNumber(), *acc);
    } else if (auto store = dyn_cast<tile::StoreOp>(op);
               store && op->hasAttr(tile::kStageThroughSharedAttrName)) {
      stageStore(op, store.getValueMutable().getOperandNumber());
    } else if (auto add = dyn_cast<tile::AtomicAddOp>(op);
               add && op->hasAttr(tile::kStageThroughSharedAttrName)) {
      stageStore(op, add.getValueMutable().getOperandNumber());
    } else if (OpTrait::hasElementwiseMappableTraits(op) &&
               op->getNumResults() && isTile(op->getResult(0))) {
      Layout layout = plan.get(op->getResult(0));
      for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
        if (isTile(op->getOperand(i)))
          require(op, i, layout);
    }

    // Results.
    for (Value result : op->getResults()) {
      if (!isTile(result))
        continue;
      Layout planned = plan.get(result);
      Layout produced = planned;
      if (auto map = dyn_cast<tile::AxisMapOpInterface>(op);
          map && !layoutFollowsResult(map))
        produced = current(map.getMappedInput())
                       .takeAxes(map.getResultAxisSources());
      else if (auto mma = dyn_cast<tile::MmaOp>(op))
        produced = mmaLayout(mma).value_or(planned);
      define(result, produced, planned);
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(
              dense.reshape(cast<ShapedType>(result.getType())));
    }
    // Loop-carried values share the loop result's layout.
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      for (auto [arg, result] :
           llvm::zip(forOp.getRegionIterArgs(), forOp.getResults()))
        if (isTile(arg))
          arg.setType(result.getType());
  }

  LayoutPlan plan;
  int64_t numWarps, vectorWidth;
};
} // namespace

LogicalResult kbench::gpu_lowering::verifyLayouts(tile::KernelOp kernel) {
  auto check = [](Value v, Operation *at) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || getLayout(type))
      return success();
    return at->emitOpError("has a tile value of type ")
           << type << " without a #tile.blocked layout encoding; give every "
           << "tile value of the kernel one, or none (tile-assign-layouts then "
           << "assigns them)";
  };
  WalkResult result = kernel.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (failed(check(v, op)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value v : block.getArguments())
          if (failed(check(v, op)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult kbench::gpu_lowering::assignLayouts(tile::KernelOp kernel) {
  FailureOr<KernelKnobs> knobs = readKernelKnobs(kernel);
  if (failed(knobs))
    return failure();
  // Tiles reach nested blocks only as scf.for iter_args, the only block
  // arguments the assignment (and the lowering) gives layouts.
  WalkResult unsupported = kernel.walk([](Operation *op) {
    if (isa<scf::ForOp>(op))
      return WalkResult::advance();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArguments(), isTile)) {
          op->emitOpError("carries tiles through block arguments, which "
                          "tile-to-gpu does not support; loop with scf.for "
                          "(tiles as iter_args) and branch with scf.if");
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();
  Assigner(kernel, *knobs).run(kernel);
  return success();
}

namespace {
struct TileAssignLayoutsPass
    : kbench::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  void runOnOperation() override {
    bool ok = true;
    for (auto kernel : getOperation().getOps<tile::KernelOp>())
      if (!hasLayouts(kernel))
        ok &= succeeded(assignLayouts(kernel));
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
