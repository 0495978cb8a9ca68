// Batch norm in training mode over x [M, N]: each column (channel) is
// normalized with its own mean and biased variance over the M rows, then
// scaled by w and shifted by b (eps = 1e-5). Three kernels: @batchnorm_mean
// sums x / M down the columns into a temporary mean, @batchnorm_var sums
// (x - mean)^2 / M over the rows inside M (a tile.iota mask along dim 0:
// padded zeros are not neutral there) into a temporary var, and
// @batchnorm_apply normalizes every element. The two statistics kernels are
// one-pass column sums, which transform.tile.split_reduction splits across
// CTAs; the last is elementwise, so every kernel can fill the GPU.
tile.kernel @batchnorm_mean(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %Mean: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 16, BN = 256, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x256xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %c = tile.grid %Meanv : !tile.part<256xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %m2d = tile.splat %m_f32 : f32 -> tensor<16x256xf32>
  %zero = arith.constant dense<0.0> : tensor<16x256xf32>
  %sum2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %xm = arith.divf %x, %m2d : tensor<16x256xf32>
    %s = arith.addf %a, %xm : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  %mean = tile.reduce add %sum2d dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  tile.store %mean, %Meanv[%c] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}

tile.kernel @batchnorm_var(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %Mean: memref<?xf32> {tile.dims = ["N"]},
                           %Var: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 16, BN = 256, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x256xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Varv = tile.partition %Var tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %c = tile.grid %Varv : !tile.part<256xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %m2d = tile.splat %m_f32 : f32 -> tensor<16x256xf32>
  %mean1 = tile.load %Meanv[%c] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %mean2d = tile.broadcast %mean1 dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %rows = tile.iota dim 0 : tensor<16x256xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %mi2d = tile.splat %m : index -> tensor<16x256xindex>
  %zero = arith.constant dense<0.0> : tensor<16x256xf32>
  %sq2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %d = arith.subf %x, %mean2d : tensor<16x256xf32>
    %d2 = arith.mulf %d, %d : tensor<16x256xf32>
    %d2m = arith.divf %d2, %m2d : tensor<16x256xf32>
    %i0 = arith.muli %i, %br : index
    %base = tile.splat %i0 : index -> tensor<16x256xindex>
    %row = arith.addi %base, %rows : tensor<16x256xindex>
    %inb = arith.cmpi ult, %row, %mi2d : tensor<16x256xindex>
    %masked = arith.select %inb, %d2m, %zero : tensor<16x256xi1>, tensor<16x256xf32>
    %s = arith.addf %a, %masked : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  %var = tile.reduce add %sq2d dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  tile.store %var, %Varv[%c] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}

tile.kernel @batchnorm_apply(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %Mean: memref<?xf32> {tile.dims = ["N"]},
                             %Var: memref<?xf32> {tile.dims = ["N"]},
                             %W: memref<?xf32> {tile.dims = ["N"]},
                             %B: memref<?xf32> {tile.dims = ["N"]},
                             %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Varv = tile.partition %Var tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r, %c = tile.grid %Yv : !tile.part<4x1024xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
  %mean1 = tile.load %Meanv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %var1 = tile.load %Varv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %w1 = tile.load %Wv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %b1 = tile.load %Bv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %eps = arith.constant dense<1.0e-5> : tensor<1024xf32>
  %vare = arith.addf %var1, %eps : tensor<1024xf32>
  %rstd1 = math.rsqrt %vare : tensor<1024xf32>
  %mean = tile.broadcast %mean1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %rstd = tile.broadcast %rstd1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %w = tile.broadcast %w1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %b = tile.broadcast %b1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %d = arith.subf %x, %mean : tensor<4x1024xf32>
  %xn = arith.mulf %d, %rstd : tensor<4x1024xf32>
  %xw = arith.mulf %xn, %w : tensor<4x1024xf32>
  %y = arith.addf %xw, %b : tensor<4x1024xf32>
  tile.store %y, %Yv[%r, %c] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %w: memref<?xf32>, %b: memref<?xf32>,
                %y: memref<?x?xf32>) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %mean = memref.alloc(%n) : memref<?xf32>
  %var = memref.alloc(%n) : memref<?xf32>
  tile.launch @batchnorm_mean(%x, %mean) : (memref<?x?xf32>, memref<?xf32>) -> ()
  tile.launch @batchnorm_var(%x, %mean, %var) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  tile.launch @batchnorm_apply(%x, %mean, %var, %w, %b, %y)
      : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %mean : memref<?xf32>
  memref.dealloc %var : memref<?xf32>
  return
}
