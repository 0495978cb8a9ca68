// Matrix transpose: y [N, M] = x^T for x [M, N]. Each CTA loads a
// [BM, BN] tile of x, transposes it in registers (tile.transpose) and stores
// the [BN, BM] tile of y at the mirrored block. The load is coalesced along
// x's rows; the transposed tile keeps the load's thread layout, so its store
// would walk y's columns, one element per lane. The default schedule asks
// for transform.tile.stage_transposes, which stores it through padded shared
// memory in y's own coalesced layout (docs/rewrites.md).
tile.kernel @transpose(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["N", "M"]})
    params {BM = 32, BN = 32, num_warps = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN, BM] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %j, %i = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  %y = tile.transpose %x perm [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
  tile.store %y, %Yv[%j, %i] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @transpose(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
