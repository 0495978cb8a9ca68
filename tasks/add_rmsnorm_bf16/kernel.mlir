// The fused residual step of LLaMA-style models in bf16: h = x + r (the new
// residual stream, rounded to bf16 once) and y = h * rsqrt(mean(h^2) + eps)
// * w with eps = 1e-6, computed in f32 from the unrounded sum and rounded
// once. Pass 1 adds, stores h and accumulates h^2 over the column tiles
// (pad(zero) is neutral: 0 + 0 squared adds nothing); pass 2 loads x and r
// again (h is an output: the kernel never reads it back), scales and stores
// y. Rows of any length.
tile.kernel @add_rmsnorm_bf16(%X: memref<?x?xbf16> {tile.dims = ["M", "N"]},
                              %R: memref<?x?xbf16> {tile.dims = ["M", "N"]},
                              %W: memref<?xbf16> {tile.dims = ["N"]},
                              %H: memref<?x?xbf16> {tile.dims = ["M", "N"]},
                              %Y: memref<?x?xbf16> {tile.dims = ["M", "N"]})
    params {BR = 1, BN = 2048, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xbf16> -> !tile.part<1x2048xbf16, pad = zero>
  %Rv = tile.partition %R tile [BR, BN] pad(zero) : memref<?x?xbf16> -> !tile.part<1x2048xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xbf16> -> !tile.part<2048xbf16, pad = zero>
  %Hv = tile.partition %H tile [BR, BN] : memref<?x?xbf16> -> !tile.part<1x2048xbf16>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xbf16> -> !tile.part<1x2048xbf16>
  %r = tile.grid %Yv dims [0] : !tile.part<1x2048xbf16>
  %nt = tile.num_tiles %Xv[1] : !tile.part<1x2048xbf16, pad = zero>
  %n = tile.extent %Xv[1] : !tile.part<1x2048xbf16, pad = zero>
  %n_i64 = arith.index_cast %n : index to i64
  %n_f32 = arith.sitofp %n_i64 : i64 to f32
  %n_t = tile.splat %n_f32 : f32 -> tensor<1xf32>
  %zero = arith.constant dense<0.0> : tensor<1x2048xf32>

  // Pass 1: the residual sum, stored, and its sum of squares.
  %sq2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<1x2048xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x2048xbf16, pad = zero> -> tensor<1x2048xbf16>
    %rr = tile.load %Rv[%r, %j] : !tile.part<1x2048xbf16, pad = zero> -> tensor<1x2048xbf16>
    %x32 = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
    %r32 = arith.extf %rr : tensor<1x2048xbf16> to tensor<1x2048xf32>
    %h32 = arith.addf %x32, %r32 : tensor<1x2048xf32>
    %h = arith.truncf %h32 : tensor<1x2048xf32> to tensor<1x2048xbf16>
    tile.store %h, %Hv[%r, %j] : tensor<1x2048xbf16>, !tile.part<1x2048xbf16>
    %h2 = arith.mulf %h32, %h32 : tensor<1x2048xf32>
    %s = arith.addf %a, %h2 : tensor<1x2048xf32>
    scf.yield %s : tensor<1x2048xf32>
  }
  %sq = tile.reduce add %sq2d dim 1 : tensor<1x2048xf32> -> tensor<1xf32>
  %ms = arith.divf %sq, %n_t : tensor<1xf32>
  %eps = arith.constant dense<1.0e-6> : tensor<1xf32>
  %mse = arith.addf %ms, %eps : tensor<1xf32>
  %rstd = math.rsqrt %mse : tensor<1xf32>
  %rstd2d = tile.broadcast %rstd dims [1] : tensor<1xf32> -> tensor<1x2048xf32>

  // Pass 2: the sum again from x and r, scaled, weighted, rounded, stored.
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x2048xbf16, pad = zero> -> tensor<1x2048xbf16>
    %rr = tile.load %Rv[%r, %j] : !tile.part<1x2048xbf16, pad = zero> -> tensor<1x2048xbf16>
    %x32 = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
    %r32 = arith.extf %rr : tensor<1x2048xbf16> to tensor<1x2048xf32>
    %h32 = arith.addf %x32, %r32 : tensor<1x2048xf32>
    %w1 = tile.load %Wv[%j] : !tile.part<2048xbf16, pad = zero> -> tensor<2048xbf16>
    %w32 = arith.extf %w1 : tensor<2048xbf16> to tensor<2048xf32>
    %w = tile.broadcast %w32 dims [0] : tensor<2048xf32> -> tensor<1x2048xf32>
    %hn = arith.mulf %h32, %rstd2d : tensor<1x2048xf32>
    %y32 = arith.mulf %hn, %w : tensor<1x2048xf32>
    %y = arith.truncf %y32 : tensor<1x2048xf32> to tensor<1x2048xbf16>
    tile.store %y, %Yv[%r, %j] : tensor<1x2048xbf16>, !tile.part<1x2048xbf16>
  }
  tile.return
}

func.func @main(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %w: memref<?xbf16>,
                %h: memref<?x?xbf16>, %y: memref<?x?xbf16>) {
  tile.launch @add_rmsnorm_bf16(%x, %r, %w, %h, %y)
      : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
  return
}
