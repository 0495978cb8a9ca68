// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C1,C3,C9"
// RUN: kbench-opt %s -split-input-file --tile-print-access-relations \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REL
// REL: kernel @split
// REL: scope 0 (parent -1): iv0 in [block1 * 8, min((block1 * 8 + 8), ceildiv(N, 1024))) step 1

// A reduction split across CTAs: block (r, c) reduces column tiles
// [c * 8, min(c * 8 + 8, ceildiv(N, 1024))) of its rows (a loop bounded by
// arith.minsi, modelled as the conjunction of both bounds) and combines with
// tile.atomic_add. C9 proves that every output tile sees each k tile once
// over all blocks; a combine that is missing or doubled is refuted with a
// witness.

// The split as transform.tile.split_reduction writes it: proved.
tile.kernel @split(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 1024] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Cv = tile.partition %X tile [4, 8192] pad(zero) : memref<?x?xf32> -> !tile.part<4x8192xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r, %c = tile.grid %Cv : !tile.part<4x8192xf32, pad = zero>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %bs = tile.tile_size %Cv[1] : !tile.part<4x8192xf32, pad = zero>
  %per = arith.divui %bs, %bn : index
  %first = arith.muli %c, %per : index
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %end = arith.addi %first, %per : index
  %last = arith.minsi %end, %nt : index
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %acc = scf.for %j = %first to %last step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %t = arith.addf %a, %x : tensor<4x1024xf32>
    scf.yield %t : tensor<4x1024xf32>
  }
  %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  tile.atomic_add %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// -----

// Chunks that overlap by one tile: two blocks combine the same k tile.
tile.kernel @overlap(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 1024] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Cv = tile.partition %X tile [4, 8192] pad(zero) : memref<?x?xf32> -> !tile.part<4x8192xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r, %c = tile.grid %Cv : !tile.part<4x8192xf32, pad = zero>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %bs = tile.tile_size %Cv[1] : !tile.part<4x8192xf32, pad = zero>
  %per = arith.divui %bs, %bn : index
  %first = arith.muli %c, %per : index
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %end0 = arith.addi %first, %per : index
  %end = arith.addi %end0, %c1 : index
  %last = arith.minsi %end, %nt : index
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %acc = scf.for %j = %first to %last step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %t = arith.addf %a, %x : tensor<4x1024xf32>
    scf.yield %t : tensor<4x1024xf32>
  }
  // expected-error @below {{k tile 8 (elements [8192, 8193) of N = 8193) is reduced twice for output tile (0) of Y (M = 1, N = 8193): by tile.reduce at}}
  %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  tile.atomic_add %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// -----

// The combine is a plain store: each block overwrites the others' partial sums.
tile.kernel @no_combine(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 1024] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Cv = tile.partition %X tile [4, 8192] pad(zero) : memref<?x?xf32> -> !tile.part<4x8192xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r, %c = tile.grid %Cv : !tile.part<4x8192xf32, pad = zero>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %bs = tile.tile_size %Cv[1] : !tile.part<4x8192xf32, pad = zero>
  %per = arith.divui %bs, %bn : index
  %first = arith.muli %c, %per : index
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %end = arith.addi %first, %per : index
  %last = arith.minsi %end, %nt : index
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %acc = scf.for %j = %first to %last step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %t = arith.addf %a, %x : tensor<4x1024xf32>
    scf.yield %t : tensor<4x1024xf32>
  }
  // expected-error @below {{never reduces k tile 8 (elements [8192, 8193) of N = 8193) for block (0, 0)}}
  %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  // expected-error @below {{double_write: element (0) of Y is written twice for M = 1, N = 8193: by tile.store}}
  tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// -----

// Chunks one tile short: tile 7 of each chunk is never combined. (The chunk
// bounds 8 b <= k <= 8 b + 6 look like the division b = k floordiv 8; the
// set difference must not drop the tighter bound, CheckSupport.cpp toSet.)
tile.kernel @short(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 1024] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Cv = tile.partition %X tile [4, 8192] pad(zero) : memref<?x?xf32> -> !tile.part<4x8192xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r, %c = tile.grid %Cv : !tile.part<4x8192xf32, pad = zero>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %bs = tile.tile_size %Cv[1] : !tile.part<4x8192xf32, pad = zero>
  %per = arith.divui %bs, %bn : index
  %first = arith.muli %c, %per : index
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %per1 = arith.subi %per, %c1 : index
  %end = arith.addi %first, %per1 : index
  %last = arith.minsi %end, %nt : index
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %acc = scf.for %j = %first to %last step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %t = arith.addf %a, %x : tensor<4x1024xf32>
    scf.yield %t : tensor<4x1024xf32>
  }
  // expected-error @below {{never reduces k tile 7 (elements [7168, 7169) of N = 7169) for output tile (0)}}
  %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  tile.atomic_add %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
