//===- TileAttrs.cpp - Layout encodings of tile values --------------------===//
//
// The verifiers of #tile.blocked and #tile.shared and the index maps they
// define (TileAttrs.td): (thread, register) -> tile coordinates for the
// distributed encodings, tile coordinates -> buffer offset for shared memory.
// The lowering's own view of a blocked encoding (lib/Conversion/TileToGPU/
// Layout.h) is checked against these maps by a unit test. The generated
// code of every attribute of the dialect is included here; #tile.requires
// (its storage and syntax) is in RequiresAttr.cpp.
//
//===----------------------------------------------------------------------===//

#include "RequiresAttrStorage.h"
#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kbench::tile;

#include "kbench/Dialect/Tile/IR/TileAttrInterfaces.cpp.inc"

static FailureOr<SmallVector<int64_t>> parseDimList(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  return values;
}

static void printDimList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

#define GET_ATTRDEF_CLASSES
#include "kbench/Dialect/Tile/IR/TileOpsAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kbench/Dialect/Tile/IR/TileOpsAttrs.cpp.inc"
      >();
}

static bool isPowerOf2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }

//===----------------------------------------------------------------------===//
// BlockedEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> perThread,
    ArrayRef<int64_t> lanes, ArrayRef<int64_t> laneStrides,
    ArrayRef<int64_t> warps, ArrayRef<int64_t> warpStrides, int64_t numWarps) {
  size_t rank = perThread.size();
  if (lanes.size() != rank || laneStrides.size() != rank ||
      warps.size() != rank || warpStrides.size() != rank)
    return emitError() << "#tile.blocked needs one entry per dim in "
                          "per_thread, lanes, lane_strides, warps and "
                          "warp_strides";
  if (!isPowerOf2(numWarps) || numWarps > 32)
    return emitError() << "#tile.blocked num_warps = " << numWarps
                       << " must be a power of two from 1 to 32";
  int64_t laneBits = 0, warpBits = 0;
  for (size_t d = 0; d < rank; ++d) {
    for (int64_t v :
         {perThread[d], lanes[d], laneStrides[d], warps[d], warpStrides[d]})
      if (!isPowerOf2(v))
        return emitError() << "#tile.blocked dim " << d
                           << ": every count and stride must be a power of "
                              "two, got "
                           << v;
    if (lanes[d] * laneStrides[d] > 32 || warps[d] * warpStrides[d] > numWarps)
      return emitError() << "#tile.blocked dim " << d
                         << " uses lane or warp ids past 32 lanes or "
                         << numWarps << " warps";
    // The id bits of the dims must not overlap: each thread coordinate is
    // then a distinct element.
    int64_t lb = lanes[d] > 1 ? (lanes[d] - 1) * laneStrides[d] : 0;
    int64_t wb = warps[d] > 1 ? (warps[d] - 1) * warpStrides[d] : 0;
    if ((laneBits & lb) || (warpBits & wb))
      return emitError() << "#tile.blocked dim " << d
                         << " shares lane or warp id bits with another dim";
    laneBits |= lb;
    warpBits |= wb;
  }
  return success();
}

LogicalResult BlockedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (static_cast<int64_t>(shape.size()) != getRank())
    return emitError() << "#tile.blocked has " << getRank()
                       << " dims but the tensor has rank " << shape.size();
  for (auto [d, size] : llvm::enumerate(shape)) {
    int64_t unit = getPerThread()[d] * getLanes()[d] * getWarps()[d];
    if (size % unit != 0)
      return emitError() << "#tile.blocked: tile dim " << d << " of size "
                         << size << " is not a multiple of per_thread * "
                         << "lanes * warps = " << unit;
  }
  return success();
}

int64_t
BlockedEncodingAttr::getElementsPerThread(ArrayRef<int64_t> shape) const {
  int64_t n = 1;
  for (auto [size, lanes, warps] : llvm::zip(shape, getLanes(), getWarps()))
    n *= std::max<int64_t>(1, size / (lanes * warps));
  return n;
}

SmallVector<int64_t>
BlockedEncodingAttr::getTileCoordinates(ArrayRef<int64_t> shape, int64_t thread,
                                        int64_t reg) const {
  int64_t lane = thread % 32, warp = thread / 32;
  int64_t rank = shape.size();
  SmallVector<int64_t> coords(rank, 0);
  // Registers are row-major over the per-dim positions.
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t lanes = getLanes()[d], warps = getWarps()[d];
    int64_t per = getPerThread()[d], threads = lanes * warps;
    int64_t count = std::max<int64_t>(1, shape[d] / threads);
    int64_t p = reg % count;
    reg /= count;
    int64_t t = (lane / getLaneStrides()[d]) % lanes +
                lanes * ((warp / getWarpStrides()[d]) % warps);
    coords[d] = (p / per) * threads * per + t * per + p % per;
  }
  return coords;
}

//===----------------------------------------------------------------------===//
// SharedEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> order, int64_t pad, int64_t vec,
                           int64_t perPhase, int64_t maxPhase) {
  SmallVector<int64_t> sorted(order);
  llvm::sort(sorted);
  for (auto [i, d] : llvm::enumerate(sorted))
    if (d != static_cast<int64_t>(i))
      return emitError() << "#tile.shared order must be a permutation of the "
                            "dims 0.."
                         << static_cast<int64_t>(order.size()) - 1;
  if (pad < 0 || !isPowerOf2(vec) || !isPowerOf2(perPhase) ||
      !isPowerOf2(maxPhase))
    return emitError() << "#tile.shared needs pad >= 0 and vec, per_phase, "
                          "max_phase powers of two";
  return success();
}

int64_t SharedEncodingAttr::getRowStride(ArrayRef<int64_t> shape) const {
  return shape[getOrder()[0]] + getPad();
}

int64_t SharedEncodingAttr::getOffset(ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> coords) const {
  ArrayRef<int64_t> order = getOrder();
  int64_t col = coords[order[0]];
  // Rows: the remaining dims, slowest last.
  int64_t row = 0, rowScale = 1;
  for (int64_t d : order.drop_front()) {
    row += coords[d] * rowScale;
    rowScale *= shape[d];
  }
  int64_t phase = (row / getPerPhase()) % getMaxPhase();
  int64_t vec = getVec();
  col = ((col / vec) ^ phase) * vec + col % vec;
  return row * getRowStride(shape) + col;
}
