// Column mean and unbiased variance of x [M, N] in one pass over x.
// @col_moments sums, down each column over the rows inside M (a tile.iota
// mask along dim 0: padded zeros are not neutral there), x, d = x - s and
// d * d, where the shift s is the column's first element x[0, j] (a
// tile.gather of row 0 with zero offsets, broadcast over the tile's rows).
// It is a one-pass column sum of three tiles, which
// transform.tile.split_reduction splits across CTAs. @col_finish turns the
// sums into
//   mean = SX / M,   var = max(SD2 - SD * SD / M, 0) / (M - 1).
// The shift is what makes one pass safe: E[x^2] - E[x]^2 cancels on a column
// whose mean is large next to its spread, while d is centred near the
// column's own values, so SD2 and SD * SD / M stay of the size of the
// variance (the shifted-data algorithm). Two passes (the mean first, then
// (x - mean)^2) read x twice.
tile.kernel @col_moments(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                         %SX: memref<?xf32> {tile.dims = ["N"]},
                         %SD: memref<?xf32> {tile.dims = ["N"]},
                         %SD2: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %X0v = tile.partition %X tile [1, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x128xf32, pad = zero>
  %SXv = tile.partition %SX tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %SDv = tile.partition %SD tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %SD2v = tile.partition %SD2 tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %c = tile.grid %SXv : !tile.part<128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %row0 = arith.constant dense<0> : tensor<32x128xi32>
  %shift = tile.gather %X0v[%c0, %c] dim 0 by %row0 : !tile.part<1x128xf32, pad = zero>, tensor<32x128xi32> -> tensor<32x128xf32>
  %rows = tile.iota dim 0 : tensor<32x128xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %mi2d = tile.splat %m : index -> tensor<32x128xindex>
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %sums:3 = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero, %b = %zero, %q = %zero) -> (tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %d = arith.subf %x, %shift : tensor<32x128xf32>
    %i0 = arith.muli %i, %br : index
    %base = tile.splat %i0 : index -> tensor<32x128xindex>
    %row = arith.addi %base, %rows : tensor<32x128xindex>
    %inb = arith.cmpi ult, %row, %mi2d : tensor<32x128xindex>
    %dm = arith.select %inb, %d, %zero : tensor<32x128xi1>, tensor<32x128xf32>
    %d2 = arith.mulf %dm, %dm : tensor<32x128xf32>
    %a1 = arith.addf %a, %x : tensor<32x128xf32>
    %b1 = arith.addf %b, %dm : tensor<32x128xf32>
    %q1 = arith.addf %q, %d2 : tensor<32x128xf32>
    scf.yield %a1, %b1, %q1 : tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>
  }
  %sx = tile.reduce add %sums#0 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sx, %SXv[%c] : tensor<128xf32>, !tile.part<128xf32>
  %sd = tile.reduce add %sums#1 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sd, %SDv[%c] : tensor<128xf32>, !tile.part<128xf32>
  %sd2 = tile.reduce add %sums#2 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sd2, %SD2v[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

tile.kernel @col_finish(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %SX: memref<?xf32> {tile.dims = ["N"]},
                        %SD: memref<?xf32> {tile.dims = ["N"]},
                        %SD2: memref<?xf32> {tile.dims = ["N"]},
                        %Mean: memref<?xf32> {tile.dims = ["N"]},
                        %Var: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 1024, num_warps = 4} {
  %Xv = tile.partition %X tile [1, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x1024xf32, pad = zero>
  %SXv = tile.partition %SX tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %SDv = tile.partition %SD tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %SD2v = tile.partition %SD2 tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] : memref<?xf32> -> !tile.part<1024xf32>
  %Varv = tile.partition %Var tile [BN] : memref<?xf32> -> !tile.part<1024xf32>
  %c = tile.grid %Meanv : !tile.part<1024xf32>
  %m = tile.extent %Xv[0] : !tile.part<1x1024xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %one = arith.constant 1.0 : f32
  %m1_f32 = arith.subf %m_f32, %one : f32
  %mvec = tile.splat %m_f32 : f32 -> tensor<1024xf32>
  %m1vec = tile.splat %m1_f32 : f32 -> tensor<1024xf32>
  %sx = tile.load %SXv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %sd = tile.load %SDv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %sd2 = tile.load %SD2v[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %mean = arith.divf %sx, %mvec : tensor<1024xf32>
  tile.store %mean, %Meanv[%c] : tensor<1024xf32>, !tile.part<1024xf32>
  %dmean = arith.divf %sd, %mvec : tensor<1024xf32>
  %sdsq = arith.mulf %sd, %dmean : tensor<1024xf32>
  %centred = arith.subf %sd2, %sdsq : tensor<1024xf32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %nonneg = arith.maximumf %centred, %zero : tensor<1024xf32>
  %var = arith.divf %nonneg, %m1vec : tensor<1024xf32>
  tile.store %var, %Varv[%c] : tensor<1024xf32>, !tile.part<1024xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %mean: memref<?xf32>, %var: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %sx = memref.alloc(%n) : memref<?xf32>
  %sd = memref.alloc(%n) : memref<?xf32>
  %sd2 = memref.alloc(%n) : memref<?xf32>
  tile.launch @col_moments(%x, %sx, %sd, %sd2) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  tile.launch @col_finish(%x, %sx, %sd, %sd2, %mean, %var)
      : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  memref.dealloc %sx : memref<?xf32>
  memref.dealloc %sd : memref<?xf32>
  memref.dealloc %sd2 : memref<?xf32>
  return
}
