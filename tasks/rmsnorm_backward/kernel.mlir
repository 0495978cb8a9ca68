// RMSNorm backward, input gradient: with rstd = rsqrt(mean(x^2) + eps) and
// g = dy * w per row,
//   dx = rstd * g - x * rstd^3 * mean(g * x).
// Three passes over the column tiles of BR rows: the sum of x^2, the sum of
// g * x (pad(zero) on x, w and dy makes both zero on padded lanes), dx.
tile.kernel @rmsnorm_backward(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                              %W: memref<?xf32> {tile.dims = ["N"]},
                              %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                              %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %DXv = tile.partition %DX tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %DXv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n_i64 = arith.index_cast %n : index to i64
  %n_f32 = arith.sitofp %n_i64 : i64 to f32
  %n_t = tile.splat %n_f32 : f32 -> tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>

  // Pass 1: rstd.
  %sq2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %x2 = arith.mulf %x, %x : tensor<4x1024xf32>
    %s = arith.addf %a, %x2 : tensor<4x1024xf32>
    scf.yield %s : tensor<4x1024xf32>
  }
  %sq = tile.reduce add %sq2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %ms = arith.divf %sq, %n_t : tensor<4xf32>
  %eps = arith.constant dense<1.0e-6> : tensor<4xf32>
  %mse = arith.addf %ms, %eps : tensor<4xf32>
  %rstd = math.rsqrt %mse : tensor<4xf32>

  // Pass 2: mean of g * x.
  %sgx2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %dy = tile.load %DYv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %w1 = tile.load %Wv[%j] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
    %w = tile.broadcast %w1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
    %g = arith.mulf %dy, %w : tensor<4x1024xf32>
    %gx = arith.mulf %g, %x : tensor<4x1024xf32>
    %s = arith.addf %a, %gx : tensor<4x1024xf32>
    scf.yield %s : tensor<4x1024xf32>
  }
  %sgx = tile.reduce add %sgx2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %mgx = arith.divf %sgx, %n_t : tensor<4xf32>
  %rstd2 = arith.mulf %rstd, %rstd : tensor<4xf32>
  %rstd3 = arith.mulf %rstd2, %rstd : tensor<4xf32>
  %coef = arith.mulf %rstd3, %mgx : tensor<4xf32>
  %rstd2d = tile.broadcast %rstd dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %coef2d = tile.broadcast %coef dims [1] : tensor<4xf32> -> tensor<4x1024xf32>

  // Pass 3: dx.
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %dy = tile.load %DYv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %w1 = tile.load %Wv[%j] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
    %w = tile.broadcast %w1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
    %g = arith.mulf %dy, %w : tensor<4x1024xf32>
    %t1 = arith.mulf %g, %rstd2d : tensor<4x1024xf32>
    %t2 = arith.mulf %x, %coef2d : tensor<4x1024xf32>
    %dx = arith.subf %t1, %t2 : tensor<4x1024xf32>
    tile.store %dx, %DXv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %w: memref<?xf32>, %dy: memref<?x?xf32>,
                %dx: memref<?x?xf32>) {
  tile.launch @rmsnorm_backward(%x, %w, %dy, %dx)
      : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
