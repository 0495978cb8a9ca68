// SwiGLU gate of a LLaMA-style MLP: y = silu(a) * b = a * sigmoid(a) * b,
// with sigmoid(a) = 1 / (1 + exp(-a)); a very negative a gives exp(-a) = inf
// and sigmoid 0, as torch's silu.
tile.kernel @swiglu(%A: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %B: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Av = tile.partition %A tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Bv = tile.partition %B tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %i, %j = tile.grid %Yv : !tile.part<8x512xf32>
  %a = tile.load %Av[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %b = tile.load %Bv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %one = arith.constant dense<1.0> : tensor<8x512xf32>
  %na = arith.negf %a : tensor<8x512xf32>
  %e = math.exp %na : tensor<8x512xf32>
  %den = arith.addf %e, %one : tensor<8x512xf32>
  %sig = arith.divf %one, %den : tensor<8x512xf32>
  %s = arith.mulf %a, %sig : tensor<8x512xf32>
  %y = arith.mulf %s, %b : tensor<8x512xf32>
  tile.store %y, %Yv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

func.func @main(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @swiglu(%a, %b, %y)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
