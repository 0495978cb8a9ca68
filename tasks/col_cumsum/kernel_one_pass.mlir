// Cumulative sum down the columns in one pass, for shapes with columns
// enough to fill the GPU (schedules/dispatch.json: N >= 4096): y[i, j] =
// sum_{k <= i} x[k, j], any M. Each block owns BN columns and walks all
// their row tiles in order: a tile's inclusive scan along dim 0 (across the
// warps that share a column) plus the carry, the column sums of the tiles
// above (tile.reduce of the same tile). pad(zero) keeps the rows past M
// neutral; those lanes then hold the column total, which the store masks.
// x is read once, against 1.5 times the traffic for kernel.mlir's row
// chunks, which the dispatch keeps for fewer columns: on an H100 machine
// (2026-12-06, docs/results.md) this form took 257.5 us at the tune shape
// 4096 x 16384 against 294.0 us for the chunks, but 90.5 and 1710.6 us
// against 46.1 and 362.2 us at 3000 x 1000 and 65536 x 1024.
tile.kernel @col_cumsum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<32x128xf32>
  %c = tile.grid %Yv dims [1] : !tile.part<32x128xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<32x128xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %total = scf.for %i = %c0 to %mt step %c1 iter_args(%carry = %zero) -> (tensor<128xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %s = tile.scan add %x dim 0 : tensor<32x128xf32>
    %cb = tile.broadcast %carry dims [0] : tensor<128xf32> -> tensor<32x128xf32>
    %y = arith.addf %cb, %s : tensor<32x128xf32>
    tile.store %y, %Yv[%i, %c] : tensor<32x128xf32>, !tile.part<32x128xf32>
    %t = tile.reduce add %x dim 0 : tensor<32x128xf32> -> tensor<128xf32>
    %next = arith.addf %carry, %t : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @col_cumsum(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
