//===- TileDialect.td - The tile dialect ---------------------*- tablegen -*-===//
//
// The tile dialect: one CTA program over static tiles. Tiles are builtin
// tensors, so arith/math/scf ops are reused unchanged; global memory is reached
// only through partition views indexed by tile coordinates.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_TILEDIALECT_TD
#define KBENCH_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::kbench::tile";
  let summary = "One CTA program over static tiles, memory through partition views";
  let description = [{
    A `tile.kernel` is the program of one CTA (thread block). Its values are
    static tiles, written as builtin `tensor<...>` values, so upstream `arith`,
    `math` and `scf` ops apply to them unchanged. Threads are invisible at this
    level: every value is uniform over the block.

    Global memory is reached only through partition views: `tile.partition`
    cuts a kernel's memref argument into a grid of tiles whose index space is
    `ceildiv(dim, tile)` per dimension, and `tile.load` / `tile.store` move one
    tile at tile coordinates. Out-of-bounds elements of a load read the view's
    pad value; out-of-bounds elements of a store are masked off. Because every
    index is an affine function of block coordinates, loop induction variables
    and named shape dims, `tile-verify` can prove bounds, coverage and
    write-once properties exactly.

    Shape dims are named on the kernel's memref arguments (`tile.dims`); two
    dims with the same name are equal. Knobs live in the kernel's `params`
    dictionary and may be referenced by name in partition tile sizes, so a
    transform script can retile a kernel without editing its text.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// Registers the layout encodings (TileAttrs.cpp, where their storage
    /// classes are complete).
    void registerAttributes();
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // KBENCH_DIALECT_TILE_IR_TILEDIALECT_TD
