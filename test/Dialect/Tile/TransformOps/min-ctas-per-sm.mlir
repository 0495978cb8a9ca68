// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.min_ctas_per_sm stores its param (tile-to-gpu turns it into
// PTX's .minnctapersm: test/Conversion/TileToGPU/min-ctas-per-sm.test); 1 is
// the default and also legal. The value may come from a tune knob.

// CHECK-LABEL: tile.kernel @gemm
// CHECK-SAME: params {BK = 8, BM = 128, BN = 128, min_ctas_per_sm = 2, num_warps = 8}
module attributes {transform.with_named_sequence} {
  tile.kernel @gemm(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "K"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 8} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<128x8xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tune.knob<"ctas"> = 2 from options = [1, 2] -> !transform.param<i64>
    transform.tile.min_ctas_per_sm %k %c : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: tile.kernel @one
// CHECK-SAME: params {BR = 4, min_ctas_per_sm = 1, num_warps = 32}
module attributes {transform.with_named_sequence} {
  tile.kernel @one(%X: memref<?xf32> {tile.dims = ["N"]})
      params {BR = 4, num_warps = 32} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.min_ctas_per_sm %k 1 : !transform.any_op
    transform.yield
  }
}
