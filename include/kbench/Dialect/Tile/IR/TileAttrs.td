//===- TileAttrs.td - Layout encodings of tile values --------*- tablegen -*-===//
//
// Where the elements of a tile live once it is lowered to a GPU: the encoding
// of a `tensor<..., #enc>` type. `tile-assign-layouts` gives every tile value
// of a kernel one (docs/gpu-lowering.md); the kernel language itself never
// spells them. A distributed encoding (registers) maps (thread, register) to
// tile coordinates; a shared-memory encoding maps tile coordinates to an
// element offset in a buffer. A new kind of fragment (mma.sync, wgmma) is a
// new attribute implementing the interface plus lowering patterns for it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_TILEATTRS_TD
#define KBENCH_DIALECT_TILE_IR_TILEATTRS_TD

include "kbench/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

def Tile_DistributedLayoutAttrInterface
    : AttrInterface<"DistributedLayoutAttrInterface"> {
  let cppNamespace = "::kbench::tile";
  let description = [{
    An encoding that spreads a tile over the registers of the threads of a
    CTA: thread `t` (0 .. 32 * num_warps - 1) holds the elements of a tile of
    shape `shape` in registers 0 .. getElementsPerThread(shape) - 1, in the
    order of its per-thread vector.
  }];
  let methods = [
    InterfaceMethod<"Warps of the CTA the encoding is laid out over.",
      "int64_t", "getNumWarps">,
    InterfaceMethod<"Elements (registers) one thread holds for a tile of "
      "`shape`.", "int64_t", "getElementsPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<"Tile coordinates of register `reg` of thread `thread` "
      "for a tile of `shape`.", "::llvm::SmallVector<int64_t>",
      "getTileCoordinates",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$thread,
           "int64_t":$reg)>,
  ];
}

/// `[1, 4]`: a bracketed list, so that `struct(params)` stays unambiguous.
class Tile_DimList<string desc> : ArrayRefParameter<"int64_t", desc> {
  let parser = [{ parseDimList($_parser) }];
  let printer = [{ printDimList($_printer, $_self) }];
}

def Tile_BlockedEncodingAttr : AttrDef<Tile_Dialect, "BlockedEncoding", [
    DeclareAttrInterfaceMethods<Tile_DistributedLayoutAttrInterface>,
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = "blocked";
  let summary = "SIMT layout: runs of contiguous elements per thread";
  let description = [{
    ```mlir
    tensor<4x512xf32, #tile.blocked<per_thread = [1, 4], lanes = [1, 32],
        lane_strides = [32, 1], warps = [4, 1], warp_strides = [1, 4],
        num_warps = 4>>
    ```
    Along dim `d` a thread owns runs of `per_thread[d]` contiguous elements.
    The thread coordinate along `d` is

        t(d) = (lane / lane_strides[d]) % lanes[d]
             + lanes[d] * ((warp / warp_strides[d]) % warps[d])

    and register position `p` along `d` is tile coordinate
    `(p / per_thread[d]) * threads(d) * per_thread[d] + t(d) * per_thread[d]
    + p % per_thread[d]` with `threads(d) = lanes[d] * warps[d]`: the pattern
    repeats until the dim is covered. A thread's registers are row-major over
    its per-dim positions. Lane or warp id bits that no dim uses select
    replicas (the same elements). The strides say the order: lanes usually
    run innermost dim first (coalescing) and warps outermost first; a
    reduction result keeps the strides of its input minus the reduced dim, so
    the lanes that dim used become replicas (Triton's slice layout is this
    case). All counts are powers of two, and every tile dim is a multiple of
    `per_thread * lanes * warps` (the verifier of the tensor type checks it).
  }];
  let parameters = (ins
    Tile_DimList<"elements per run">:$per_thread,
    Tile_DimList<"lanes along each dim">:$lanes,
    Tile_DimList<"lane-id stride of each dim">:$lane_strides,
    Tile_DimList<"warps along each dim">:$warps,
    Tile_DimList<"warp-id stride of each dim">:$warp_strides,
    "int64_t":$num_warps
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getPerThread().size(); }
  }];
}

def Tile_SharedEncodingAttr : AttrDef<Tile_Dialect, "SharedEncoding"> {
  let mnemonic = "shared";
  let summary = "Shared-memory layout: row order, padding and swizzle";
  let description = [{
    ```mlir
    #tile.shared<order = [1, 0], pad = 4>
    ```
    A tile in a shared-memory buffer. `order` lists the dims fastest-varying
    first (`[1, 0]`: row-major). Every row (a run along `order[0]`) is
    followed by `pad` unused elements, which spreads the columns of
    consecutive rows over the banks. `vec`, `per_phase`, `max_phase` describe
    a Triton-style XOR swizzle of groups of `vec` elements (phase =
    (row / per_phase) % max_phase); `max_phase = 1` is no swizzle, which is
    what the SIMT lowering uses today. The SIMT `tile.mma` stages its operands
    k-major with 16 bytes of padding per row.
  }];
  let parameters = (ins
    Tile_DimList<"dims, fastest first">:$order,
    DefaultValuedParameter<"int64_t", "0">:$pad,
    DefaultValuedParameter<"int64_t", "1">:$vec,
    DefaultValuedParameter<"int64_t", "1">:$per_phase,
    DefaultValuedParameter<"int64_t", "1">:$max_phase
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Element offset of tile coordinates `coords` in a buffer holding a
    /// tile of `shape`.
    int64_t getOffset(::llvm::ArrayRef<int64_t> shape,
                      ::llvm::ArrayRef<int64_t> coords) const;
    /// Elements between consecutive rows (the fastest dim plus padding).
    int64_t getRowStride(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

#endif // KBENCH_DIALECT_TILE_IR_TILEATTRS_TD
