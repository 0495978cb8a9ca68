// Layer norm backward, input gradient: with xhat = (x - mean) * rstd and
// g = dy * w per row,
//   dx = rstd * (g - mean(g) - xhat * mean(g * xhat)).
// Four passes over the column tiles of BR rows: the mean, the variance
// (masked to the columns inside N with a tile.iota, as layernorm's), the
// sums of g (dy's pad(zero) makes g zero on padded lanes) and of g * xhat
// (masked like the variance: tile-verify cannot bound rstd, so it does not
// take 0 * xhat to be 0), then dx.
tile.kernel @layernorm_backward(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
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

  // Pass 1: mean.
  %sum2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %s = arith.addf %a, %x : tensor<4x1024xf32>
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
    %d = arith.subf %x, %mean2d : tensor<4x1024xf32>
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

  // Pass 3: sums of g = dy * w and of g * xhat.
  %sg2d, %sgx2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero, %b = %zero)
      -> (tensor<4x1024xf32>, tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %dy = tile.load %DYv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %w1 = tile.load %Wv[%j] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
    %w = tile.broadcast %w1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
    %g = arith.mulf %dy, %w : tensor<4x1024xf32>
    %d = arith.subf %x, %mean2d : tensor<4x1024xf32>
    %xhat = arith.mulf %d, %rstd2d : tensor<4x1024xf32>
    %gx = arith.mulf %g, %xhat : tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %base = tile.splat %j0 : index -> tensor<4x1024xindex>
    %col = arith.addi %base, %cols : tensor<4x1024xindex>
    %inb = arith.cmpi ult, %col, %n2d : tensor<4x1024xindex>
    %gxm = arith.select %inb, %gx, %zero : tensor<4x1024xi1>, tensor<4x1024xf32>
    %sa = arith.addf %a, %g : tensor<4x1024xf32>
    %sb = arith.addf %b, %gxm : tensor<4x1024xf32>
    scf.yield %sa, %sb : tensor<4x1024xf32>, tensor<4x1024xf32>
  }
  %sg = tile.reduce add %sg2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %sgx = tile.reduce add %sgx2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %mg = arith.divf %sg, %n_t : tensor<4xf32>
  %mgx = arith.divf %sgx, %n_t : tensor<4xf32>
  %mg2d = tile.broadcast %mg dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %mgx2d = tile.broadcast %mgx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>

  // Pass 4: dx.
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %dy = tile.load %DYv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %w1 = tile.load %Wv[%j] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
    %w = tile.broadcast %w1 dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
    %g = arith.mulf %dy, %w : tensor<4x1024xf32>
    %d = arith.subf %x, %mean2d : tensor<4x1024xf32>
    %xhat = arith.mulf %d, %rstd2d : tensor<4x1024xf32>
    %t1 = arith.subf %g, %mg2d : tensor<4x1024xf32>
    %t2 = arith.mulf %xhat, %mgx2d : tensor<4x1024xf32>
    %t3 = arith.subf %t1, %t2 : tensor<4x1024xf32>
    %dx = arith.mulf %t3, %rstd2d : tensor<4x1024xf32>
    tile.store %dx, %DXv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %w: memref<?xf32>, %dy: memref<?x?xf32>,
                %dx: memref<?x?xf32>) {
  tile.launch @layernorm_backward(%x, %w, %dy, %dx)
      : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
