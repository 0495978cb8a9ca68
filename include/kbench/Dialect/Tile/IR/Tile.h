//===- Tile.h - The tile dialect ---------------------------------*- C++ -*-===//
//
// Everything a user of the tile dialect needs: the dialect, its enums, types
// and ops. Tool drivers should include kbench/InitAll.h instead.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_TILE_H
#define KBENCH_DIALECT_TILE_IR_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "kbench/Dialect/Tile/IR/RequiresFact.h"

#include "kbench/Dialect/Tile/IR/TileOpsDialect.h.inc"
#include "kbench/Dialect/Tile/IR/TileEnums.h.inc"
#include "kbench/Dialect/Tile/IR/TileAttrInterfaces.h.inc"
#include "kbench/Dialect/Tile/IR/TileInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kbench/Dialect/Tile/IR/TileOpsAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "kbench/Dialect/Tile/IR/TileOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "kbench/Dialect/Tile/IR/TileOps.h.inc"

namespace kbench::tile {
/// Unit attribute on a tile.store or tile.atomic_add (set by
/// transform.tile.stage_transposes): tile-to-gpu converts the stored tile to
/// the store's own coalesced layout through padded shared memory. Other
/// lowerings and tile-verify ignore it.
inline constexpr const char *kStageThroughSharedAttrName =
    "tile.stage_through_shared";

/// Unit attribute on a tile.kernel: its task opts into tf32 (`"allow_tf32":
/// true` in task.json), so a tile.mma with f32 operands may round them to
/// tf32 on tensor cores (impl = mma_sync). The compile driver sets it from
/// task.json and refuses a kernel that carries it when the task does not opt
/// in (applyTaskOptIns); kbench-opt users write it on the kernel.
inline constexpr const char *kAllowTf32AttrName = "tile.allow_tf32";

/// Whether `op` is, or sits in, a tile.kernel with tile.allow_tf32 (or the
/// gpu.func tile-to-gpu lowers it into, which keeps the attribute).
bool allowsTf32(mlir::Operation *op);

/// Unit attribute on a tile.kernel (transform.tile.warp_specialize): its TMA
/// K loop's copies are issued by a producer warpgroup of its own, launched
/// beside the kernel's num_warps warps, which exits after the loop
/// (docs/gpu-lowering.md, "Warp specialization"). The layouts and the
/// kernel's code see num_warps warps; only the launch has more.
inline constexpr const char *kWarpSpecializedAttrName = "tile.warp_specialized";
/// Warps of the producer warpgroup of a warp-specialized kernel.
inline constexpr int64_t kProducerWarps = 4;
/// Unit attribute on a tile.kernel (transform.tile.persistent): on the GPU
/// the kernel launches no more CTAs than the SMs hold at once, and each CTA
/// walks tiles t = blockIdx.x, blockIdx.x + gridDim.x, ... of its grid, in
/// the grid's order and raster (docs/gpu-lowering.md, "Persistent CTAs").
/// The tile program's meaning does not change: tile-verify and the host
/// target see one program per tile.
inline constexpr const char *kPersistentAttrName = "tile.persistent";
} // namespace kbench::tile

#endif // KBENCH_DIALECT_TILE_IR_TILE_H
