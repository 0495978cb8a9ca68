// y = gelu_tanh(x @ w^T + b) in bf16: bf16 x [M, K], w [N, K] and b [N], f32
// accumulation, the bias and gelu applied to the f32 accumulator in registers
// and one rounding to bf16 at the store. gelu_tanh(v) = 0.5 v (1 +
// tanh(sqrt(2/pi) (v + 0.044715 v^3))), as torch's gelu(approximate="tanh").
// The default schedule picks impl = wgmma.
tile.kernel @linear_bias_gelu_bf16(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                                   %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                                   %b: memref<?xbf16> {tile.dims = ["N"]},
                                   %Y: memref<?x?xbf16> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %bv = tile.partition %b tile [BN] pad(zero) : memref<?xbf16> -> !tile.part<64xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xbf16> -> !tile.part<64x64xbf16>
  %m, %n = tile.grid %Yv : !tile.part<64x64xbf16>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %bt = tile.load %bv[%n] : !tile.part<64xbf16, pad = zero> -> tensor<64xbf16>
  %bw = arith.extf %bt : tensor<64xbf16> to tensor<64xf32>
  %bb = tile.broadcast %bw dims [0] : tensor<64xf32> -> tensor<64x64xf32>
  %v = arith.addf %acc, %bb : tensor<64x64xf32>
  %half = arith.constant dense<0.5> : tensor<64x64xf32>
  %one = arith.constant dense<1.0> : tensor<64x64xf32>
  %k0 = arith.constant dense<0.7978845608028654> : tensor<64x64xf32>
  %k1 = arith.constant dense<0.044715> : tensor<64x64xf32>
  %v2 = arith.mulf %v, %v : tensor<64x64xf32>
  %v3 = arith.mulf %v2, %v : tensor<64x64xf32>
  %cube = arith.mulf %v3, %k1 : tensor<64x64xf32>
  %inner = arith.addf %v, %cube : tensor<64x64xf32>
  %arg = arith.mulf %inner, %k0 : tensor<64x64xf32>
  %t = math.tanh %arg : tensor<64x64xf32>
  %onept = arith.addf %t, %one : tensor<64x64xf32>
  %hv = arith.mulf %v, %half : tensor<64x64xf32>
  %g = arith.mulf %hv, %onept : tensor<64x64xf32>
  %y = arith.truncf %g : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %y, %Yv[%m, %n] : tensor<64x64xbf16>, !tile.part<64x64xbf16>
  tile.return
}

// Host level: the task's inputs (x, w, b) then its output (y), in task.json
// order.
func.func @main(%x: memref<?x?xbf16>, %w: memref<?x?xbf16>, %b: memref<?xbf16>,
                %y: memref<?x?xbf16>) {
  tile.launch @linear_bias_gelu_bf16(%x, %w, %b, %y)
      : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?xbf16>, memref<?x?xbf16>) -> ()
  return
}
