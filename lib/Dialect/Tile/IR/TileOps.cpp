//===- TileOps.cpp - Partition, memory and compute ops of tile ------------===//
//
// Verifiers, folders and the tile-size syntax of every op except tile.kernel
// and tile.launch (KernelOp.cpp). Messages name the operand, the value and
// what would be legal.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kbench::tile;

//===----------------------------------------------------------------------===//
// Tile sizes: `[64, BK]`, integers or param names
//===----------------------------------------------------------------------===//

static ParseResult parseTileSizes(OpAsmParser &parser, ArrayAttr &sizes) {
  SmallVector<Attribute> entries;
  Builder &b = parser.getBuilder();
  auto parseEntry = [&]() -> ParseResult {
    int64_t value = 0;
    OptionalParseResult integer = parser.parseOptionalInteger(value);
    if (integer.has_value()) {
      if (failed(*integer))
        return failure();
      entries.push_back(b.getI64IntegerAttr(value));
      return success();
    }
    StringRef name;
    if (failed(parser.parseOptionalKeyword(&name)))
      return parser.emitError(parser.getCurrentLocation(),
                              "expected a tile size: an integer or a param "
                              "name such as BM");
    entries.push_back(b.getStringAttr(name));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseEntry))
    return failure();
  sizes = b.getArrayAttr(entries);
  return success();
}

static void printTileSizes(OpAsmPrinter &p, Operation *, ArrayAttr sizes) {
  p << '[';
  llvm::interleaveComma(sizes, p, [&](Attribute entry) {
    if (auto integer = dyn_cast<IntegerAttr>(entry))
      p << integer.getInt();
    else
      p << cast<StringAttr>(entry).getValue();
  });
  p << ']';
}

#define GET_OP_CLASSES
#include "kbench/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  return s;
}

/// Checks that `tensor` is one tile of `view`: same shape and element type.
static LogicalResult verifyTileOfView(Operation *op, RankedTensorType tensor,
                                      PartitionType view, StringRef what) {
  if (tensor.getShape() != view.getShape())
    return op->emitOpError() << what << " shape " << shapeString(tensor.getShape())
                             << " does not match the partition's tile shape "
                             << shapeString(view.getShape());
  if (tensor.getElementType() != view.getElementType())
    return op->emitOpError() << what << " element type " << tensor.getElementType()
                             << " does not match the partition's element type "
                             << view.getElementType();
  return success();
}

