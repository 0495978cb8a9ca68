// RUN: kbench-opt %s --transform-interpreter | FileCheck %s

// A failing transform.tile.pipeline changes no loop of its handle: the loop
// of @big could take 2 stages, the 8x8 accumulator of @small cannot split over
// 128 threads, so neither loop is marked (the failure is suppressed).

// CHECK-LABEL: tile.kernel @big
// CHECK-NOT: tile.pipeline_stages
// CHECK-LABEL: tile.kernel @small
// CHECK-NOT: tile.pipeline_stages
module attributes {transform.with_named_sequence} {
  tile.kernel @big(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
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

  tile.kernel @small(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
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
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %loop = transform.structured.match ops{["scf.for"]} in %r : (!transform.any_op) -> !transform.any_op
      transform.tile.pipeline %loop stages 2 : !transform.any_op
    }
    transform.yield
  }
}
