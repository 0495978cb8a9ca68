// y = x @ w + r, fp32, w [K, N] in its natural (not transposed) layout: one
// BM x BN output tile per block, a K loop in steps of BK with zero padding
// for the ragged tail (zero is neutral for the products), the residual tile
// added in the epilogue.
tile.kernel @matmul_residual(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                             %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                             %R: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Wv = tile.partition %W tile [BK, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x64xf32, pad = zero>
  %Rv = tile.partition %R tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x64xf32, pad = zero> -> tensor<32x64xf32>
    %p = tile.mma %x, %w, %a : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %p : tensor<64x64xf32>
  }
  %res = tile.load %Rv[%m, %n] : !tile.part<64x64xf32, pad = zero> -> tensor<64x64xf32>
  %y = arith.addf %acc, %res : tensor<64x64xf32>
  tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %r: memref<?x?xf32>,
                %y: memref<?x?xf32>) {
  tile.launch @matmul_residual(%x, %w, %r, %y)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
