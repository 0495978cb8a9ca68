// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.mma_warp_split sets warp_split on every tile.mma of the
// kernel; mma_impl to another impl drops it; a loop whose mma_sync tile.mma
// ops read B operands loaded in its body takes transform.tile.pipeline (the
// operand prefetch, PrefetchRules.h).

// CHECK-LABEL: tile.kernel @rows
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(mma_sync) warp_split(rows) {transpose_b}
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(mma_sync) warp_split(rows) :
module attributes {transform.with_named_sequence} {
  tile.kernel @rows(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
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
    transform.yield
  }
}

// -----

// mma_impl simt after the split: the split goes with mma_sync.
// CHECK-LABEL: tile.kernel @dropped
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(simt) {transpose_b}
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(simt) :
module attributes {transform.with_named_sequence} {
  tile.kernel @dropped(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
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
    transform.tile.mma_impl %k simt : !transform.any_op
    transform.yield
  }
}

// -----

// The operand prefetch: the key loop records its depth.
// CHECK-LABEL: tile.kernel @prefetch
// CHECK: scf.for
// CHECK: } {tile.pipeline_stages = 3 : i64}
module attributes {transform.with_named_sequence} {
  tile.kernel @prefetch(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
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
      %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.yield
  }
}
