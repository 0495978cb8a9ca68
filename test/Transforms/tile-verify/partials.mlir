// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C1,C2,C3,C9"

// Partial results combined by a later kernel: an argument marked
// tile.partials = d holds, along dim d, partial reductions that a later
// launch combines (tasks/col_argmax). C9 counts the k tiles that reach an
// output tile over every block and every coordinate along dim d, as for
// tile.atomic_add: together the partials must see each k tile exactly once.
// Block (jb, c) reduces row tiles [c * 4, min(c * 4 + 4, ceildiv(M, 64)))
// of its columns; P = ceildiv(M, BS) is a requires fact (task.json derives
// P from M).

// Chunks of 4 row tiles, one partial per chunk: proved.
tile.kernel @partials(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %PM: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 0},
                      %PI: memref<?x?xi32> {tile.dims = ["P", "N"], tile.partials = 0})
    params {BS = 256} requires ["P == ceildiv(M, BS)"] {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [64, 32] pad(neg_inf) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = neg_inf>
  %Xc = tile.partition %X tile [BS, 32] : memref<?x?xf32> -> !tile.part<256x32xf32>
  %PMv = tile.partition %PM tile [1, 32] : memref<?x?xf32> -> !tile.part<1x32xf32>
  %PIv = tile.partition %PI tile [1, 32] : memref<?x?xi32> -> !tile.part<1x32xi32>
  %jb, %c = tile.grid %PMv dims [1, 0] : !tile.part<1x32xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %br = tile.tile_size %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %bs = tile.tile_size %Xc[0] : !tile.part<256x32xf32>
  %per = arith.divui %bs, %br : index
  %lo = arith.muli %c, %per : index
  %end = arith.addi %lo, %per : index
  %hi = arith.minsi %end, %mt : index
  %ninf = arith.constant dense<0xFF800000> : tensor<32xf32>
  %best = scf.for %i = %lo to %hi step %c1 iter_args(%m = %ninf) -> (tensor<32xf32>) {
    %x = tile.load %Xv[%i, %jb] : !tile.part<64x32xf32, pad = neg_inf> -> tensor<64x32xf32>
    %t = tile.reduce max %x dim 0 : tensor<64x32xf32> -> tensor<32xf32>
    %n = arith.maximumf %m, %t : tensor<32xf32>
    scf.yield %n : tensor<32xf32>
  }
  %count = arith.fptosi %best : tensor<32xf32> to tensor<32xi32>
  %b2 = tile.expand_dims %best dim 0 : tensor<32xf32> -> tensor<1x32xf32>
  %c2 = tile.expand_dims %count dim 0 : tensor<32xi32> -> tensor<1x32xi32>
  tile.store %b2, %PMv[%c, %jb] : tensor<1x32xf32>, !tile.part<1x32xf32>
  tile.store %c2, %PIv[%c, %jb] : tensor<1x32xi32>, !tile.part<1x32xi32>
  tile.return
}

// -----

// Chunks one tile short: the last row tile of each chunk is never reduced.
tile.kernel @partials_gap(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %PM: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 0})
    params {BS = 256} requires ["P == ceildiv(M, BS)"] {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [64, 32] pad(neg_inf) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = neg_inf>
  %Xc = tile.partition %X tile [BS, 32] : memref<?x?xf32> -> !tile.part<256x32xf32>
  %PMv = tile.partition %PM tile [1, 32] : memref<?x?xf32> -> !tile.part<1x32xf32>
  %jb, %c = tile.grid %PMv dims [1, 0] : !tile.part<1x32xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %br = tile.tile_size %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %bs = tile.tile_size %Xc[0] : !tile.part<256x32xf32>
  %per = arith.divui %bs, %br : index
  %lo = arith.muli %c, %per : index
  %end = arith.addi %lo, %per : index
  %short = arith.subi %end, %c1 : index
  %hi = arith.minsi %short, %mt : index
  %ninf = arith.constant dense<0xFF800000> : tensor<32xf32>
  %best = scf.for %i = %lo to %hi step %c1 iter_args(%m = %ninf) -> (tensor<32xf32>) {
    %x = tile.load %Xv[%i, %jb] : !tile.part<64x32xf32, pad = neg_inf> -> tensor<64x32xf32>
    // expected-error @+1 {{[C9] k_gap: tile.reduce at}}
    %t = tile.reduce max %x dim 0 : tensor<64x32xf32> -> tensor<32xf32>
    %n = arith.maximumf %m, %t : tensor<32xf32>
    scf.yield %n : tensor<32xf32>
  }
  %b2 = tile.expand_dims %best dim 0 : tensor<32xf32> -> tensor<1x32xf32>
  tile.store %b2, %PMv[%c, %jb] : tensor<1x32xf32>, !tile.part<1x32xf32>
  tile.return
}

// -----

