// Backward of the soft-target cross-entropy loss = lse(x) - sum_j p_j x_j,
// p = softmax(t): since sum_j p_j = 1,
//   dx = dloss * (softmax(x) - softmax(t)).
// Pass 1 carries the online max and sum of exp for x and for t (as
// soft_cross_entropy's pass); pass 2 writes dx. pad(neg_inf) keeps the
// overhanging columns neutral for both maxima and sums; the store masks
// them.
tile.kernel @soft_cross_entropy_backward(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                         %T: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                         %DL: memref<?xf32> {tile.dims = ["M"]},
                                         %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Tv = tile.partition %T tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %DLv = tile.partition %DL tile [BR] pad(zero) : memref<?xf32> -> !tile.part<4xf32, pad = zero>
  %DXv = tile.partition %DX tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %DXv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %mx, %lx, %mt, %lt = scf.for %j = %c0 to %nt step %c1
      iter_args(%mxi = %ninf, %lxi = %zero, %mti = %ninf, %lti = %zero)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %t = tile.load %Tv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
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
    %tmax = tile.reduce max %t dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mtn = arith.maximumf %mti, %tmax : tensor<4xf32>
    %mtb = tile.broadcast %mtn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %dt = arith.subf %t, %mtb : tensor<4x1024xf32>
    %et = math.exp %dt : tensor<4x1024xf32>
    %ets = tile.reduce add %et dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %sht = arith.subf %mti, %mtn : tensor<4xf32>
    %sct = math.exp %sht : tensor<4xf32>
    %lts = arith.mulf %lti, %sct : tensor<4xf32>
    %ltn = arith.addf %lts, %ets : tensor<4xf32>
    scf.yield %mxn, %lxn, %mtn, %ltn : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  %dl = tile.load %DLv[%r] : !tile.part<4xf32, pad = zero> -> tensor<4xf32>
  %mxb = tile.broadcast %mx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %lxb = tile.broadcast %lx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %mtb = tile.broadcast %mt dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %ltb = tile.broadcast %lt dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %dlb = tile.broadcast %dl dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %t = tile.load %Tv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %dx0 = arith.subf %x, %mxb : tensor<4x1024xf32>
    %ex = math.exp %dx0 : tensor<4x1024xf32>
    %sx = arith.divf %ex, %lxb : tensor<4x1024xf32>
    %dt = arith.subf %t, %mtb : tensor<4x1024xf32>
    %et = math.exp %dt : tensor<4x1024xf32>
    %st = arith.divf %et, %ltb : tensor<4x1024xf32>
    %diff = arith.subf %sx, %st : tensor<4x1024xf32>
    %dx = arith.mulf %dlb, %diff : tensor<4x1024xf32>
    tile.store %dx, %DXv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %t: memref<?x?xf32>, %dloss: memref<?xf32>,
                %dx: memref<?x?xf32>) {
  tile.launch @soft_cross_entropy_backward(%x, %t, %dloss, %dx)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  return
}
