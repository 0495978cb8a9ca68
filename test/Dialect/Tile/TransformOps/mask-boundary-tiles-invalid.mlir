// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.mask_boundary_tiles. Each note points at
// the first select that is not a mask the op can move, and says why.

// The value is a switch: 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %cb = tile.splat %j0 : index -> tensor<4x64xindex>
      %cols = arith.addi %cb, %ciota : tensor<4x64xindex>
      %in = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: mask_boundary_tiles = 2 is neither 0 (leave the kernel as is) nor 1 (mask only the tiles that need it)}}
    transform.tile.mask_boundary_tiles %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// No select at all.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %y = arith.negf %x : tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// An equality picks lanes; it does not bound a range of them.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %cb = tile.splat %j0 : index -> tensor<4x64xindex>
      %cols = arith.addi %cb, %ciota : tensor<4x64xindex>
      %in = arith.cmpi eq, %cols, %n2d : tensor<4x64xindex>
      // expected-note @below {{this select is not one: its arith.cmpi is 'eq'; only the orderings (lt, le, gt, ge) bound a range of lanes}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// An arith.ori of comparisons: "every lane passes" is not the
// conjunction of its parts' conditions.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %cb = tile.splat %j0 : index -> tensor<4x64xindex>
      %cols = arith.addi %cb, %ciota : tensor<4x64xindex>
      %a = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      %b = arith.cmpi ugt, %cols, %n2d : tensor<4x64xindex>
      %in = arith.ori %a, %b : tensor<4x64xi1>
      // expected-note @below {{this select is not one: its condition comes from 'arith.ori', not an arith.cmpi of lane indices or an arith.andi of such comparisons}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A condition computed from data, not lane indices.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %in = arith.cmpf olt, %x, %zeros : tensor<4x64xf32>
      // expected-note @below {{this select is not one: its condition comes from 'arith.cmpf', not an arith.cmpi of lane indices or an arith.andi of such comparisons}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Lane indices of i32 (the guard is index arithmetic).
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %i = tile.iota dim 1 : tensor<4x64xi32>
      %ni = arith.index_cast %n : index to i32
      %n32 = tile.splat %ni : i32 -> tensor<4x64xi32>
      %in = arith.cmpi slt, %i, %n32 : tensor<4x64xi32>
      // expected-note @below {{this select is not one: its arith.cmpi compares tiles of i32, not index tiles}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A compared tile that is not iota, splat, constant or their sum.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %cb = tile.splat %j0 : index -> tensor<4x64xindex>
      %cols = arith.muli %cb, %ciota : tensor<4x64xindex>
      %in = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      // expected-note @below {{this select is not one: a compared tile comes from 'arith.muli'; lane indices are tile.iota, tile.splat of an index and index constants, added by arith.addi}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// An unsigned comparison whose offset may be negative (j0 - 1 at the
// first tile): each lane's comparison would wrap where the guard's would not.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %jm = arith.subi %j0, %c1 : index
      %cb = tile.splat %jm : index -> tensor<4x64xindex>
      %cols = arith.addi %cb, %ciota : tensor<4x64xindex>
      %in = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      // expected-note @below {{this select is not one: its unsigned arith.cmpi offsets the lanes by a scalar from 'arith.subi' that is not provably non-negative (each lane's comparison would wrap where the guard's does not); compare signed, or offset by grid coordinates, extents, tile sizes and loop counters}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The same with a negative constant.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %cb = tile.splat %j0 : index -> tensor<4x64xindex>
      %m1 = arith.constant dense<-1> : tensor<4x64xindex>
      %c0s = arith.addi %cb, %ciota : tensor<4x64xindex>
      %cols = arith.addi %c0s, %m1 : tensor<4x64xindex>
      %in = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      // expected-note @below {{this select is not one: its unsigned arith.cmpi adds a negative constant to the lane indices (each lane's comparison would wrap where the guard's does not)}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A select already in a boundary branch (an scf.if whose other branch
// yields the unmasked tile: a kernel that branches on its masks by hand, as
// the attention kernels do) is left alone.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %last = arith.cmpi eq, %j, %c0 : index
      %y = scf.if %last -> (tensor<4x64xf32>) {
        %cb = tile.splat %j0 : index -> tensor<4x64xindex>
        %cols = arith.addi %cb, %ciota : tensor<4x64xindex>
        %in = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      // expected-note @below {{this select is not one: it is in a branch of an scf.if whose other branch yields the unmasked tile (the kernel masks only its boundary tiles already)}}
        %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
        scf.yield %y : tensor<4x64xf32>
      } else {
        scf.yield %x : tensor<4x64xf32>
      }
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A compared tile carried by a loop: its lanes hold whatever the previous
// iteration left there, not indices the guard can bound.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    %step = arith.constant dense<64> : tensor<4x64xindex>
    %last = scf.for %j = %c0 to %nt step %c1 iter_args(%cols = %ciota) -> (tensor<4x64xindex>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %in = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      // expected-note @below {{this select is not one: a compared tile is a block argument (a loop-carried tile), not lane indices computed in the kernel}}
      %y = arith.select %in, %x, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
      %next = arith.addi %cols, %step : tensor<4x64xindex>
      scf.yield %next : tensor<4x64xindex>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Applied twice: the second finds the branches the first made.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]},
                 %Y: memref<?xf32> {tile.dims = ["N"]})
      params {BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv dims [0] : !tile.part<64xf32>
    %n = tile.extent %Xv[0] : !tile.part<64xf32, pad = zero>
    %x = tile.load %Xv[%b] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
    %i = tile.iota dim 0 : tensor<64xindex>
    %n1 = tile.splat %n : index -> tensor<64xindex>
    %in = arith.cmpi ult, %i, %n1 : tensor<64xindex>
    %zeros = arith.constant dense<0.0> : tensor<64xf32>
    %y = arith.select %in, %x, %zeros : tensor<64xi1>, tensor<64xf32>
    tile.store %y, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k already masks only its boundary tiles (the scf.if marked tile.boundary_masks); apply the op once per kernel}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A constant tile whose lanes differ is not an offset the guard can bound.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]},
                 %Y: memref<?xf32> {tile.dims = ["N"]})
      params {num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [4] pad(zero) : memref<?xf32> -> !tile.part<4xf32, pad = zero>
    %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
    %b = tile.grid %Yv dims [0] : !tile.part<4xf32>
    %n = tile.extent %Xv[0] : !tile.part<4xf32, pad = zero>
    %x = tile.load %Xv[%b] : !tile.part<4xf32, pad = zero> -> tensor<4xf32>
    %lanes = arith.constant dense<[0, 2, 1, 3]> : tensor<4xindex>
    %n1 = tile.splat %n : index -> tensor<4xindex>
    %in = arith.cmpi ult, %lanes, %n1 : tensor<4xindex>
    %zeros = arith.constant dense<0.0> : tensor<4xf32>
    // expected-note @below {{this select is not one: a compared tile is a constant whose lanes differ}}
    %y = arith.select %in, %x, %zeros : tensor<4xi1>, tensor<4xf32>
    tile.store %y, %Yv[%b] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mask_boundary_tiles: @k has no arith.select on a comparison of lane indices; mask_boundary_tiles has no mask to move}}
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}