static LogicalResult verifyIndexCount(Operation *op, ValueRange indices,
                                      PartitionType view) {
  if (static_cast<int64_t>(indices.size()) != view.getRank())
    return op->emitOpError() << "takes " << indices.size()
                             << " tile coordinates but the partition has rank "
                             << view.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// PartitionOp
//===----------------------------------------------------------------------===//

LogicalResult PartitionOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  PartitionType type = getResult().getType();
  if (source.getRank() != type.getRank())
    return emitOpError("partitions a rank-")
           << source.getRank() << " memref into rank-" << type.getRank()
           << " tiles; the ranks must match";
  if (static_cast<int64_t>(getTileSizes().size()) != source.getRank())
    return emitOpError("lists ") << getTileSizes().size()
                                 << " tile sizes for a rank-" << source.getRank()
                                 << " memref";
  if (source.getElementType() != type.getElementType())
    return emitOpError("memref element type ")
           << source.getElementType()
           << " does not match the partition's element type "
           << type.getElementType();
  if (getPadKind() != type.getPad())
    return emitOpError("pad(")
           << stringifyPadKind(getPadKind())
           << ") does not match the result type's pad = "
           << stringifyPadKind(type.getPad());

  // Views are the only way to memory, so the verifier can tie every access
  // to a named kernel argument.
  auto kernel = (*this)->getParentOfType<KernelOp>();
  auto sourceArg = dyn_cast<BlockArgument>(getSource());
  if (!kernel || !sourceArg ||
      sourceArg.getOwner()->getParentOp() != kernel.getOperation())
    return emitOpError("source must be a memref argument of the enclosing "
                       "tile.kernel");
  for (auto [axis, entry] : llvm::enumerate(getTileSizes())) {
    int64_t size;
    if (auto integer = dyn_cast<IntegerAttr>(entry)) {
      size = integer.getInt();
    } else if (auto name = dyn_cast<StringAttr>(entry)) {
      std::optional<int64_t> value = kernel.getParamValue(name.getValue());
      if (!value)
        return emitOpError("tile size '")
               << name.getValue() << "' is not a param of the enclosing "
               << "tile.kernel; add it to params {...} or write an integer";
      size = *value;
    } else {
      return emitOpError("tile size ")
             << entry << " must be an integer or a param name";
    }
    if (size <= 0)
      return emitOpError("tile size ")
             << size << " along dim " << axis << " must be positive";
    if (size != type.getShape()[axis])
      return emitOpError("tile size ")
             << entry << " = " << size << " along dim " << axis
             << " does not match the result type's tile shape "
             << shapeString(type.getShape());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GridOp, NumTilesOp, ExtentOp, TileSizeOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> GridOp::getGridDims() {
  if (std::optional<ArrayRef<int64_t>> dims = getDims())
    return SmallVector<int64_t>(*dims);
  return llvm::to_vector(llvm::seq<int64_t>(0, getView().getType().getRank()));
}

LogicalResult GridOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location>, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  auto view = dyn_cast<PartitionType>(adaptor.getView().getType());
  size_t count = 0;
  if (std::optional<ArrayRef<int64_t>> dims = adaptor.getDims())
    count = dims->size();
  else if (view)
    count = view.getRank();
  results.assign(count, IndexType::get(context));
  return success();
}

LogicalResult GridOp::verify() {
  int64_t rank = getView().getType().getRank();
  SmallVector<int64_t> dims = getGridDims();
  if (dims.empty())
    return emitOpError("spans no dims; list at least one");
  if (dims.size() > 3)
    return emitOpError("spans ") << dims.size()
                                 << " dims; a CUDA grid has at most 3";
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      return emitOpError("dim ") << dim << " is out of range for a rank-"
                                 << rank << " partition";
    if (!seen.insert(dim).second)
      return emitOpError("lists dim ") << dim << " twice";
  }
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("must be inside a tile.kernel");
  return success();
}

/// The dim of a view that tile.num_tiles, tile.extent and tile.tile_size
/// read must be one of its axes.
static LogicalResult verifyViewDim(Operation *op, PartitionType view,
                                   int64_t dim) {
  int64_t rank = view.getRank();
  if (dim < 0 || dim >= rank)
    return op->emitOpError("dim ") << dim << " is out of range for a rank-"
                                   << rank << " partition";
  return success();
}

LogicalResult NumTilesOp::verify() {
  return verifyViewDim(*this, getView().getType(), getDim());
}

LogicalResult ExtentOp::verify() {
  return verifyViewDim(*this, getView().getType(), getDim());
}

LogicalResult TileSizeOp::verify() {
  return verifyViewDim(*this, getView().getType(), getDim());
}

OpFoldResult TileSizeOp::fold(FoldAdaptor) {
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= getView().getType().getRank())
    return {}; // the verifier reports it
  return IntegerAttr::get(IndexType::get(getContext()), getSize());
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp, AtomicAddOp
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  PartitionType view = getView().getType();
  if (failed(verifyIndexCount(*this, getIndices(), view)))
    return failure();
  return verifyTileOfView(*this, getResult().getType(), view, "result");
}

