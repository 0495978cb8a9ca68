// Hard swish (MobileNetV3): y = x * min(max(x + 3, 0), 6) / 6, a piecewise
// activation: 0 below -3, x above 3, quadratic between.
tile.kernel @hardswish(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %i, %j = tile.grid %Yv : !tile.part<8x512xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %zero = arith.constant dense<0.0> : tensor<8x512xf32>
  %three = arith.constant dense<3.0> : tensor<8x512xf32>
  %six = arith.constant dense<6.0> : tensor<8x512xf32>
  %x3 = arith.addf %x, %three : tensor<8x512xf32>
  %lo = arith.maximumf %x3, %zero : tensor<8x512xf32>
  %clamped = arith.minimumf %lo, %six : tensor<8x512xf32>
  %u = arith.mulf %x, %clamped : tensor<8x512xf32>
  %y = arith.divf %u, %six : tensor<8x512xf32>
  tile.store %y, %Yv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @hardswish(%x, %y)
      : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
