// Log-softmax backward from the logits: dx = dy - softmax(x) * sum_j dy_j.
// Pass 1 carries the online max m and sum l of exp(x - m) (pad(neg_inf)
// keeps padded lanes out of both) and sums dy (pad(zero)); pass 2 writes
// dx = dy - exp(x - m) / l * S.
tile.kernel @log_softmax_backward(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %DXv = tile.partition %DX tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %DXv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %zero2d = arith.constant dense<0.0> : tensor<4x1024xf32>
  %m, %l, %s2d = scf.for %j = %c0 to %nt step %c1 iter_args(%mi = %ninf, %li = %zero, %si = %zero2d)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %dy = tile.load %DYv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %tmax = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<4xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %d = arith.subf %x, %mb : tensor<4x1024xf32>
    %e = math.exp %d : tensor<4x1024xf32>
    %ts = tile.reduce add %e dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %shift = arith.subf %mi, %mn : tensor<4xf32>
    %scale = math.exp %shift : tensor<4xf32>
    %ls = arith.mulf %li, %scale : tensor<4xf32>
    %ln = arith.addf %ls, %ts : tensor<4xf32>
    %sn = arith.addf %si, %dy : tensor<4x1024xf32>
    scf.yield %mn, %ln, %sn : tensor<4xf32>, tensor<4xf32>, tensor<4x1024xf32>
  }
  %s = tile.reduce add %s2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %mb = tile.broadcast %m dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %lb = tile.broadcast %l dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %sb = tile.broadcast %s dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %dy = tile.load %DYv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %d = arith.subf %x, %mb : tensor<4x1024xf32>
    %e = math.exp %d : tensor<4x1024xf32>
    %p = arith.divf %e, %lb : tensor<4x1024xf32>
    %ps = arith.mulf %p, %sb : tensor<4x1024xf32>
    %dx = arith.subf %dy, %ps : tensor<4x1024xf32>
    tile.store %dx, %DXv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %dy: memref<?x?xf32>, %dx: memref<?x?xf32>) {
  tile.launch @log_softmax_backward(%x, %dy, %dx)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
