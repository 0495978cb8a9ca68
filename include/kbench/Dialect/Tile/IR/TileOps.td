//===- TileOps.td - Operations of the tile dialect -----------*- tablegen -*-===//
//
// Every op verifies its own shapes and types and says, in the message, what is
// wrong and how to fix it: agents read these messages.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_TILEOPS_TD
#define KBENCH_DIALECT_TILE_IR_TILEOPS_TD

include "kbench/Dialect/Tile/IR/TileDialect.td"
include "kbench/Dialect/Tile/IR/TileEnums.td"
include "kbench/Dialect/Tile/IR/TileInterfaces.td"
include "kbench/Dialect/Tile/IR/TileAttrs.td"
include "kbench/Dialect/Tile/IR/TileKernelAttrs.td"
include "kbench/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Tile_TileTensor : RankedTensorOf<[AnyInteger, Index, AnyFloat]>;

//===----------------------------------------------------------------------===//
// Kernels and launches
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, AutomaticAllocationScope,
    SingleBlockImplicitTerminator<"ReturnOp">
  ]> {
  let summary = "The program of one CTA over static tiles";
  let description = [{
    ```mlir
    tile.kernel @row_sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                         %Y: memref<?xf32> {tile.dims = ["M"]})
        params {BR = 4, BN = 1024, num_warps = 4} requires ["N <= BN"] {
      ...
    }
    ```

    Arguments are memrefs with dynamic extents, each named by `tile.dims`
    (one name per axis; equal names mean equal extents), and scalars
    (integers, floats, index). Memref arguments may only be used by
    `tile.partition`.

    A memref argument that holds partial results of a reduction, one per
    coordinate along one of its dims, says so with `tile.partials = d`
    (`{tile.dims = ["P", "N"], tile.partials = 0}`): a later kernel combines
    them, and tile-verify proves that together they cover the reduced dim
    once (docs/verification.md).

    `params` holds the knobs (positive integers) that partition tile sizes and
    transform scripts refer to by name. `requires` lists facts over dims and
    params (`"K % 8 == 0"`, `"N <= BN"`, grammar in
    `include/kbench/Support/ShapeExpr.h`): the verifier assumes them and the
    runner checks them against the actual shapes before every launch.

    The body declares the launch grid with exactly one `tile.grid`.

    `attributes {tile.allow_tf32}` marks a kernel whose task opts into tf32
    (`"allow_tf32": true` in task.json): a `tile.mma` with f32 operands may
    then run on tensor cores (`impl = mma_sync`), rounding them to tf32. The
    compile driver sets it from task.json and refuses a kernel that carries
    it in a task that does not opt in.

    `attributes {tile.persistent}` (transform.tile.persistent) launches
    the kernel on no more CTAs than the SMs hold at once, each walking
    several tiles of the grid in a loop; the kernel's meaning does not
    change.

    `attributes {tile.warp_specialized}` (transform.tile.warp_specialize)
    launches the kernel with a producer warpgroup beside its num_warps
    warps that issues its TMA K loop's copies and exits after the loop; the
    kernel's meaning and layouts do not change.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<DictionaryAttr>:$params,
                       OptionalAttr<Tile_RequiresAttr>:$requires);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    bool isDeclaration() { return false; }

    /// The dim names of memref argument `index` (empty for scalars).
    ::llvm::SmallVector<::llvm::StringRef> getArgDimNames(unsigned index);
    /// The dim of memref argument `index` that holds partial results (its
    /// `tile.partials`), if it has one.
    std::optional<unsigned> getArgPartialsDim(unsigned index);
    /// Value of param `name`, if the kernel declares it.
    std::optional<int64_t> getParamValue(::llvm::StringRef name);
    /// Every dim name in order of first appearance over the arguments.
    ::llvm::SmallVector<::llvm::StringRef> getDimNames();
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, HasParent<"KernelOp">, Terminator,
                                       ReturnLike]> {
  let summary = "Terminator of a tile.kernel";
  let assemblyFormat = "attr-dict";
}

def Tile_LaunchOp : Tile_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Launch a tile.kernel from host-level code";
  let description = [{
    `tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()` runs
    kernel `@k` over the grid its `tile.grid` declares. It appears in the
    host-level `func.func` of a task, whose body allocates temporaries and
    launches kernels in order; the bundle manifest records that sequence.
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel `(` $args `)` attr-dict `:` functional-type($args, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Partition views and the grid
//===----------------------------------------------------------------------===//

def Tile_PartitionOp : Tile_Op<"partition", [Pure]> {
  let summary = "Cut a memref argument into a grid of static tiles";
  let description = [{
    ```mlir
    %Xv = tile.partition %X tile [BM, 32] pad(zero)
        : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
    ```
    Tile sizes are integers or names of the enclosing kernel's params; the
    result type spells the resolved shape. `pad(...)` (default `none`) is the
    value out-of-bounds elements of a load read and must match the result type.
  }];
  let arguments = (ins AnyMemRef:$source, ArrayAttr:$tile_sizes,
                       OptionalAttr<Tile_PadKind>:$pad);
  let results = (outs Tile_PartitionType:$result);
  let assemblyFormat = [{
    $source `tile` custom<TileSizes>($tile_sizes) (`pad` `(` $pad^ `)`)?
    attr-dict `:` type($source) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::kbench::tile::PadKind getPadKind() {
      return getPad().value_or(::kbench::tile::PadKind::none);
    }
  }];
}

def Tile_GridOp : Tile_Op<"grid", [Pure, InferTypeOpAdaptor]> {
  let summary = "Declare the launch grid and return the block coordinates";
  let description = [{
    `%m, %n = tile.grid %Yv : !tile.part<64x64xf32>` declares the launch grid
    as the index space of `%Yv` (`ceildiv(M, 64) x ceildiv(N, 64)`) and
    returns this block's coordinates. `dims [0]` takes only some dims of the
    view (at most three in all). A kernel declares its grid exactly once.
  }];
  let arguments = (ins Tile_PartitionType:$view,
                       OptionalAttr<DenseI64ArrayAttr>:$dims);
  let results = (outs Variadic<Index>:$coords);
  let assemblyFormat = "$view (`dims` $dims^)? attr-dict `:` qualified(type($view))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The view dims the grid spans, in grid order (x first).
    ::llvm::SmallVector<int64_t> getGridDims();
  }];
}

def Tile_NumTilesOp : Tile_Op<"num_tiles", [Pure,
    DeclareOpInterfaceMethods<Tile_ViewScalarOpInterface>]> {
  let summary = "Extent of a view's index space along one dim";
  let description = [{
    `%nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32>` is
    `ceildiv(K, 32)` for a view over a `["M", "K"]` memref; the usual upper
    bound of a K loop.
  }];
  let arguments = (ins Tile_PartitionType:$view, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `[` $dim `]` attr-dict `:` qualified(type($view))";
  let hasVerifier = 1;
}

def Tile_ExtentOp : Tile_Op<"extent", [Pure,
    DeclareOpInterfaceMethods<Tile_ViewScalarOpInterface>]> {
  let summary = "Extent of the memref a view partitions, along one dim";
  let description = [{
    `%n = tile.extent %Xv[1] : !tile.part<4x1024xf32>` is the value of the
    named dim of axis 1 (`N` for a `["M", "N"]` memref): the element count a
    kernel divides by for a mean, or compares `tile.iota` against for a mask.
  }];
  let arguments = (ins Tile_PartitionType:$view, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `[` $dim `]` attr-dict `:` qualified(type($view))";
  let hasVerifier = 1;
}

def Tile_TileSizeOp : Tile_Op<"tile_size", [Pure,
    DeclareOpInterfaceMethods<Tile_ViewScalarOpInterface>]> {
  let summary = "Static size of a view's tiles along one dim, as a value";
  let description = [{
    `%bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32>` is `1024`, the
    tile size of axis 1, read from the view's type. A kernel computes a
    tile's global lane indices with it (`tile.iota` plus `%j * %bn`) instead
    of writing the literal, so `transform.tile.set_params` can retile the
    kernel: the value follows the view's new type.
  }];
  let arguments = (ins Tile_PartitionType:$view, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `[` $dim `]` attr-dict `:` qualified(type($view))";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The tile size, from the view's type.
    int64_t getSize() {
      return getView().getType().getShape()[getDim()];
    }
  }];
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [MemoryEffects<[MemRead]>,
                                  Tile_ViewAccessOpInterface]> {
  let summary = "Load one tile of a partition view";
  let description = [{
    `%x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>`
    reads the tile at tile coordinates `(%m, %k)`. Elements past the memref's
    extent read the view's pad; with `pad = none` the verifier must prove the
    tile full.
  }];
  let arguments = (ins Tile_PartitionType:$view, Variadic<Index>:$indices);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` attr-dict `:` qualified(type($view)) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // ViewAccessOpInterface
    ::mlir::Value getTile() { return getResult(); }
    bool writesView() { return false; }
    bool accumulates() { return false; }
  }];
}

def Tile_GatherOp : Tile_Op<"gather", [MemoryEffects<[MemRead]>,
                                      Tile_ViewAccessOpInterface]> {
  let summary = "Load a tile whose positions along one dim come from data";
  let description = [{
    ```mlir
    %e = tile.gather %Wv[%c0, %j] dim 0 by %ids
        : !tile.part<1x128xf32, pad = zero>, tensor<4x128xi32> -> tensor<4x128xf32>
    ```
    reads `e[a, b] = W[0 + ids[a, b], j * 128 + b]`: along the gathered dim
    (`dim 0`, whose tile size must be 1) each element's position is its tile
    coordinate plus its entry of the index tile (signless integers, read as
    signed, of the result's shape); along every other dim the tile
    coordinates work as in tile.load. An embedding lookup broadcasts a row
    of token ids along the embedding dim and gathers rows of the table.

    The gather is guarded: an element whose position is outside `[0, dim)`
    along any dim, the gathered one included, reads the view's pad, so no
    index value makes it access memory outside the view. The view must have
    a pad (not `none`) for that reason. tile-verify treats the gathered
    position as any row of the view (docs/verification.md, "Gathers").
  }];
  let arguments = (ins Tile_PartitionType:$view, Variadic<Index>:$indices,
                       I64Attr:$dim, Tile_TileTensor:$offsets);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` `dim` $dim `by` $offsets attr-dict `:`
    qualified(type($view)) `,` type($offsets) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // ViewAccessOpInterface
    ::mlir::Value getTile() { return getResult(); }
    bool writesView() { return false; }
    bool accumulates() { return false; }
  }];
}

class Tile_StoreLikeOp<string mnemonic, string summaryText, bit accumulate>
    : Tile_Op<mnemonic, [MemoryEffects<[MemWrite]>,
                         Tile_ViewAccessOpInterface]> {
  let summary = summaryText;
  let arguments = (ins Tile_TileTensor:$value, Tile_PartitionType:$view,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $view `[` $indices `]` attr-dict `:` type($value) `,` qualified(type($view))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // ViewAccessOpInterface
    ::mlir::Value getTile() { return getValue(); }
    bool writesView() { return true; }
    bool accumulates() { return }] # !if(accumulate, "true", "false") # [{; }
  }];
}

