//===- PrefetchRules.cpp - Loops whose mma operands are prefetched --------===//
//
// The legality rules of the operand prefetch (PrefetchRules.h), free of IR
// building so that transform.tile.pipeline and the lowering read one
// definition.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/PrefetchRules.h"

#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/SharedBudget.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"
#include "kbench/Support/KernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

SmallVector<PrefetchedOperand>
kbench::gpu_lowering::getPrefetchedOperands(scf::ForOp loop) {
  SmallVector<PrefetchedOperand> operands;
  if (getMmaLoopMma(loop))
    return operands;
  for (auto mma : loop.getBody()->getOps<tile::MmaOp>()) {
    if (!isTensorCoreImpl(mma.getImplKind()))
      continue;
    for (bool isA : {true, false}) {
      tile::LoadOp load = getSqueezedLoad(isA ? mma.getA() : mma.getB());
      if (!load || load->getBlock() != loop.getBody())
        continue;
      ArrayRef<int64_t> shape = load.getResult().getType().getShape();
      operands.push_back(
          {mma, isA, load, shape[shape.size() - 2], shape.back()});
    }
  }
  return operands;
}

bool kbench::gpu_lowering::isStepComputable(Value value, scf::ForOp loop) {
  if (value == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(value))
    return true;
  // Only arith ops: the lowering clones them as they are (a tile op would
  // need its own lowering).
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != loop.getBody() ||
      !isa<arith::ArithDialect>(def->getDialect()) || def->getNumRegions() ||
      !isPure(def) || llvm::any_of(def->getResultTypes(), [](Type t) {
        return !t.isIntOrIndex();
      }))
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value v) { return isStepComputable(v, loop); });
}

/// Whether every value from `load` to the mma operand `operand` has one
/// use.
static bool feedsOnlyTheMma(tile::LoadOp load, Value operand) {
  Value v = load.getResult();
  while (v != operand) {
    if (!v.hasOneUse())
      return false;
    auto squeeze = dyn_cast<tile::SqueezeOp>(*v.getUsers().begin());
    if (!squeeze)
      return false;
    v = squeeze.getResult();
  }
  return v.hasOneUse();
}

std::optional<std::string>
kbench::gpu_lowering::whyNotOperandPrefetch(scf::ForOp loop, int64_t numWarps,
                                            int64_t stages) {
  std::string what = llvm::formatv("tile.pipeline_stages = {0}", stages);
  if (stages < 2 || stages > kMmaSyncMaxStages)
    return llvm::formatv("{0}: the operand prefetch takes 2 to {1} stages",
                         what, kMmaSyncMaxStages)
        .str();
  SmallVector<PrefetchedOperand> operands = getPrefetchedOperands(loop);
  if (operands.empty())
    return what + ": this scf.for is neither a K loop (a body that only "
                  "loads the two operands of one tile.mma accumulating into "
                  "the single iter_arg) nor a loop whose mma_sync or wgmma "
                  "tile.mma ops read an operand loaded in the loop body; use "
                  "stages 1";
  int64_t threads = 32 * numWarps;
  for (PrefetchedOperand operand : operands) {
    auto view = cast<tile::PartitionType>(operand.load.getView().getType());
    if (view.getPad() != tile::PadKind::none &&
        view.getPad() != tile::PadKind::zero)
      return what + ": the prefetch fills the tile past the memref with "
                    "zeros, so the view of a prefetched mma operand must have "
                    "pad(zero) or no pad";
    if (!feedsOnlyTheMma(operand.load,
                         operand.isA ? operand.mma.getA() : operand.mma.getB()))
      return what + ": a prefetched mma operand goes to shared memory only, "
                    "so its tile.load (and the tile.squeeze after it) must "
                    "feed that tile.mma alone; load the tile a second time "
                    "for its other uses";
    // A is staged as rows of K or, transposed, of M (multiples of 16 by the
    // mma's own rules); a KxN B as rows of N, which the swizzle needs in
    // multiples of 16 too.
    if (!operand.isA && !operand.mma.getTransposeB() &&
        operand.load.getType().getElementType().isF32())
      return what + ": a KxN B is prefetched as its rows of N, and tf32 "
                    "reads B as rows of K (ldmatrix cannot transpose 32-bit "
                    "elements); give B as NxK (transpose_b)";
    if (!operand.isA && !operand.mma.getTransposeB() &&
        operand.rowElems % 16 != 0)
      return llvm::formatv("{0}: a KxN B operand is prefetched as rows of N, "
                           "which must be a multiple of 16 elements, got {1}; "
                           "change the tile size",
                           what, operand.rowElems)
          .str();
    if (!llvm::all_of(operand.load.getIndices(), [&](Value index) {
          return isStepComputable(index, loop);
        }))
      return what + ": the indices of a prefetched tile.load must come from "
                    "the induction variable and values defined outside the "
                    "loop through scalar arith ops, so that the lowering can "
                    "compute them iterations ahead";
    int64_t chunks = operand.rows * operand.rowElems /
                     getChunkElements(operand.load.getType().getElementType());
    if (chunks % threads != 0)
      return llvm::formatv("{0}: the prefetch copies 16-byte chunks, and the "
                           "{1}x{2} {3} tile does not split evenly over {4} "
                           "threads; raise the tile size or lower num_warps",
                           what, operand.rows, operand.rowElems,
                           operand.isA ? "A" : "B", threads)
          .str();
  }
  // Each prefetched operand in `stages` buffers, the others in one.
  int64_t bytes = 0;
  for (auto mma : loop.getBody()->getOps<tile::MmaOp>())
    bytes += getMmaOperandSharedBytes(mma, stages);
  int64_t limit = kSm90aLimits.sharedMemoryPerBlock;
  if (bytes > limit)
    return llvm::formatv("{0}: the prefetch buffers and the mma operands "
                         "take {1} bytes of shared memory, over the {2}-byte "
                         "limit of one CTA; use fewer stages or smaller tiles",
                         what, bytes, limit)
        .str();
  return std::nullopt;
}

SmallVector<tile::MmaOp> kbench::gpu_lowering::getBodyWgmmas(scf::ForOp loop) {
  SmallVector<tile::MmaOp> mmas;
  bool allWgmmaInBody = true;
  // walk visits the body's ops in order.
  loop.walk([&](tile::MmaOp mma) {
    allWgmmaInBody &= mma->getBlock() == loop.getBody() &&
                      mma.getImplKind() == tile::MmaImpl::wgmma;
    mmas.push_back(mma);
  });
  if (!allWgmmaInBody)
    mmas.clear();
  return mmas;
}

tile::MmaOp kbench::gpu_lowering::getDeferredWaitMma(scf::ForOp loop,
                                                     int64_t stages) {
  if (stages < 3 || getPrefetchedOperands(loop).empty())
    return {};
  Block *body = loop.getBody();
  SmallVector<tile::MmaOp> mmas = getBodyWgmmas(loop);
  if (mmas.size() < 2)
    return {};
  tile::MmaOp first = mmas.front(), last = mmas.back();
  Value result = last.getResult();
  if (!result.hasOneUse() ||
      *result.getUsers().begin() != body->getTerminator())
    return {};
  unsigned index = result.getUses().begin()->getOperandNumber();
  BlockArgument carried = loop.getRegionIterArgs()[index];
  for (Operation *user : carried.getUsers()) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    if (!inBody || !first->isBeforeInBlock(inBody))
      return {};
  }
  return last;
}
