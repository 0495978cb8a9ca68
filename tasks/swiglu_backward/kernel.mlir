// Backward of the SwiGLU gate y = silu(a) * b, with s = sigmoid(a):
//   da = dy * b * s * (1 + a * (1 - s)),   db = dy * silu(a) = dy * a * s,
// both gradients from one read of a, b and dy.
tile.kernel @swiglu_backward(%A: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %B: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %DA: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %DB: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Av = tile.partition %A tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Bv = tile.partition %B tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %DAv = tile.partition %DA tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %DBv = tile.partition %DB tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %i, %j = tile.grid %DAv : !tile.part<8x512xf32>
  %a = tile.load %Av[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %b = tile.load %Bv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %dy = tile.load %DYv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %one = arith.constant dense<1.0> : tensor<8x512xf32>
  %na = arith.negf %a : tensor<8x512xf32>
  %e = math.exp %na : tensor<8x512xf32>
  %den = arith.addf %e, %one : tensor<8x512xf32>
  %s = arith.divf %one, %den : tensor<8x512xf32>
  %silu = arith.mulf %a, %s : tensor<8x512xf32>
  %db = arith.mulf %dy, %silu : tensor<8x512xf32>
  %oms = arith.subf %one, %s : tensor<8x512xf32>
  %aoms = arith.mulf %a, %oms : tensor<8x512xf32>
  %opa = arith.addf %one, %aoms : tensor<8x512xf32>
  %dsilu = arith.mulf %s, %opa : tensor<8x512xf32>
  %dyb = arith.mulf %dy, %b : tensor<8x512xf32>
  %da = arith.mulf %dyb, %dsilu : tensor<8x512xf32>
  tile.store %da, %DAv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.store %db, %DBv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

func.func @main(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %dy: memref<?x?xf32>,
                %da: memref<?x?xf32>, %db: memref<?x?xf32>) {
  tile.launch @swiglu_backward(%a, %b, %dy, %da, %db)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>,
         memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
