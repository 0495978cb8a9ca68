// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Row sum over column tiles. A 1024-wide tile on 4 warps puts one row per
// warp: shuffles only; the 4 sums are stored by lane 0 of each warp.

// CHECK: .visible .entry row_sum(
// CHECK: ld.global.v4.b32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-NOT: bar.sync
// CHECK: st.global.b32
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'row_sum' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @row_sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 1024, num_warps = 4, vector_width = 4} requires ["N % 4 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nc = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %s = scf.for %j = %c0 to %nc step %c1 iter_args(%acc = %z) -> (tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %p = tile.reduce add %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %a = arith.addf %acc, %p : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  tile.store %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// One warp for 4 rows: every thread holds all 4 rows, so the lane reduction
// runs once per row (4 x 5 butterfly steps).
// CHECK-LABEL: .visible .entry row_sum_one_warp(
// CHECK-COUNT-20: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync.bfly.b32
// CHECK: ret;
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'row_sum_one_warp' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @row_sum_one_warp(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                              %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 256, num_warps = 1, vector_width = 4} requires ["N % 4 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nc = tile.num_tiles %Xv[1] : !tile.part<4x256xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %s = scf.for %j = %c0 to %nc step %c1 iter_args(%acc = %z) -> (tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x256xf32, pad = zero> -> tensor<4x256xf32>
    %p = tile.reduce add %x dim 1 : tensor<4x256xf32> -> tensor<4xf32>
    %a = arith.addf %acc, %p : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  tile.store %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
