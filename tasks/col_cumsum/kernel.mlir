// Cumulative sum down the columns: y[i, j] = sum_{k <= i} x[k, j], any M.
//
// Two kernels, so that a few columns of many rows fill the GPU (one CTA
// walking all M rows of its 32 columns gave 32 CTAs at 65536 x 1024, 7% of
// the copy floor on the H200 machine, 2026-12-05). The rows are cut into P
// chunks of BS rows (task.json's derived dim P = ceildiv(M, 1024); the
// kernels require P == ceildiv(M, BS), so BS stays 1024 while the row tile
// BR may change). @col_cumsum_totals sums each chunk's columns into the
// temporary t [P, N] (marked tile.partials = 0: tile-verify's C9 proves that
// the chunks' sums together see each row tile once). @col_cumsum_apply
// gives every (chunk, column block) a CTA: the column sums of the chunks
// above it (all P totals, those of chunk c and below masked to zero) start
// its carry, and it walks the chunk's row tiles in order: a tile's
// inclusive scan along dim 0 (across the warps that share a column) plus
// the carry, the column sums of the tiles above (tile.reduce of the same
// tile). pad(zero) keeps the rows past M neutral; those lanes then hold the
// column total, which the store masks. x is read twice (the totals, then
// the scan): 1.5 times the traffic of one pass, for P times the CTAs.
tile.kernel @col_cumsum_totals(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                               %T: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 0})
    params {BR = 32, BS = 1024, BN = 128, num_warps = 4}
    requires ["P == ceildiv(M, BS)"] {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %Xc = tile.partition %X tile [BS, BN] : memref<?x?xf32> -> !tile.part<1024x128xf32>
  %Tv = tile.partition %T tile [1, BN] : memref<?x?xf32> -> !tile.part<1x128xf32>
  %jb, %c = tile.grid %Tv dims [1, 0] : !tile.part<1x128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %br = tile.tile_size %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %bs = tile.tile_size %Xc[0] : !tile.part<1024x128xf32>
  %per = arith.divui %bs, %br : index
  %lo = arith.muli %c, %per : index
  %lper = arith.addi %lo, %per : index
  %hi = arith.minsi %lper, %mt : index
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %acc = scf.for %i = %lo to %hi step %c1 iter_args(%a = %zero) -> (tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %jb] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %s = arith.addf %a, %x : tensor<32x128xf32>
    scf.yield %s : tensor<32x128xf32>
  }
  %total = tile.reduce add %acc dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  %total2 = tile.expand_dims %total dim 0 : tensor<128xf32> -> tensor<1x128xf32>
  tile.store %total2, %Tv[%c, %jb] : tensor<1x128xf32>, !tile.part<1x128xf32>
  tile.return
}

tile.kernel @col_cumsum_apply(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                              %T: memref<?x?xf32> {tile.dims = ["P", "N"]},
                              %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 32, BS = 1024, BN = 128, BP = 64, num_warps = 4}
    requires ["P == ceildiv(M, BS)"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %Xc = tile.partition %X tile [BS, BN] : memref<?x?xf32> -> !tile.part<1024x128xf32>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<32x128xf32>
  %Tv = tile.partition %T tile [BP, BN] pad(zero) : memref<?x?xf32> -> !tile.part<64x128xf32, pad = zero>
  %jb, %c = tile.grid %Xc dims [1, 0] : !tile.part<1024x128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %br = tile.tile_size %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %bs = tile.tile_size %Xc[0] : !tile.part<1024x128xf32>
  %per = arith.divui %bs, %br : index
  %lo = arith.muli %c, %per : index
  %lper = arith.addi %lo, %per : index
  %hi = arith.minsi %lper, %mt : index
  // The carry starts at the column sums of chunks 0 .. c - 1.
  %pt = tile.num_tiles %Tv[0] : !tile.part<64x128xf32, pad = zero>
  %bp = tile.tile_size %Tv[0] : !tile.part<64x128xf32, pad = zero>
  %piota = tile.iota dim 0 : tensor<64x128xindex>
  %cv = tile.splat %c : index -> tensor<64x128xindex>
  %zt = arith.constant dense<0.0> : tensor<64x128xf32>
  %above = scf.for %t = %c0 to %pt step %c1 iter_args(%a = %zt) -> (tensor<64x128xf32>) {
    %tt = tile.load %Tv[%t, %jb] : !tile.part<64x128xf32, pad = zero> -> tensor<64x128xf32>
    %t0 = arith.muli %t, %bp : index
    %tb = tile.splat %t0 : index -> tensor<64x128xindex>
    %chunks = arith.addi %tb, %piota : tensor<64x128xindex>
    %before = arith.cmpi ult, %chunks, %cv : tensor<64x128xindex>
    %kept = arith.select %before, %tt, %zt : tensor<64x128xi1>, tensor<64x128xf32>
    %s = arith.addf %a, %kept : tensor<64x128xf32>
    scf.yield %s : tensor<64x128xf32>
  }
  %offset = tile.reduce add %above dim 0 : tensor<64x128xf32> -> tensor<128xf32>
  %total = scf.for %i = %lo to %hi step %c1 iter_args(%carry = %offset) -> (tensor<128xf32>) {
    %x = tile.load %Xv[%i, %jb] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %s = tile.scan add %x dim 0 : tensor<32x128xf32>
    %cb = tile.broadcast %carry dims [0] : tensor<128xf32> -> tensor<32x128xf32>
    %y = arith.addf %cb, %s : tensor<32x128xf32>
    tile.store %y, %Yv[%i, %jb] : tensor<32x128xf32>, !tile.part<32x128xf32>
    %t = tile.reduce add %x dim 0 : tensor<32x128xf32> -> tensor<128xf32>
    %next = arith.addf %carry, %t : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  tile.return
}

// The chunk totals are [P, N] with P = ceildiv(M, 1024), task.json's
// derived dim; the runner allocates temporaries at the dims their kernels'
// tile.dims name, evaluated at each shape.
func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %p = arith.ceildivsi %m, %c1024 : index
  %t = memref.alloc(%p, %n) : memref<?x?xf32>
  tile.launch @col_cumsum_totals(%x, %t) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  tile.launch @col_cumsum_apply(%x, %t, %y) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %t : memref<?x?xf32>
  return
}
