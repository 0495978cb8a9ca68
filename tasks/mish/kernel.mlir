// Mish activation: y = x * tanh(softplus(x)), softplus(x) = log1p(exp(x)).
// torch's softplus returns x itself above 20; there tanh is 1 in f32 either
// way, and exp overflowing to inf gives tanh(inf) = 1 too.
tile.kernel @mish(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %i, %j = tile.grid %Yv : !tile.part<8x512xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %e = math.exp %x : tensor<8x512xf32>
  %sp = math.log1p %e : tensor<8x512xf32>
  %t = math.tanh %sp : tensor<8x512xf32>
  %y = arith.mulf %x, %t : tensor<8x512xf32>
  tile.store %y, %Yv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @mish(%x, %y)
      : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
