//===- TileInterfaces.td - Op interfaces of the tile dialect -*- tablegen -*-===//
//
// The properties of tile ops that several layers ask about (tile-verify's
// access model and checks, tile-mutate, set_params' retiler): instead of each
// layer switching over the op classes, an op states the property once, here,
// and every layer queries the interface. A new op that has the property gets
// every analysis and transform that relies on it by implementing the
// interface (docs/README.md, "Where to add things").
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_TILEINTERFACES_TD
#define KBENCH_DIALECT_TILE_IR_TILEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_AxisMapOpInterface : OpInterface<"AxisMapOpInterface"> {
  let cppNamespace = "::kbench::tile";
  let description = [{
    A shape op on one tile whose result axes are axes of its input or new:
    `tile.broadcast` (new axes replicate the input), `tile.expand_dims` (a new
    unit axis), `tile.transpose` (a permutation) and `tile.reduce` (drops the
    reduced axis). `getResultAxisSources()[i]` is the input axis result axis
    `i` carries, or `kNewAxis`. The access model and the dataflow checks of
    tile-verify follow values through it axis by axis, and the retiler of
    `transform.tile.set_params` joins the tile sizes of the mapped axes.
  }];
  let methods = [
    InterfaceMethod<"The tile operand whose axes the result carries.",
      "::mlir::Value", "getMappedInput", (ins), [{}],
      [{ return $_op.getInput(); }]>,
    InterfaceMethod<"For each result axis, the input axis it carries, or "
      "`kNewAxis` for an axis the op creates.",
      "::llvm::SmallVector<int64_t>", "getResultAxisSources">,
    InterfaceMethod<"Whether every result element is a copy of one input "
      "element (false when the op combines several input elements into one, "
      "as a reduction does).", "bool", "copiesElements", (ins), [{}],
      [{ return true; }]>,
    InterfaceMethod<"Whether the axes the op creates have size 1 whatever "
      "the tile sizes (so retiling can never resize them); otherwise they "
      "take the size their consumers give them.", "bool", "insertsUnitAxes",
      (ins), [{}], [{ return false; }]>,
  ];
  let extraSharedClassDeclaration = [{
    /// Marks a result axis of getResultAxisSources() that no input axis
    /// carries.
    static constexpr int64_t kNewAxis = -1;
  }];
}

def Tile_ViewAccessOpInterface : OpInterface<"ViewAccessOpInterface"> {
  let cppNamespace = "::kbench::tile";
  let description = [{
    An op that reads or writes one tile of a partition view at tile
    coordinates: `tile.load`, `tile.store`, `tile.atomic_add`. These are the
    only ops that touch memory; tile-verify's access model builds one access
    relation per such op, and the retiler joins the accessed tile's dims with
    the view's.
  }];
  let methods = [
    InterfaceMethod<"The partition view accessed.", "::mlir::Value",
      "getView">,
    InterfaceMethod<"The tile coordinates, one per view dim.",
      "::mlir::OperandRange", "getIndices">,
    InterfaceMethod<"The tile read (the result) or written (the operand).",
      "::mlir::Value", "getTile">,
    InterfaceMethod<"Whether the op writes the view (else it reads it).",
      "bool", "writesView">,
    InterfaceMethod<"Whether a write accumulates into memory, so several "
      "writes of one element are legal (split-K).", "bool", "accumulates">,
  ];
}

def Tile_ViewScalarOpInterface : OpInterface<"ViewScalarOpInterface"> {
  let cppNamespace = "::kbench::tile";
  let description = [{
    An op that reads one index scalar off one dim of a partition view:
    `tile.num_tiles`, `tile.extent`, `tile.tile_size`. Its value is a
    function of that dim's extent and the view's tile size along it, which
    getValueExpr gives as an affine expression; index analyses
    (tile-verify's index expressions) read it from there, and the retiler
    leaves these ops alone (they name no tile dim).
  }];
  let methods = [
    InterfaceMethod<"The partition view read.", "::mlir::Value", "getView">,
    InterfaceMethod<"The view dim read.", "int64_t", "getViewDim", (ins),
      [{}], [{ return $_op.getDim(); }]>,
    InterfaceMethod<"The value, given the dim's extent `extent` and the tile "
      "size `tileSize` along it.", "::mlir::AffineExpr", "getValueExpr",
      (ins "::mlir::AffineExpr":$extent, "int64_t":$tileSize)>,
  ];
}

#endif // KBENCH_DIALECT_TILE_IR_TILEINTERFACES_TD
