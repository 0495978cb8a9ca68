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
} // namespace kbench::tile

#endif // KBENCH_DIALECT_TILE_IR_TILE_H
