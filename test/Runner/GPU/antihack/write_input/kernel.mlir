// y = gelu_tanh(x * s + b) with x [M, N] and a per-column scale s and bias b.
// gelu_tanh(v) = 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))), as torch's
// gelu(approximate="tanh").
tile.kernel @gelu_bias(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %S: memref<?xf32> {tile.dims = ["N"]},
                       %B: memref<?xf32> {tile.dims = ["N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Sv = tile.partition %S tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %Xw = tile.partition %X tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %r, %c = tile.grid %Yv : !tile.part<8x512xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %s1 = tile.load %Sv[%c] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %b1 = tile.load %Bv[%c] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %s = tile.broadcast %s1 dims [0] : tensor<512xf32> -> tensor<8x512xf32>
  %b = tile.broadcast %b1 dims [0] : tensor<512xf32> -> tensor<8x512xf32>
  %xs = arith.mulf %x, %s : tensor<8x512xf32>
  %v = arith.addf %xs, %b : tensor<8x512xf32>
  %half = arith.constant dense<0.5> : tensor<8x512xf32>
  %one = arith.constant dense<1.0> : tensor<8x512xf32>
  %k0 = arith.constant dense<0.7978845608028654> : tensor<8x512xf32>
  %k1 = arith.constant dense<0.044715> : tensor<8x512xf32>
  %v2 = arith.mulf %v, %v : tensor<8x512xf32>
  %v3 = arith.mulf %v2, %v : tensor<8x512xf32>
  %cube = arith.mulf %v3, %k1 : tensor<8x512xf32>
  %inner = arith.addf %v, %cube : tensor<8x512xf32>
  %arg = arith.mulf %inner, %k0 : tensor<8x512xf32>
  %t = math.tanh %arg : tensor<8x512xf32>
  %onept = arith.addf %t, %one : tensor<8x512xf32>
  %hv = arith.mulf %v, %half : tensor<8x512xf32>
  %y = arith.mulf %hv, %onept : tensor<8x512xf32>
  tile.store %y, %Yv[%r, %c] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.store %y, %Xw[%r, %c] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

// Host level: the task's inputs (x, s, b) then its output (y).
func.func @main(%x: memref<?x?xf32>, %s: memref<?xf32>, %b: memref<?xf32>,
                %y: memref<?x?xf32>) {
  tile.launch @gelu_bias(%x, %s, %b, %y)
      : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  return
}
