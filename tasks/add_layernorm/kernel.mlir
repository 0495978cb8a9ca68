// Residual add then layer norm, as a pre-norm transformer block does:
// h = x + r, y = (h - mean) / sqrt(var + eps) * w + b over each row, eps =
// 1e-5. Each pass recomputes h = x + r from the inputs rather than reading
// back the h it stored: a kernel only reads inputs (C12). Pass 1 sums h
// (pad(zero) on x and r makes padded h zero, neutral for the sum), pass 2
// sums (h - mean)^2 over in-bounds columns (an iota mask), pass 3 stores h
// and y.
tile.kernel @add_layernorm(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %R: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %W: memref<?xf32> {tile.dims = ["N"]},
                           %B: memref<?xf32> {tile.dims = ["N"]},
                           %H: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Rv = tile.partition %R tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Hv = tile.partition %H tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n_i64 = arith.index_cast %n : index to i64
  %n_f32 = arith.sitofp %n_i64 : i64 to f32
  %n_t = tile.splat %n_f32 : f32 -> tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>

  // Pass 1: mean of h.
  %sum2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %res = tile.load %Rv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %h = arith.addf %x, %res : tensor<4x1024xf32>
    %s = arith.addf %a, %h : tensor<4x1024xf32>
    scf.yield %s : tensor<4x1024xf32>
  }
  %sum = tile.reduce add %sum2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %mean = arith.divf %sum, %n_t : tensor<4xf32>
  %mean2d = tile.broadcast %mean dims [1] : tensor<4xf32> -> tensor<4x1024xf32>

  // Pass 2: variance over in-bounds columns.
  %cols = tile.iota dim 1 : tensor<4x1024xindex>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n2d = tile.splat %n : index -> tensor<4x1024xindex>
  %sq2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %res = tile.load %Rv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %h = arith.addf %x, %res : tensor<4x1024xf32>
    %d = arith.subf %h, %mean2d : tensor<4x1024xf32>
    %d2 = arith.mulf %d, %d : tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %base = tile.splat %j0 : index -> tensor<4x1024xindex>
    %col = arith.addi %base, %cols : tensor<4x1024xindex>
    %inb = arith.cmpi ult, %col, %n2d : tensor<4x1024xindex>
    %masked = arith.select %inb, %d2, %zero : tensor<4x1024xi1>, tensor<4x1024xf32>
    %s = arith.addf %a, %masked : tensor<4x1024xf32>
    scf.yield %s : tensor<4x1024xf32>
  }
  %sq = tile.reduce add %sq2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %var = arith.divf %sq, %n_t : tensor<4xf32>
  %eps = arith.constant dense<1.0e-5> : tensor<4xf32>
  %vare = arith.addf %var, %eps : tensor<4xf32>
  %rstd = math.rsqrt %vare : tensor<4xf32>
  %rstd2d = tile.broadcast %rstd dims [1] : tensor<4xf32> -> tensor<4x1024xf32>

  // Pass 3: store h and the normalized, scaled, shifted y.
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %res = tile.load %Rv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %h = arith.addf %x, %res : tensor<4x1024xf32>
    %w1 = tile.load %Wv[%j] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
    %b1 = tile.load %Bv[%j] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
    %w = tile.broadcast %w1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
    %b = tile.broadcast %b1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
    %d = arith.subf %h, %mean2d : tensor<4x1024xf32>
    %hn = arith.mulf %d, %rstd2d : tensor<4x1024xf32>
    %hw = arith.mulf %hn, %w : tensor<4x1024xf32>
    %y = arith.addf %hw, %b : tensor<4x1024xf32>
    tile.store %h, %Hv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %res: memref<?x?xf32>, %w: memref<?xf32>,
                %b: memref<?xf32>, %h: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @add_layernorm(%x, %res, %w, %b, %h, %y)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>,
         memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
