// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.operand_copies tma (TmaRules.h, the rules
// tile-to-gpu applies) and their recheck by later knob ops.

// TMA copies are lowered for impl = wgmma only.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    // expected-error @below {{transform.tile.operand_copies: tile.operand_copies = tma is lowered for impl = wgmma K loops only, and this tile.mma has impl = mma_sync; set transform.tile.mma_impl wgmma first}}
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.yield
  }
}

// -----

// TMA copies fill pipeline stages: a plain loop has none.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 1 : !transform.any_op
    // expected-error @below {{transform.tile.operand_copies: tile.operand_copies = tma copies into pipeline stages, and this loop has 1; set transform.tile.pipeline stages 2 to 4 first}}
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.yield
  }
}

// -----

// A later pipeline op that removes the stages is refused.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.operand_copies = tma copies into pipeline stages, and this loop has 1; set transform.tile.pipeline stages 2 to 4 first}}
    transform.tile.pipeline %k stages 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A later mma_impl that leaves wgmma is refused.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    // expected-error @below {{transform.tile.mma_impl: tile.operand_copies = tma is lowered for impl = wgmma K loops only, and this tile.mma has impl = mma_sync; set transform.tile.mma_impl wgmma first}}
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}

// -----

// A later set_params that breaks the wgmma rules is refused with their message.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    // expected-error @below {{transform.tile.set_params: impl = wgmma stages rows of K in blocks of 64 elements}}
    transform.tile.set_params %k {BK = 32} : !transform.any_op
    transform.yield
  }
}

// -----

// Only the two spellings parse.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected `tma` or `cp_async`, got `bulk`}}
    transform.tile.operand_copies %k bulk : !transform.any_op
    transform.yield
  }
}

// -----

// A batched matmul's K loop on wgmma: the tensor maps are rank 2, and the
// operands partition rank-3 memrefs.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%A: memref<?x?x?xbf16> {tile.dims = ["B", "M", "K"]},
                 %W: memref<?x?x?xbf16> {tile.dims = ["B", "N", "K"]},
                 %C: memref<?x?x?xf32> {tile.dims = ["B", "M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Av = tile.partition %A tile [1, BM, BK] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [1, BN, BK] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x128x64xbf16, pad = zero>
    %Cv = tile.partition %C tile [1, BM, BN] : memref<?x?x?xf32> -> !tile.part<1x128x128xf32>
    %b, %m, %n = tile.grid %Cv : !tile.part<1x128x128xf32>
    %nk = tile.num_tiles %Av[2] : !tile.part<1x128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x3 = tile.load %Av[%b, %m, %k] : !tile.part<1x128x64xbf16, pad = zero> -> tensor<1x128x64xbf16>
      %x = tile.squeeze %x3 dim 0 : tensor<1x128x64xbf16> -> tensor<128x64xbf16>
      %w3 = tile.load %Wv[%b, %n, %k] : !tile.part<1x128x64xbf16, pad = zero> -> tensor<1x128x64xbf16>
      %w = tile.squeeze %w3 dim 0 : tensor<1x128x64xbf16> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %c3 = tile.expand_dims %acc dim 0 : tensor<128x128xf32> -> tensor<1x128x128xf32>
    tile.store %c3, %Cv[%b, %m, %n] : tensor<1x128x128xf32>, !tile.part<1x128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    // expected-error @below {{transform.tile.operand_copies: tile.operand_copies = tma encodes rank-2 tensor maps, and operand A partitions a rank-3 memref}}
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.yield
  }
}

// -----

// TMA copies B as NxK boxes; wgmma's KxN B is staged by cp.async.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["K", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BK, BN] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%k, %n] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    // expected-error @below {{transform.tile.operand_copies: tile.operand_copies = tma copies B as NxK boxes (rows of K), and this tile.mma's B is KxN (no transpose_b); use operand_copies cp_async, whose copies stage a KxN B as rows of N}}
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.yield
  }
}

// -----

// TMA boxes are one 128-byte swizzle row wide: K tiles of 64 only (wgmma
// itself takes K tiles of 128 as two blocks).
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x128xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x128xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x128xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this scf.for}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x128xbf16, pad = zero> -> tensor<128x128xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x128xbf16, pad = zero> -> tensor<128x128xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    // expected-error @below {{transform.tile.operand_copies: tile.operand_copies = tma copies boxes of one 128-byte swizzle row, K tiles of 64 elements, and this tile.mma's K tile is 128; set BK to 64 or use operand_copies cp_async}}
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.yield
  }
}
