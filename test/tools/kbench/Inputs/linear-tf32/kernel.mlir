// y = relu(x @ w^T + b), fp32, one 64x64 output tile per block, K loop in
// steps of BK with zero padding for the ragged tail.
tile.kernel @linear_tf32(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                              %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                              %b: memref<?xf32> {tile.dims = ["N"]},
                              %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %bv = tile.partition %b tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %w = tile.load %Wv[%n, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %bt = tile.load %bv[%n] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  %bb = tile.broadcast %bt dims [0] : tensor<64xf32> -> tensor<64x64xf32>
  %s = arith.addf %acc, %bb : tensor<64x64xf32>
  %y = arith.maximumf %s, %z : tensor<64x64xf32>
  tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// Host level: the task's inputs (x, w, b) then its outputs (y), in task.json
// order.
func.func @main(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %b: memref<?xf32>,
                %y: memref<?x?xf32>) {
  tile.launch @linear_tf32(%x, %w, %b, %y)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  return
}
