// Soft-target cross-entropy (knowledge distillation), one pass per row:
// with p = softmax(t), sum_j p_j = 1, so
//   loss = -sum_j p_j (x_j - lse(x)) = lse(x) - sum_j exp(t_j - mt) x_j / lt
// where mt and lt are t's max and sum of exp(t - mt). The pass carries the
// online softmax state of x (mx, lx) and of t (mt, lt) and the weighted sum
// sx = sum_j exp(t_j - mt) x_j, rescaling lt and sx by exp(mt_old - mt_new)
// when t's max grows. x is read through two views: pad(neg_inf) for its max
// and sum of exp, pad(zero) for the weighted sum, where a -inf would make
// 0 * -inf = nan on the padded lanes.
tile.kernel @soft_cross_entropy(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %T: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %L: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Xz = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Tv = tile.partition %T tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Lv = tile.partition %L tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Lv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %mx, %lx, %mt, %lt, %sx = scf.for %j = %c0 to %nt step %c1
      iter_args(%mxi = %ninf, %lxi = %zero, %mti = %ninf, %lti = %zero, %sxi = %zero)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %xz = tile.load %Xz[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %t = tile.load %Tv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    // Student: online max and sum of exp.
    %xmax = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mxn = arith.maximumf %mxi, %xmax : tensor<4xf32>
    %mxb = tile.broadcast %mxn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %dx = arith.subf %x, %mxb : tensor<4x1024xf32>
    %ex = math.exp %dx : tensor<4x1024xf32>
    %exs = tile.reduce add %ex dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %shx = arith.subf %mxi, %mxn : tensor<4xf32>
    %scx = math.exp %shx : tensor<4xf32>
    %lxs = arith.mulf %lxi, %scx : tensor<4xf32>
    %lxn = arith.addf %lxs, %exs : tensor<4xf32>
    // Teacher: online max, sum of exp and exp-weighted sum of x.
    %tmax = tile.reduce max %t dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mtn = arith.maximumf %mti, %tmax : tensor<4xf32>
    %mtb = tile.broadcast %mtn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %dt = arith.subf %t, %mtb : tensor<4x1024xf32>
    %et = math.exp %dt : tensor<4x1024xf32>
    %ets = tile.reduce add %et dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %etx = arith.mulf %et, %xz : tensor<4x1024xf32>
    %etxs = tile.reduce add %etx dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %sht = arith.subf %mti, %mtn : tensor<4xf32>
    %sct = math.exp %sht : tensor<4xf32>
    %lts = arith.mulf %lti, %sct : tensor<4xf32>
    %ltn = arith.addf %lts, %ets : tensor<4xf32>
    %sxs = arith.mulf %sxi, %sct : tensor<4xf32>
    %sxn = arith.addf %sxs, %etxs : tensor<4xf32>
    scf.yield %mxn, %lxn, %mtn, %ltn, %sxn
        : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  %loglx = math.log %lx : tensor<4xf32>
  %lse = arith.addf %mx, %loglx : tensor<4xf32>
  %px = arith.divf %sx, %lt : tensor<4xf32>
  %loss = arith.subf %lse, %px : tensor<4xf32>
  tile.store %loss, %Lv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %t: memref<?x?xf32>, %loss: memref<?xf32>) {
  tile.launch @soft_cross_entropy(%x, %t, %loss)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  return
}
