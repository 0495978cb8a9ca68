//===- FreshOutputs.cpp - Elementwise linalg ops write fresh tensors ------===//
//
// tile-host-fresh-outputs (Passes.td): the output of a parallel
// linalg.generic whose payload never reads it becomes a tensor.empty, so that
// the in-place chains convert-elementwise-to-linalg builds do not make
// one-shot bufferization's analysis cubic in the length of the chain.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToHost/TileToHost.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace kbench {
#define GEN_PASS_DEF_TILEHOSTFRESHOUTPUTS
#include "kbench/Conversion/TileToHost/Passes.h.inc"
} // namespace kbench

using namespace mlir;

namespace {
struct TileHostFreshOutputsPass
    : kbench::impl::TileHostFreshOutputsBase<TileHostFreshOutputsPass> {
  void runOnOperation() override {
    // One walk, no pattern driver: each op is visited once, whatever the
    // length of the chain.
    getOperation().walk([](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics() ||
          llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
            return t != utils::IteratorType::parallel;
          }))
        return;
      OpBuilder builder(op);
      for (OpOperand &init : op.getDpsInitsMutable()) {
        if (op.payloadUsesValueFromOperand(&init) ||
            init.get().getDefiningOp<tensor::EmptyOp>())
          continue;
        auto type = cast<RankedTensorType>(init.get().getType());
        SmallVector<OpFoldResult> sizes =
            tensor::getMixedSizes(builder, op.getLoc(), init.get());
        init.set(tensor::EmptyOp::create(builder, op.getLoc(), sizes,
                                         type.getElementType()));
      }
    });
  }
};
} // namespace
