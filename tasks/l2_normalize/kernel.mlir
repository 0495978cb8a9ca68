// Row L2 normalization y = x / max(sqrt(sum_j x_j^2), 1e-12): pass 1 sums
// x^2 over the column tiles (pad(zero) is neutral: 0^2 adds nothing),
// pass 2 divides and stores. Rows of any length.
tile.kernel @l2_normalize(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %sq2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %x2 = arith.mulf %x, %x : tensor<4x1024xf32>
    %s = arith.addf %a, %x2 : tensor<4x1024xf32>
    scf.yield %s : tensor<4x1024xf32>
  }
  %sq = tile.reduce add %sq2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %norm = math.sqrt %sq : tensor<4xf32>
  %eps = arith.constant dense<1.0e-12> : tensor<4xf32>
  %den = arith.maximumf %norm, %eps : tensor<4xf32>
  %den2d = tile.broadcast %den dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %y = arith.divf %x, %den2d : tensor<4x1024xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @l2_normalize(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
