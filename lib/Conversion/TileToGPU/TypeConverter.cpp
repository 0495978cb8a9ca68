//===- TypeConverter.cpp - What a tile value lowers to --------------------===//
//
// The conversions of TypeConverter.h and the helpers patterns use to read a
// tile's layout off its type.
//
//===----------------------------------------------------------------------===//

#include "TypeConverter.h"

#include "kbench/Support/KernelConfig.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

TileTypeConverter::TileTypeConverter() {
  // Tried last to first: scalars and index values stay as they are.
  addConversion([](Type type) { return type; });
  // A tile whose encoding no later conversion knows has no lowering.
  addConversion([](RankedTensorType) -> Type { return nullptr; });
  addConversion([](RankedTensorType type) -> std::optional<Type> {
    std::optional<Layout> layout = getLayout(type);
    if (!layout)
      return std::nullopt;
    return vectorType(*layout, type.getElementType());
  });
  // A view lowers to the global memref it views (its extents and facts are
  // the kernel's ABI: KernelContext::globalArgs).
  addConversion([](tile::PartitionType type) -> Type {
    return MemRefType::get(
        SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic),
        type.getElementType(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(type.getContext(),
                                   gpu::AddressSpace::Global));
  });
  // Values whose producer or user was not converted (only after a pattern
  // reported an error: the pass then drops the function).
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

Layout kbench::gpu_lowering::layoutOf(Value v) {
  return *getLayout(cast<RankedTensorType>(v.getType()));
}

VectorType kbench::gpu_lowering::vectorType(const Layout &layout,
                                            Type elementType) {
  return VectorType::get({layout.numElements()}, elementType);
}

bool kbench::gpu_lowering::isTileType(Type type) {
  return isa<RankedTensorType, tile::PartitionType>(type);
}

LogicalResult kbench::gpu_lowering::checkRegisterBudget(Operation *op,
                                                        RankedTensorType type,
                                                        const Layout &layout) {
  if (layout.numElements() <= kSm90aLimits.maxElementsPerThread)
    return success();
  // The type as the kernel spells it, without the layout encoding.
  return op->emitOpError("tile ")
         << RankedTensorType::get(type.getShape(), type.getElementType())
         << " needs " << layout.numElements()
         << " elements per thread with num_warps = " << layout.numWarps
         << "; at most " << kSm90aLimits.maxElementsPerThread
         << " fit the SIMT lowering: lower the tile sizes or raise num_warps";
}
