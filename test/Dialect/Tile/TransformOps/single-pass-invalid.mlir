// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.single_pass, and the recheck of its
// held-tile register estimate by later knob ops.

// The value is a switch: 0 or 1.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.single_pass: single_pass = 2 is neither 0 (leave the kernel as is) nor 1 (add the single-pass fast path)}}
    transform.tile.single_pass %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Once per kernel: the second op finds the fast path of the first.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.single_pass: @k already has a single-pass fast path (the scf.if marked tile.single_pass); apply the op once per kernel}}
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// No loop over the tiles of a row: nothing to fuse (an elementwise kernel).
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
    // expected-error @below {{transform.tile.single_pass: @k has no row loop: single_pass fuses top-level scf.for loops from 0 to a tile.num_tiles value with step 1 (the passes over the tiles of a row)}}
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The passes must walk the same tiles.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %nr = tile.num_tiles %Xv[0] : !tile.part<2x256xf32, pad = zero>
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    // expected-note @below {{this loop walks other tiles than the first}}
    scf.for %j = %c0 to %nr step %c1 {
      %x = tile.load %Xv[%j, %r] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%j, %r] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.single_pass: @k has row loops over different tile counts (tile.num_tiles of dim 1 and of dim 0, or of two views); single_pass needs every pass to walk the same tiles}}
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// One pass (a row sum) reads each tile once already.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<2xf32>
    %r = tile.grid %Yv : !tile.part<2xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2x256xf32>
    // expected-note @below {{the first row loop}}
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2x256xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %s = arith.addf %a, %x : tensor<2x256xf32>
      scf.yield %s : tensor<2x256xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<2x256xf32> -> tensor<2xf32>
    tile.store %y, %Yv[%r] : tensor<2xf32>, !tile.part<2xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.single_pass: @k loads no tile twice at the same coordinates once its passes are fused (one pass, or a store into the same memref between the loads), so a fast path would read as much as the loops do; drop the op for this kernel}}
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The second pass re-reads what the first stored: the tile cannot be kept.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %r = tile.grid %Xv dims [0] : !tile.part<2x256xf32, pad = zero>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    // expected-note @below {{the first row loop}}
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.addf %x, %x : tensor<2x256xf32>
      tile.store %y, %Xv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32, pad = zero>
    }
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.mulf %x, %x : tensor<2x256xf32>
      tile.store %y, %Xv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32, pad = zero>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.single_pass: @k loads no tile twice at the same coordinates once its passes are fused (one pass, or a store into the same memref between the loads), so a fast path would read as much as the loops do; drop the op for this kernel}}
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The tile kept across the passes must fit the held-tile register limit.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 8, BN = 2048, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x2048xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x2048xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<8x2048xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<8x2048xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<8xf32>
    // expected-note @below {{the tiles of this row loop would stay in registers}}
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<8xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<8x2048xf32, pad = zero> -> tensor<8x2048xf32>
      %t = tile.reduce add %x dim 1 : tensor<8x2048xf32> -> tensor<8xf32>
      %n = arith.addf %a, %t : tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<8xf32> -> tensor<8x2048xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<8x2048xf32, pad = zero> -> tensor<8x2048xf32>
      %y = arith.subf %x, %sb : tensor<8x2048xf32>
      tile.store %y, %Yv[%r, %j] : tensor<8x2048xf32>, !tile.part<8x2048xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.single_pass: the single-pass fast path of @k keeps tensor<8x2048xf32> live across its passes: 128 registers per thread over 128 threads (num_warps = 4), above the held-tile limit of 64 (KernelConfig.h); lower the tile sizes or raise num_warps}}
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// set_params rechecks the limit on an existing fast path.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      // expected-note @below {{this tile stays in registers}}
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.set_params: the single-pass fast path of @k keeps tensor<8x2048xf32> live across its passes: 128 registers per thread over 128 threads (num_warps = 4), above the held-tile limit of 64 (KernelConfig.h); lower the tile sizes or raise num_warps}}
    transform.tile.set_params %k {BR = 8, BN = 2048} : !transform.any_op
    transform.yield
  }
}

// -----

// So does set_num_warps: 8x1024 fits 8 warps (32 registers), not 1.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 8, BN = 1024, num_warps = 8} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x1024xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<8x1024xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<8x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<8xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<8xf32>) {
      // expected-note @below {{this tile stays in registers}}
      %x = tile.load %Xv[%r, %j] : !tile.part<8x1024xf32, pad = zero> -> tensor<8x1024xf32>
      %t = tile.reduce add %x dim 1 : tensor<8x1024xf32> -> tensor<8xf32>
      %n = arith.addf %a, %t : tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<8xf32> -> tensor<8x1024xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<8x1024xf32, pad = zero> -> tensor<8x1024xf32>
      %y = arith.subf %x, %sb : tensor<8x1024xf32>
      tile.store %y, %Yv[%r, %j] : tensor<8x1024xf32>, !tile.part<8x1024xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: the single-pass fast path of @k keeps tensor<8x1024xf32> live across its passes: 256 registers per thread over 32 threads (num_warps = 1), above the held-tile limit of 64 (KernelConfig.h); lower the tile sizes or raise num_warps}}
    transform.tile.set_num_warps %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// An empty handle matched no kernel.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %none = transform.structured.match ops{["tile.nothing"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.single_pass: the target handle is empty, so the schedule matched no tile.kernel; check the match (ops{["tile.kernel"]}, or attributes{tile.tag = ...} on an op of the kernel)}}
    transform.tile.single_pass %none 1 : !transform.any_op
    transform.yield
  }
}
