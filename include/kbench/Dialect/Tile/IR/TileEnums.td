//===- TileEnums.td - Enumerations of the tile dialect -------*- tablegen -*-===//

#ifndef KBENCH_DIALECT_TILE_IR_TILEENUMS_TD
#define KBENCH_DIALECT_TILE_IR_TILEENUMS_TD

include "mlir/IR/EnumAttr.td"

def Tile_PadKind : I32EnumAttr<"PadKind",
    "value read for out-of-bounds elements of a partition view", [
      I32EnumAttrCase<"none", 0>,
      I32EnumAttrCase<"zero", 1>,
      I32EnumAttrCase<"neg_inf", 2>,
      I32EnumAttrCase<"pos_inf", 3>,
      I32EnumAttrCase<"nan", 4>
    ]> {
  let cppNamespace = "::kbench::tile";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "combiner of tile.reduce", [
      I32EnumAttrCase<"add", 0>,
      I32EnumAttrCase<"max", 1>,
      I32EnumAttrCase<"min", 2>,
      I32EnumAttrCase<"mul", 3>
    ]> {
  let cppNamespace = "::kbench::tile";
}

def Tile_MmaImpl : I32EnumAttr<"MmaImpl", "implementation of tile.mma", [
      I32EnumAttrCase<"simt", 0>,
      I32EnumAttrCase<"mma_sync", 1>,
      I32EnumAttrCase<"wgmma", 2>
    ]> {
  let cppNamespace = "::kbench::tile";
}

def Tile_MmaWarpSplit : I32EnumAttr<"MmaWarpSplit",
    "how impl = mma_sync splits the accumulator over the warps", [
      I32EnumAttrCase<"balanced", 0>,
      I32EnumAttrCase<"rows", 1>
    ]> {
  let cppNamespace = "::kbench::tile";
}

#endif // KBENCH_DIALECT_TILE_IR_TILEENUMS_TD
