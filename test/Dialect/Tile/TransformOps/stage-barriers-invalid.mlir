// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// transform.tile.stage_barriers is a switch: 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 2, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.stage_barriers: stage_barriers = 2 is outside 0..1; it is a switch}}
    transform.tile.stage_barriers %k 2 : !transform.any_op
    transform.yield
  }
}
