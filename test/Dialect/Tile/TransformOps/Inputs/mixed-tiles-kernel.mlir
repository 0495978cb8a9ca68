// Adds a tile of X to the transposed-position tile of X: both partitions
// use BM and BN, in opposite orders, so the shapes match only if BM = BN.
tile.kernel @mixed(%X: memref<?x?xf32> {tile.dims = ["M", "M"]},
                   %Y: memref<?x?xf32> {tile.dims = ["M", "M"]})
    params {BM = 16, BN = 16} {
  %A = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %B = tile.partition %X tile [BN, BM] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %i, %j = tile.grid %Yv : !tile.part<16x16xf32>
  %a = tile.load %A[%i, %j] : !tile.part<16x16xf32> -> tensor<16x16xf32>
  %b = tile.load %B[%j, %i] : !tile.part<16x16xf32> -> tensor<16x16xf32>
  %s = arith.addf %a, %b : tensor<16x16xf32>
  tile.store %s, %Yv[%i, %j] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