// Every block reduces the whole column and stores it as a partial: each k
// tile is seen once per partial, so P times in all.
tile.kernel @partials_whole(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %PM: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 0}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [64, 32] pad(neg_inf) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = neg_inf>
  %PMv = tile.partition %PM tile [1, 32] : memref<?x?xf32> -> !tile.part<1x32xf32>
  %jb, %c = tile.grid %PMv dims [1, 0] : !tile.part<1x32xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<32xf32>
  %best = scf.for %i = %c0 to %mt step %c1 iter_args(%m = %ninf) -> (tensor<32xf32>) {
    %x = tile.load %Xv[%i, %jb] : !tile.part<64x32xf32, pad = neg_inf> -> tensor<64x32xf32>
    // expected-error @+1 {{[C9] k_dup: k tile 0 (elements [0, 1) of M = 1) is reduced twice for the partials (dim 0) of output tile (*, 0) of PM}}
    %t = tile.reduce max %x dim 0 : tensor<64x32xf32> -> tensor<32xf32>
    %n = arith.maximumf %m, %t : tensor<32xf32>
    scf.yield %n : tensor<32xf32>
  }
  %b2 = tile.expand_dims %best dim 0 : tensor<32xf32> -> tensor<1x32xf32>
  tile.store %b2, %PMv[%c, %jb] : tensor<1x32xf32>, !tile.part<1x32xf32>
  tile.return
}

// -----

// The same whole-column reduction into an argument without tile.partials:
// one block per column block would be right, but the grid has P of them,
// each writing its own row: proved (every row holds the whole reduction).
tile.kernel @whole_rows(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %PM: memref<?x?xf32> {tile.dims = ["P", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [64, 32] pad(neg_inf) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = neg_inf>
  %PMv = tile.partition %PM tile [1, 32] : memref<?x?xf32> -> !tile.part<1x32xf32>
  %jb, %c = tile.grid %PMv dims [1, 0] : !tile.part<1x32xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<32xf32>
  %best = scf.for %i = %c0 to %mt step %c1 iter_args(%m = %ninf) -> (tensor<32xf32>) {
    %x = tile.load %Xv[%i, %jb] : !tile.part<64x32xf32, pad = neg_inf> -> tensor<64x32xf32>
    %t = tile.reduce max %x dim 0 : tensor<64x32xf32> -> tensor<32xf32>
    %n = arith.maximumf %m, %t : tensor<32xf32>
    scf.yield %n : tensor<32xf32>
  }
  %b2 = tile.expand_dims %best dim 0 : tensor<32xf32> -> tensor<1x32xf32>
  tile.store %b2, %PMv[%c, %jb] : tensor<1x32xf32>, !tile.part<1x32xf32>
  tile.return
}

// -----

// A result stored as partials at two different coordinates (chunk c into
// PM's row c, into PN's row P - 1 - c): C9 cannot tell which output tiles
// instance the chain.
tile.kernel @partials_two_places(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                 %PM: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 0},
                                 %PN: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 0})
    requires ["P == ceildiv(M, 64)"] {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [64, 32] pad(neg_inf) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = neg_inf>
  %PMv = tile.partition %PM tile [1, 32] : memref<?x?xf32> -> !tile.part<1x32xf32>
  %PNv = tile.partition %PN tile [1, 32] : memref<?x?xf32> -> !tile.part<1x32xf32>
  %jb, %c = tile.grid %PMv dims [1, 0] : !tile.part<1x32xf32>
  %p = tile.extent %PMv[0] : !tile.part<1x32xf32>
  %p1 = arith.subi %p, %c1 : index
  %r = arith.subi %p1, %c : index
  %x = tile.load %Xv[%c, %jb] : !tile.part<64x32xf32, pad = neg_inf> -> tensor<64x32xf32>
  // expected-error-re @+1 {{[C9] unsupported: cannot prove that tile.reduce at {{.*}} reduces every tile exactly once: its result reaches two ops that combine it across blocks (tile.atomic_add, or a tile.store of partials)}}
  %t = tile.reduce max %x dim 0 : tensor<64x32xf32> -> tensor<32xf32>
  %b2 = tile.expand_dims %t dim 0 : tensor<32xf32> -> tensor<1x32xf32>
  tile.store %b2, %PMv[%c, %jb] : tensor<1x32xf32>, !tile.part<1x32xf32>
  tile.store %b2, %PNv[%r, %jb] : tensor<1x32xf32>, !tile.part<1x32xf32>
  tile.return
}

// -----

// Partials in tiles of 2 along the partials dim: the one value of a block
// would fill two partials, which the combining kernel would count twice.
tile.kernel @partials_wide(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %PM: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 0})
    requires ["P == 2 * ceildiv(M, 64)"] {
  %Xv = tile.partition %X tile [64, 32] pad(neg_inf) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = neg_inf>
  %PMv = tile.partition %PM tile [2, 32] : memref<?x?xf32> -> !tile.part<2x32xf32>
  %jb, %c = tile.grid %PMv dims [1, 0] : !tile.part<2x32xf32>
  %x = tile.load %Xv[%c, %jb] : !tile.part<64x32xf32, pad = neg_inf> -> tensor<64x32xf32>
  // expected-error-re @+1 {{[C9] unsupported: cannot prove that tile.reduce at {{.*}} reduces every tile exactly once: tile.store at {{.*}} stores partials in tiles of 2 along dim 0 (tile.partials); each partial needs a tile of its own, of size 1 along that dim}}
  %t = tile.reduce max %x dim 0 : tensor<64x32xf32> -> tensor<32xf32>
  %b2 = tile.broadcast %t dims [0] : tensor<32xf32> -> tensor<2x32xf32>
  tile.store %b2, %PMv[%c, %jb] : tensor<2x32xf32>, !tile.part<2x32xf32>
  tile.return
}
