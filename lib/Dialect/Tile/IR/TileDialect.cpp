//===- TileDialect.cpp - The tile dialect and its types -------------------===//
//
// Dialect registration, the partition type's syntax and verifier, and constant
// materialization for folders (tiles fold to arith.constant).
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kbench::tile;

#include "kbench/Dialect/Tile/IR/TileOpsDialect.cpp.inc"
#include "kbench/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "kbench/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

namespace {
/// Prints layout encodings once, as `#blocked`, `#blocked1`, ... aliases at
/// the top of the module: a tensor type spelling the whole encoding is
/// unreadable.
struct TileOpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  registerAttributes();
  addInterfaces<TileOpAsmInterface>();
  addTypes<
#define GET_TYPEDEF_LIST
#include "kbench/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "kbench/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}

//===----------------------------------------------------------------------===//
// PartitionType
//===----------------------------------------------------------------------===//

/// `!tile.part<64x32xf32>` or `!tile.part<64x32xf32, pad = zero>`.
Type PartitionType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  PadKind pad = PadKind::none;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword("pad") || parser.parseEqual() ||
        parser.parseKeyword(&keyword))
      return {};
    std::optional<PadKind> parsed = symbolizePadKind(keyword);
    if (!parsed) {
      parser.emitError(loc, "unknown pad kind '")
          << keyword << "'; expected none, zero, neg_inf, pos_inf or nan";
      return {};
    }
    pad = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PartitionType>(parser.getContext(), shape,
                                          elementType, pad);
}

void PartitionType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getShape())
    printer << size << "x";
  printer << getElementType();
  if (getPad() != PadKind::none)
    printer << ", pad = " << stringifyPadKind(getPad());
  printer << ">";
}

LogicalResult
PartitionType::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, Type elementType, PadKind pad) {
  if (shape.empty() || shape.size() > 3)
    return emitError() << "partition rank must be 1, 2 or 3, got "
                       << shape.size();
  for (int64_t size : shape)
    if (size <= 0)
      return emitError() << "tile size " << size
                         << " must be a positive integer";
  if (!elementType.isIntOrIndexOrFloat())
    return emitError() << "partition element type " << elementType
                       << " must be an integer or floating-point type";
  bool needsFloat = pad == PadKind::neg_inf || pad == PadKind::pos_inf ||
                    pad == PadKind::nan;
  if (needsFloat && !isa<FloatType>(elementType))
    return emitError() << "pad = " << stringifyPadKind(pad)
                       << " needs a floating-point element type, got "
                       << elementType << "; use pad = zero or none";
  return success();
}