LogicalResult GatherOp::verify() {
  PartitionType view = getView().getType();
  if (failed(verifyIndexCount(*this, getIndices(), view)))
    return failure();
  int64_t dim = getDim();
  if (dim < 0 || dim >= view.getRank())
    return emitOpError("dim ") << dim << " is out of range for the rank-"
                               << view.getRank() << " partition";
  if (view.getShape()[dim] != 1)
    return emitOpError("gathers along dim ")
           << dim << ", whose tile size is " << view.getShape()[dim]
           << "; partition that dim with tile size 1";
  if (view.getPad() == PadKind::none)
    return emitOpError("gathers from a pad(none) partition; out-of-range "
                       "indices read the pad, so give the partition one "
                       "(zero, neg_inf, pos_inf or nan)");
  RankedTensorType result = getResult().getType();
  RankedTensorType offsets = getOffsets().getType();
  if (result.getRank() != view.getRank())
    return emitOpError("result has rank ")
           << result.getRank() << " but the partition has rank "
           << view.getRank();
  for (int64_t d = 0; d < view.getRank(); ++d)
    if (d != dim && result.getDimSize(d) != view.getShape()[d])
      return emitOpError("result shape ")
             << shapeString(result.getShape()) << " differs from the "
             << "partition's tile shape " << shapeString(view.getShape())
             << " along dim " << d << "; only the gathered dim " << dim
             << " may differ";
  if (result.getElementType() != view.getElementType())
    return emitOpError("result element type ")
           << result.getElementType()
           << " does not match the partition's element type "
           << view.getElementType();
  if (offsets.getShape() != result.getShape())
    return emitOpError("index tile shape ")
           << shapeString(offsets.getShape())
           << " does not match the result shape "
           << shapeString(result.getShape());
  if (!offsets.getElementType().isSignlessInteger() ||
      offsets.getElementType().isInteger(1))
    return emitOpError("index tile elements are ")
           << offsets.getElementType()
           << "; use signless integers (i32 or i64)";
  return success();
}

LogicalResult StoreOp::verify() {
  PartitionType view = getView().getType();
  if (failed(verifyIndexCount(*this, getIndices(), view)))
    return failure();
  return verifyTileOfView(*this, getValue().getType(), view, "stored tile");
}

