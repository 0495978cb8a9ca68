// Column mean and unbiased variance of x [M, N]: each block owns BN columns
// and walks the row tiles twice, first for the sum (pad(zero) is neutral),
// then for the sum of (x - mean)^2 over the rows inside M (a tile.iota mask
// along dim 0: padded zeros are not neutral there). Two passes rather than
// E[x^2] - E[x]^2, which cancels on columns with a large mean.
tile.kernel @col_var_mean(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Mean: memref<?xf32> {tile.dims = ["N"]},
                          %Var: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %Varv = tile.partition %Var tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %c = tile.grid %Meanv : !tile.part<128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %m_t = tile.splat %m_f32 : f32 -> tensor<128xf32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %m1_t = arith.subf %m_t, %one : tensor<128xf32>
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>

  %sum2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %s = arith.addf %a, %x : tensor<32x128xf32>
    scf.yield %s : tensor<32x128xf32>
  }
  %sum = tile.reduce add %sum2d dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  %mean = arith.divf %sum, %m_t : tensor<128xf32>
  %mean2d = tile.broadcast %mean dims [0] : tensor<128xf32> -> tensor<32x128xf32>

  %rows = tile.iota dim 0 : tensor<32x128xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m2d = tile.splat %m : index -> tensor<32x128xindex>
  %sq2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %d = arith.subf %x, %mean2d : tensor<32x128xf32>
    %d2 = arith.mulf %d, %d : tensor<32x128xf32>
    %i0 = arith.muli %i, %br : index
    %base = tile.splat %i0 : index -> tensor<32x128xindex>
    %row = arith.addi %base, %rows : tensor<32x128xindex>
    %inb = arith.cmpi ult, %row, %m2d : tensor<32x128xindex>
    %masked = arith.select %inb, %d2, %zero : tensor<32x128xi1>, tensor<32x128xf32>
    %s = arith.addf %a, %masked : tensor<32x128xf32>
    scf.yield %s : tensor<32x128xf32>
  }
  %sq = tile.reduce add %sq2d dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  %var = arith.divf %sq, %m1_t : tensor<128xf32>
  tile.store %mean, %Meanv[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.store %var, %Varv[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %mean: memref<?xf32>, %var: memref<?xf32>) {
  tile.launch @col_var_mean(%x, %mean, %var) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}
