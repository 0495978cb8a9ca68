// Logit soft-capping (Gemma 2): y = 30 * tanh(x / 30), which bounds logits
// to (-30, 30) smoothly; on a vocabulary-wide row of logits.
tile.kernel @logit_softcap(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %i, %j = tile.grid %Yv : !tile.part<8x512xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %cap = arith.constant dense<30.0> : tensor<8x512xf32>
  %xs = arith.divf %x, %cap : tensor<8x512xf32>
  %t = math.tanh %xs : tensor<8x512xf32>
  %y = arith.mulf %t, %cap : tensor<8x512xf32>
  tile.store %y, %Yv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @logit_softcap(%x, %y)
      : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
