// Column mean and unbiased variance of x [M, N] in two kernels, each a
// one-pass column sum that transform.tile.split_reduction can split across
// CTAs. @col_mean sums x / M over the rows into mean; @col_var, launched
// after it, reads the finished mean and sums (x - mean)^2 / (M - 1) over the
// rows inside M (a tile.iota mask along dim 0: padded zeros are not neutral
// there) into var. Two passes over x rather than E[x^2] - E[x]^2, which
// cancels on columns with a large mean.
tile.kernel @col_mean(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %Mean: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %c = tile.grid %Meanv : !tile.part<128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %m2d = tile.splat %m_f32 : f32 -> tensor<32x128xf32>
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %sum2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %xm = arith.divf %x, %m2d : tensor<32x128xf32>
    %s = arith.addf %a, %xm : tensor<32x128xf32>
    scf.yield %s : tensor<32x128xf32>
  }
  %mean = tile.reduce add %sum2d dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %mean, %Meanv[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

tile.kernel @col_var(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Mean: memref<?xf32> {tile.dims = ["N"]},
                     %Var: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %Meanv = tile.partition %Mean tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
  %Varv = tile.partition %Var tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %c = tile.grid %Varv : !tile.part<128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %one = arith.constant 1.0 : f32
  %m1_f32 = arith.subf %m_f32, %one : f32
  %m1_2d = tile.splat %m1_f32 : f32 -> tensor<32x128xf32>
  %mean1 = tile.load %Meanv[%c] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  %mean2d = tile.broadcast %mean1 dims [0] : tensor<128xf32> -> tensor<32x128xf32>
  %rows = tile.iota dim 0 : tensor<32x128xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %mi2d = tile.splat %m : index -> tensor<32x128xindex>
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %sq2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %d = arith.subf %x, %mean2d : tensor<32x128xf32>
    %d2 = arith.mulf %d, %d : tensor<32x128xf32>
    %d2s = arith.divf %d2, %m1_2d : tensor<32x128xf32>
    %i0 = arith.muli %i, %br : index
    %base = tile.splat %i0 : index -> tensor<32x128xindex>
    %row = arith.addi %base, %rows : tensor<32x128xindex>
    %inb = arith.cmpi ult, %row, %mi2d : tensor<32x128xindex>
    %masked = arith.select %inb, %d2s, %zero : tensor<32x128xi1>, tensor<32x128xf32>
    %s = arith.addf %a, %masked : tensor<32x128xf32>
    scf.yield %s : tensor<32x128xf32>
  }
  %var = tile.reduce add %sq2d dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %var, %Varv[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %mean: memref<?xf32>, %var: memref<?xf32>) {
  tile.launch @col_mean(%x, %mean) : (memref<?x?xf32>, memref<?xf32>) -> ()
  tile.launch @col_var(%x, %mean, %var) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}
