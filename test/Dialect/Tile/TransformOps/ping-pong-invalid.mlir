// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// transform.tile.ping_pong is a switch: 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 8, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.ping_pong: ping_pong = 2 is outside 0..1; it is a switch}}
    transform.tile.ping_pong %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Without the stage barriers a CTA barrier at every step keeps the
// warpgroups in step.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 8, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.ping_pong: ping_pong = 1 needs stage_barriers = 1 (set it first): with a CTA barrier at every step the warpgroups cannot take turns}}
    transform.tile.ping_pong %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Turns are taken by exactly two warpgroups.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 4, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_barriers %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.ping_pong: ping_pong = 1 needs exactly two warpgroups (num_warps = 8), not num_warps = 4}}
    transform.tile.ping_pong %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Turning the stage barriers off afterwards is refused with the same reason.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 8, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_barriers %k 1 : !transform.any_op
    transform.tile.ping_pong %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.stage_barriers: ping_pong = 1 needs stage_barriers = 1 (set it first): with a CTA barrier at every step the warpgroups cannot take turns}}
    transform.tile.stage_barriers %k 0 : !transform.any_op
    transform.yield
  }
}
