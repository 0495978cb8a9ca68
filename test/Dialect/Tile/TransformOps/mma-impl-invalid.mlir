// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.mma_impl (the rules of MmaSyncRules.h, the
// ones tile-to-gpu applies), and their recheck by later knob ops.

// f32 operands need tf32, which no task opts into.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: impl = mma_sync with f32 operands needs tf32 tensor cores, which round the operands to 10 mantissa bits, and the task has not opted into tf32 ("allow_tf32": true in task.json); opt in, cast the operands to bf16, or use impl = simt}}
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}

// -----

// BK = 8 is not a multiple of the mma.sync k16.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 8, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x8xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x8xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x8xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x8xbf16, pad = zero> -> tensor<64x8xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x8xbf16, pad = zero> -> tensor<64x8xbf16>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x8xbf16>, tensor<64x8xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: impl = mma_sync needs the tile sizes M, N, K to be multiples of the m16n8k16 instruction, got 64x64x8; change BM, BN or BK}}
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}

// -----

// 16x8 is one mma tile: 4 warps cannot split it.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 16, BN = 8, BK = 16, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<8x16xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x8xf32>
    %m, %n = tile.grid %Yv : !tile.part<16x8xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<16x16xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<16x8xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x8xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<8x16xbf16, pad = zero> -> tensor<8x16xbf16>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x16xbf16>, tensor<8x16xbf16> -> tensor<16x8xf32>
      scf.yield %r : tensor<16x8xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: impl = mma_sync cannot split the 16x8 accumulator over num_warps = 4: every warp needs a multiple of 16 rows and 8 columns; lower num_warps or raise BM/BN}}
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}

// -----

// A later set_num_warps rechecks the rule.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 16, BN = 8, BK = 16, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<8x16xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x8xf32>
    %m, %n = tile.grid %Yv : !tile.part<16x8xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<16x16xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<16x8xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x8xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<8x16xbf16, pad = zero> -> tensor<8x16xbf16>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x16xbf16>, tensor<8x16xbf16> -> tensor<16x8xf32>
      scf.yield %r : tensor<16x8xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: impl = mma_sync cannot split the 16x8 accumulator over num_warps = 2: every warp needs a multiple of 16 rows and 8 columns; lower num_warps or raise BM/BN}}
    transform.tile.set_num_warps %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// The staged operands must fit the shared memory of one CTA.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 16, BN = 8, BK = 8192, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<16x8192xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<8x8192xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x8xf32>
    %m, %n = tile.grid %Yv : !tile.part<16x8xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<16x8192xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<16x8xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x8xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<16x8192xbf16, pad = zero> -> tensor<16x8192xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<8x8192xbf16, pad = zero> -> tensor<8x8192xbf16>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x8192xbf16>, tensor<8x8192xbf16> -> tensor<16x8xf32>
      scf.yield %r : tensor<16x8xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: impl = mma_sync stages its operands in 393216 bytes of shared memory, over the 232448-byte limit of one CTA; lower BM, BN or BK}}
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}

// -----

// wgmma stages rows of K = 64 (one 128-byte swizzle row): BK = 32 is refused
// with the lowering's own rule (WgmmaRules.h).
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: impl = wgmma stages rows of K in blocks of 64 elements (one 128-byte swizzle row each), got a K tile of 32; set BK to a multiple of 64}}
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.yield
  }
}

// -----

// A later edit is rechecked against the wgmma rules: BK = 64 takes wgmma,
// set_params back to BK = 32 is refused and leaves the kernel as it was.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    // expected-error @below {{transform.tile.set_params: impl = wgmma stages rows of K in blocks of 64 elements (one 128-byte swizzle row each), got a K tile of 32; set BK to a multiple of 64}}
    transform.tile.set_params %k {BK = 32} : !transform.any_op
    transform.yield
  }
}

// -----

// A kernel without tile.mma.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 64, num_warps = 4} {
    %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
    %i = tile.grid %Xv : !tile.part<64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: impl = mma_sync: the kernel has no tile.mma; drop the op for this kernel}}
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}

// -----

// A cp.async stage copies 16-byte chunks, at least one per thread: the 16x16
// tiles have 32 chunks for 128 threads.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 16, BN = 16, BK = 16, num_warps = 2} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<16x16xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<16x16xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
      scf.yield %r : tensor<16x16xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: the cp.async pipeline copies 16-byte chunks, and the 16x16 and 16x16 operand tiles do not split evenly over 64 threads; raise BM, BN or BK, or lower num_warps; use stages 1}}
    transform.tile.pipeline %loop stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A kernel that allows tf32 gets it from mma_sync only.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 4} attributes {tile.allow_tf32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
      // expected-note @below {{this tile.mma}}
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: impl = wgmma does not lower f32 (tf32) operands; use impl = mma_sync, or cast the operands to bf16}}
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.yield
  }
}
