// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.mma_warp_split, and its recheck by a
// later knob op.

// A kernel without tile.mma.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @nomma(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 32, BN = 32, num_warps = 2} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
    %m, %n = tile.grid %Xv : !tile.part<32x32xf32>
    %z = arith.constant dense<0.0> : tensor<32x32xf32>
    tile.store %z, %Xv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_warp_split: warp_split(rows): the kernel has no tile.mma; drop the op for this kernel}}
    transform.tile.mma_warp_split %k rows : !transform.any_op
    transform.yield
  }
}

// -----

// The split is mma_sync's.
module attributes {transform.with_named_sequence} {
  tile.kernel @simt(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      // expected-note @below {{this tile.mma}}
      %s = tile.mma %q, %k, %zs impl(simt) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(simt) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_warp_split: warp_split(rows) applies to impl = mma_sync, and this tile.mma is impl = simt; run transform.tile.mma_impl mma_sync first}}
    transform.tile.mma_warp_split %k rows : !transform.any_op
    transform.yield
  }
}

// -----

// 32 rows over 4 warps: 8 each, not a multiple of 16.
module attributes {transform.with_named_sequence} {
  tile.kernel @short(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 16, num_warps = 4} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      // expected-note @below {{this tile.mma}}
      %s = tile.mma %q, %k, %zs impl(mma_sync) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_warp_split: impl = mma_sync with warp_split(rows) gives every warp a multiple of 16 whole rows, and the 32x32 accumulator has 32 rows for num_warps = 4; lower num_warps, raise BM, or drop warp_split(rows)}}
    transform.tile.mma_warp_split %k rows : !transform.any_op
    transform.yield
  }
}

// -----

// Rechecked: more warps after the split.
module attributes {transform.with_named_sequence} {
  tile.kernel @recheck(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      // expected-note @below {{this tile.mma}}
      %s = tile.mma %q, %k, %zs impl(mma_sync) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_warp_split %k rows : !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: impl = mma_sync with warp_split(rows) gives every warp a multiple of 16 whole rows, and the 32x32 accumulator has 32 rows for num_warps = 4}}
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.yield
  }
}
