// RMSNorm over the last dim of x [M, N] with weight w:
// y = x * rsqrt(mean(x^2) + eps) * w, eps = 1e-6. Pass 1 accumulates x^2
// over the column tiles (pad(zero) is neutral: 0^2 adds nothing); pass 2
// scales and stores. Rows of any length.
tile.kernel @rmsnorm(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %W: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n_i64 = arith.index_cast %n : index to i64
  %n_f32 = arith.sitofp %n_i64 : i64 to f32
  %n_t = tile.splat %n_f32 : f32 -> tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>

  // Pass 1: sum of squares.
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
  %rstd2d = tile.broadcast %rstd dims [1] : tensor<4xf32> -> tensor<4x1024xf32>

  // Pass 2: scale, weight, store.
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %w1 = tile.load %Wv[%j] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
    %w = tile.broadcast %w1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
    %xn = arith.mulf %x, %rstd2d : tensor<4x1024xf32>
    %y = arith.mulf %xn, %w : tensor<4x1024xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %w: memref<?xf32>, %y: memref<?x?xf32>) {
  tile.launch @rmsnorm(%x, %w, %y) : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  return
}
