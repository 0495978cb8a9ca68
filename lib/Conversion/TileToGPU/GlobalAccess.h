//===- GlobalAccess.h - Tile loads from global memory -----------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the view a tile access goes through
// and the emission of a tile load, shared by the tile.load pattern
// (MemoryLowering.cpp) and the pipelined K loop of tile.mma
// (MmaLowering.cpp), which issues the loads of the next step itself.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_GLOBALACCESS_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_GLOBALACCESS_H

#include "Patterns.h"

namespace kbench::gpu_lowering {

/// A partition view as the lowering addresses it: the global memref (the
/// converted view), its extents and facts (the kernel ABI) and the static
/// tile shape and pad (the view type).
struct View {
  mlir::Value memref;
  llvm::ArrayRef<mlir::Value> dims;
  llvm::ArrayRef<int64_t> multiples;
  llvm::ArrayRef<int64_t> tileShape;
  tile::PadKind pad = tile::PadKind::none;
  mlir::Type elementType;
  /// The kernel parameter of the memref (GlobalArg::pointer).
  mlir::Value pointer;
};

/// The view of `op`'s view operand `view` (unconverted) lowered to `memref`;
/// fails with an error on `op` when it does not come from a tile.partition
/// of a kernel argument.
mlir::FailureOr<View> lookupView(KernelContext &ctx, mlir::Operation *op,
                                 mlir::Value view, mlir::Value memref);

/// Emits the load of tile `indices` of `view` in `layout` at the insertion
/// point (the interior fast path, boundary tiles masked with the pad).
mlir::FailureOr<TileValue> emitLoad(KernelContext &ctx, mlir::OpBuilder &b,
                                    tile::LoadOp op, const View &view,
                                    mlir::ValueRange indices,
                                    const Layout &layout);

/// Emits the store of `value` into tile `indices` of `view` at the insertion
/// point (the interior fast path with 16-byte runs where the rows are
/// aligned, boundary tiles masked). A view whose tileShape is a sub-tile of
/// the partition's stores that sub-tile.
void emitStore(KernelContext &ctx, mlir::OpBuilder &b, mlir::Location loc,
               const View &view, const TileValue &value,
               mlir::ValueRange indices);

/// The pad value of `kind` for element type `type` as a typed attribute.
mlir::TypedAttr getPadAttr(tile::PadKind kind, mlir::Type type);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_GLOBALACCESS_H
