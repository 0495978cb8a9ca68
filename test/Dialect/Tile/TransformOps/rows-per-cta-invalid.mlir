// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.rows_per_cta, and the recheck of its
// coarser tile by set_params.

// A CTA takes at least two row tiles.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r, %c = tile.grid %Yv : !tile.part<2x256xf32>
    %x = tile.load %Xv[%r, %c] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
    %y = arith.addf %x, %x : tensor<2x256xf32>
    tile.store %y, %Yv[%r, %c] : tensor<2x256xf32>, !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.rows_per_cta: rows = 1 is outside 2..65536; a CTA takes at least two row tiles}}
    transform.tile.rows_per_cta %k rows 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Once per kernel.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r, %c = tile.grid %Yv : !tile.part<2x256xf32>
    %x = tile.load %Xv[%r, %c] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
    %y = arith.addf %x, %x : tensor<2x256xf32>
    tile.store %y, %Yv[%r, %c] : tensor<2x256xf32>, !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.rows_per_cta %k rows 2 : !transform.any_op
    // expected-error @below {{transform.tile.rows_per_cta: @k already takes several row tiles per CTA (the scf.for marked tile.rows_per_cta); apply the op once per kernel}}
    transform.tile.rows_per_cta %k rows 2 : !transform.any_op
    transform.yield
  }
}

// -----

// The param's name is taken.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, BRC = 4, num_warps = 4} {
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r, %c = tile.grid %Yv : !tile.part<2x256xf32>
    %x = tile.load %Xv[%r, %c] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
    %y = arith.addf %x, %x : tensor<2x256xf32>
    tile.store %y, %Yv[%r, %c] : tensor<2x256xf32>, !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.rows_per_cta: @k already has a param BRC, which the op would add for the coarser tile}}
    transform.tile.rows_per_cta %k rows 2 : !transform.any_op
    transform.yield
  }
}

// -----

// set_params rechecks that the coarser tile holds whole tiles: BRC = 4
// rows over BR = 4.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    // expected-note @below {{the loop over the CTA's row tiles}}
    %r, %c = tile.grid %Yv : !tile.part<2x256xf32>
    %x = tile.load %Xv[%r, %c] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
    %y = arith.addf %x, %x : tensor<2x256xf32>
    tile.store %y, %Yv[%r, %c] : tensor<2x256xf32>, !tile.part<2x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.rows_per_cta %k rows 2 : !transform.any_op
    // expected-error @below {{transform.tile.set_params: @k takes tiles of BRC = 4 rows per CTA, which is not a multiple (of at least two) of its tile size 4; the coarser tile must hold whole tiles}}
    transform.tile.set_params %k {BR = 4} : !transform.any_op
    transform.yield
  }
}

// -----

// The grid must be at the kernel's top level.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]})
      params {BN = 256, num_warps = 4} {
    %true = arith.constant true
    %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<256xf32>
    scf.if %true {
      // expected-note @below {{the grid}}
      %i = tile.grid %Xv : !tile.part<256xf32>
      %z = arith.constant dense<0.0> : tensor<256xf32>
      tile.store %z, %Xv[%i] : tensor<256xf32>, !tile.part<256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.rows_per_cta: @k's tile.grid is not at the kernel's top level over a tile.partition; rows_per_cta wraps what follows the grid in a loop}}
    transform.tile.rows_per_cta %k rows 2 : !transform.any_op
    transform.yield
  }
}
