// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Online softmax for any N: a loop over column tiles carries the running max
// and sum per row, a second loop normalizes and stores.

// CHECK: .visible .entry row_softmax_online(
// CHECK: shfl.sync.bfly.b32
// CHECK: ex2.approx
// CHECK: st.global.v4.b32
// PTXAS: remark: ptxas sm_90a: kernel 'row_softmax_online' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @row_softmax_online(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4, vector_width = 4} requires ["N % 4 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x1024xf32>
  %nc = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %m, %l = scf.for %j = %c0 to %nc step %c1 iter_args(%mi = %ninf, %li = %zero) -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %tm = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mn = arith.maximumf %mi, %tm : tensor<4xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %d = arith.subf %x, %mb : tensor<4x1024xf32>
    %e = math.exp %d : tensor<4x1024xf32>
    %ts = tile.reduce add %e dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %dm = arith.subf %mi, %mn : tensor<4xf32>
    %alpha = math.exp %dm : tensor<4xf32>
    %ls = arith.mulf %li, %alpha : tensor<4xf32>
    %ln = arith.addf %ls, %ts : tensor<4xf32>
    scf.yield %mn, %ln : tensor<4xf32>, tensor<4xf32>
  }
  %mb = tile.broadcast %m dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %lb = tile.broadcast %l dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  scf.for %j = %c0 to %nc step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %d = arith.subf %x, %mb : tensor<4x1024xf32>
    %e = math.exp %d : tensor<4x1024xf32>
    %y = arith.divf %e, %lb : tensor<4x1024xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  }
  tile.return
}
