//===- CacheHints.cpp - L2 eviction priorities of global loads -----------===//
//
// The hinted load: inline PTX with an L2 cache policy (CacheHints.h); which
// loads take one is CacheHintRules.cpp.
//
//===----------------------------------------------------------------------===//

#include "CacheHints.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

//===----------------------------------------------------------------------===//
// The hinted load
//===----------------------------------------------------------------------===//

Value kbench::gpu_lowering::emitHintedLoad(OpBuilder &b, Location loc,
                                           VectorType runType, Value pointer,
                                           ArrayRef<Value> dims,
                                           ArrayRef<Value> coords,
                                           int64_t alignment,
                                           L2Priority priority) {
  Type elementType = runType.getElementType();
  int64_t elementBits = elementType.getIntOrFloatBitWidth();
  if (elementBits % 8 != 0)
    return {};
  int64_t bytes = runType.getNumElements() * elementBits / 8;
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return {};
  // A run wider than one element is one vector access only when it starts
  // aligned to its size.
  if (bytes * 8 != elementBits && alignment < bytes)
    return {};
  int64_t words = bytes / 4;

  // The element address: row-major, so coords linearize over the extents.
  Value linear = coords.front();
  for (auto [dim, coord] : llvm::zip(dims.drop_front(), coords.drop_front())) {
    linear = arith::MulIOp::create(b, loc, linear, dim);
    linear = arith::AddIOp::create(b, loc, linear, coord);
  }
  Value offset =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), linear).getResult();
  Value address = LLVM::GEPOp::create(b, loc, pointer.getType(), elementType,
                                      pointer, ValueRange{offset});

  const char *level =
      priority == L2Priority::EvictLast ? "evict_last" : "evict_first";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .b64 policy;\ncreatepolicy.fractional.L2::" << level
     << ".b64 policy, 1.0;\nld.global.L1::" << level << ".L2::cache_hint"
     << (words > 1 ? ".v" + std::to_string(words) : std::string()) << ".b32 ";
  if (words > 1)
    os << "{";
  for (int64_t i = 0; i < words; ++i)
    os << (i ? ", " : "") << "$" << i;
  if (words > 1)
    os << "}";
  os << ", [$" << words << "], policy;\n}";
  std::string constraints;
  for (int64_t i = 0; i < words; ++i)
    constraints += "=r,";
  constraints += "l";

  Type i32 = b.getI32Type();
  Type resultType = words == 1
                        ? i32
                        : LLVM::LLVMStructType::getLiteral(
                              b.getContext(), SmallVector<Type>(words, i32));
  // Without side effects MLIR and LLVM would see an asm that touches no
  // memory, free to move across the kernel's stores or to merge.
  Value loaded =
      LLVM::InlineAsmOp::create(
          b, loc, resultType, ValueRange{address}, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr())
          .getResult(0);
  SmallVector<Value> parts;
  if (words == 1)
    parts.push_back(loaded);
  else
    for (int64_t i = 0; i < words; ++i)
      parts.push_back(
          LLVM::ExtractValueOp::create(b, loc, loaded, ArrayRef<int64_t>{i}));
  Value packed = vector::FromElementsOp::create(
      b, loc, VectorType::get({words}, i32), parts);
  return vector::BitCastOp::create(b, loc, runType, packed);
}
