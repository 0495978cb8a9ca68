// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Row softmax for N <= BN: one warp per row, so both reductions are warp
// shuffles (5 butterfly steps each) and need no shared memory.

// CHECK: .visible .entry row_softmax(
// CHECK: ld.global.v4.b32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: ex2.approx
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-NOT: bar.sync
// CHECK: st.global.v4.b32
// PTXAS: remark: ptxas sm_90a: kernel 'row_softmax' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes static shared memory, 0 barriers
// Row softmax for rows that fit one tile (N <= BN): pad(neg_inf) makes the
// overhanging columns neutral for max, and exp(-inf) = 0 neutral for the sum.
tile.kernel @row_softmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 1024, num_warps = 4, vector_width = 4} requires ["N <= BN", "N % 4 == 0"] {
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r, %c = tile.grid %Yv : !tile.part<4x1024xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
  %mx = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %mb = tile.broadcast %mx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %d = arith.subf %x, %mb : tensor<4x1024xf32>
  %e = math.exp %d : tensor<4x1024xf32>
  %s = tile.reduce add %e dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %sb = tile.broadcast %s dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %y = arith.divf %e, %sb : tensor<4x1024xf32>
  tile.store %y, %Yv[%r, %c] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  tile.return
}

