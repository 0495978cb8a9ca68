//===- TypeConverter.h - What a tile value lowers to ------------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. The type converter of the tile-to-gpu
// conversion, keyed on the layout encoding of each tile tensor type:
//
//   tensor<64x128xf32, #tile.blocked<...>>  ->  vector<N x f32>
//   !tile.part<64x32xf32>                   ->  memref<?x?xf32, global>
//   anything else (scalars, index)          ->  itself
//
// A `#tile.blocked` tile lowers to the registers one thread holds: one flat
// `vector<N x T>` (Layout.h gives N and the order). One vector rather than N
// scalars (a 1:N conversion) because the lowering of every op is a shuffle,
// slice or elementwise op over the whole per-thread set, which vector ops
// express directly, and the backend scalarises the vector into registers
// anyway; it also keeps scf.for iter_args one value per tile.
//
// A new layout (the mma.sync and wgmma fragment encodings) adds one
// conversion keyed on its encoding attribute here; a tile type whose
// encoding no conversion knows does not convert, so no pattern applies to
// its ops and the pass names the op as unsupported.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_TYPECONVERTER_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_TYPECONVERTER_H

#include "Layout.h"

#include "mlir/Transforms/DialectConversion.h"

namespace kbench::gpu_lowering {

/// The tile-to-gpu type converter (see the file comment).
class TileTypeConverter : public mlir::TypeConverter {
public:
  TileTypeConverter();
};

/// The layout of tile value `v`: the `#tile.blocked` encoding of its
/// (unconverted) type.
Layout layoutOf(mlir::Value v);

/// The per-thread vector type of a tile in `layout`.
mlir::VectorType vectorType(const Layout &layout, mlir::Type elementType);

/// Whether `type` is a tile type of the kernel (a tensor or a view).
bool isTileType(mlir::Type type);

/// Per-thread limit check for a tile value of `type` produced by `op`.
mlir::LogicalResult checkRegisterBudget(mlir::Operation *op,
                                        mlir::RankedTensorType type,
                                        const Layout &layout);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_TYPECONVERTER_H
