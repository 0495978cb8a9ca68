// Row log-softmax for any N: pass 1 is row_softmax's online pass (running
// max m and running sum l of exp(x - m), l rescaled by exp(m_old - m_new)
// when the max grows); pass 2 writes x - (m + log l). pad(neg_inf) keeps the
// overhanging columns neutral for both the max and the sum.
tile.kernel @log_softmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %m, %l = scf.for %j = %c0 to %nt step %c1 iter_args(%mi = %ninf, %li = %zero)
      -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
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
    scf.yield %mn, %ln : tensor<4xf32>, tensor<4xf32>
  }
  %logl = math.log %l : tensor<4xf32>
  %lse = arith.addf %m, %logl : tensor<4xf32>
  %lseb = tile.broadcast %lse dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %y = arith.subf %x, %lseb : tensor<4x1024xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @log_softmax(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
