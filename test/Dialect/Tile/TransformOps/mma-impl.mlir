// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.mma_impl sets impl on every tile.mma of the kernel.

// CHECK-LABEL: tile.kernel @gemm
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(mma_sync) {transpose_b} : tensor<128x32xbf16>, tensor<128x32xbf16> -> tensor<128x128xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @gemm(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
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
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}

// -----

// Back to simt: the impl attribute holds simt.
// CHECK-LABEL: tile.kernel @back
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(simt) {transpose_b}
module attributes {transform.with_named_sequence} {
  tile.kernel @back(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
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
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.mma_impl %k simt : !transform.any_op
    transform.yield
  }
}

// -----

// An mma_sync K loop takes up to 4 cp.async stages.
// CHECK-LABEL: tile.kernel @staged
// CHECK: scf.for
// CHECK: impl(mma_sync)
// CHECK: } {tile.pipeline_stages = 3 : i64}
module attributes {transform.with_named_sequence} {
  tile.kernel @staged(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
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
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.yield
  }
}

// -----

// wgmma with BK = 64 (set first) and a K loop of 4 cp.async stages.
// CHECK-LABEL: tile.kernel @wgmma_staged
// CHECK: scf.for
// CHECK: impl(wgmma)
// CHECK: } {tile.pipeline_stages = 4 : i64}
module attributes {transform.with_named_sequence} {
  tile.kernel @wgmma_staged(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
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
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.yield
  }
}

// -----

// f32 operands in a kernel that allows tf32 (its task opts in): mma_sync
// is accepted and the kernel keeps tile.allow_tf32.
// CHECK-LABEL: tile.kernel @tf32
// CHECK-SAME: attributes {tile.allow_tf32}
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(mma_sync) {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @tf32(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
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
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}
