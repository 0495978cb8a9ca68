// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.pipeline, and the recheck of a recorded
// depth by later knob ops.

// More stages need cp.async, which only mma_sync K loops use.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x8xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x8xf32>, tensor<64x8xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 3: the SIMT K loop double-buffers with synchronous loads, so it takes 1 or 2 stages; deeper pipelines are cp.async stages of impl = mma_sync or wgmma K loops (transform.tile.mma_impl)}}
    transform.tile.pipeline %loop stages 3 : !transform.any_op
    transform.yield
  }
}

// -----

// Zero stages is no depth.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x8xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x8xf32>, tensor<64x8xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 0 is outside 1..4; a tensor-core (mma_sync, wgmma) K loop runs at most 4 cp.async stages and a SIMT K loop double-buffers with synchronous loads; use 1 (off) to 4}}
    transform.tile.pipeline %loop stages 0 : !transform.any_op
    transform.yield
  }
}

// -----

// Two stages need the 8x8 accumulator split over 128 threads.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 8, BN = 8, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<8x8xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<8x8xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<8x8xf32>
    %m, %n = tile.grid %Yv : !tile.part<8x8xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<8x8xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<8x8xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<8x8xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<8x8xf32, pad = zero> -> tensor<8x8xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<8x8xf32, pad = zero> -> tensor<8x8xf32>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
      scf.yield %r : tensor<8x8xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<8x8xf32>, !tile.part<8x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: the tile.mma accumulator 8x8 does not split into micro-tiles over num_warps = 4, which the pipelined loop needs; use stages 1, or change num_warps or the M and N tile sizes}}
    transform.tile.pipeline %loop stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A loop that is not a K loop, even to switch pipelining off.
module attributes {transform.with_named_sequence} {
  tile.kernel @copy(%X: memref<?xf32> {tile.dims = ["M"]}, %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %Xv = tile.partition %X tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %m = tile.grid %Yv : !tile.part<64xf32>
    // expected-note @below {{this scf.for}}
    scf.for %i = %c0 to %c4 step %c1 {
      %x = tile.load %Xv[%m] : !tile.part<64xf32> -> tensor<64xf32>
      tile.store %x, %Yv[%m] : tensor<64xf32>, !tile.part<64xf32>
    }
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 1: this scf.for is not a loop tile-to-gpu can pipeline; a K loop's body only loads the two operands of one tile.mma that accumulates into the loop's single iter_arg, and an operand prefetch needs an mma_sync or wgmma tile.mma with an operand loaded in the loop body (match that loop, or the kernel to set every such loop)}}
    transform.tile.pipeline %loop stages 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Likewise for two stages.
module attributes {transform.with_named_sequence} {
  tile.kernel @copy(%X: memref<?xf32> {tile.dims = ["M"]}, %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %Xv = tile.partition %X tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %m = tile.grid %Yv : !tile.part<64xf32>
    // expected-note @below {{this scf.for}}
    scf.for %i = %c0 to %c4 step %c1 {
      %x = tile.load %Xv[%m] : !tile.part<64xf32> -> tensor<64xf32>
      tile.store %x, %Yv[%m] : tensor<64xf32>, !tile.part<64xf32>
    }
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: this scf.for is not a loop tile-to-gpu can pipeline; a K loop's body only loads the two operands of one tile.mma that accumulates into the loop's single iter_arg, and an operand prefetch needs an mma_sync or wgmma tile.mma with an operand loaded in the loop body (match that loop, or the kernel to set every such loop)}}
    transform.tile.pipeline %loop stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A kernel target without a K loop.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @copy(%X: memref<?xf32> {tile.dims = ["M"]}, %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %Xv = tile.partition %X tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %m = tile.grid %Yv : !tile.part<64xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %x = tile.load %Xv[%m] : !tile.part<64xf32> -> tensor<64xf32>
      tile.store %x, %Yv[%m] : tensor<64xf32>, !tile.part<64xf32>
    }
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: @copy has no loop tile-to-gpu can pipeline (an scf.for whose body only loads the two operands of one tile.mma accumulating into its single iter_arg, or whose mma_sync or wgmma tile.mma ops read an operand loaded in the loop body); drop the op for this kernel}}
    transform.tile.pipeline %k stages 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A target that is neither a loop nor a kernel.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x8xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      // expected-note @below {{target payload op}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x8xf32>, tensor<64x8xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mma = transform.structured.match ops{["tile.mma"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: target tile.mma is neither a tile.kernel nor an scf.for inside one; match the K loop with transform.structured.match ops{["scf.for"]} in %kernel}}
    transform.tile.pipeline %mma stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A loop outside any kernel.
module attributes {transform.with_named_sequence} {
  func.func @f(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{target payload op}}
    scf.for %i = %c0 to %n step %c1 {
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: target scf.for is neither a tile.kernel nor an scf.for inside one; match the K loop with transform.structured.match ops{["scf.for"]} in %kernel}}
    transform.tile.pipeline %loop stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// An empty handle.
module attributes {transform.with_named_sequence} {
  tile.kernel @copy(%X: memref<?xf32> {tile.dims = ["M"]}, %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c = arith.constant true
    %Xv = tile.partition %X tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<64xf32>
    %m = tile.grid %Yv : !tile.part<64xf32>
    scf.if %c {
      %x = tile.load %Xv[%m] : !tile.part<64xf32> -> tensor<64xf32>
      tile.store %x, %Yv[%m] : tensor<64xf32>, !tile.part<64xf32>
    }
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mma = transform.structured.match ops{["tile.mma"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: the target handle is empty, so the schedule matched no K loop; check the match (ops{["scf.for"]} in a tile.kernel)}}
    transform.tile.pipeline %mma stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A param holding two values.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x8xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x8xf32>, tensor<64x8xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 2 : i64 -> !transform.param<i64>
    %two = transform.merge_handles %n, %n : !transform.param<i64>
    // expected-error @below {{transform.tile.pipeline: the value of tile.pipeline_stages is a param holding 2 values; pass exactly one (a transform.tune.knob with `= V from options`, or a single transform.param.constant)}}
    transform.tile.pipeline %loop stages %two : !transform.any_op
    transform.yield
  }
}

// -----

// A recorded depth is rechecked by later knob ops: transform.tile.set_num_warps.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 16, BN = 16, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<16x8xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<16x16xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x16xf32>
      scf.yield %r : tensor<16x16xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %loop stages 2 : !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: tile.pipeline_stages = 2: the tile.mma accumulator 16x16 does not split into micro-tiles over num_warps = 16, which the pipelined loop needs; use stages 1, or change num_warps or the M and N tile sizes}}
    transform.tile.set_num_warps %k 16 : !transform.any_op
    transform.yield
  }
}

// -----

// A recorded depth is rechecked by later knob ops: transform.tile.set_params.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 16, BN = 16, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<16x8xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<16x16xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x16xf32>
      scf.yield %r : tensor<16x16xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %loop stages 2 : !transform.any_op
    // expected-error @below {{transform.tile.set_params: tile.pipeline_stages = 2: the tile.mma accumulator 8x8 does not split into micro-tiles over num_warps = 4, which the pipelined loop needs; use stages 1, or change num_warps or the M and N tile sizes}}
    transform.tile.set_params %k {BM = 8, BN = 8} : !transform.any_op
    transform.yield
  }
}