LogicalResult AtomicAddOp::verify() {
  PartitionType view = getView().getType();
  if (failed(verifyIndexCount(*this, getIndices(), view)))
    return failure();
  if (failed(verifyTileOfView(*this, getValue().getType(), view, "added tile")))
    return failure();
  Type element = view.getElementType();
  if (!(element.isF32() || element.isF16() || element.isBF16() ||
        element.isF64() || element.isInteger(32) || element.isInteger(64)))
    return emitOpError("has no atomic add for element type ")
           << element << "; use f32, f16, bf16, f64, i32 or i64";
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  ArrayRef<int64_t> dims = getDims();
  if (input.getElementType() != result.getElementType())
    return emitOpError("changes the element type from ")
           << input.getElementType() << " to " << result.getElementType();
  if (input.getRank() + static_cast<int64_t>(dims.size()) != result.getRank())
    return emitOpError("adds ") << dims.size() << " dims to a rank-"
                                << input.getRank() << " tile, which gives rank "
                                << input.getRank() + dims.size() << ", not "
                                << result.getRank();
  llvm::SmallDenseSet<int64_t> added;
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= result.getRank())
      return emitOpError("dim ") << dim << " is out of range for the rank-"
                                 << result.getRank() << " result";
    if (!added.insert(dim).second)
      return emitOpError("lists dim ") << dim << " twice";
  }
  int64_t inputDim = 0;
  for (int64_t dim = 0; dim < result.getRank(); ++dim) {
    if (added.contains(dim))
      continue;
    if (result.getDimSize(dim) != input.getDimSize(inputDim))
      return emitOpError("result dim ")
             << dim << " is " << result.getDimSize(dim) << " but input dim "
             << inputDim << " is " << input.getDimSize(inputDim)
             << "; dims not listed in `dims` keep their size";
    ++inputDim;
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getDims().empty() && getInput().getType() == getResult().getType())
    return getInput();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput()))
    return SplatElementsAttr::get(getResult().getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  int64_t dim = getDim();
  if (dim < 0 || dim >= input.getRank())
    return emitOpError("reduces dim ")
           << dim << ", which is out of range for a rank-" << input.getRank()
           << " tile";
  if (input.getElementType() != result.getElementType())
    return emitOpError("changes the element type from ")
           << input.getElementType() << " to " << result.getElementType()
           << "; convert with arith ops before or after the reduction";
  SmallVector<int64_t> expected(input.getShape());
  expected.erase(expected.begin() + dim);
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape ")
           << shapeString(result.getShape()) << " should be "
           << shapeString(expected) << " (the input without dim " << dim << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  int64_t rank = getInput().getType().getRank();
  int64_t dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("scans dim ")
           << dim << ", which is out of range for a rank-" << rank << " tile";
  return success();
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

namespace {
/// One row of an implementation's type table.
struct MmaTypeRule {
  bool (*operand)(Type);
  bool (*acc)(Type);
  int64_t kMultiple;
};
} // namespace

static bool isF32(Type t) { return t.isF32(); }
static bool isF64(Type t) { return t.isF64(); }
static bool isF16(Type t) { return t.isF16(); }
static bool isBF16(Type t) { return t.isBF16(); }
static bool isI8(Type t) { return t.isInteger(8); }
static bool isI32(Type t) { return t.isInteger(32); }
static bool isF16OrF32(Type t) { return t.isF16() || t.isF32(); }

static ArrayRef<MmaTypeRule> mmaTypeRules(MmaImpl impl) {
  static const MmaTypeRule simt[] = {
      {isF32, isF32, 1}, {isF64, isF64, 1}, {isF16, isF16OrF32, 1},
      {isBF16, isF32, 1}};
  static const MmaTypeRule tensorCore[] = {
      {isF16, isF16OrF32, 16}, {isBF16, isF32, 16}, {isF32, isF32, 8},
      {isI8, isI32, 32}};
  return impl == MmaImpl::simt ? ArrayRef<MmaTypeRule>(simt)
                               : ArrayRef<MmaTypeRule>(tensorCore);
}

LogicalResult MmaOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(),
                   acc = getAcc().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("operands must be rank-2 tiles, got ranks ")
           << a.getRank() << ", " << b.getRank() << " and " << acc.getRank();
  int64_t m = getTransposeA() ? a.getDimSize(1) : a.getDimSize(0);
  int64_t ka = getTransposeA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t kb = getTransposeB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = getTransposeB() ? b.getDimSize(0) : b.getDimSize(1);
  if (ka != kb)
    return emitOpError("a has K = ")
           << ka << " but b has K = " << kb
           << (getTransposeB() ? "" : " (is b NxK? then add transpose_b)");
  if (acc.getDimSize(0) != m || acc.getDimSize(1) != n)
    return emitOpError("accumulator is ")
           << shapeString(acc.getShape()) << " but a * b is " << m << "x" << n;

  Type aType = a.getElementType(), bType = b.getElementType(),
       accType = acc.getElementType();
  if (aType != bType)
    return emitOpError("a and b have different element types (")
           << aType << " and " << bType << "); convert one with arith ops";
  MmaImpl impl = getImplKind();
  const MmaTypeRule *rule = nullptr;
  for (const MmaTypeRule &candidate : mmaTypeRules(impl))
    if (candidate.operand(aType) && candidate.acc(accType))
      rule = &candidate;
  if (!rule)
    return emitOpError("impl = ")
           << stringifyMmaImpl(impl) << " has no " << aType << " x " << aType
           << " -> " << accType
           << " form; see the type table in the tile.mma documentation";
  // wgmma always gives each warp whole rows and simt has its own micro-tiles:
  // the split is a choice of mma_sync alone.
  if (getWarpSplit() && impl != MmaImpl::mma_sync)
    return emitOpError("warp_split(")
           << stringifyMmaWarpSplit(*getWarpSplit())
           << ") applies to impl = mma_sync only, not impl = "
           << stringifyMmaImpl(impl) << "; drop it";

  if (impl == MmaImpl::simt)
    return success();
  int64_t mMultiple = impl == MmaImpl::wgmma ? 64 : 16;
  if (m % mMultiple != 0)
    return emitOpError("impl = ")
           << stringifyMmaImpl(impl) << " needs M to be a multiple of "
           << mMultiple << ", got " << m;
  if (n % 8 != 0)
    return emitOpError("impl = ") << stringifyMmaImpl(impl)
                                  << " needs N to be a multiple of 8, got " << n;
  if (ka % rule->kMultiple != 0)
    return emitOpError("impl = ")
           << stringifyMmaImpl(impl) << " with " << aType
           << " operands needs K to be a multiple of " << rule->kMultiple
           << ", got " << ka;
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp, ExpandDimsOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  ArrayRef<int64_t> perm = getPerm();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOpError("perm has ") << perm.size() << " entries for a rank-"
                                    << input.getRank() << " tile";
  if (input.getElementType() != result.getElementType() ||
      result.getRank() != input.getRank())
    return emitOpError("result type ")
           << result << " is not a permutation of " << input;
  llvm::SmallDenseSet<int64_t> seen;
  for (auto [i, p] : llvm::enumerate(perm)) {
    if (p < 0 || p >= input.getRank() || !seen.insert(p).second)
      return emitOpError("perm [")
             << llvm::make_range(perm.begin(), perm.end())
             << "] is not a permutation of 0.." << input.getRank() - 1;
    if (result.getDimSize(i) != input.getDimSize(p))
      return emitOpError("result dim ")
             << i << " is " << result.getDimSize(i) << " but input dim " << p
             << " is " << input.getDimSize(p);
  }
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPerm();
  bool identity = llvm::all_of(llvm::enumerate(perm), [](auto entry) {
    return static_cast<int64_t>(entry.index()) == entry.value();
  });
  if (identity)
    return getInput();
  // transpose(transpose(x, p), q) == x when q undoes p.
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> innerPerm = inner.getPerm();
    bool undoes = llvm::all_of(llvm::enumerate(perm), [&](auto entry) {
      return innerPerm[entry.value()] == static_cast<int64_t>(entry.index());
    });
    if (undoes && inner.getInput().getType() == getResult().getType())
      return inner.getInput();
  }
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  int64_t dim = getDim();
  if (dim < 0 || dim > input.getRank())
    return emitOpError("dim ") << dim << " is out of range; a unit dim can be "
                               << "inserted at 0.." << input.getRank();
  SmallVector<int64_t> expected(input.getShape());
  expected.insert(expected.begin() + dim, 1);
  if (result.getShape() != ArrayRef<int64_t>(expected) ||
      result.getElementType() != input.getElementType())
    return emitOpError("result type ")
           << result << " should be "
           << RankedTensorType::get(expected, input.getElementType());
  return success();
}

