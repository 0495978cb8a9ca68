// The gradients of y = x @ w^T + b, as three kernels the entry launches in
// order (none reads another's output):
//   @linear_backward_dx: dx = dy @ w     (M x K, reduction over N)
//   @linear_backward_dw: dw = dy^T @ x   (N x K, reduction over M; dy is
//                        read M-major, tile.mma transpose_a)
//   @linear_backward_db: db = sum_i dy[i, :] (a reduction along axis 0)
// Each matmul is one BM x BN output tile per block with zero padding for
// the ragged reduction tail. The schedule edits each kernel by name.
tile.kernel @linear_backward_dx(%DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                                %DX: memref<?x?xf32> {tile.dims = ["M", "K"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %DYv = tile.partition %DY tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Wv = tile.partition %W tile [BK, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x64xf32, pad = zero>
  %DXv = tile.partition %DX tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %DXv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %DYv[1] : !tile.part<64x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %dy = tile.load %DYv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x64xf32, pad = zero> -> tensor<32x64xf32>
    %p = tile.mma %dy, %w, %a : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %p : tensor<64x64xf32>
  }
  tile.store %acc, %DXv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

tile.kernel @linear_backward_dw(%DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                                %DW: memref<?x?xf32> {tile.dims = ["N", "K"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %DYv = tile.partition %DY tile [BK, BM] pad(zero) : memref<?x?xf32> -> !tile.part<32x64xf32, pad = zero>
  %Xv = tile.partition %X tile [BK, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x64xf32, pad = zero>
  %DWv = tile.partition %DW tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %DWv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %DYv[0] : !tile.part<32x64xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %dy = tile.load %DYv[%k, %m] : !tile.part<32x64xf32, pad = zero> -> tensor<32x64xf32>
    %x = tile.load %Xv[%k, %n] : !tile.part<32x64xf32, pad = zero> -> tensor<32x64xf32>
    %p = tile.mma %dy, %x, %a {transpose_a} : tensor<32x64xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %p : tensor<64x64xf32>
  }
  tile.store %acc, %DWv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

tile.kernel @linear_backward_db(%DY: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %B: memref<?xf32> {tile.dims = ["N"]},
                                %DB: memref<?xf32> {tile.dims = ["N"]})
    params {BR = 32, BN = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %DYv = tile.partition %DY tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x128xf32, pad = zero>
  %DBv = tile.partition %DB tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %c = tile.grid %DBv : !tile.part<128xf32>
  %mt = tile.num_tiles %DYv[0] : !tile.part<32x128xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %acc = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<32x128xf32>) {
    %dy = tile.load %DYv[%i, %c] : !tile.part<32x128xf32, pad = zero> -> tensor<32x128xf32>
    %s = arith.addf %a, %dy : tensor<32x128xf32>
    scf.yield %s : tensor<32x128xf32>
  }
  %db = tile.reduce add %acc dim 0 : tensor<32x128xf32> -> tensor<128xf32>
  tile.store %db, %DBv[%c] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

// b is an input of the task (the forward's bias) that no gradient reads;
// every entry argument must reach a launch, so the db kernel takes it and
// leaves it alone.
func.func @main(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %b: memref<?xf32>,
                %dy: memref<?x?xf32>, %dx: memref<?x?xf32>, %dw: memref<?x?xf32>,
                %db: memref<?xf32>) {
  tile.launch @linear_backward_dx(%dy, %w, %dx)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  tile.launch @linear_backward_dw(%dy, %x, %dw)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  tile.launch @linear_backward_db(%dy, %b, %db)
      : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}
