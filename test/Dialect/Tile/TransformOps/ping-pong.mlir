// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.ping_pong stores its param (tile-to-gpu then lets the two
// warpgroups of a loop paced by stage barriers take turns to issue its
// first wgmma group: test/Conversion/TileToGPU/ping-pong.mlir). It needs
// stage_barriers = 1, set before it, and num_warps = 8; 0 is the default
// and legal anywhere. The value may come from a tune knob.

// CHECK-LABEL: tile.kernel @copy
// CHECK-SAME: params {BM = 2, BN = 256, num_warps = 8, ping_pong = 1, stage_barriers = 1, vector_width = 4}
module attributes {transform.with_named_sequence} {
  tile.kernel @copy(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 8, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_barriers %k 1 : !transform.any_op
    %f = transform.tune.knob<"turns"> = 1 from options = [0, 1] -> !transform.param<i64>
    transform.tile.ping_pong %k %f : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: tile.kernel @off
// CHECK-SAME: params {BN = 256, num_warps = 2, ping_pong = 0}
module attributes {transform.with_named_sequence} {
  tile.kernel @off(%X: memref<?xf32> {tile.dims = ["N"]})
      params {BN = 256, num_warps = 2} {
    %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<256xf32>
    %i = tile.grid %Xv : !tile.part<256xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.ping_pong %k 0 : !transform.any_op
    transform.yield
  }
}
