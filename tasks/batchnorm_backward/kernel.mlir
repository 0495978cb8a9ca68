// Batch norm (training mode) backward, input gradient, per column j:
//   dx = rstd * w * (dy - mean(dy) - xhat * mean(dy * xhat)),
// with the mean, rstd and xhat = (x - mean) * rstd of batchnorm_train, all
// over the M rows (g = dy * w of the usual form, with w taken out of the
// column means). Five kernels: four column sums into temporaries that @main
// allocates (the mean of x, the biased variance, the mean of dy, the mean of
// dy * xhat), each a one-pass sum that transform.tile.split_reduction splits
// across CTAs, then @batchnorm_backward_dx elementwise on a grid over both
// dims. The variance and the dy * xhat sum mask rows past M with a
// tile.iota of dim 0: padded zeros are not neutral for (x - mean)^2, and a
// padded row's xhat = -mean * rstd times a zero dy is zero only when rstd is
// finite, which tile-verify cannot assume.
tile.kernel @batchnorm_backward_mean(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
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
  %acc = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %xm = arith.divf %x, %m2d : tensor<16x256xf32>
    %s = arith.addf %a, %xm : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  %mean = tile.reduce add %acc dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  tile.store %mean, %Meanv[%c] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}

tile.kernel @batchnorm_backward_var(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
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
  %zero = arith.constant dense<0.0> : tensor<16x256xf32>
  %Mean1 = tile.load %Meanv[%c] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %Mean2d = tile.broadcast %Mean1 dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %rows = tile.iota dim 0 : tensor<16x256xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %mi2d = tile.splat %m : index -> tensor<16x256xindex>
  %acc = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %d = arith.subf %x, %Mean2d : tensor<16x256xf32>
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
  %var = tile.reduce add %acc dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  tile.store %var, %Varv[%c] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}

tile.kernel @batchnorm_backward_mean_dy(%DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                        %Mdy: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 16, BN = 256, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x256xf32, pad = zero>
  %Mdyv = tile.partition %Mdy tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %c = tile.grid %Mdyv : !tile.part<256xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %m2d = tile.splat %m_f32 : f32 -> tensor<16x256xf32>
  %zero = arith.constant dense<0.0> : tensor<16x256xf32>
  %acc = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %dy = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %dym = arith.divf %dy, %m2d : tensor<16x256xf32>
    %s = arith.addf %a, %dym : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  %mdy = tile.reduce add %acc dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  tile.store %mdy, %Mdyv[%c] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}

tile.kernel @batchnorm_backward_mean_dy_xhat(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                             %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                             %Mean: memref<?xf32> {tile.dims = ["N"]},
                                             %Var: memref<?xf32> {tile.dims = ["N"]},
                                             %Mdyx: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 16, BN = 256, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x256xf32, pad = zero>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x256xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Varv = tile.partition %Var tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Mdyxv = tile.partition %Mdyx tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %c = tile.grid %Mdyxv : !tile.part<256xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %m2d = tile.splat %m_f32 : f32 -> tensor<16x256xf32>
  %zero = arith.constant dense<0.0> : tensor<16x256xf32>
  %Mean1 = tile.load %Meanv[%c] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %Mean2d = tile.broadcast %Mean1 dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %var1 = tile.load %Varv[%c] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %eps = arith.constant dense<1.0e-5> : tensor<256xf32>
  %vare = arith.addf %var1, %eps : tensor<256xf32>
  %rstd1 = math.rsqrt %vare : tensor<256xf32>
  %rstd2d = tile.broadcast %rstd1 dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %rows = tile.iota dim 0 : tensor<16x256xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %mi2d = tile.splat %m : index -> tensor<16x256xindex>
  %acc = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %dy = tile.load %DYv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %d = arith.subf %x, %Mean2d : tensor<16x256xf32>
    %xhat = arith.mulf %d, %rstd2d : tensor<16x256xf32>
    %gx = arith.mulf %dy, %xhat : tensor<16x256xf32>
    %gxm = arith.divf %gx, %m2d : tensor<16x256xf32>
    %i0 = arith.muli %i, %br : index
    %base = tile.splat %i0 : index -> tensor<16x256xindex>
    %row = arith.addi %base, %rows : tensor<16x256xindex>
    %inb = arith.cmpi ult, %row, %mi2d : tensor<16x256xindex>
    %masked = arith.select %inb, %gxm, %zero : tensor<16x256xi1>, tensor<16x256xf32>
    %s = arith.addf %a, %masked : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  %mdyx = tile.reduce add %acc dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  tile.store %mdyx, %Mdyxv[%c] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}

tile.kernel @batchnorm_backward_dx(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %W: memref<?xf32> {tile.dims = ["N"]},
                                  %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %Mean: memref<?xf32> {tile.dims = ["N"]},
                                  %Var: memref<?xf32> {tile.dims = ["N"]},
                                  %Mdy: memref<?xf32> {tile.dims = ["N"]},
                                  %Mdyx: memref<?xf32> {tile.dims = ["N"]},
                                  %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Varv = tile.partition %Var tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Mdyv = tile.partition %Mdy tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Mdyxv = tile.partition %Mdyx tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %DXv = tile.partition %DX tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r, %c = tile.grid %DXv : !tile.part<4x1024xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
  %dy = tile.load %DYv[%r, %c] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
  %W1 = tile.load %Wv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %Mean1 = tile.load %Meanv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %Var1 = tile.load %Varv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %Mdy1 = tile.load %Mdyv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %Mdyx1 = tile.load %Mdyxv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %eps = arith.constant dense<1.0e-5> : tensor<1024xf32>
  %vare = arith.addf %Var1, %eps : tensor<1024xf32>
  %rstd1 = math.rsqrt %vare : tensor<1024xf32>
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
  %mean = memref.alloc(%n) : memref<?xf32>
  %var = memref.alloc(%n) : memref<?xf32>
  %mdy = memref.alloc(%n) : memref<?xf32>
  %mdyx = memref.alloc(%n) : memref<?xf32>
  tile.launch @batchnorm_backward_mean(%x, %mean) : (memref<?x?xf32>, memref<?xf32>) -> ()
  tile.launch @batchnorm_backward_var(%x, %mean, %var)
      : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  tile.launch @batchnorm_backward_mean_dy(%dy, %mdy) : (memref<?x?xf32>, memref<?xf32>) -> ()
  tile.launch @batchnorm_backward_mean_dy_xhat(%x, %dy, %mean, %var, %mdyx)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  tile.launch @batchnorm_backward_dx(%x, %w, %dy, %mean, %var, %mdy, %mdyx, %dx)
      : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>,
         memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %mean : memref<?xf32>
  memref.dealloc %var : memref<?xf32>
  memref.dealloc %mdy : memref<?xf32>
  memref.dealloc %mdyx : memref<?xf32>
  return
}
