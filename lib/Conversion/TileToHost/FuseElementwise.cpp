//===- FuseElementwise.cpp - Runs of elementwise tensor ops, one generic --===//
//
// tile-host-fuse-elementwise (Passes.td): every run of consecutive
// elementwise tensor ops of one static shape becomes one linalg.generic whose
// payload holds their scalar forms in the same order.
//
// Why: convert-elementwise-to-linalg builds one generic per op, and each
// generic becomes its own loop nest. A kernel of N elementwise ops then holds
// N loop nests in one block, and three later stages are quadratic in that
// count (scf-to-cf splits the block at every loop, moving the rest of the
// block each time; one-shot bufferization and the deallocation
// simplification compare buffers pairwise). One generic per run keeps the
// loop count at the number of runs. The payload computes exactly what the
// ops computed, element by element in the same order: the results are bit
// for bit those of the unfused ops.
//
// One walk over each block, no pattern driver and no producer-into-consumer
// fusion (which copies the growing payload at every step): the pass is linear
// in the number of ops.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToHost/TileToHost.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace kbench {
#define GEN_PASS_DEF_TILEHOSTFUSEELEMENTWISE
#include "kbench/Conversion/TileToHost/Passes.h.inc"
} // namespace kbench

using namespace mlir;

/// The static tensor shape `op` maps elementwise, or null when the op is not
/// an elementwise op on ranked tensors of one static shape. Operands that are
/// not shaped (arith.select's scalar condition) are used as they are.
static RankedTensorType elementwiseShape(Operation *op) {
  if (!OpTrait::hasElementwiseMappableTraits(op) || op->getNumRegions() != 0 ||
      op->getNumResults() == 0)
    return nullptr;
  RankedTensorType shape;
  auto sameShape = [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return false;
    if (!shape)
      shape = tensor;
    return tensor.getShape() == shape.getShape();
  };
  for (Type type : op->getResultTypes())
    if (!sameShape(type))
      return nullptr;
  for (Type type : op->getOperandTypes())
    if (isa<ShapedType>(type) && !sameShape(type))
      return nullptr;
  return shape;
}

/// Replaces the consecutive ops `run` (all of `shape`) by one linalg.generic
/// placed where the last of them was.
static void fuseRun(ArrayRef<Operation *> run, RankedTensorType shape) {
  llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());

  // Inputs: tensor operands defined outside the run, each once.
  SmallVector<Value> inputs;
  llvm::SmallDenseMap<Value, unsigned> inputIndex;
  for (Operation *op : run)
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !inRun.contains(operand.getDefiningOp()) &&
          inputIndex.try_emplace(operand, inputs.size()).second)
        inputs.push_back(operand);

  // Outputs: results still used after the run.
  SmallVector<Value> outputs;
  for (Operation *op : run)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inRun.contains(user);
          }))
        outputs.push_back(result);

  Operation *last = run.back();
  OpBuilder builder(last->getContext());
  builder.setInsertionPointAfter(last);
  Location loc = builder.getFusedLoc(llvm::map_to_vector(
      run, [](Operation *op) { return op->getLoc(); }));
  SmallVector<Value> inits;
  SmallVector<Type> resultTypes;
  for (Value output : outputs) {
    auto type = cast<RankedTensorType>(output.getType());
    inits.push_back(tensor::EmptyOp::create(builder, loc, type.getShape(),
                                            type.getElementType()));
    resultTypes.push_back(type);
  }
  unsigned rank = shape.getRank();
  SmallVector<AffineMap> maps(inputs.size() + outputs.size(),
                              builder.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);

  auto generic = linalg::GenericOp::create(
      builder, loc, resultTypes, inputs, inits, maps, iterators,
      [&](OpBuilder &body, Location bodyLoc, ValueRange args) {
        IRMapping scalarOf;
        for (auto [input, arg] : llvm::zip(inputs, args))
          scalarOf.map(input, arg);
        for (Operation *op : run) {
          OperationState state(op->getLoc(), op->getName());
          for (Value operand : op->getOperands())
            state.addOperands(scalarOf.lookupOrDefault(operand));
          for (Type type : op->getResultTypes())
            state.addTypes(cast<RankedTensorType>(type).getElementType());
          state.addAttributes(op->getAttrs());
          Operation *scalar = body.create(state);
          scalarOf.map(op->getResults(), scalar->getResults());
        }
        SmallVector<Value> yielded;
        for (Value output : outputs)
          yielded.push_back(scalarOf.lookup(output));
        linalg::YieldOp::create(body, bodyLoc, yielded);
      });

  for (auto [output, result] : llvm::zip(outputs, generic.getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !inRun.contains(use.getOwner());
    });
  for (Operation *op : llvm::reverse(run))
    op->erase();
}

namespace {
struct TileHostFuseElementwisePass
    : kbench::impl::TileHostFuseElementwiseBase<TileHostFuseElementwisePass> {
  void runOnOperation() override {
    // Collect the runs first: fusing erases ops the walk would visit.
    SmallVector<std::pair<SmallVector<Operation *>, RankedTensorType>> runs;
    getOperation().walk([&](Block *block) {
      SmallVector<Operation *> run;
      RankedTensorType runShape;
      auto close = [&] {
        if (!run.empty())
          runs.emplace_back(std::move(run), runShape);
        run.clear();
      };
      for (Operation &op : *block) {
        RankedTensorType shape = elementwiseShape(&op);
        if (!shape || (runShape && shape.getShape() != runShape.getShape()))
          close();
        if (shape) {
          runShape = shape;
          run.push_back(&op);
        }
      }
      close();
    });
    for (auto &[run, shape] : runs)
      fuseRun(run, shape);
  }
};
} // namespace
