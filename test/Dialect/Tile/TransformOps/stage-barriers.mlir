// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.stage_barriers stores its param (tile-to-gpu then paces a
// prefetching loop's stages with mbarriers instead of a CTA barrier per
// step: test/Conversion/TileToGPU/stage-barriers.mlir); 0 is the default
// and also legal. The value may come from a tune knob.

// CHECK-LABEL: tile.kernel @copy
// CHECK-SAME: params {BM = 2, BN = 256, num_warps = 2, stage_barriers = 1, vector_width = 4}
module attributes {transform.with_named_sequence} {
  tile.kernel @copy(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 2, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.tune.knob<"barriers"> = 1 from options = [0, 1] -> !transform.param<i64>
    transform.tile.stage_barriers %k %f : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: tile.kernel @off
// CHECK-SAME: params {BN = 256, num_warps = 2, stage_barriers = 0}
module attributes {transform.with_named_sequence} {
  tile.kernel @off(%X: memref<?xf32> {tile.dims = ["N"]})
      params {BN = 256, num_warps = 2} {
    %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<256xf32>
    %i = tile.grid %Xv : !tile.part<256xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_barriers %k 0 : !transform.any_op
    transform.yield
  }
}
