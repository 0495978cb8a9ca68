// Row softmax for rows that fit one tile (requires N <= BN): pad(neg_inf)
// makes the overhanging columns neutral for max, and exp(-inf) = 0 neutral
// for the sum. One read and one write per element. The task's kernel.mlir
// is the online version for any N; compile this one with --kernel.
tile.kernel @row_softmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4} requires ["N <= BN"] {
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r, %c = tile.grid %Yv : !tile.part<4x1024xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
  %mx = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %mb = tile.broadcast %mx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %d = arith.subf %x, %mb : tensor<4x1024xf32>
  %e = math.exp %d : tensor<4x1024xf32>
  %s = tile.reduce add %e dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %sb = tile.broadcast %s dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %y = arith.divf %e, %sb : tensor<4x1024xf32>
  tile.store %y, %Yv[%r, %c] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @row_softmax(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
