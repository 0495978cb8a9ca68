// y = silu(x @ wg^T) * (x @ wu^T), fp32: one BM x BN output tile per block
// with two accumulators, the gate and the up projection, fed by the same x
// tile in each step of the K loop (zero padding for the ragged tail); the
// epilogue applies silu(g) = g / (1 + exp(-g)) and the product.
tile.kernel @swiglu_mlp(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                        %WG: memref<?x?xf32> {tile.dims = ["N", "K"]},
                        %WU: memref<?x?xf32> {tile.dims = ["N", "K"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %WGv = tile.partition %WG tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %WUv = tile.partition %WU tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %g, %u = scf.for %k = %c0 to %nk step %c1 iter_args(%ga = %z, %ua = %z)
      -> (tensor<64x64xf32>, tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %wg = tile.load %WGv[%n, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %wu = tile.load %WUv[%n, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %gn = tile.mma %x, %wg, %ga {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
    %un = tile.mma %x, %wu, %ua {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
    scf.yield %gn, %un : tensor<64x64xf32>, tensor<64x64xf32>
  }
  %one = arith.constant dense<1.0> : tensor<64x64xf32>
  %ng = arith.negf %g : tensor<64x64xf32>
  %e = math.exp %ng : tensor<64x64xf32>
  %den = arith.addf %e, %one : tensor<64x64xf32>
  %sig = arith.divf %one, %den : tensor<64x64xf32>
  %sg = arith.mulf %g, %sig : tensor<64x64xf32>
  %y = arith.mulf %sg, %u : tensor<64x64xf32>
  tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %wg: memref<?x?xf32>, %wu: memref<?x?xf32>,
                %y: memref<?x?xf32>) {
  tile.launch @swiglu_mlp(%x, %wg, %wu, %y)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
