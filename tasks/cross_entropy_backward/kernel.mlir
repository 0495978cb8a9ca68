// Backward of the cross-entropy with integer targets,
// loss[i] = lse(x[i, :]) - x[i, t[i]]:
//   dx[i, j] = dloss[i] * (softmax(x)[i, j] - (j == t[i] ? 1 : 0)).
// Pass 1 carries the online max and sum of exp of the row (as
// cross_entropy's pass); pass 2 writes dx, subtracting the one-hot target
// from an i32 column compare (the `requires` fact keeps N, and so every
// target, in i32 range). pad(neg_inf) keeps the overhanging columns neutral
// for the max and the sum; the store masks them.
tile.kernel @cross_entropy_backward(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                    %T: memref<?xi64> {tile.dims = ["M"]},
                                    %DL: memref<?xf32> {tile.dims = ["M"]},
                                    %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} requires ["N <= 2147483647"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Tv = tile.partition %T tile [BR] pad(zero) : memref<?xi64> -> !tile.part<4xi64, pad = zero>
  %DLv = tile.partition %DL tile [BR] pad(zero) : memref<?xf32> -> !tile.part<4xf32, pad = zero>
  %DXv = tile.partition %DX tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %DXv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %mx, %lx = scf.for %j = %c0 to %nt step %c1
      iter_args(%mxi = %ninf, %lxi = %zero) -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %xmax = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mxn = arith.maximumf %mxi, %xmax : tensor<4xf32>
    %mxb = tile.broadcast %mxn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %dx = arith.subf %x, %mxb : tensor<4x1024xf32>
    %ex = math.exp %dx : tensor<4x1024xf32>
    %exs = tile.reduce add %ex dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %shx = arith.subf %mxi, %mxn : tensor<4xf32>
    %scx = math.exp %shx : tensor<4xf32>
    %lxs = arith.mulf %lxi, %scx : tensor<4xf32>
    %lxn = arith.addf %lxs, %exs : tensor<4xf32>
    scf.yield %mxn, %lxn : tensor<4xf32>, tensor<4xf32>
  }
  %t = tile.load %Tv[%r] : !tile.part<4xi64, pad = zero> -> tensor<4xi64>
  %t32 = arith.trunci %t : tensor<4xi64> to tensor<4xi32>
  %tb = tile.broadcast %t32 dims [1] : tensor<4xi32> -> tensor<4x1024xi32>
  %ciota = tile.iota dim 1 : tensor<4x1024xi32>
  %dl = tile.load %DLv[%r] : !tile.part<4xf32, pad = zero> -> tensor<4xf32>
  %mxb = tile.broadcast %mx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %lxb = tile.broadcast %lx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %dlb = tile.broadcast %dl dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %one2d = arith.constant dense<1.0> : tensor<4x1024xf32>
  %zero2d = arith.constant dense<0.0> : tensor<4x1024xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %dx0 = arith.subf %x, %mxb : tensor<4x1024xf32>
    %ex = math.exp %dx0 : tensor<4x1024xf32>
    %sx = arith.divf %ex, %lxb : tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %j032 = arith.index_cast %j0 : index to i32
    %cbase = tile.splat %j032 : i32 -> tensor<4x1024xi32>
    %cols = arith.addi %cbase, %ciota : tensor<4x1024xi32>
    %hit = arith.cmpi eq, %cols, %tb : tensor<4x1024xi32>
    %onehot = arith.select %hit, %one2d, %zero2d : tensor<4x1024xi1>, tensor<4x1024xf32>
    %diff = arith.subf %sx, %onehot : tensor<4x1024xf32>
    %dx = arith.mulf %dlb, %diff : tensor<4x1024xf32>
    tile.store %dx, %DXv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %t: memref<?xi64>, %dloss: memref<?xf32>,
                %dx: memref<?x?xf32>) {
  tile.launch @cross_entropy_backward(%x, %t, %dloss, %dx)
      : (memref<?x?xf32>, memref<?xi64>, memref<?xf32>, memref<?x?xf32>) -> ()
  return
}
