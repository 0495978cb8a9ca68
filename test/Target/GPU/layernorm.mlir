// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Layernorm over rows with an affine gamma/beta (N <= BN): mean and variance
// are warp reductions; iota masks the padded columns out of the variance.

// CHECK: .visible .entry layernorm(
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: rsqrt.approx
// CHECK: st.global.v4.b32
// PTXAS: remark: ptxas sm_90a: kernel 'layernorm' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @layernorm(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %G: memref<?xf32> {tile.dims = ["N"]},
                       %B: memref<?xf32> {tile.dims = ["N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %n: index, %eps: f32)
    params {BR = 4, BN = 1024, num_warps = 4, vector_width = 4} requires ["N <= BN", "N % 4 == 0"] {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Gv = tile.partition %G tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r, %c = tile.grid %Yv : !tile.part<4x1024xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
  %ni = arith.index_cast %n : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  %nt = tile.splat %nf : f32 -> tensor<4xf32>
  %s = tile.reduce add %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %mean = arith.divf %s, %nt : tensor<4xf32>
  %mb = tile.broadcast %mean dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %cols = tile.iota dim 1 : tensor<4x1024xi32>
  %nb = tile.splat %ni : i32 -> tensor<4x1024xi32>
  %valid = arith.cmpi slt, %cols, %nb : tensor<4x1024xi32>
  %d0 = arith.subf %x, %mb : tensor<4x1024xf32>
  %zeros = arith.constant dense<0.0> : tensor<4x1024xf32>
  %d = arith.select %valid, %d0, %zeros : tensor<4x1024xi1>, tensor<4x1024xf32>
  %sq = arith.mulf %d, %d : tensor<4x1024xf32>
  %ss = tile.reduce add %sq dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %var = arith.divf %ss, %nt : tensor<4xf32>
  %et = tile.splat %eps : f32 -> tensor<4xf32>
  %ve = arith.addf %var, %et : tensor<4xf32>
  %rstd = math.rsqrt %ve : tensor<4xf32>
  %rb = tile.broadcast %rstd dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %g = tile.load %Gv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %bb = tile.load %Bv[%c] : !tile.part<1024xf32, pad = zero> -> tensor<1024xf32>
  %gb = tile.broadcast %g dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %bbb = tile.broadcast %bb dims [0] : tensor<1024xf32> -> tensor<4x1024xf32>
  %xn = arith.mulf %d, %rb : tensor<4x1024xf32>
  %xg = arith.mulf %xn, %gb : tensor<4x1024xf32>
  %y = arith.addf %xg, %bbb : tensor<4x1024xf32>
  tile.store %y, %Yv[%r, %c] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  tile.return
}
