//===- CacheHints.cpp - L2 eviction priorities of global loads -----------===//
//
// The plan (which loads get which priority) and the hinted load itself; see
// CacheHints.h for why.
//
//===----------------------------------------------------------------------===//

#include "CacheHints.h"

#include "kbench/Conversion/TileToGPU/TmaRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

/// Whether `op` is or contains a tile.load of `memref`.
static bool loadsFrom(Operation *op, Value memref) {
  return op
      ->walk([&](tile::LoadOp load) {
        return getPartitionedKernelArg(load.getView()) == memref
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

llvm::DenseMap<Operation *, L2Priority>
kbench::gpu_lowering::planCacheHints(tile::KernelOp kernel) {
  llvm::DenseMap<Operation *, L2Priority> plan;
  kernel.walk([&](tile::LoadOp load) {
    Value memref = getPartitionedKernelArg(load.getView());
    if (!memref)
      return;
    // Each level from the load out to the kernel body: the ops after the
    // one holding the load run later (a later pass), the ops before it ran
    // earlier. An enclosing loop's own later iterations are not a later
    // pass: a row loop reads each tile of the row once.
    bool readLater = false, readBefore = false;
    for (Operation *at = load; at && at != kernel.getOperation();
         at = at->getParentOp()) {
      for (Operation *next = at->getNextNode(); next && !readLater;
           next = next->getNextNode())
        readLater = loadsFrom(next, memref);
      for (Operation *prev = at->getPrevNode(); prev && !readBefore;
           prev = prev->getPrevNode())
        readBefore = loadsFrom(prev, memref);
    }
    if (readLater)
      plan[load] = L2Priority::EvictLast;
    else if (readBefore)
      plan[load] = L2Priority::EvictFirst;
  });
  return plan;
}

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
