//===- StageTransposes.cpp - Store transposed tiles through smem ----------===//
//
// transform.tile.stage_transposes: a tile.transpose result keeps its input's
// thread layout, permuted, so storing it writes one element per lane at a
// stride of a row. The rewrite only marks such stores; the tile IR keeps its
// meaning (tile-verify and the host target ignore the mark) and tile-to-gpu
// (AssignLayouts.cpp, SharedMemory.cpp) stages the marked tiles through
// padded shared memory into the store's own coalesced layout.
//
//===----------------------------------------------------------------------===//

#include "StageTransposes.h"

#include "mlir/IR/OpDefinition.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

/// Whether `value` is a tile.transpose result, directly or through
/// elementwise ops (any of their tile operands).
static bool comesFromTranspose(Value value, int depth = 0) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 64)
    return false;
  if (isa<TransposeOp>(def))
    return true;
  if (!OpTrait::hasElementwiseMappableTraits(def))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isa<RankedTensorType>(operand.getType()) &&
           comesFromTranspose(operand, depth + 1);
  });
}

std::optional<KnobFailure>
kbench::transform::planStageTransposes(KernelOp kernel, int64_t value,
                                       StageTransposesPlan &plan) {
  plan = StageTransposesPlan{kernel, {}};
  if (std::optional<KnobFailure> failure =
          checkOnOff(kernel, "stage_transposes", value,
                     "stage transposed stores through shared memory"))
    return failure;
  if (value == 0)
    return std::nullopt;
  kernel.walk([&](Operation *op) {
    Value stored;
    if (auto store = dyn_cast<StoreOp>(op))
      stored = store.getValue();
    else if (auto add = dyn_cast<AtomicAddOp>(op))
      stored = add.getValue();
    if (stored && comesFromTranspose(stored))
      plan.stores.push_back(op);
  });
  if (plan.stores.empty())
    return KnobFailure{
        ("@" + kernel.getSymName() +
         " stores no tile that a tile.transpose produced (directly or "
         "through elementwise ops); stage_transposes has nothing to stage")
            .str(),
        kernel.getLoc(), "this kernel"};
  return std::nullopt;
}

void kbench::transform::applyStageTransposes(StageTransposesPlan &plan,
                                             int64_t) {
  for (Operation *store : plan.stores)
    store->setAttr(kStageThroughSharedAttrName,
                   UnitAttr::get(store->getContext()));
}