def Tile_StoreOp : Tile_StoreLikeOp<"store",
    "Store one tile; out-of-bounds elements are masked", /*accumulate=*/0> {
  let description = [{
    `tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>`
    writes the tile at tile coordinates `(%m, %n)`; elements past the memref's
    extent are not written.
  }];
}

def Tile_AtomicAddOp : Tile_StoreLikeOp<"atomic_add",
    "Atomically accumulate one tile; out-of-bounds elements are masked",
    /*accumulate=*/1> {
  let description = [{
    `tile.atomic_add %p, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>`
    adds the tile into memory element by element (split-K). Coverage checks
    count contributions instead of requiring a single write.
  }];
}

//===----------------------------------------------------------------------===//
// Tile computation
//===----------------------------------------------------------------------===//

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure,
    DeclareOpInterfaceMethods<Tile_AxisMapOpInterface>]> {
  let summary = "Replicate a tile along new dims";
  let description = [{
    `tile.broadcast %b dims [0] : tensor<64xf32> -> tensor<32x64xf32>` adds
    result dim 0 (`linalg.broadcast` convention: `dims` lists the result dims
    that are new; the others take the input's dims in order).
  }];
  let arguments = (ins Tile_TileTensor:$input, DenseI64ArrayAttr:$dims);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $input `dims` $dims attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure,
    DeclareOpInterfaceMethods<Tile_AxisMapOpInterface, ["copiesElements"]>]> {
  let summary = "Reduce one dim of a tile";
  let description = [{
    `tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>` combines
    along dim 1. Pad values that reach a reduction must be neutral for its kind
    (zero for add, -inf for max, ...); tile-verify checks that.
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_TileTensor:$input,
                       I64Attr:$dim);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $kind $input `dim` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, AllTypesMatch<["input", "result"]>,
    DeclareOpInterfaceMethods<Tile_AxisMapOpInterface, ["copiesElements"]>]> {
  let summary = "Inclusive scan along one dim of a tile";
  let description = [{
    `tile.scan add %x dim 1 : tensor<4x1024xf32>` gives every element the
    combination of the elements at or before it along dim 1 (a cumulative sum
    here; `max`, `min` and `mul` give cumulative max, min and product). The
    result has the input's type. Pad values that reach a scan must be neutral
    for its kind, as for tile.reduce; lanes past an extent then hold the
    running total, which a store masks. A scan over several tiles carries the
    total of the tiles before (`tile.reduce` of the same kind) and combines it
    in.
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_TileTensor:$input,
                       I64Attr:$dim);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $kind $input `dim` $dim attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Tile_MmaOp : Tile_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "Matrix multiply-accumulate on tiles: acc + a * b";
  let description = [{
    ```mlir
    %r = tile.mma %a, %b, %acc {transpose_b}
        : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
    %s = tile.mma %c, %d, %acc2 impl(wgmma)
        : tensor<64x16xf16>, tensor<16x128xf16> -> tensor<64x128xf32>
    ```
    `a` is MxK (KxM with `transpose_a`), `b` is KxN (NxK with `transpose_b`),
    `acc` and the result are MxN. `impl(...)` (default `simt`) picks the
    implementation; each has a table of legal element types and shapes:

    | impl | a, b -> acc | M, N, K multiples of |
    |---|---|---|
    | simt | f32 -> f32, f64 -> f64, f16/bf16 -> f32, f16 -> f16 | 1, 1, 1 |
    | mma_sync | f16 -> f16/f32, bf16 -> f32, f32 (tf32) -> f32, i8 -> i32 | 16, 8, 16 (8 for f32, 32 for i8) |
    | wgmma | f16 -> f16/f32, bf16 -> f32, f32 (tf32) -> f32, i8 -> i32 | 64, 8, 16 (8 for f32, 32 for i8) |

    `warp_split(...)` (impl = mma_sync only) picks how the CTA's warps share
    the accumulator: `balanced` (the default: the squarest warp tile, fewest
    operand reads per mma) or `rows` (every warp owns whole rows, so row
    reductions of the result stay inside a warp and a result cast to bf16 or
    f16 can feed the next mma's A operand from registers, as in attention).
  }];
  let arguments = (ins Tile_TileTensor:$a, Tile_TileTensor:$b,
                       Tile_TileTensor:$acc, UnitAttr:$transpose_a,
                       UnitAttr:$transpose_b, OptionalAttr<Tile_MmaImpl>:$impl,
                       OptionalAttr<Tile_MmaWarpSplit>:$warp_split);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`impl` `(` $impl^ `)`)?
    (`warp_split` `(` $warp_split^ `)`)? attr-dict `:` type($a) `,`
    type($b) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::kbench::tile::MmaImpl getImplKind() {
      return getImpl().value_or(::kbench::tile::MmaImpl::simt);
    }
    ::kbench::tile::MmaWarpSplit getWarpSplitKind() {
      return getWarpSplit().value_or(::kbench::tile::MmaWarpSplit::balanced);
    }
  }];
}

def Tile_TransposeOp : Tile_Op<"transpose", [Pure,
    DeclareOpInterfaceMethods<Tile_AxisMapOpInterface>]> {
  let summary = "Permute the dims of a tile";
  let description = [{
    `tile.transpose %t perm [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>`:
    result dim `i` is input dim `perm[i]`.
  }];
  let arguments = (ins Tile_TileTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $input `perm` $perm attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure,
    DeclareOpInterfaceMethods<Tile_AxisMapOpInterface, ["insertsUnitAxes"]>]> {
  let summary = "Insert a unit dim into a tile";
  let description = [{
    `tile.expand_dims %t dim 1 : tensor<64xf32> -> tensor<64x1xf32>`.
  }];
  let arguments = (ins Tile_TileTensor:$input, I64Attr:$dim);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_SqueezeOp : Tile_Op<"squeeze", [Pure,
    DeclareOpInterfaceMethods<Tile_AxisMapOpInterface>]> {
  let summary = "Drop a unit dim from a tile";
  let description = [{
    `tile.squeeze %t dim 0 : tensor<1x64x128xbf16> -> tensor<64x128xbf16>`:
    the inverse of `tile.expand_dims`. A tile loaded from a rank-3 view with
    a unit tile size along one dim (one head of a [heads, rows, cols]
    tensor) becomes the rank-2 tile that `tile.mma` takes.
  }];
  let arguments = (ins Tile_TileTensor:$input, I64Attr:$dim);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure]> {
  let summary = "Move a tile from one layout encoding to another";
  let description = [{
    ```mlir
    %b = tile.convert_layout %a : tensor<64xf32, #tile.blocked<...>>
                                -> tensor<64xf32, #tile.blocked<...>>
    ```
    The same tile (shape and element type) in another encoding.
    `tile-assign-layouts` inserts it where a value's encoding differs from
    what a use needs; the kernel language never writes it. The SIMT lowering
    moves the elements through shared memory.
  }];
  let arguments = (ins Tile_TileTensor:$input);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "A tile whose elements are their index along one dim";
  let description = [{
    `%cols = tile.iota dim 1 : tensor<64x64xi32>` holds `j` at `(i, j)`.
    With `arith.cmpi` and `arith.select` it expresses masks such as causal
    masks. Add the tile's offset (`%n * BN`) to get global indices.
  }];
  let arguments = (ins I64Attr:$dim);
  let results = (outs RankedTensorOf<[AnyInteger, Index]>:$result);
  let assemblyFormat = "`dim` $dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "A tile with every element equal to a scalar";
  let description = [{
    `%t = tile.splat %s : f32 -> tensor<64x64xf32>`.
  }];
  let arguments = (ins AnyTypeOf<[AnyInteger, Index, AnyFloat]>:$value);
  let results = (outs Tile_TileTensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // KBENCH_DIALECT_TILE_IR_TILEOPS_TD
