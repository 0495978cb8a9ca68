//===- Pipelining.cpp - The tile-plan-pipelining pass ---------------------===//
//
// The default software-pipelining decision (Pipelining.h), written onto the
// loops as `tile.pipeline_stages`, and the pass that writes it. The decision
// used to be taken inside the lowering; as an attribute a schedule can set or
// veto it per loop and a separate pass can consume it.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/Pipelining.h"

#include "Knobs.h"
#include "Layout.h"
#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Support/KernelConfig.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kbench {
#define GEN_PASS_DEF_TILEPLANPIPELINING
#include "kbench/Conversion/TileToGPU/Passes.h.inc"
} // namespace kbench

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

tile::LoadOp kbench::gpu_lowering::getSqueezedLoad(Value operand) {
  while (auto squeeze = operand.getDefiningOp<tile::SqueezeOp>())
    operand = squeeze.getInput();
  return operand.getDefiningOp<tile::LoadOp>();
}

/// The load of a K loop's mma operand: a tile.load in the loop body whose
/// tile is the operand, or a tile of leading unit dims and the operand's two
/// (a batched matmul's [1, BM, BK]) squeezed to it, every value on the way
/// used once.
static tile::LoadOp getKLoopOperandLoad(Value operand, Block *body) {
  tile::LoadOp load = getSqueezedLoad(operand);
  if (!load || load->getBlock() != body)
    return {};
  for (Value v = operand; v != load.getResult();
       v = v.getDefiningOp<tile::SqueezeOp>().getInput())
    if (!v.hasOneUse() || v.getDefiningOp()->getBlock() != body)
      return {};
  if (!load.getResult().hasOneUse())
    return {};
  ArrayRef<int64_t> tile = load.getResult().getType().getShape();
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(operand.getType()).getShape();
  if (tile.size() < 2 || shape != tile.take_back(2) ||
      llvm::any_of(tile.drop_back(2), [](int64_t d) { return d != 1; }))
    return {};
  return load;
}

tile::MmaOp kbench::gpu_lowering::getMmaLoopMma(scf::ForOp op) {
  if (op.getNumRegionIterArgs() != 1 ||
      !isa<RankedTensorType>(op.getRegionIterArgs()[0].getType()))
    return {};
  tile::MmaOp mma;
  int loads = 0;
  for (Operation &inner : op.getBody()->without_terminator()) {
    if (auto m = dyn_cast<tile::MmaOp>(inner)) {
      if (mma)
        return {};
      mma = m;
    } else if (isa<tile::LoadOp>(inner)) {
      ++loads;
    } else if (isa<tile::SqueezeOp>(inner)) {
      // Checked below: it must lead from an operand's load to the mma.
    } else if (inner.getNumRegions() ||
               llvm::any_of(inner.getResultTypes(),
                            [](Type t) { return isa<RankedTensorType>(t); }) ||
               !isPure(&inner)) {
      return {};
    }
  }
  if (!mma || loads != 2 || mma.getAcc() != op.getRegionIterArgs()[0] ||
      op.getBody()->getTerminator()->getOperand(0) != mma.getResult())
    return {};
  if (mma.getA() == mma.getB())
    return {};
  for (Value operand : {mma.getA(), mma.getB()})
    if (!getKLoopOperandLoad(operand, op.getBody()))
      return {};
  return mma;
}

tile::MmaOp kbench::gpu_lowering::getPipelinableMma(scf::ForOp op) {
  tile::MmaOp mma = getMmaLoopMma(op);
  // The SIMT double-buffered loop loads the operand tiles as they are.
  if (!mma || mma.getImplKind() != tile::MmaImpl::simt ||
      !mma.getA().getDefiningOp<tile::LoadOp>() ||
      !mma.getB().getDefiningOp<tile::LoadOp>())
    return {};
  return mma;
}

bool kbench::gpu_lowering::isPipelinableMmaLoop(scf::ForOp op,
                                                int64_t numWarps) {
  tile::MmaOp mma = getPipelinableMma(op);
  if (!mma)
    return false;
  ArrayRef<int64_t> c = mma.getAcc().getType().getShape();
  return getMmaLayout(c[0], c[1], numWarps).has_value();
}

int64_t kbench::gpu_lowering::getPipelineStages(scf::ForOp op) {
  auto stages = op->getAttrOfType<IntegerAttr>(kPipelineStagesAttrName);
  return stages ? stages.getInt() : 1;
}

void kbench::gpu_lowering::planPipelining(tile::KernelOp kernel,
                                          int64_t numWarps) {
  kernel.walk([&](scf::ForOp op) {
    if (!op->hasAttr(kPipelineStagesAttrName) &&
        isPipelinableMmaLoop(op, numWarps))
      op->setAttr(kPipelineStagesAttrName,
                  IntegerAttr::get(IntegerType::get(op.getContext(), 64),
                                   getKnobSpec(Knob::PipelineStages)
                                       .defaultValue));
  });
}

namespace {
struct TilePlanPipeliningPass
    : kbench::impl::TilePlanPipeliningBase<TilePlanPipeliningPass> {
  void runOnOperation() override {
    bool ok = true;
    for (auto kernel : getOperation().getOps<tile::KernelOp>()) {
      FailureOr<KernelKnobs> knobs = readKernelKnobs(kernel);
      if (failed(knobs))
        ok = false;
      else
        planPipelining(kernel, knobs->numWarps);
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
