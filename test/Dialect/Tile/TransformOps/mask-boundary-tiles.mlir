// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.mask_boundary_tiles moves each chain of masking selects into
// the then branch of an scf.if on "some lane fails a comparison", derived
// from the comparisons of lane indices; the else branch yields the unmasked
// tile.

// A causal mask over column tiles (causal_softmax's shape): a chain of two
// selects (cols < N, then cols <= rows) masks the tile. The guard is
// j0 + (BN - 1) >= N or j0 + (BN - 1) > r0, with BN read by tile.tile_size so
// that a later set_params keeps it right; the per-tile splat, add and
// compares move into the branch and leave the loop body; the loop-invariant
// rows stay where they are.
// CHECK-LABEL: tile.kernel @causal
// CHECK:         %[[XV:.*]] = tile.partition %{{.*}} tile [BR, BN]
// CHECK:         %[[N:.*]] = tile.extent %[[XV]][1]
// CHECK:         %[[R0:.*]] = arith.muli
// CHECK:         %[[ROWS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<4x64xindex>
// CHECK:         %[[CIOTA:.*]] = tile.iota dim 1
// CHECK:         %[[N2D:.*]] = tile.splat %[[N]]
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[X:.*]] = tile.load
// CHECK-NEXT:      %[[J0:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT:      %[[BN:.*]] = tile.tile_size %[[XV]][1]
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LASTLANE:.*]] = arith.subi %[[BN]], %[[ONE]] : index
// CHECK-NEXT:      %[[HI:.*]] = arith.addi %[[J0]], %[[LASTLANE]] : index
// CHECK-NEXT:      %[[PAST:.*]] = arith.cmpi uge, %[[HI]], %[[N]] : index
// CHECK-NEXT:      %[[HI2:.*]] = arith.addi %[[J0]], %[[LASTLANE]] : index
// CHECK-NEXT:      %[[CROSSES:.*]] = arith.cmpi ugt, %[[HI2]], %[[R0]] : index
// CHECK-NEXT:      %[[ANY:.*]] = arith.ori %[[PAST]], %[[CROSSES]] : i1
// CHECK-NEXT:      %[[M:.*]] = scf.if %[[ANY]] -> (tensor<4x64xf32>) {
// CHECK-NEXT:        %[[CB:.*]] = tile.splat %[[J0]] : index -> tensor<4x64xindex>
// CHECK-NEXT:        %[[COLS:.*]] = arith.addi %[[CB]], %[[CIOTA]]
// CHECK-NEXT:        %[[INB:.*]] = arith.cmpi ult, %[[COLS]], %[[N2D]]
// CHECK-NEXT:        %[[CAUSAL:.*]] = arith.cmpi ule, %[[COLS]], %[[ROWS]]
// CHECK-NEXT:        %[[XIN:.*]] = arith.select %[[INB]], %[[X]], %{{.*}}
// CHECK-NEXT:        %[[XS:.*]] = arith.select %[[CAUSAL]], %[[XIN]], %{{.*}}
// CHECK-NEXT:        scf.yield %[[XS]] : tensor<4x64xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[X]] : tensor<4x64xf32>
// CHECK-NEXT:      } {tile.boundary_masks}
// CHECK-NEXT:      tile.store %[[M]]
// CHECK-NEXT:    }
module attributes {transform.with_named_sequence} {
  tile.kernel @causal(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
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
    %br = tile.tile_size %Xv[0] : !tile.part<4x64xf32, pad = zero>
    %r0 = arith.muli %r, %br : index
    %rbase = tile.splat %r0 : index -> tensor<4x64xindex>
    %riota = tile.iota dim 0 : tensor<4x64xindex>
    %rows = arith.addi %rbase, %riota : tensor<4x64xindex>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %ninf = arith.constant dense<0xFF800000> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %cb = tile.splat %j0 : index -> tensor<4x64xindex>
      %cols = arith.addi %cb, %ciota : tensor<4x64xindex>
      %inb = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<4x64xindex>
      %xin = arith.select %inb, %x, %ninf : tensor<4x64xi1>, tensor<4x64xf32>
      %xs = arith.select %causal, %xin, %ninf : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %xs, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Two chains on the same comparisons (attention's scores and
// probabilities) get an scf.if each, with the comparisons cloned into both;
// the originals, now unused, are erased. A select whose unmasked operand is
// another mask select joins that one's chain only when it is that result's
// one use: %a is also stored and exponentiated, so %c, which masks %a
// again, gets an scf.if of its own whose else branch yields %a.
// CHECK-LABEL: tile.kernel @two_chains
// CHECK:         scf.for
// CHECK-NOT:       arith.cmpi ult, %{{.*}} : tensor
// CHECK:           %[[A:.*]] = scf.if %{{.*}} -> (tensor<4x64xf32>) {
// CHECK:             arith.cmpi ult, %{{.*}} : tensor<4x64xindex>
// CHECK-NEXT:        arith.select
// CHECK-NEXT:        scf.yield
// CHECK:           } {tile.boundary_masks}
// CHECK:           %[[E:.*]] = math.exp %[[A]]
// CHECK:           %[[B:.*]] = scf.if %{{.*}} -> (tensor<4x64xf32>) {
// CHECK:             arith.cmpi ult, %{{.*}} : tensor<4x64xindex>
// CHECK-NEXT:        arith.select
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[E]]
// CHECK:           } {tile.boundary_masks}
// CHECK:           %[[C:.*]] = scf.if %{{.*}} -> (tensor<4x64xf32>) {
// CHECK:           } else {
// CHECK-NEXT:        scf.yield %[[A]]
// CHECK:           } {tile.boundary_masks}
// CHECK:           tile.store %[[A]]
// CHECK:           tile.store %[[B]]
// CHECK:           tile.store %[[C]]
module attributes {transform.with_named_sequence} {
  tile.kernel @two_chains(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Z: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %W: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 4, BN = 64, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %Zv = tile.partition %Z tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %Wv = tile.partition %W tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x64xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %n = tile.extent %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x64xf32, pad = zero>
    %ciota = tile.iota dim 1 : tensor<4x64xindex>
    %n2d = tile.splat %n : index -> tensor<4x64xindex>
    %ninf = arith.constant dense<0xFF800000> : tensor<4x64xf32>
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
      %j0 = arith.muli %j, %bn : index
      %cb = tile.splat %j0 : index -> tensor<4x64xindex>
      %cols = arith.addi %cb, %ciota : tensor<4x64xindex>
      %inb = arith.cmpi ult, %cols, %n2d : tensor<4x64xindex>
      %a = arith.select %inb, %x, %ninf : tensor<4x64xi1>, tensor<4x64xf32>
      %e = math.exp %a : tensor<4x64xf32>
      %b = arith.select %inb, %e, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      %c = arith.select %inb, %a, %zeros : tensor<4x64xi1>, tensor<4x64xf32>
      tile.store %a, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
      tile.store %b, %Zv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
      tile.store %c, %Wv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Outside a loop (a kernel whose one tile may be ragged). The comparisons
// are signed and written the other way round (N > cols, and an arith.andi
// of two), the tile's column size is a literal (no param: a constant
// span), and the lane index counts the column iota twice (2 * (16 - 1)).
// Signed comparisons take any offsets, here a difference.
// CHECK-LABEL: tile.kernel @signed_literal
// CHECK:         %[[C0:.*]] = tile.grid
// CHECK:         %[[N:.*]] = tile.extent
// CHECK:         %[[OFF:.*]] = arith.subi
// CHECK:         %[[SPAN:.*]] = arith.constant 30 : index
// CHECK-NEXT:    %[[HI:.*]] = arith.addi %[[OFF]], %[[SPAN]] : index
// CHECK-NEXT:    %[[PAST:.*]] = arith.cmpi sge, %[[HI]], %[[N]] : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpi sgt, %[[ZERO]], %[[OFF]] : index
// CHECK-NEXT:    %[[ANY:.*]] = arith.ori %[[PAST]], %[[NEG]] : i1
// CHECK-NEXT:    scf.if %[[ANY]] -> (tensor<2x16xf32>) {
// CHECK:           arith.andi
// CHECK:           arith.select
// CHECK:         } else {
// CHECK:         } {tile.boundary_masks}
module attributes {transform.with_named_sequence} {
  tile.kernel @signed_literal(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                              %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %Xv = tile.partition %X tile [BR, 16] pad(zero) : memref<?x?xf32> -> !tile.part<2x16xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, 16] : memref<?x?xf32> -> !tile.part<2x16xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x16xf32>
    %n = tile.extent %Xv[1] : !tile.part<2x16xf32, pad = zero>
    %off = arith.subi %r, %c8 : index
    %x = tile.load %Xv[%r, %c0] : !tile.part<2x16xf32, pad = zero> -> tensor<2x16xf32>
    %ob = tile.splat %off : index -> tensor<2x16xindex>
    %ci = tile.iota dim 1 : tensor<2x16xindex>
    %c1 = arith.addi %ob, %ci : tensor<2x16xindex>
    %cols = arith.addi %c1, %ci : tensor<2x16xindex>
    %n2d = tile.splat %n : index -> tensor<2x16xindex>
    %zero = arith.constant dense<0> : tensor<2x16xindex>
    %below = arith.cmpi sgt, %n2d, %cols : tensor<2x16xindex>
    %above = arith.cmpi sge, %cols, %zero : tensor<2x16xindex>
    %inside = arith.andi %below, %above : tensor<2x16xi1>
    %zeros = arith.constant dense<0.0> : tensor<2x16xf32>
    %y = arith.select %inside, %x, %zeros : tensor<2x16xi1>, tensor<2x16xf32>
    tile.store %y, %Yv[%r, %c0] : tensor<2x16xf32>, !tile.part<2x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// 0 leaves the kernel as it is.
// CHECK-LABEL: tile.kernel @off
// CHECK-NOT:     scf.if
// CHECK:         arith.select
// CHECK-NOT:     scf.if
module attributes {transform.with_named_sequence} {
  tile.kernel @off(%X: memref<?xf32> {tile.dims = ["N"]},
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
    transform.tile.mask_boundary_tiles %k 0 : !transform.any_op
    transform.yield
  }
}

// -----

// A mask inside a branch for another reason (single_pass's fast path is
// one) is rewritten in place: the new scf.if is nested in that branch. Only
// a branch whose other side yields the unmasked tile, a boundary branch
// written by hand, is left alone (mask-boundary-tiles-invalid.mlir).
// CHECK-LABEL: tile.kernel @nested
// CHECK:         scf.if %{{.*}} -> (tensor<64xf32>) {
// CHECK:           arith.cmpi uge, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[M:.*]] = scf.if %{{.*}} -> (tensor<64xf32>) {
// CHECK:             arith.select
// CHECK:           } {tile.boundary_masks}
// CHECK-NEXT:      scf.yield %[[M]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %{{.*}} : tensor<64xf32>
// CHECK-NEXT:    }
module attributes {transform.with_named_sequence} {
  tile.kernel @nested(%X: memref<?xf32> {tile.dims = ["N"]},
                      %Y: memref<?xf32> {tile.dims = ["N"]})
      params {BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv dims [0] : !tile.part<64xf32>
    %n = tile.extent %Xv[0] : !tile.part<64xf32, pad = zero>
    %x = tile.load %Xv[%b] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
    %zeros = arith.constant dense<0.0> : tensor<64xf32>
    %few = arith.cmpi ult, %n, %c2 : index
    %y = scf.if %few -> (tensor<64xf32>) {
      %i = tile.iota dim 0 : tensor<64xindex>
      %n1 = tile.splat %n : index -> tensor<64xindex>
      %in = arith.cmpi ult, %i, %n1 : tensor<64xindex>
      %m = arith.select %in, %x, %zeros : tensor<64xi1>, tensor<64xf32>
      scf.yield %m : tensor<64xf32>
    } else {
      scf.yield %zeros : tensor<64xf32>
    }
    tile.store %y, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}
