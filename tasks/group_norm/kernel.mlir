// Group norm over x [B, G, D]: each (b, g) row of D values is normalized by
// its mean and biased variance (eps = 1e-5) and scaled and shifted by the
// channels' w[g, :] and b[g, :]. A block owns BB samples x BG groups and
// walks the D tiles three times (mean, variance, normalize), as layernorm
// does with rows: pad(zero) keeps the sum exact, a tile.iota mask along D
// keeps padded lanes out of the variance.
tile.kernel @group_norm(%X: memref<?x?x?xf32> {tile.dims = ["B", "G", "D"]},
                        %W: memref<?x?xf32> {tile.dims = ["G", "D"]},
                        %Bias: memref<?x?xf32> {tile.dims = ["G", "D"]},
                        %Y: memref<?x?x?xf32> {tile.dims = ["B", "G", "D"]})
    params {BB = 2, BG = 2, BD = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BB, BG, BD] pad(zero) : memref<?x?x?xf32> -> !tile.part<2x2x1024xf32, pad = zero>
  %Wv = tile.partition %W tile [BG, BD] pad(zero) : memref<?x?xf32> -> !tile.part<2x1024xf32, pad = zero>
  %Bv = tile.partition %Bias tile [BG, BD] pad(zero) : memref<?x?xf32> -> !tile.part<2x1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BB, BG, BD] : memref<?x?x?xf32> -> !tile.part<2x2x1024xf32>
  %b, %g = tile.grid %Yv dims [0, 1] : !tile.part<2x2x1024xf32>
  %nt = tile.num_tiles %Xv[2] : !tile.part<2x2x1024xf32, pad = zero>
  %d = tile.extent %Xv[2] : !tile.part<2x2x1024xf32, pad = zero>
  %d_i64 = arith.index_cast %d : index to i64
  %d_f32 = arith.sitofp %d_i64 : i64 to f32
  %d_t = tile.splat %d_f32 : f32 -> tensor<2x2xf32>
  %zero = arith.constant dense<0.0> : tensor<2x2x1024xf32>

  // Pass 1: mean of each (b, g) row.
  %sum3d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2x2x1024xf32>) {
    %x = tile.load %Xv[%b, %g, %j] : !tile.part<2x2x1024xf32, pad = zero> -> tensor<2x2x1024xf32>
    %s = arith.addf %a, %x : tensor<2x2x1024xf32>
    scf.yield %s : tensor<2x2x1024xf32>
  }
  %sum = tile.reduce add %sum3d dim 2 : tensor<2x2x1024xf32> -> tensor<2x2xf32>
  %mean = arith.divf %sum, %d_t : tensor<2x2xf32>
  %mean3d = tile.broadcast %mean dims [2] : tensor<2x2xf32> -> tensor<2x2x1024xf32>

  // Pass 2: variance over the columns inside D.
  %cols = tile.iota dim 2 : tensor<2x2x1024xindex>
  %bd = tile.tile_size %Xv[2] : !tile.part<2x2x1024xf32, pad = zero>
  %d3d = tile.splat %d : index -> tensor<2x2x1024xindex>
  %sq3d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2x2x1024xf32>) {
    %x = tile.load %Xv[%b, %g, %j] : !tile.part<2x2x1024xf32, pad = zero> -> tensor<2x2x1024xf32>
    %dx = arith.subf %x, %mean3d : tensor<2x2x1024xf32>
    %dx2 = arith.mulf %dx, %dx : tensor<2x2x1024xf32>
    %j0 = arith.muli %j, %bd : index
    %base = tile.splat %j0 : index -> tensor<2x2x1024xindex>
    %col = arith.addi %base, %cols : tensor<2x2x1024xindex>
    %inb = arith.cmpi ult, %col, %d3d : tensor<2x2x1024xindex>
    %masked = arith.select %inb, %dx2, %zero : tensor<2x2x1024xi1>, tensor<2x2x1024xf32>
    %s = arith.addf %a, %masked : tensor<2x2x1024xf32>
    scf.yield %s : tensor<2x2x1024xf32>
  }
  %sq = tile.reduce add %sq3d dim 2 : tensor<2x2x1024xf32> -> tensor<2x2xf32>
  %var = arith.divf %sq, %d_t : tensor<2x2xf32>
  %eps = arith.constant dense<1.0e-5> : tensor<2x2xf32>
  %vare = arith.addf %var, %eps : tensor<2x2xf32>
  %rstd = math.rsqrt %vare : tensor<2x2xf32>
  %rstd3d = tile.broadcast %rstd dims [2] : tensor<2x2xf32> -> tensor<2x2x1024xf32>

  // Pass 3: normalize, scale and shift per channel, store.
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%b, %g, %j] : !tile.part<2x2x1024xf32, pad = zero> -> tensor<2x2x1024xf32>
    %w2 = tile.load %Wv[%g, %j] : !tile.part<2x1024xf32, pad = zero> -> tensor<2x1024xf32>
    %b2 = tile.load %Bv[%g, %j] : !tile.part<2x1024xf32, pad = zero> -> tensor<2x1024xf32>
    %w = tile.broadcast %w2 dims [0] : tensor<2x1024xf32> -> tensor<2x2x1024xf32>
    %bias = tile.broadcast %b2 dims [0] : tensor<2x1024xf32> -> tensor<2x2x1024xf32>
    %dx = arith.subf %x, %mean3d : tensor<2x2x1024xf32>
    %xn = arith.mulf %dx, %rstd3d : tensor<2x2x1024xf32>
    %xw = arith.mulf %xn, %w : tensor<2x2x1024xf32>
    %y = arith.addf %xw, %bias : tensor<2x2x1024xf32>
    tile.store %y, %Yv[%b, %g, %j] : tensor<2x2x1024xf32>, !tile.part<2x2x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?x?xf32>, %w: memref<?x?xf32>, %b: memref<?x?xf32>,
                %y: memref<?x?x?xf32>) {
  tile.launch @group_norm(%x, %w, %b, %y)
      : (memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) -> ()
  return
}
