// Embedding lookup: y[t, :] = w[ids[t], :], a row of the table per token.
// A CTA takes BT tokens and BD columns of the embedding: it loads the BT
// ids once, broadcasts them along the embedding dim and gathers the rows
// (tile.gather along dim 0 of the table, whose tile size is 1). The gather
// is guarded: an id outside [0, V) would read the pad (zero), never memory
// outside the table; the runner draws ids in [0, V) (task.json). Ids are
// int32 so that 16-byte accesses (vector_width 4) stay legal for every
// argument; torch's embedding takes int32 indices as well.
tile.kernel @embedding(%I: memref<?xi32> {tile.dims = ["T"]},
                       %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                       %Y: memref<?x?xf32> {tile.dims = ["T", "D"]})
    params {BT = 4, BD = 256, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %Iv = tile.partition %I tile [BT] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Wv = tile.partition %W tile [1, BD] pad(zero) : memref<?x?xf32> -> !tile.part<1x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BT, BD] : memref<?x?xf32> -> !tile.part<4x256xf32>
  %t, %j = tile.grid %Yv : !tile.part<4x256xf32>
  %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
  %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x256xi32>
  %y = tile.gather %Wv[%c0, %j] dim 0 by %rows
      : !tile.part<1x256xf32, pad = zero>, tensor<4x256xi32> -> tensor<4x256xf32>
  tile.store %y, %Yv[%t, %j] : tensor<4x256xf32>, !tile.part<4x256xf32>
  tile.return
}

func.func @main(%ids: memref<?xi32>, %w: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @embedding(%ids, %w, %y) : (memref<?xi32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
