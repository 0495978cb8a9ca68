//===- TileTransformOps.td - transform.tile.* knob ops ---*- tablegen -*-===//
//
// The edit language agents and the search use on tile kernels: each op sets
// one kind of knob on a tile.kernel (or, for the structural rewrites such as
// single_pass, restructures its tile IR), checks that the result is legal and
// either succeeds or fails silenceably with a one-line reason that names the
// op, the value and the limit. No op ever leaves the payload invalid: a
// failing op restores the kernel exactly. docs/schedules.md is the user guide.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_TRANSFORMOPS_TILETRANSFORMOPS_TD
#define KBENCH_DIALECT_TILE_TRANSFORMOPS_TILETRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"
include "kbench/Dialect/Tile/IR/TileEnums.td"

// Knob values from transform.tune.knob, tune.alternatives or
// transform.param.constant. Buildable, so schedules need not spell the type
// of each value operand.
def Tile_I64Param : Type<
    CPred<"::llvm::isa<::mlir::transform::ParamType>($_self) && "
          "::llvm::cast<::mlir::transform::ParamType>($_self).getType()"
          ".isSignlessInteger(64)">,
    "!transform.param<i64>", "::mlir::transform::ParamType">,
  BuildableType<"::mlir::transform::ParamType::get($_builder.getContext(), "
                "$_builder.getIntegerType(64))">;

class Tile_TransformOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "tile." # mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<TransformOpInterface>,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>])> {
  let cppNamespace = "::kbench::transform";
}

// The common part of every description.
defvar kTargets = [{
    `%target` holds `tile.kernel` ops or ops nested in one (for instance ops
    found by `transform.structured.match attributes{tile.tag = "..."}`); each
    distinct enclosing kernel is edited once. An empty handle (the schedule
    matched nothing) is a silenceable failure. The handle stays valid: kernels
    are edited in place. If the edit of any kernel fails, every kernel of the
    handle is restored.
}];

