//===- KernelABI.h - A tile.kernel's launch interface ------------*- C++ -*-===//
//
// What every consumer of a kernel's launch interface agrees on: the order and
// kinds of its arguments (docs/bundle.md, "The kernel ABI"), its grid as shape
// expressions over dims, its block size, its knobs as a typed KernelConfig
// and its `requires` facts parsed. The GPU lowering, the host lowering, the
// verifier and the bundle writer all call these, so they cannot drift; no
// other code parses a `requires` string.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_KERNELABI_H
#define KBENCH_DIALECT_TILE_IR_KERNELABI_H

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Support/KernelConfig.h"
#include "kbench/Support/ShapeExpr.h"

#include <array>
#include <string>

namespace kbench::tile {

/// One launch argument of a kernel.
struct KernelParam {
  enum class Kind { Memref, Dim, Scalar };
  Kind kind;
  /// `arg<i>` (or the argument's `tile.name`) for memrefs and scalars, the dim
  /// name for dims.
  std::string name;
  /// Element type of a memref, type of a scalar, i64 for a dim.
  mlir::Type type;
  /// Dim names of a memref, one per axis.
  llvm::SmallVector<std::string> dims;
  /// Index of the kernel argument (memrefs and scalars); -1 for dims.
  int argIndex = -1;
};

/// The name diagnostics give argument `index`: its SSA name in the kernel's
/// source (`%X` gives "X"; the parser keeps it as the argument's NameLoc),
/// else its ABI name (`tile.name` or `arg<index>`).
std::string getArgName(KernelOp kernel, unsigned index);

/// The kernel's arguments as declared, followed by one `dim` param per dim
/// name in order of first appearance.
llvm::SmallVector<KernelParam> getKernelABI(KernelOp kernel);

/// The launch grid (x, y, z) as shape expressions over dims with the kernel's
/// params substituted: `ceildiv(dim, tile)` for each dim `tile.grid` spans, in
/// the order of its results, and `1` for the unused axes.
mlir::FailureOr<std::array<ShapeExpr, 3>> getLaunchGrid(KernelOp kernel);

/// Threads per block that run the kernel's tile code: 32 * the `num_warps`
/// param (the knob table's default when absent). The layouts are over them.
int64_t getBlockSize(KernelOp kernel);

/// Threads per block at launch: getBlockSize, plus the producer warpgroup of
/// a warp-specialized kernel (tile.warp_specialized).
int64_t getLaunchBlockSize(KernelOp kernel);

/// The kernel's integer params by name (knobs and tile sizes).
SymbolValues getParamValues(KernelOp kernel);

/// The kernel's knobs, typed, with the knob table's defaults.
KernelConfig getKernelConfig(KernelOp kernel);

/// The kernel's `requires` facts, parsed, as written (over dims and params):
/// the parse the `#tile.requires` attribute made once (RequiresFact.h).
llvm::ArrayRef<RequiresFact> getRequiresFacts(KernelOp kernel);

/// The well-formed `requires` facts with the kernel's params substituted, so
/// they speak of dims only (what the runner and the lowering evaluate).
llvm::SmallVector<ShapeFact> getBoundRequiresFacts(KernelOp kernel);

/// The bundle spelling of an element type ("f32", "bf16", "i32", ...), or ""
/// when the type has none.
std::string getDtypeName(mlir::Type type);

} // namespace kbench::tile

#endif // KBENCH_DIALECT_TILE_IR_KERNELABI_H
