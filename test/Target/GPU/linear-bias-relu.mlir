// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// Assigning the layouts as a pass of its own gives the same PTX.
// RUN: kbench-opt %s --tile-assign-layouts --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.assigned.ptx -o /dev/null
// RUN: diff %t.ptx %t.assigned.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// linear_bias_relu, fp32 SIMT: 128x128 CTA tile, BK = 8, 8 warps, an 8x8
// register micro-tile per thread, double-buffered shared memory. Shared
// memory pointers are 32-bit (--nvptx-short-ptr), fragment reads are 16 bytes
// wide and the K loop has one barrier per step.

// CHECK: .visible .entry linear_bias_relu(
// CHECK: .maxntid 256, 1, 1
// CHECK: .shared .align 16 .b8 __wg_linear_bias_relu_0[16896];
// CHECK: ld.global.v4.b32
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: $L__BB0_[[LOOP:[0-9]+]]:
// CHECK: ld.shared.v4.b32 {{.*}}, [%r{{[0-9]+}}];
// CHECK-COUNT-64: fma.rn.f32
// CHECK: bar.sync 0;
// CHECK: st.global.v4.b32
// PTXAS: remark: ptxas sm_90a: kernel 'linear_bias_relu' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 16896 bytes static shared memory, 1 barriers
tile.kernel @linear_bias_relu(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                              %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                              %b: memref<?xf32> {tile.dims = ["N"]},
                              %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 8, num_warps = 8, vector_width = 4}
    requires ["K % 8 == 0", "N % 128 == 0", "M % 128 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<128x8xf32, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<128x8xf32, pad = zero>
  %bv = tile.partition %b tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x8xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x8xf32, pad = zero> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %k] : !tile.part<128x8xf32, pad = zero> -> tensor<128x8xf32>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  }
  %bt = tile.load %bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
  %s = arith.addf %acc, %bb : tensor<128x128xf32>
  %y = arith.maximumf %s, %z : tensor<128x128xf32>
  tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
