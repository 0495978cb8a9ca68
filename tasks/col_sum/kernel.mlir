// y[j] = sum_i x[i, j] for x [M, N], any M: each block owns BN columns and
// walks their row tiles, accumulating elementwise and reducing dim 0 once at
// the end (pad(zero) is neutral for the sum).
tile.kernel @col_sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %c = tile.grid %Yv : !tile.part<128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %acc = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<32x128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %s = arith.addf %a, %x : tensor<32x128xf32>
    scf.yield %s : tensor<32x128xf32>
  }
  %y = tile.reduce add %acc dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %y, %Yv[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  tile.launch @col_sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
  return
}
