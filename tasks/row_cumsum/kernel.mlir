// Cumulative sum along rows: y[i, j] = sum_{k <= j} x[i, k], rows of any
// length. Each block owns BR rows and walks their column tiles in order: a
// tile's inclusive scan (tile.scan) plus the carry, the sum of the tiles
// before it (tile.reduce of the same tile, added after the store).
// pad(zero) keeps the overhanging columns neutral for both; the lanes past N
// then hold the row total, which the store masks.
tile.kernel @row_cumsum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x1024xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %total = scf.for %j = %c0 to %nt step %c1 iter_args(%carry = %zero) -> (tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %s = tile.scan add %x dim 1 : tensor<4x1024xf32>
    %cb = tile.broadcast %carry dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %y = arith.addf %cb, %s : tensor<4x1024xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
    %t = tile.reduce add %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %next = arith.addf %carry, %t : tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @row_cumsum(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
