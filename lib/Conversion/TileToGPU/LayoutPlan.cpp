//===- LayoutPlan.cpp - Which layout every tile value gets ----------------===//
//
// A small layout assignment in the spirit of Triton's, kept to what the
// blocked family needs. Values that must share a layout (operands and results
// of elementwise ops, a gather's index tile and result, loop-carried values,
// if results) are merged into
// classes with union-find. A class is then resolved, in rounds:
//   1. pinned: it holds a tile.mma accumulator (micro-tile layout) or the
//      result of an axis-map op whose layout follows its input
//      (tile::AxisMapOpInterface: reduce drops the reduced dim, transpose
//      permutes, expand_dims inserts a unit dim);
//   2. wished: it feeds an axis-map op whose layout follows its result (a
//      broadcast), so it takes that result's layout minus the new dims (a
//      bias row added to an accumulator is then loaded straight into the
//      accumulator's columns);
//   3. otherwise the default blocked layout.
// Pinned and wished classes wait until the class they derive from is
// resolved; a cycle is broken with the default layout. What still disagrees
// becomes an explicit tile.convert_layout
// (AssignLayouts.cpp).
//
//===----------------------------------------------------------------------===//

#include "LayoutPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/OpDefinition.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
/// One way a class's layout derives from another value's class.
struct Constraint {
  /// Mma: the micro-tile layout of the accumulator. FromInput: the layout of
  /// an axis-map op's input through its axis map. FromResult: an axis-map
  /// op's result layout restricted to the axes its input carries.
  enum class Kind { Mma, FromInput, FromResult } kind;
  Operation *op;
};
} // namespace

static bool isTile(Value v) { return isa<RankedTensorType>(v.getType()); }

bool kbench::gpu_lowering::layoutFollowsResult(tile::AxisMapOpInterface op) {
  return !op.insertsUnitAxes() &&
         llvm::is_contained(op.getResultAxisSources(),
                            tile::AxisMapOpInterface::kNewAxis);
}

SmallVector<int64_t>
kbench::gpu_lowering::inputAxesInResult(tile::AxisMapOpInterface op) {
  auto input = cast<RankedTensorType>(op.getMappedInput().getType());
  SmallVector<int64_t> axes(input.getRank(), -1);
  for (auto [axis, source] : llvm::enumerate(op.getResultAxisSources()))
    if (source != tile::AxisMapOpInterface::kNewAxis)
      axes[source] = axis;
  return axes;
}

int LayoutPlan::find(int x) const {
  while (parent[x] != x)
    x = parent[x] = parent[parent[x]];
  return x;
}

int LayoutPlan::classOf(Value v) {
  auto [it, inserted] = ids.try_emplace(v, parent.size());
  if (inserted) {
    parent.push_back(parent.size());
    members.push_back(v);
  }
  return find(it->second);
}

void LayoutPlan::unite(Value a, Value b) {
  int ra = classOf(a), rb = classOf(b);
  if (ra != rb)
    parent[rb] = ra;
}

LayoutPlan::LayoutPlan(tile::KernelOp kernel, int64_t numWarps,
                       int64_t vectorWidth)
    : numWarps(numWarps), vectorWidth(vectorWidth) {
  // Classes.
  kernel.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (isTile(result))
        classOf(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isTile(arg))
            classOf(arg);
    if (OpTrait::hasElementwiseMappableTraits(op)) {
      Value first;
      for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
        if (isTile(v)) {
          if (first)
            unite(first, v);
          else
            first = v;
        }
    }
    // A gather reads each element at its own index: index tile and result
    // share a layout, as an elementwise op's operands and result do.
    if (auto gather = dyn_cast<tile::GatherOp>(op))
      unite(gather.getOffsets(), gather.getResult());
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      for (auto [init, arg, yielded, result] :
           llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                     yield.getOperands(), forOp.getResults()))
        if (isTile(result)) {
          unite(result, init);
          unite(result, arg);
          unite(result, yielded);
        }
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        if (!region->empty())
          for (auto [result, yielded] :
               llvm::zip(ifOp.getResults(),
                         region->front().getTerminator()->getOperands()))
            if (isTile(result))
              unite(result, yielded);
  });

  // Constraints per class.
  llvm::DenseMap<int, SmallVector<Constraint>> pinned, wished;
  kernel.walk([&](Operation *op) {
    if (auto mma = dyn_cast<tile::MmaOp>(op)) {
      pinned[classOf(mma.getResult())].push_back({Constraint::Kind::Mma, op});
      pinned[classOf(mma.getAcc())].push_back({Constraint::Kind::Mma, op});
    } else if (auto map = dyn_cast<tile::AxisMapOpInterface>(op)) {
      if (layoutFollowsResult(map))
        wished[classOf(map.getMappedInput())].push_back(
            {Constraint::Kind::FromResult, op});
      else
        pinned[classOf(op->getResult(0))].push_back(
            {Constraint::Kind::FromInput, op});
    }
  });

  // Resolution: returns the layout a constraint gives once the class it
  // derives from is resolved.
  auto derive = [&](const Constraint &c) -> std::optional<Layout> {
    auto resolvedOf = [&](Value v) -> std::optional<Layout> {
      auto it = layouts.find(find(ids.lookup(v)));
      if (it == layouts.end())
        return std::nullopt;
      return it->second;
    };
    switch (c.kind) {
    case Constraint::Kind::Mma: {
      return getAccumulatorLayout(cast<tile::MmaOp>(c.op), numWarps);
    }
    case Constraint::Kind::FromInput: {
      auto map = cast<tile::AxisMapOpInterface>(c.op);
      if (auto in = resolvedOf(map.getMappedInput()))
        return in->takeAxes(map.getResultAxisSources());
      return std::nullopt;
    }
    case Constraint::Kind::FromResult: {
      auto map = cast<tile::AxisMapOpInterface>(c.op);
      if (auto out = resolvedOf(c.op->getResult(0)))
        return out->takeAxes(inputAxesInResult(map));
      return std::nullopt;
    }
    }
    return std::nullopt;
  };
  auto defaultOf = [&](int root) {
    auto type = cast<RankedTensorType>(members[root].getType());
    return getBlockedLayout(type.getShape(), numWarps, vectorWidth);
  };

  SmallVector<int> pending;
  for (int i = 0, e = parent.size(); i < e; ++i)
    if (find(i) == i)
      pending.push_back(i);
  while (!pending.empty()) {
    SmallVector<int> waiting;
    for (int root : pending) {
      std::optional<Layout> layout;
      bool mustWait = false;
      for (auto *list : {&pinned, &wished}) {
        auto it = list->find(root);
        if (layout || it == list->end())
          continue;
        for (const Constraint &c : it->second)
          if ((layout = derive(c)))
            break;
        // A class with an unresolved pin never falls back to a wish.
        mustWait = !layout;
        if (mustWait)
          break;
      }
      if (!layout && !mustWait)
        layout = defaultOf(root);
      if (layout)
        layouts[root] = *layout;
      else
        waiting.push_back(root);
    }
    if (waiting.size() == pending.size()) {
      // A cycle: break it with the default layout of the first class.
      layouts[waiting.front()] = defaultOf(waiting.front());
      waiting.erase(waiting.begin());
    }
    pending = std::move(waiting);
  }
}

Layout LayoutPlan::get(Value value) const {
  auto it = ids.find(value);
  if (it == ids.end()) {
    auto type = cast<RankedTensorType>(value.getType());
    return getBlockedLayout(type.getShape(), numWarps, vectorWidth);
  }
  return layouts.lookup(find(it->second));
}
