// Batch norm (training mode) backward, input gradient, per column j:
//   dx = rstd * w * (dy - mean(dy) - xhat * mean(dy * xhat)),
// with the mean, rstd and xhat = (x - mean) * rstd of batchnorm_train, all
// over the M rows (g = dy * w of the usual form, with w taken out of the
// column means). Two kernels. @batchnorm_backward_moments reads x and dy
// once and sums, down each column over the rows inside M (a tile.iota mask
// along dim 0: padded zeros are not neutral for x - s), five tiles into
// @main temporaries: x, d = x - s, d * d, dy and dy * d, with the shift
// s = x[0, j] (tasks/col_var_mean/kernel.mlir says why one pass needs it).
// It is a one-pass column sum, which transform.tile.split_reduction splits
// across CTAs. @batchnorm_backward_dx, elementwise on a grid over both dims,
// turns the sums into
//   mean = SX / M,   var = max(SD2 - SD * SD / M, 0) / M,
//   mean(dy) = SG / M,   mean(dy * xhat) = rstd * (SGD - SG * SD / M) / M
// (sum_i dy_i (x_i - mean) = SGD - SG * (mean - s), and mean - s = SD / M)
// and writes dx.
tile.kernel @batchnorm_backward_moments(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                        %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                        %SX: memref<?xf32> {tile.dims = ["N"]},
                                        %SD: memref<?xf32> {tile.dims = ["N"]},
                                        %SD2: memref<?xf32> {tile.dims = ["N"]},
                                        %SG: memref<?xf32> {tile.dims = ["N"]},
                                        %SGD: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %X0v = tile.partition %X tile [1, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x128xf32, pad = zero>
  %SXv = tile.partition %SX tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %SDv = tile.partition %SD tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %SD2v = tile.partition %SD2 tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %SGv = tile.partition %SG tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %SGDv = tile.partition %SGD tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %c = tile.grid %SXv : !tile.part<128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %row0 = arith.constant dense<0> : tensor<32x128xi32>
  %shift = tile.gather %X0v[%c0, %c] dim 0 by %row0 : !tile.part<1x128xf32, pad = zero>, tensor<32x128xi32> -> tensor<32x128xf32>
  %rows = tile.iota dim 0 : tensor<32x128xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %mi2d = tile.splat %m : index -> tensor<32x128xindex>
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %sums:5 = scf.for %i = %c0 to %mt step %c1
      iter_args(%ax = %zero, %ad = %zero, %ad2 = %zero, %ag = %zero, %agd = %zero)
      -> (tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %dy = tile.load %DYv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %d = arith.subf %x, %shift : tensor<32x128xf32>
    %i0 = arith.muli %i, %br : index
    %base = tile.splat %i0 : index -> tensor<32x128xindex>
    %row = arith.addi %base, %rows : tensor<32x128xindex>
    %inb = arith.cmpi ult, %row, %mi2d : tensor<32x128xindex>
    %dm = arith.select %inb, %d, %zero : tensor<32x128xi1>, tensor<32x128xf32>
    %d2 = arith.mulf %dm, %dm : tensor<32x128xf32>
    %gd = arith.mulf %dy, %dm : tensor<32x128xf32>
    %ax1 = arith.addf %ax, %x : tensor<32x128xf32>
    %ad1 = arith.addf %ad, %dm : tensor<32x128xf32>
    %ad21 = arith.addf %ad2, %d2 : tensor<32x128xf32>
    %ag1 = arith.addf %ag, %dy : tensor<32x128xf32>
    %agd1 = arith.addf %agd, %gd : tensor<32x128xf32>
    scf.yield %ax1, %ad1, %ad21, %ag1, %agd1 : tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32x128xf32>
  }
  %sx = tile.reduce add %sums#0 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sx, %SXv[%c] : tensor<128xf32>, !tile.part<128xf32>
  %sd = tile.reduce add %sums#1 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sd, %SDv[%c] : tensor<128xf32>, !tile.part<128xf32>
  %sd2 = tile.reduce add %sums#2 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sd2, %SD2v[%c] : tensor<128xf32>, !tile.part<128xf32>
  %sg = tile.reduce add %sums#3 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sg, %SGv[%c] : tensor<128xf32>, !tile.part<128xf32>
  %sgd = tile.reduce add %sums#4 dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %sgd, %SGDv[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

tile.kernel @batchnorm_backward_dx(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %W: memref<?xf32> {tile.dims = ["N"]},
                                  %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %SX: memref<?xf32> {tile.dims = ["N"]},
                                  %SD: memref<?xf32> {tile.dims = ["N"]},
                                  %SD2: memref<?xf32> {tile.dims = ["N"]},
                                  %SG: memref<?xf32> {tile.dims = ["N"]},
                                  %SGD: memref<?xf32> {tile.dims = ["N"]},
                                  %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %SXv = tile.partition %SX tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %SDv = tile.partition %SD tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %SD2v = tile.partition %SD2 tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %SGv = tile.partition %SG tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %SGDv = tile.partition %SGD tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %DXv = tile.partition %DX tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r, %c = tile.grid %DXv : !tile.part<4x1024xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
  %dy = tile.load %DYv[%r, %c] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
  %W1 = tile.load %Wv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %sx = tile.load %SXv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %sd = tile.load %SDv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %sd2 = tile.load %SD2v[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %sg = tile.load %SGv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %sgd = tile.load %SGDv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %m = tile.extent %Xv[0] : !tile.part<4x1024xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %mvec = tile.splat %m_f32 : f32 -> tensor<1024xf32>
  %Mean1 = arith.divf %sx, %mvec : tensor<1024xf32>
  %dmean = arith.divf %sd, %mvec : tensor<1024xf32>
  %sdsq = arith.mulf %sd, %dmean : tensor<1024xf32>
  %centred = arith.subf %sd2, %sdsq : tensor<1024xf32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %nonneg = arith.maximumf %centred, %zero : tensor<1024xf32>
  %Var1 = arith.divf %nonneg, %mvec : tensor<1024xf32>
  %eps = arith.constant dense<1.0e-5> : tensor<1024xf32>
  %vare = arith.addf %Var1, %eps : tensor<1024xf32>
  %rstd1 = math.rsqrt %vare : tensor<1024xf32>
  %Mdy1 = arith.divf %sg, %mvec : tensor<1024xf32>
  %sgdm = arith.mulf %sg, %dmean : tensor<1024xf32>
  %sgdc = arith.subf %sgd, %sgdm : tensor<1024xf32>
  %sgdr = arith.mulf %sgdc, %rstd1 : tensor<1024xf32>
  %Mdyx1 = arith.divf %sgdr, %mvec : tensor<1024xf32>
  %scale1 = arith.mulf %rstd1, %W1 : tensor<1024xf32>
  %mean = tile.broadcast %Mean1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %rstd = tile.broadcast %rstd1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %scale = tile.broadcast %scale1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %mdy = tile.broadcast %Mdy1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %mdyx = tile.broadcast %Mdyx1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %d = arith.subf %x, %mean : tensor<4x1024xf32>
  %xhat = arith.mulf %d, %rstd : tensor<4x1024xf32>
  %t1 = arith.subf %dy, %mdy : tensor<4x1024xf32>
  %t2 = arith.mulf %xhat, %mdyx : tensor<4x1024xf32>
  %t3 = arith.subf %t1, %t2 : tensor<4x1024xf32>
  %dx = arith.mulf %t3, %scale : tensor<4x1024xf32>
  tile.store %dx, %DXv[%r, %c] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %w: memref<?xf32>, %dy: memref<?x?xf32>,
                %dx: memref<?x?xf32>) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %sx = memref.alloc(%n) : memref<?xf32>
  %sd = memref.alloc(%n) : memref<?xf32>
  %sd2 = memref.alloc(%n) : memref<?xf32>
  %sg = memref.alloc(%n) : memref<?xf32>
  %sgd = memref.alloc(%n) : memref<?xf32>
  tile.launch @batchnorm_backward_moments(%x, %dy, %sx, %sd, %sd2, %sg, %sgd)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>,
         memref<?xf32>, memref<?xf32>) -> ()
  tile.launch @batchnorm_backward_dx(%x, %w, %dy, %sx, %sd, %sd2, %sg, %sgd, %dx)
      : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>,
         memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %sx : memref<?xf32>
  memref.dealloc %sd : memref<?xf32>
  memref.dealloc %sd2 : memref<?xf32>
  memref.dealloc %sg : memref<?xf32>
  memref.dealloc %sgd : memref<?xf32>
  return
}
