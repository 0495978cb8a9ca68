// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.split_reduction, and the recheck of its
// chunk size by set_params.

// A chunk holds at least two row tiles.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: chunk = 1 is outside 2..65536; a chunk holds at least two row tiles}}
    transform.tile.split_reduction %k chunk 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Once per kernel.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k already splits its reduction (the scf.for marked tile.split_reduction); apply the op once per kernel}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// The chunk param's name is taken.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, BS = 7, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k already has a param BS, which the op would add for the chunk size}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// A multi-pass kernel (softmax, layer norm) is not split.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k has 2 row loops (top-level scf.for from 0 to a tile.num_tiles step 1); split_reduction splits a one-pass kernel, whose only row loop sums the row}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// A max does not combine by addition.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    // expected-note @below {{the row loop}}
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce max %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k does not sum its row into tile.stores: split_reduction combines partial sums with tile.atomic_add, so each tile the row loop carries must be f32, start at zero and grow by arith.addf, and one tile.reduce add of it along the row dim must be stored once}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// The accumulator must start at zero: each chunk would add the init again.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<1.0> : tensor<4x1024xf32>
    // expected-note @below {{the row loop}}
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k does not sum its row into tile.stores: split_reduction combines partial sums with tile.atomic_add}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// The zeroing needs a launch to precede.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k is launched by no tile.launch; split_reduction zeroes the output before each launch, so the module must launch it}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// The zeroing kernel's name is taken.
module attributes {transform.with_named_sequence} {
  tile.kernel @k_zero(%Y: memref<?xf32> {tile.dims = ["M"]}) {
    %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
    %i = tile.grid %Yv : !tile.part<64xf32>
    tile.return
  }
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %main = transform.structured.match ops{["tile.kernel"]} attributes{sym_name = "k"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k cannot get its zeroing kernel: @k_zero already exists}}
    transform.tile.split_reduction %main chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// set_params rechecks that the chunk tiles the row: BS = 8192 over BN = 8192.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    // expected-note @below {{the split row loop}}
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    // expected-error @below {{transform.tile.set_params: the split reduction of @k walks chunks of BS = 8192 elements, which is not a multiple (of at least two) of its row tile size 8192; chunks must tile the row}}
    transform.tile.set_params %k {BN = 8192} : !transform.any_op
    transform.yield
  }
}

// -----

// The row sum must be the kernel's only write.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]},
                 %Z: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %Zv = tile.partition %Z tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    // expected-note @below {{the row sum's store}}
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    %z = arith.constant dense<1.0> : tensor<4xf32>
    tile.store %z, %Zv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>, %z: memref<?xf32>) {
    tile.launch @k(%x, %y, %z) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k writes memory other than by its row sums' tile.stores; split_reduction needs them to be its only writes}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// Each grid coordinate must be a dim the chunk view can carry: here y's tile
// is the literal 4, x's row tile BR.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
    // expected-note @below {{the grid}}
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k has a grid dim (dim 0 of its view) that no dim of the row view tiles alike (same dim name, same tile size); split_reduction grids over chunks of the row view and must keep every block coordinate}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}


// -----

// Two sums stored into one output would be added together by the atomics.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc:2 = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero, %q = %zero) -> (tensor<4x1024xf32>, tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %x2 = arith.mulf %x, %x : tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      %s2 = arith.addf %q, %x2 : tensor<4x1024xf32>
      scf.yield %s, %s2 : tensor<4x1024xf32>, tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc#0 dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    %y2 = tile.reduce add %acc#1 dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    // expected-note @below {{the second store}}
    tile.store %y2, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @k(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k stores two of its row sums into argument 1; split_reduction adds each sum into its own output}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}

// -----

// The sums' outputs share one zeroing kernel, so they must share type and
// dims: here the second output is named by another dim.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]},
                 %Z: memref<?xf32> {tile.dims = ["R"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %Zv = tile.partition %Z tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc:2 = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero, %q = %zero) -> (tensor<4x1024xf32>, tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %x2 = arith.mulf %x, %x : tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      %s2 = arith.addf %q, %x2 : tensor<4x1024xf32>
      scf.yield %s, %s2 : tensor<4x1024xf32>, tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc#0 dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    %y2 = tile.reduce add %acc#1 dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    // expected-note @below {{this store}}
    tile.store %y2, %Zv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>, %z: memref<?xf32>) {
    tile.launch @k(%x, %y, %z) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.split_reduction: @k stores its row sums into outputs of different types or dims (arguments 1 and 2); split_reduction zeroes them all with one kernel}}
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}
