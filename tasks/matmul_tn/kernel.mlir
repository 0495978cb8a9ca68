// y = a^T @ b, fp32, with both operands K-major (a [K, M], b [K, N]), as a
// weight gradient reads activations and output gradients: one BM x BN
// output tile per block, a K loop in steps of BK loading a [BK, BM] tile of
// a (tile.mma transpose_a) and a [BK, BN] tile of b, zero padding for the
// ragged tails.
tile.kernel @matmul_tn(%A: memref<?x?xf32> {tile.dims = ["K", "M"]},
                       %B: memref<?x?xf32> {tile.dims = ["K", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [BK, BM] pad(zero) : memref<?x?xf32> -> !tile.part<32x64xf32, pad = zero>
  %Bv = tile.partition %B tile [BK, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Av[0] : !tile.part<32x64xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc_i = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %Av[%k, %m] : !tile.part<32x64xf32, pad = zero> -> tensor<32x64xf32>
    %b = tile.load %Bv[%k, %n] : !tile.part<32x64xf32, pad = zero> -> tensor<32x64xf32>
    %p = tile.mma %a, %b, %acc_i {transpose_a} : tensor<32x64xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %p : tensor<64x64xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

func.func @main(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %y: memref<?x?xf32>) {
  tile.launch @matmul_tn(%a, %b, %y) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