def SetParamsOp : Tile_TransformOp<"set_params"> {
  let summary = "Set tile-size params and retile every dependent tile";
  let description = [{
    ```mlir
    transform.tile.set_params %k {BM = 128, BK = %bk} : !transform.any_op
    ```
    Sets the named params of each target kernel and retiles every partition
    whose tile sizes name them. Every tensor whose shape depends on those
    tiles is re-typed: loads, stores, elementwise `arith`/`math` ops, splat
    `arith.constant`s, `tile.splat`/`tile.iota`, broadcasts, reductions, mma,
    transposes, expand_dims and `scf.for`/`scf.if` values. A value is either
    an integer or a `!transform.param<i64>` holding one integer.
    }] # kTargets # [{
    Fails silenceably (and leaves the kernel untouched) when: a name is not a
    param of the kernel, or is a knob with its own op (`num_warps`,
    `vector_width`, `group_m`); a value is not in 1..65536; two params that
    size the same tile dim get different values (the message names the op
    that joins them); a param would resize a dim fixed by a literal tile size
    or an op set_params cannot retile; the retiled kernel fails verification
    (mma shape tables, ...); the shared-memory estimate of mma operand staging
    exceeds 227 KB or the mma accumulator exceeds 128 registers per thread; or
    a stored `vector_width` no longer divides an innermost tile size.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrArrayAttr:$names,
                       DenseI64ArrayAttr:$static_values,
                       Variadic<Tile_I64Param>:$dynamic_values);
  let assemblyFormat = [{
    $target custom<ParamAssignments>($names, $static_values, $dynamic_values)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def SetNumWarpsOp : Tile_TransformOp<"set_num_warps"> {
  let summary = "Set the CTA size of a kernel in warps";
  let description = [{
    ```mlir
    transform.tile.set_num_warps %k 8 : !transform.any_op
    ```
    Stores the `num_warps` param: the CTA has 32 x num_warps threads. The
    value is an integer or a `!transform.param<i64>`.
    }] # kTargets # [{
    Fails silenceably when the value is not a power of two from 1 to 32 (the
    knob table, docs/schedules.md), is not a multiple of 4 while a `tile.mma`
    uses `impl = wgmma` (a warpgroup is 4 warps), or makes an mma
    accumulator exceed 128 registers per thread.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def VectorWidthOp : Tile_TransformOp<"vector_width"> {
  let summary = "Set the contiguous elements per thread of global accesses";
  let description = [{
    ```mlir
    transform.tile.vector_width %k 4 : !transform.any_op
    ```
    Stores the `vector_width` param: each thread loads and stores that many
    contiguous elements at once, so that the lowering can emit
    `ld.global.v4.f32` and friends. Where the rows of a rank >= 2 partition
    are not provably aligned (no `requires` fact such as `"N % 4 == 0"`),
    tile-to-gpu checks `N % 4 == 0` at run time and takes the aligned vector
    access only when it holds, else the masked one.
    }] # kTargets # [{
    Fails silenceably when the value is not a power of two from 1 to 16, when
    width x element size exceeds 16 bytes for some partition (8 needs 16-bit
    elements), or
    when it does not divide the innermost tile size of every partition.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def RasterOp : Tile_TransformOp<"raster"> {
  let summary = "Set a grouped block order for L2 reuse";
  let description = [{
    ```mlir
    transform.tile.raster %k group_m 8 : !transform.any_op
    ```
    Stores the `group_m` param: blocks are visited in groups of `group_m`
    rows of the 2-D grid (Triton's grouped ordering; the remap is in
    `kbench/Dialect/Tile/TransformOps/Raster.h` and docs/schedules.md).
    }] # kTargets # [{
    Fails silenceably when the grid is not 2-D, when the value is not in
    1..65536, or when the remap is not a bijection on every grid up to
    32 x 32 blocks (checked exhaustively at apply time).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target `group_m` custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def MinCtasPerSmOp : Tile_TransformOp<"min_ctas_per_sm"> {
  let summary = "Ask ptxas to fit a number of CTAs on each SM";
  let description = [{
    ```mlir
    transform.tile.min_ctas_per_sm %k 2 : !transform.any_op
    ```
    Stores the `min_ctas_per_sm` param. tile-to-gpu then gives the kernel
    PTX's `.minnctapersm` beside its `.reqntid`, so ptxas keeps the
    registers per thread within 65536 / (min_ctas_per_sm x threads) (128 for
    two CTAs of 256 threads), spilling if it must: occupancy traded against
    registers, which ptxas reports in the manifest. 1, the default, leaves
    the registers to ptxas. The host target ignores it.
    }] # kTargets # [{
    Fails silenceably when the value is outside 1..32, when that many CTAs
    of the kernel's threads exceed the SM's 2048 threads, or when the kernel
    is warp-specialized (transform.tile.warp_specialize sets its register
    limit itself). Later ops (set_num_warps, warp_specialize) recheck it.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def ScalarUnalignedRowsOp : Tile_TransformOp<"scalar_unaligned_rows"> {
  let summary = "Choose plain scalar accesses for rows found unaligned at run time";
  let description = [{
    ```mlir
    transform.tile.scalar_unaligned_rows %k 1 : !transform.any_op
    ```
    Stores the `scalar_unaligned_rows` param. Where no `requires` fact
    proves that rows start aligned for the kernel's vector_width, tile-to-gpu
    tests `D % run == 0` at run time and, when it fails, by default masks
    every element of every tile (one compare and branch each). With 1, an
    interior tile of such rows takes plain loads and stores without the
    alignment (scalar accesses, no branch) and a boundary tile tests each run
    once, masking only the runs at the edge. The aligned path is the same
    either way, but the kernel carries the extra version, so which is faster
    is a measurement (docs/gpu-lowering.md); dispatch files pick it for
    shapes like `N % 4 != 0`. 0, the default, changes nothing. The host
    target ignores it.
    }] # kTargets # [{
    Fails silenceably when the value is not 0 or 1.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def CacheHintsOp : Tile_TransformOp<"cache_hints"> {
  let summary = "Give global accesses L2 eviction priorities";
  let description = [{
    ```mlir
    transform.tile.cache_hints %k 1 : !transform.any_op
    ```
    Stores the `cache_hints` param. With 1, tile-to-gpu gives interior
    global tile loads an L2 eviction priority (a `createpolicy.fractional`
    policy and `.L2::cache_hint` on the load): a load of a tensor that a
    later pass of the kernel reads again (the first pass of a two-pass row
    kernel) is `evict_last`, so its lines outlive the streaming traffic until
    the second pass reads them, and the last pass's load of such a tensor is
    `evict_first`. Other loads, stores, masked runs at the edge and runs not
    provably aligned get no hint. Whether the second pass then hits L2
    depends on how many rows are in flight, so it is a measurement, not the
    rule (docs/gpu-lowering.md). 0, the default, changes nothing. The host
    target ignores it.
    }] # kTargets # [{
    Fails silenceably when the value is not 0 or 1.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def FastMathOp : Tile_TransformOp<"fast_math"> {
  let summary = "Let f32 arithmetic fuse into fma and exp2 flush to zero";
  let description = [{
    ```mlir
    transform.tile.fast_math %k 1 : !transform.any_op
    ```
    Stores the `fast_math` param. With 1, tile-to-gpu marks the kernel's
    floating-point arith ops `contract`, so a multiply whose product is only
    added (`x * scale - max`) becomes one fma with a single rounding (what
    nvcc does by default), and lowers each f32 `math.exp2` to one
    `ex2.approx.ftz.f32`, the bare MUFU.EX2, where the default
    `ex2.approx.f32` costs three more instructions to keep results below
    2^-126 as denormals; with the knob those results are 0. Softmax-style
    kernels, whose exponentials of `x - max` are summed and normalized, lose
    nothing that a bf16 or f32 output could show; the runner's checks judge
    the results as for any schedule. 0, the default, rounds every operation
    on its own and keeps denormal results. tile-verify's proofs do not
    depend on it, and the host target ignores it.
    }] # kTargets # [{
    Fails silenceably when the value is not 0 or 1.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def MmaOverlapOp : Tile_TransformOp<"mma_overlap"> {
  let summary = "Overlap a loop's two wgmma with the work between them";
  let description = [{
    ```mlir
    transform.tile.mma_overlap %k 1 : !transform.any_op
    ```
    Stores the `mma_overlap` param. With 1, tile-to-gpu rotates each
    `scf.for` of the kernel whose body holds two wgmma `tile.mma`
    (attention: the scores S_j = Q K_j^T, then O += P_j V_j): iteration j
    issues S_j, then the previous step's P_{j-1} V_{j-1}, then the softmax
    of S_j, which waits for S_j alone while the tensor cores run
    P_{j-1} V_{j-1}; the rescale of O and P_j follow once both are done.
    The second mma and the load of its B tile move one iteration late; the
    operands they read from their own step (P and the rescaled O for
    attention) are carried to the next one. The loop computes the same
    operations; tile-verify proves the kernel as written, and the host
    target runs the same rotation. The overlap needs the loop's operand
    prefetch (transform.tile.pipeline, 2 or more stages); without it each
    wgmma group is waited for at once. 0, the default, runs each step in
    program order.
    }] # kTargets # [{
    Fails silenceably when the value is not 0 or 1, or, for 1, when no
    `scf.for` of the kernel has that shape: exactly two `tile.mma` directly
    in the body, both impl = wgmma (set mma_impl first); a body that only
    reads memory; the second mma's result only yielded, and the
    loop-carried accumulator read only after the first mma.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def OverlapCopiesOp : Tile_TransformOp<"overlap_copies"> {
  let summary = "Issue a loop's prefetch copies while its first wgmma runs";
  let description = [{
    ```mlir
    transform.tile.overlap_copies %k 1 : !transform.any_op
    ```
    Stores the `overlap_copies` param. With 1, a loop with an operand
    prefetch (transform.tile.pipeline on a loop that is not a K loop, such
    as attention's key loop) whose first `tile.mma` runs on wgmma issues the
    next stage's cp.async copies after that mma's group is committed and
    before it is waited for, so that the tensor cores run the group
    (attention's scores) while the warps compute the copies' addresses and
    issue them. 0, the default, issues them at the loop head, after the
    barrier and before the group. The copies fill a stage that no group in
    flight reads, either way; kernels without such a loop, or a loop that
    mma_overlap rotates, are lowered as with 0. tile-verify's proofs do not
    depend on it, and the host target ignores it.
    }] # kTargets # [{
    Fails silenceably when the value is not 0 or 1.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def StageBarriersOp : Tile_TransformOp<"stage_barriers"> {
  let summary = "Pace a loop's prefetch stages with mbarriers";
  let description = [{
    ```mlir
    transform.tile.stage_barriers %k 1 : !transform.any_op
    ```
    Stores the `stage_barriers` param. With 1, a loop with an operand
    prefetch (transform.tile.pipeline on a loop that is not a K loop, such
    as attention's key loop) paces its stages with two mbarriers each
    instead of a CTA barrier at every step: every thread's cp.async copies
    of a stage arrive on its `full` barrier when they land, and every thread
    arrives on its `empty` barrier once its tensor-core groups that read the
    stage are done. A warp then waits only for the tiles it reads and for
    the stage it is about to overwrite to be released, so the warpgroups
    of a CTA need not run in step. 0, the default, waits for its own copies
    and then for every thread of the CTA at each step. With 1 no wgmma
    group outlives its step (a stage is released at the end of the step
    that read it), so a loop of 3 or more stages no longer leaves its last
    group in flight into the next step. Kernels without such a loop are
    lowered as with 0. tile-verify's proofs do not depend on it, and the
    host target ignores it.
    }] # kTargets # [{
    Fails silenceably when the value is not 0 or 1.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def PingPongOp : Tile_TransformOp<"ping_pong"> {
  let summary = "Let a loop's two warpgroups take turns on the tensor cores";
  let description = [{
    ```mlir
    transform.tile.stage_barriers %k 1 : !transform.any_op
    transform.tile.ping_pong %k 1 : !transform.any_op
    ```
    Stores the `ping_pong` param. With 1, in a loop with an operand
    prefetch paced by stage barriers whose first `tile.mma` runs on wgmma
    (attention's key loop), the CTA's two warpgroups take turns to issue
    that mma's group: each waits on a named barrier of its own before the
    group and, once the group is committed, arrives on the other's, the
    first warpgroup going first (the second arrives on its barrier before
    the loop). The scores' groups of the two warpgroups are then issued
    alternately, so that one warpgroup's softmax runs while the other's
    group does. 0, the default, lets each issue as soon as its operands are
    there. Kernels without such a loop are lowered as with 0. tile-verify's
    proofs do not depend on it, and the host target ignores it.
    }] # kTargets # [{
    Fails silenceably when the value is not 0 or 1, when stage_barriers is
    not 1 (set it first), or when num_warps is not 8.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def PipelineOp : Tile_TransformOp<"pipeline"> {
  let summary = "Set the software-pipeline depth of K loops";
  let description = [{
    ```mlir
    %loop = transform.structured.match ops{["scf.for"]} in %k
        : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %loop stages 1 : !transform.any_op
    ```
    Stores `tile.pipeline_stages` on each target K loop, the attribute
    tile-to-gpu consumes: 1 lowers a plain loop, 2 double-buffers the mma
    operands in shared memory (docs/gpu-lowering.md); an mma_sync K loop
    takes 2 to 4 cp.async stages. tile-plan-pipelining
    keeps an explicit choice; without one it picks 2 for every loop it can
    pipeline. The value is an integer or a `!transform.param<i64>`.

    `%target` holds `scf.for` ops inside a `tile.kernel`, or `tile.kernel`
    ops, which stand for all their K loops. A K loop is one tile-to-gpu can
    pipeline: its body only loads the two operands of one simt or mma_sync
    `tile.mma` that accumulates into the loop's single iter_arg. If any loop
    fails, every loop of the handle is restored.

    Fails silenceably when the handle is empty; a target is neither an
    `scf.for` nor a `tile.kernel`, or lies outside a kernel; a target loop is
    not a K loop, or a target kernel has none; the value is not in 1..4, or
    above 2 for a simt loop (synchronous double buffering only); for 2 on a
    simt loop, the accumulator does not split into micro-tiles over the
    kernel's num_warps; for 2..4 on an mma_sync loop, the cp.async rules of
    MmaSyncRules.h fail (A MxK, B NxK, zero-padded views, 16-byte chunks
    that split evenly over the threads, shared memory). Later
    set_num_warps and set_params ops recheck the recorded depths.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target `stages` custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def SinglePassOp : Tile_TransformOp<"single_pass"> {
  let summary = "Read each row once when it fits one tile (structural)";
  let description = [{
    ```mlir
    transform.tile.single_pass %k 1 : !transform.any_op
    ```
    A structural rewrite for kernels that walk a row in several passes
    (softmax: max and sum, then normalize; layer norm: mean, variance, then
    normalize). Each pass is a top-level `scf.for %j = 0 to %nt step 1` over
    the same `%nt = tile.num_tiles %V[d]`, and the passes re-load the same
    tiles. The rewrite versions the kernel from the first pass on:

    ```mlir
    %n = tile.extent %V[d]
    %bn = tile.tile_size %V[d]
    %fits = arith.cmpi ule, %n, %bn : index
    scf.if %fits {          // {tile.single_pass}: the row is one tile
      ...every pass once, at %j = 0, each repeated tile.load replaced by the
         first one: the tile stays in registers...
    } else {
      ...the passes as they were...
    }
    ```

    Dims are at least 1 (runner and verifier), so `%fits` means the loops run
    exactly once and the fast path computes what the loops compute; for
    longer rows nothing changes. tile-verify proves both branches (the
    condition is an affine guard), and the lowering needs nothing new. The
    value is 1 (apply) or 0 (leave the kernel as is), an integer or a
    `!transform.param<i64>`, so a search space can flip it with
    `transform.tune.knob<"single_pass"> options = [0, 1]`.
    }] # kTargets # [{

    Fails silenceably, leaving every kernel untouched, when: the value is
    not 0 or 1; the kernel already has a single-pass fast path; it has no
    top-level row loop (`scf.for` from 0 to a `tile.num_tiles` step 1); its
    row loops walk different `tile.num_tiles` values; no tile is loaded twice
    at the same coordinates in the fast path (one pass, or a store into the
    same memref between the loads: nothing to save); or the tiles kept live
    across passes need more than 64 registers per thread (the held-tile
    limit of the knob table; lower the tile sizes or raise num_warps).
    Later set_params and set_num_warps ops recheck that register estimate.
    Apply it after the ops that set tile sizes: set_params retiles the fast
    path too, but it is easier to read a schedule that sizes first.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def SplitReductionOp : Tile_TransformOp<"split_reduction"> {
  let summary = "Split a row sum across CTAs, combined by atomics (structural)";
  let description = [{
    ```mlir
    transform.tile.split_reduction %k chunk 16 : !transform.any_op
    ```
    A structural rewrite for a one-pass row sum (`tasks/row_sum`): one row
    loop `scf.for %j = 0 to tile.num_tiles %Xv[d] step 1` carries f32 tiles,
    each from zero by `arith.addf`; one `tile.reduce add` of each result along
    dim d is stored once, each into its own output (several sums: a column's
    sum and sum of squares in one pass). With few long rows that kernel runs
    few CTAs. The rewrite adds the param `BS` = chunk x (the row tile size), a
    partition of x with tile size `BS` along the row, and grids over it (the
    old block coordinates, then the chunk `c`); the row loop walks only the
    chunk, `[c * per, min(c * per + per, nt))` with `per = BS / BN` (both
    `tile.tile_size`s, so set_params retiles it), and each store becomes
    `tile.atomic_add`. Because atomics accumulate, the op also adds a kernel
    `@<name>_zero` that stores zeros over the outputs and launches it before
    every `tile.launch` of the kernel. tile-verify proves the result (C9
    counts the k tiles each output tile receives over all blocks). The value
    (chunk, in row tiles) is an integer or a `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving the payload untouched, when: chunk is not in
    2..65536; the kernel is already split or has a param `BS`; it has no row
    loop or more than one; the loop carries anything but such sums, each
    stored once (or the kernel writes anywhere else); two sums share an
    output, or the outputs differ in type or dims; a grid dim has no row-view dim of the same
    name and tile size (other than the row's); no `tile.launch`
    launches the kernel; or `@<name>_zero` exists. Later set_params ops
    recheck that `BS` is a multiple (at least twice) of the row tile size.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target `chunk` custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def StageTransposesOp : Tile_TransformOp<"stage_transposes"> {
  let summary = "Store transposed tiles through shared memory (structural)";
  let description = [{
    ```mlir
    transform.tile.stage_transposes %k 1 : !transform.any_op
    ```
    A tile that `tile.transpose` produced keeps its input's thread layout,
    permuted: the lanes that read 16-byte runs along the input's rows hold
    its columns, so a `tile.store` of it writes one element per lane at a
    stride of a whole row (uncoalesced). The rewrite marks every
    `tile.store` and `tile.atomic_add` whose tile comes from a
    `tile.transpose` (directly or through elementwise ops) with the unit
    attribute `tile.stage_through_shared`; tile-to-gpu then converts that
    tile to the store's own layout (lanes along the innermost dim,
    `vector_width` elements each) through shared memory whose rows are
    padded by one element, so both the write in the transposed layout and
    the read in the store's layout are free of bank conflicts, and both
    global sides move full 16-byte runs. The tile IR is otherwise
    unchanged, so tile-verify and the host target see the same kernel. The
    value is 1 (apply) or 0 (leave the kernel as is), an integer or a
    `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving every kernel untouched, when the value is
    not 0 or 1, or a kernel stores no tile that a `tile.transpose`
    produced (nothing to stage).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def StageEpilogueOp : Tile_TransformOp<"stage_epilogue"> {
  let summary = "Run a matmul epilogue through shared memory (structural)";
  let description = [{
    ```mlir
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    ```
    A matmul's epilogue (bias, activation, cast) runs on the accumulator in
    the mma's fragment layout: each thread evaluates it for every
    accumulator it holds, unrolled, and stores short runs. The rewrite marks
    every `tile.store` whose tile is an elementwise chain (arith and math
    ops, splat constants, broadcasts of a row or a column vector, loads of
    tiles of the stored shape) over one `tile.mma` result, possibly with
    unit dims put in front by `tile.expand_dims ... dim 0` (a [1, BM, BN]
    tile of a batched output), with the unit attribute
    `tile.staged_epilogue`;
    tile-to-gpu then stores the accumulator to shared memory (in column
    phases that fit beside what the kernel already uses) and evaluates the
    chain in a rolled loop in which each thread takes one 16-byte run of the
    output, stored through the ordinary tile.store lowering
    (docs/gpu-lowering.md, "Staged epilogue"). The tile IR is otherwise
    unchanged, so tile-verify and the host target see the same kernel. The
    value is 1 (apply) or 0 (leave the kernel as is), an integer or a
    `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving every kernel untouched, when the value is
    not 0 or 1, or a kernel has no tile.store of such a chain (the message
    gives the first store's reason).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def MaskBoundaryTilesOp : Tile_TransformOp<"mask_boundary_tiles"> {
  let summary = "Apply lane masks only on the tiles that need them (structural)";
  let description = [{
    ```mlir
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    ```
    A kernel that masks a tile with `arith.select` on a comparison of lane
    indices (`tile.iota` plus `tile.splat` offsets, as in `cols < N` or the
    causal `cols <= rows`) pays the index arithmetic and the selects on every
    tile, though every lane passes the comparison on all but the boundary
    tiles. The rewrite derives, from each comparison, the scalar condition
    under which some lane fails it (for `a + lane < b`: `a + (size - 1) >=
    b`, the size being the `tile.tile_size` of the partition whose param
    sizes that dim, so later set_params ops keep it right) and moves each
    chain of masking selects (a select whose unmasked operand is the
    previous one's result) into the `then` branch of an `scf.if` on the
    disjunction of those conditions, with the comparisons' own per-tile ops
    cloned there; the `else` branch yields the unmasked tile. The result is
    the same on every lane, so tile-verify proves the rewritten kernel as it
    proved the original (C9 and C10 follow scf.if). Selects in a branch
    whose other branch yields the unmasked tile (the same form written by
    hand) are left as they are. The value is 1 (apply) or 0 (leave the
    kernel as is), an integer or a `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving every kernel untouched, when the value is not
    0 or 1, or a kernel has no select whose condition is such a comparison
    (the note names the first comparison that is not and why), or its masks
    already sit in branches this op made.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def RowsPerCtaOp : Tile_TransformOp<"rows_per_cta"> {
  let summary = "Give each CTA several tiles of the grid's first dim (structural)";
  let description = [{
    ```mlir
    transform.tile.rows_per_cta %k rows 2 : !transform.any_op
    ```
    A structural rewrite for launch-bound shapes: fewer, longer-lived CTAs.
    It adds the param `BRC` = rows x the tile size of the grid's first dim,
    grids over a partition of the grid's view with tile `BRC` along that dim,
    and wraps everything after the grid in
    `scf.for %r = c * per to min(c * per + per, nt) step 1` (`per = BRC /`
    the tile size, both `tile.tile_size`s; `nt` the view's tile count), the
    body using `%r` where it used the block coordinate. tile-verify proves
    the result (a loop bounded by a min is modelled exactly). The value is an
    integer or a `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving the payload untouched, when: rows is not in
    2..65536; the kernel already has the loop or a param `BRC`; or its
    tile.grid is not at the top level over a tile.partition. Later
    set_params ops recheck that `BRC` is a multiple (at least twice) of the
    tile size.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target `rows` custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def MmaImplOp : Tile_TransformOp<"mma_impl"> {
  let summary = "Pick the implementation of every tile.mma of a kernel";
  let description = [{
    ```mlir
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    ```
    Sets `impl` on every `tile.mma` of each target kernel: `simt` (f32 FMAs
    on a register micro-tile), `mma_sync` (tensor cores through
    `mma.sync.aligned.m16n8k16`, operands staged in XOR-swizzled shared
    memory and read with `ldmatrix`) or `wgmma` (Hopper's
    `wgmma.mma_async m64nNk16` on whole warpgroups, operands read from
    128-byte-swizzled shared memory through matrix descriptors);
    docs/gpu-lowering.md. The legality rules are the lowering's own
    (MmaSyncRules.h, WgmmaRules.h).
    }] # kTargets # [{
    Fails silenceably, leaving the payload untouched, when: a target kernel
    has no tile.mma; the operands are not bf16 or f16 with an f32
    accumulator (f32 operands would need tf32, which no task opts into);
    for `mma_sync`, a tile size is not a multiple of the m16n8k16 shape or
    the accumulator does not split over num_warps into warp tiles of 16-row
    and 8-column multiples; for `wgmma`, A is not MxK, a KxN B (no
    transpose_b) has N not a multiple of 64, the K tile is not a multiple of
    64, num_warps is not a multiple of 4, M is not a multiple of 64 per
    warpgroup or N exceeds 256; or the staged
    operands exceed the shared memory of one CTA. Later set_num_warps,
    set_params and pipeline ops recheck these rules, with the cp.async ones
    for a K loop of more than one stage. An impl other than mma_sync drops
    the op's `warp_split` (transform.tile.mma_warp_split).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Tile_MmaImpl:$impl);
  let assemblyFormat = [{
    $target $impl attr-dict `:` type($target)
  }];
}

def MmaWarpSplitOp : Tile_TransformOp<"mma_warp_split"> {
  let summary = "Pick how the warps share each impl = mma_sync accumulator";
  let description = [{
    ```mlir
    transform.tile.mma_warp_split %k rows : !transform.any_op
    ```
    Sets `warp_split` on every `tile.mma` of each target kernel, which must
    all be `impl = mma_sync` (run `transform.tile.mma_impl` first):
    `balanced` (the default: the warp grid with the squarest warp tile) or
    `rows` (num_warps x 1: every warp owns whole 16-row multiples of the
    accumulator). With `rows`, row reductions of the result stay inside a
    warp (shuffles, no shared memory), and a result cast to bf16 or f16 that
    is the A operand of a later mma on the same rows is read from registers
    (attention's probabilities); docs/gpu-lowering.md, "Warp split".
    }] # kTargets # [{
    Fails silenceably, leaving the payload untouched, when: a target kernel
    has no tile.mma, or one that is not impl = mma_sync; or, for `rows`, the
    accumulator's M is not a multiple of 16 x num_warps. Later
    set_num_warps and set_params recheck this, and mma_impl to another impl
    drops the split.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Tile_MmaWarpSplit:$split);
  let assemblyFormat = [{
    $target $split attr-dict `:` type($target)
  }];
}

def WarpSpecializeOp : Tile_TransformOp<"warp_specialize"> {
  let summary = "Give a TMA K loop's copies a producer warpgroup";
  let description = [{
    ```mlir
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.tile.warp_specialize %k 1 : !transform.any_op
    ```
    Marks each target kernel with the unit attribute
    `tile.warp_specialized`: tile-to-gpu launches it with one more
    warpgroup (4 warps) than its num_warps. Every thread runs the scalar
    code before the kernel's TMA K loop; there the extra warpgroup lowers
    its register limit (setmaxnreg.dec), its first warp issues every
    step's TMA copies as soon as the consumers release the stage, and it
    exits; the num_warps consumer warps raise theirs (setmaxnreg.inc) and
    run the loop and everything after it, their barriers counting only
    them (docs/gpu-lowering.md, "Warp specialization"). The tile IR is
    otherwise unchanged, so tile-verify and the host target see the same
    kernel. The value is 1 (apply) or 0 (remove the mark), an integer or a
    `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving every kernel untouched, when the value is
    not 0 or 1, or a kernel (for 1) has no TMA K loop or several, its TMA
    K loop is not at the top level of the kernel, anything but scalar code
    (index arithmetic, constants, splats, views, the grid) comes before
    that loop, or num_warps + 4 warps exceed a CTA. Later ops recheck the
    rules.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def PersistentOp : Tile_TransformOp<"persistent"> {
  let summary = "Run a kernel's tiles on persistent CTAs";
  let description = [{
    ```mlir
    transform.tile.persistent %k 1 : !transform.any_op
    ```
    Marks each target kernel with the unit attribute `tile.persistent`:
    on the GPU the kernel launches at most as many CTAs as the SMs hold
    at once (the manifest's grid is `min(tiles, SMs x CTAs per SM)`, the
    CTAs per SM from ptxas's registers and the shared memory), and each
    CTA loops over tiles blockIdx.x, blockIdx.x + gridDim.x, ... of the
    grid, in the grid's order and raster, with a barrier between tiles
    (docs/gpu-lowering.md, "Persistent CTAs"). The tile IR is otherwise
    unchanged, so tile-verify and the host target see one program per
    tile. The value is 1 (apply) or 0 (remove the mark), an integer or a
    `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving every kernel untouched, when the value is
    not 0 or 1, or a kernel (for 1) is warp-specialized or declares its
    tile.grid below the top level of its body. Later ops recheck the
    rules.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def TmaStoreOp : Tile_TransformOp<"tma_store"> {
  let summary = "Write a staged epilogue's output tiles with TMA";
  let description = [{
    ```mlir
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.tile.tma_store %k 1 : !transform.any_op
    ```
    Marks each staged epilogue store (`tile.staged_epilogue`) of the target
    kernels with the unit attribute `tile.tma_store`: tile-to-gpu then
    writes each evaluated phase of the output tile to shared memory, and
    one thread stores it to global memory with cp.async.bulk.tensor through
    a tensor map of the stored argument (boxes of [tile rows, 128 bytes],
    clipped at the tensor's edges), instead of every thread storing its
    16-byte runs (docs/gpu-lowering.md, "TMA stores"). Where the output's
    rows are not 16-byte aligned at run time, the threads store as before.
    The tile IR is otherwise unchanged, so tile-verify and the host target
    see the same kernel. The value is 1 (mark) or 0 (remove the marks), an
    integer or a `!transform.param<i64>`.
    }] # kTargets # [{

    Fails silenceably, leaving every kernel untouched, when the value is
    not 0 or 1, or a kernel (for 1) has no staged epilogue store, or one
    that is not a tile.partition of a rank-2 f32, bf16 or f16 kernel
    argument, has more than 256 rows or is not a whole number of 128-byte
    boxes wide. Later ops recheck the rules.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<I64Attr>:$static_value,
                       Optional<Tile_I64Param>:$dynamic_value);
  let assemblyFormat = [{
    $target custom<KnobValue>($static_value, $dynamic_value)
    attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

def OperandCopiesOp : Tile_TransformOp<"operand_copies"> {
  let summary = "Pick how a pipelined wgmma K loop copies its operands";
  let description = [{
    ```mlir
    transform.tile.operand_copies %k tma : !transform.any_op
    ```
    Stores `tile.operand_copies` on each target K loop: `cp_async` (the
    default: every thread copies 16-byte chunks with cp.async, one CTA
    barrier per step) or `tma` (one thread copies each operand tile with
    cp.async.bulk.tensor through tensor maps the runner encodes, and
    mbarriers pace the copies against the wgmma groups; A in 8-row boxes,
    B in one box; rank-2 operands, an NxK B and K tiles of 64 only;
    docs/gpu-lowering.md, "TMA operand copies"). The rules are the
    lowering's own (TmaRules.h).

    `%target` holds `scf.for` ops inside a `tile.kernel`, or `tile.kernel`
    ops, which stand for all their K loops. If any loop fails, every loop of
    the handle is restored.

    Fails silenceably when the handle is empty; a target is neither an
    `scf.for` nor a `tile.kernel`, or lies outside a kernel; a target kernel
    has no K loop; for `tma`: the loop's tile.mma is not impl = wgmma, the
    loop has fewer than 2 pipeline stages (set them first with
    transform.tile.pipeline), the wgmma rules fail at that depth, an operand
    view is not a tile.partition of a rank-2 kernel argument, or the stage
    buffers and mbarriers exceed the shared memory of one CTA. Later
    set_num_warps, set_params, mma_impl and pipeline ops recheck these
    rules.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$copies);
  let assemblyFormat = [{
    $target custom<OperandCopies>($copies) attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

#endif // KBENCH_DIALECT_TILE_TRANSFORMOPS_TILETRANSFORMOPS_TD
