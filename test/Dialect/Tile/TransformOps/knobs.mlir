// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// set_num_warps, vector_width and raster store their params when legal.

// Rank-2 rows are 16-byte aligned by `K % 8 == 0` (a multiple of 4) for X
// and by the static inner extent 64 for W; the bias is rank 1. (Alignment
// is not a rule any more: see @ragged below.)
// CHECK-LABEL: tile.kernel @gemm
// CHECK-SAME: params {BK = 32, BM = 64, BN = 64, group_m = 8, num_warps = 8, vector_width = 4}
module attributes {transform.with_named_sequence} {
  tile.kernel @gemm(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                    %W: memref<?x64xf32> {tile.dims = ["N", "K"]},
                    %b: memref<?xf32> {tile.dims = ["N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32} requires ["K % 8 == 0", "0 == N % BK"] {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<64x32xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x64xf32> -> !tile.part<64x32xf32>
    %bv = tile.partition %b tile [BN] : memref<?xf32> -> !tile.part<64xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.tune.knob<"warps"> = 8 from options = [4, 8] -> !transform.param<i64>
    transform.tile.set_num_warps %k %w : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.tile.raster %k group_m %g : !transform.any_op
    transform.yield
  }
}

// -----

// vector_width needs no fact on the row length: tile-to-gpu checks
// `K % 4 == 0` at run time and takes the masked path when it fails. Without
// any fact, and with one too weak to prove 16-byte rows (K % 2).
// CHECK-LABEL: tile.kernel @ragged
// CHECK-SAME: params {BK = 8, BM = 16, vector_width = 4}
// CHECK-LABEL: tile.kernel @weak_fact
// CHECK-SAME: params {BK = 8, BM = 16, vector_width = 4}
module attributes {transform.with_named_sequence} {
  tile.kernel @ragged(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                      %b: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 16, BK = 8} requires [] {
    %bv = tile.partition %b tile [BM] : memref<?xf32> -> !tile.part<16xf32>
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<16x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<16x8xf32>
    tile.return
  }
  tile.kernel @weak_fact(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                         %b: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 16, BK = 8} requires ["K % 2 == 0", "K <= 4096"] {
    %bv = tile.partition %b tile [BM] : memref<?xf32> -> !tile.part<16xf32>
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<16x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<16x8xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}

// -----

// 8 x f16 is one 16-byte access; wgmma takes num_warps = 8 (two warpgroups
// of 64 rows each, with K = 64 and an f32 accumulator as the lowering's
// rules ask, rechecked by every knob op).
// CHECK-LABEL: tile.kernel @half
// CHECK-SAME: params {BM = 128, num_warps = 8, vector_width = 8}
module attributes {transform.with_named_sequence} {
  tile.kernel @half(%X: memref<?x?xf16> {tile.dims = ["M", "K"]},
                    %Y: memref<?x?xf16> {tile.dims = ["M", "M"]})
      params {BM = 128} requires ["K % 8 == 0", "M % 8 == 0"] {
    %Xv = tile.partition %X tile [BM, 64] : memref<?x?xf16> -> !tile.part<128x64xf16>
    %Yv = tile.partition %Y tile [BM, BM] : memref<?x?xf16> -> !tile.part<128x128xf16>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf16>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x64xf16> -> tensor<128x64xf16>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = tile.mma %x, %x, %z {transpose_b, impl = 2 : i32} : tensor<128x64xf16>, tensor<128x64xf16> -> tensor<128x128xf32>
    %h = arith.truncf %r : tensor<128x128xf32> to tensor<128x128xf16>
    tile.store %h, %Yv[%m, %n] : tensor<128x128xf16>, !tile.part<128x128xf16>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.yield
  }
}

// -----

// Rank-1 partitions need no alignment fact.
// CHECK-LABEL: tile.kernel @vec
// CHECK-SAME: params {BR = 1024, vector_width = 4}
module attributes {transform.with_named_sequence} {
  tile.kernel @vec(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 1024} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<1024xf32>
    %i = tile.grid %Xv : !tile.part<1024xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}

// -----

// A partition gathered along its innermost dim has tile size 1 there; the
// width must divide the gathered tiles' innermost size (64) instead.
// CHECK-LABEL: tile.kernel @gathered_columns
// CHECK-SAME: vector_width = 4
module attributes {transform.with_named_sequence} {
  tile.kernel @gathered_columns(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 4, BN = 64} {
    %c0 = arith.constant 0 : index
    %Xg = tile.partition %X tile [BM, 1] pad(zero) : memref<?x?xf32> -> !tile.part<4x1xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %m = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %cols = tile.iota dim 1 : tensor<4x64xi32>
    %x = tile.gather %Xg[%m, %c0] dim 1 by %cols : !tile.part<4x1xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
    tile.store %x, %Yv[%m, %c0] : tensor<4x64xf32>, !tile.part<4x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