LogicalResult SqueezeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  int64_t dim = getDim();
  if (dim < 0 || dim >= input.getRank())
    return emitOpError("dim ") << dim << " is out of range for a rank-"
                               << input.getRank() << " tile";
  if (input.getDimSize(dim) != 1)
    return emitOpError("dim ") << dim << " has size " << input.getDimSize(dim)
                               << "; only a unit dim can be dropped";
  SmallVector<int64_t> expected(input.getShape());
  expected.erase(expected.begin() + dim);
  if (result.getShape() != ArrayRef<int64_t>(expected) ||
      result.getElementType() != input.getElementType())
    return emitOpError("result type ")
           << result << " should be "
           << RankedTensorType::get(expected, input.getElementType());
  return success();
}

//===----------------------------------------------------------------------===//
// IotaOp, SplatOp
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  RankedTensorType result = getResult().getType();
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= result.getRank())
    return emitOpError("dim ") << getDim() << " is out of range for a rank-"
                               << result.getRank() << " tile";
  return success();
}

LogicalResult SplatOp::verify() {
  if (getValue().getType() != getResult().getType().getElementType())
    return emitOpError("splats a ")
           << getValue().getType() << " into a tile of "
           << getResult().getType().getElementType();
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  if (Attribute scalar = adaptor.getValue())
    return SplatElementsAttr::get(getResult().getType(), scalar);
  return {};
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  if (input.getShape() != result.getShape() ||
      input.getElementType() != result.getElementType())
    return emitOpError("changes only the layout encoding: the result must "
                       "have the input's shape and element type, got ")
           << input << " -> " << result;
  return success();
}
