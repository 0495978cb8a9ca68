// y = x @ w^T with bf16 x [M, K] and w [N, K] and an f32 result: the
// tensor-core GEMM of the suite. One BM x BN output tile per block, K loop in
// steps of BK with zero padding for the ragged tail; the default schedule
// picks impl = wgmma (wgmma.mma_async m64n128k16 with f32 accumulators).
tile.kernel @matmul_bf16(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// Host level: the task's inputs (x, w) then its output (y), in task.json
// order.
func.func @main(%x: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                %y: memref<?x?xf32>) {
  tile.launch @matmul_bf16(%x, %w, %y)
      : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
  return
}
