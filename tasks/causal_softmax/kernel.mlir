// Causal softmax of attention scores x [M, N]: s = x * 0.125, entries above
// the diagonal (column j > row i) are -inf, y = softmax(s) per row. The mask
// compares global column and row indices (tile.iota plus the tile's
// offset) and also drops columns past N: the scaled pad (-inf * 0.125) is
// not one tile-verify can prove neutral, the selected -inf is. A masked entry is -inf before the max, so it never raises it and
// exp(-inf - m) = 0 adds nothing to the sum and stores an exact 0. Column
// 0 is never masked, so every row has a finite max. Online softmax as in
// row_softmax: pass 1 carries the running max and sum, pass 2 stores.
tile.kernel @causal_softmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %ninf2d = arith.constant dense<0xFF800000> : tensor<4x1024xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %scale = arith.constant dense<0.125> : tensor<4x1024xf32>
  // Global row index of every element of this block's tiles.
  %br = tile.tile_size %Xv[0] : !tile.part<4x1024xf32, pad = neg_inf>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %r0 = arith.muli %r, %br : index
  %rbase = tile.splat %r0 : index -> tensor<4x1024xindex>
  %riota = tile.iota dim 0 : tensor<4x1024xindex>
  %rows = arith.addi %rbase, %riota : tensor<4x1024xindex>
  %ciota = tile.iota dim 1 : tensor<4x1024xindex>
  %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %n2d = tile.splat %n : index -> tensor<4x1024xindex>
  %m, %l = scf.for %j = %c0 to %nt step %c1 iter_args(%mi = %ninf, %li = %zero)
      -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %xs = arith.mulf %x, %scale : tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<4x1024xindex>
    %cols = arith.addi %cbase, %ciota : tensor<4x1024xindex>
    %causal = arith.cmpi ule, %cols, %rows : tensor<4x1024xindex>
    %inb = arith.cmpi ult, %cols, %n2d : tensor<4x1024xindex>
    %xin = arith.select %inb, %xs, %ninf2d : tensor<4x1024xi1>, tensor<4x1024xf32>
    %s = arith.select %causal, %xin, %ninf2d : tensor<4x1024xi1>, tensor<4x1024xf32>
    %tmax = tile.reduce max %s dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<4xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %d = arith.subf %s, %mb : tensor<4x1024xf32>
    %e = math.exp %d : tensor<4x1024xf32>
    %ts = tile.reduce add %e dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %shift = arith.subf %mi, %mn : tensor<4xf32>
    %rescale = math.exp %shift : tensor<4xf32>
    %ls = arith.mulf %li, %rescale : tensor<4xf32>
    %ln = arith.addf %ls, %ts : tensor<4xf32>
    scf.yield %mn, %ln : tensor<4xf32>, tensor<4xf32>
  }
  %mb = tile.broadcast %m dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %lb = tile.broadcast %l dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %xs = arith.mulf %x, %scale : tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<4x1024xindex>
    %cols = arith.addi %cbase, %ciota : tensor<4x1024xindex>
    %causal = arith.cmpi ule, %cols, %rows : tensor<4x1024xindex>
    %inb = arith.cmpi ult, %cols, %n2d : tensor<4x1024xindex>
    %xin = arith.select %inb, %xs, %ninf2d : tensor<4x1024xi1>, tensor<4x1024xf32>
    %s = arith.select %causal, %xin, %ninf2d : tensor<4x1024xi1>, tensor<4x1024xf32>
    %d = arith.subf %s, %mb : tensor<4x1024xf32>
    %e = math.exp %d : tensor<4x1024xf32>
    %y = arith.divf %e, %lb : tensor<4x1024xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @causal_softmax(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
