//===- KernelABI.cpp - A tile.kernel's launch interface -------------------===//
//
// What the lowerings and the bundle writer read off a tile.kernel: its ABI,
// grid, knobs and parsed `requires` facts (KernelABI.h).
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kbench::tile {

SmallVector<KernelParam> getKernelABI(KernelOp kernel) {
  SmallVector<KernelParam> params;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    Type type = kernel.getArgumentTypes()[i];
    KernelParam param;
    param.argIndex = i;
    auto name = kernel.getArgAttrOfType<StringAttr>(i, "tile.name");
    param.name = name ? name.str() : "arg" + std::to_string(i);
    if (auto memref = dyn_cast<MemRefType>(type)) {
      param.kind = KernelParam::Kind::Memref;
      param.type = memref.getElementType();
      for (StringRef dim : kernel.getArgDimNames(i))
        param.dims.push_back(dim.str());
    } else {
      param.kind = KernelParam::Kind::Scalar;
      param.type = type;
    }
    params.push_back(std::move(param));
  }
  for (StringRef dim : kernel.getDimNames()) {
    KernelParam param;
    param.kind = KernelParam::Kind::Dim;
    param.name = dim.str();
    param.type = IntegerType::get(kernel.getContext(), 64);
    params.push_back(std::move(param));
  }
  return params;
}

std::string getArgName(KernelOp kernel, unsigned index) {
  if (auto name = dyn_cast<NameLoc>(kernel.getArgument(index).getLoc()))
    return name.getName().str();
  auto abiName = kernel.getArgAttrOfType<StringAttr>(index, "tile.name");
  return abiName ? abiName.str() : "arg" + std::to_string(index);
}

FailureOr<std::array<ShapeExpr, 3>> getLaunchGrid(KernelOp kernel) {
  GridOp grid;
  kernel.walk([&](GridOp op) { grid = op; });
  if (!grid)
    return kernel.emitOpError("has no tile.grid");
  auto partition = grid.getView().getDefiningOp<PartitionOp>();
  auto source = partition ? dyn_cast<BlockArgument>(partition.getSource())
                          : BlockArgument();
  if (!source)
    return grid.emitOpError("grid view must be a tile.partition of a kernel "
                            "argument");
  SmallVector<StringRef> dimNames = kernel.getArgDimNames(source.getArgNumber());
  ArrayRef<int64_t> tileShape = partition.getResult().getType().getShape();

  std::array<ShapeExpr, 3> axes = {ShapeExpr::constant(1), ShapeExpr::constant(1),
                                   ShapeExpr::constant(1)};
  for (auto [axis, dim] : llvm::enumerate(grid.getGridDims()))
    axes[axis] = ShapeExpr::binary(ShapeExpr::Kind::CeilDiv,
                                   ShapeExpr::symbol(dimNames[dim].str()),
                                   ShapeExpr::constant(tileShape[dim]));
  return axes;
}

int64_t getBlockSize(KernelOp kernel) {
  return getKernelConfig(kernel).getBlockSize();
}

int64_t getLaunchBlockSize(KernelOp kernel) {
  int64_t producerThreads =
      kernel->hasAttr(kWarpSpecializedAttrName) ? 32 * kProducerWarps : 0;
  return getBlockSize(kernel) + producerThreads;
}

SymbolValues getParamValues(KernelOp kernel) {
  SymbolValues params;
  if (DictionaryAttr dict = kernel.getParamsAttr())
    for (NamedAttribute param : dict)
      if (auto value = dyn_cast<IntegerAttr>(param.getValue()))
        params[param.getName().str()] = value.getInt();
  return params;
}

KernelConfig getKernelConfig(KernelOp kernel) {
  return KernelConfig::fromParams(getParamValues(kernel));
}

ArrayRef<RequiresFact> getRequiresFacts(KernelOp kernel) {
  if (RequiresAttr attr = kernel.getRequiresAttr())
    return attr.getFacts();
  return {};
}

SmallVector<ShapeFact> getBoundRequiresFacts(KernelOp kernel) {
  SymbolValues params = getParamValues(kernel);
  SmallVector<ShapeFact> bound;
  for (const RequiresFact &fact : getRequiresFacts(kernel))
    if (fact.fact)
      bound.push_back(fact.fact->substitute(params));
  return bound;
}

std::string getDtypeName(Type type) {
  if (type.isF32())
    return "f32";
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF64())
    return "f64";
  if (type.isIndex() || type.isInteger(64))
    return "i64";
  if (type.isInteger(32))
    return "i32";
  if (type.isInteger(8))
    return "i8";
  if (type.isInteger(1))
    return "i1";
  return "";
}

} // namespace kbench::tile
