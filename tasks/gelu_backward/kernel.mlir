// Backward of the tanh-approximated GELU, y = 0.5 x (1 + tanh(u)) with
// u = k0 (x + k1 x^3), k0 = sqrt(2/pi), k1 = 0.044715:
//   dx = dy * (0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) k0 (1 + 3 k1 x^2)),
// in the operation order of torch's CPU kernel.
tile.kernel @gelu_backward(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %DXv = tile.partition %DX tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %i, %j = tile.grid %DXv : !tile.part<8x512xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %dy = tile.load %DYv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %half = arith.constant dense<0.5> : tensor<8x512xf32>
  %one = arith.constant dense<1.0> : tensor<8x512xf32>
  %three = arith.constant dense<3.0> : tensor<8x512xf32>
  %k0 = arith.constant dense<0.7978845608028654> : tensor<8x512xf32>
  %k1 = arith.constant dense<0.044715> : tensor<8x512xf32>
  %x2 = arith.mulf %x, %x : tensor<8x512xf32>
  %x3 = arith.mulf %x2, %x : tensor<8x512xf32>
  %kx3 = arith.mulf %k1, %x3 : tensor<8x512xf32>
  %u0 = arith.addf %x, %kx3 : tensor<8x512xf32>
  %u = arith.mulf %k0, %u0 : tensor<8x512xf32>
  %th = math.tanh %u : tensor<8x512xf32>
  %left = arith.mulf %half, %x : tensor<8x512xf32>
  %right = arith.addf %one, %th : tensor<8x512xf32>
  %dleft = arith.mulf %half, %right : tensor<8x512xf32>
  %th2 = arith.mulf %th, %th : tensor<8x512xf32>
  %dth = arith.subf %one, %th2 : tensor<8x512xf32>
  %k13 = arith.mulf %three, %k1 : tensor<8x512xf32>
  %k13x2 = arith.mulf %k13, %x2 : tensor<8x512xf32>
  %du0 = arith.addf %one, %k13x2 : tensor<8x512xf32>
  %du = arith.mulf %k0, %du0 : tensor<8x512xf32>
  %ld = arith.mulf %left, %dth : tensor<8x512xf32>
  %dright = arith.mulf %ld, %du : tensor<8x512xf32>
  %dg = arith.addf %dleft, %dright : tensor<8x512xf32>
  %dx = arith.mulf %dy, %dg : tensor<8x512xf32>
  tile.store %dx, %DXv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %dy: memref<?x?xf32>, %dx: memref<?x?xf32>) {
  tile.launch @gelu_backward(%x, %dy, %dx)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
