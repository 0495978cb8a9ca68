//===- FastMath.cpp - The fast_math knob on a lowered kernel --------------===//
//
// See FastMath.h. Why an intrinsic call rather than a function attribute: the
// LLVM attribute that makes NVPTX pick .ftz ("denormal-fp-math-f32") flushes
// every f32 operation of the kernel, reductions and divisions included; the
// knob promises only the exponentials.
//
//===----------------------------------------------------------------------===//

#include "FastMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;

/// The NVVM intrinsic of PTX ex2.approx.ftz, overloaded on its float type.
static constexpr llvm::StringLiteral kEx2ApproxFtz =
    "llvm.nvvm.ex2.approx.ftz.f32";

static Value emitEx2ApproxFtz(OpBuilder &b, Location loc, Value x) {
  return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                       b.getStringAttr(kEx2ApproxFtz),
                                       ValueRange{x})
      .getResult(0);
}

/// Replaces `exp2` (f32 or a rank-1 vector of f32) by one ex2.approx.ftz per
/// element; other types are left to the default lowering.
static void rewriteExp2(math::Exp2Op exp2) {
  Type type = exp2.getType();
  OpBuilder b(exp2);
  Location loc = exp2.getLoc();
  Value result;
  if (type.isF32()) {
    result = emitEx2ApproxFtz(b, loc, exp2.getOperand());
  } else if (auto vector = dyn_cast<VectorType>(type);
             vector && vector.getRank() == 1 && !vector.isScalable() &&
             vector.getElementType().isF32()) {
    SmallVector<Value> elements;
    for (int64_t i = 0; i < vector.getNumElements(); ++i) {
      Value element = vector::ExtractOp::create(b, loc, exp2.getOperand(), i);
      elements.push_back(emitEx2ApproxFtz(b, loc, element));
    }
    result = vector::FromElementsOp::create(b, loc, vector, elements);
  } else {
    return;
  }
  exp2.replaceAllUsesWith(result);
  exp2.erase();
}

void kbench::gpu_lowering::applyFastMath(gpu::GPUFuncOp func) {
  SmallVector<math::Exp2Op> exponentials;
  func.walk([&](Operation *op) {
    if (auto exp2 = dyn_cast<math::Exp2Op>(op)) {
      exponentials.push_back(exp2);
      return;
    }
    auto fastMath = dyn_cast<arith::ArithFastMathInterface>(op);
    if (!fastMath)
      return;
    arith::FastMathFlagsAttr current = fastMath.getFastMathFlagsAttr();
    arith::FastMathFlags flags =
        current ? current.getValue() : arith::FastMathFlags::none;
    op->setAttr(fastMath.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(), flags | arith::FastMathFlags::contract));
  });
  for (math::Exp2Op exp2 : exponentials)
    rewriteExp2(exp2);
}
