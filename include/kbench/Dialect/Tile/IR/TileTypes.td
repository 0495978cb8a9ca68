//===- TileTypes.td - Types of the tile dialect --------------*- tablegen -*-===//

#ifndef KBENCH_DIALECT_TILE_IR_TILETYPES_TD
#define KBENCH_DIALECT_TILE_IR_TILETYPES_TD

include "kbench/Dialect/Tile/IR/TileDialect.td"
include "kbench/Dialect/Tile/IR/TileEnums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_PartitionType : TypeDef<Tile_Dialect, "Partition"> {
  let mnemonic = "part";
  let summary = "A grid of static tiles over a global memref";
  let description = [{
    `!tile.part<64x32xf32, pad = zero>` is the result of `tile.partition`: the
    memref it views is cut into tiles of the given static shape, and the index
    space along dimension `d` is `ceildiv(dim_d, tile_d)`. Loads of tiles that
    overhang the memref read `pad` for the missing elements; `pad = none`
    (the default, not printed) means the verifier must prove every loaded tile
    full. `neg_inf`, `pos_inf` and `nan` need a floating-point element type.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "tile shape">:$shape,
    "::mlir::Type":$elementType,
    "::kbench::tile::PadKind":$pad
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// The tensor type of one tile.
    ::mlir::RankedTensorType getTileType() const {
      return ::mlir::RankedTensorType::get(getShape(), getElementType());
    }
  }];
}

#endif // KBENCH_DIALECT_TILE_IR_TILETYPES_TD
