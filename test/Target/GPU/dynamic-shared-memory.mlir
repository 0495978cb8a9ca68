// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// BK = 32 double-buffered: 2 operands x 2 buffers x 32 x (128 + 4) floats =
// 67584 bytes, over the 48 KB a kernel may declare statically. The kernel
// then uses dynamic shared memory, records the size its launch must request,
// and declares the buffer `.extern` (never a demoted 1-byte variable).

// GPU: gpu.func @big_k(
// GPU-NOT: workgroup(
// GPU-SAME: kbench.dynamic_shared_memory = 67584 : i64
// GPU: gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>

// CHECK: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK: .visible .entry big_k(
// CHECK: bar.sync 0;
// PTXAS: remark: ptxas sm_90a: kernel 'big_k' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes static shared memory, 1 barriers
tile.kernel @big_k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                   %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                   %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 32, num_warps = 8, vector_width = 4}
    requires ["K % 4 == 0", "N % 4 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<128x32xf32, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<128x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x32xf32, pad = zero> -> tensor<128x32xf32>
    %w = tile.load %Wv[%n, %k] : !tile.part<128x32xf32, pad = zero> -> tensor<128x32xf32>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<128x32xf32>, tensor<128x32xf32> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
