//===- TileKernelAttrs.td - Attributes of a tile.kernel ------*- tablegen -*-===//
//
// Attributes that describe a kernel rather than a tile value. The
// `requires` facts of a kernel are held parsed (`#tile.requires`), so that
// every reader gets the ShapeFact instead of parsing the text again.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_TILEKERNELATTRS_TD
#define KBENCH_DIALECT_TILE_IR_TILEKERNELATTRS_TD

include "kbench/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_RequiresAttr : AttrDef<Tile_Dialect, "Requires"> {
  let mnemonic = "requires";
  let summary = "The facts a kernel requires, parsed once";
  let description = [{
    ```mlir
    tile.kernel @k(...) params {BN = 1024} requires ["N <= BN", "N % 4 == 0"]
    ```
    The `requires` list of a `tile.kernel` (the kernel prints it in that
    form; the generic form is `#tile.requires<["N <= BN", "N % 4 == 0"]>`).
    Each fact is parsed when the attribute is created (grammar in
    `include/kbench/Support/ShapeExpr.h`); a malformed fact keeps its parse
    error, which the kernel verifier reports.
  }];
  let parameters = (ins ArrayRefParameter<"std::string", "fact texts">:$texts);
  // RequiresAttrStorage (lib/Dialect/Tile/IR) owns the texts and the parses.
  let genStorageClass = 0;
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Every fact, parsed (or with its parse error), in order.
    ::llvm::ArrayRef<::kbench::tile::RequiresFact> getFacts() const;
  }];
}

#endif // KBENCH_DIALECT_TILE_IR_TILEKERNELATTRS_TD
