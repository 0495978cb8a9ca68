// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// gelu_bias: y = gelu_tanh(x * s + b), s and b per column. vector_width = 4
// on f32 with N a multiple of 4: 16-byte global loads and stores.

// CHECK: .visible .entry gelu_bias(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 gelu_bias_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 gelu_bias_param_1,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 gelu_bias_param_2,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 gelu_bias_param_3,
// CHECK-NEXT: .param .u64 gelu_bias_param_4,
// CHECK-NEXT: .param .u64 gelu_bias_param_5
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 128, 1, 1
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-NOT: bar.sync
// PTXAS: remark: ptxas sm_90a: kernel 'gelu_bias' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes static shared memory, 0 barriers
tile.kernel @gelu_bias(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %S: memref<?xf32> {tile.dims = ["N"]},
                       %B: memref<?xf32> {tile.dims = ["N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 4, BN = 512, num_warps = 4, vector_width = 4} requires ["N % 4 == 0"] {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x512xf32, pad = zero>
  %Sv = tile.partition %S tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<4x512xf32>
  %m, %n = tile.grid %Yv : !tile.part<4x512xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<4x512xf32, pad = zero> -> tensor<4x512xf32>
  %s = tile.load %Sv[%n] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %b = tile.load %Bv[%n] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %sb = tile.broadcast %s dims [0] : tensor<512xf32> -> tensor<4x512xf32>
  %bb = tile.broadcast %b dims [0] : tensor<512xf32> -> tensor<4x512xf32>
  %xs = arith.mulf %x, %sb : tensor<4x512xf32>
  %z = arith.addf %xs, %bb : tensor<4x512xf32>
  %c0 = arith.constant dense<0.044715> : tensor<4x512xf32>
  %c1 = arith.constant dense<0.7978845608> : tensor<4x512xf32>
  %half = arith.constant dense<0.5> : tensor<4x512xf32>
  %one = arith.constant dense<1.0> : tensor<4x512xf32>
  %z2 = arith.mulf %z, %z : tensor<4x512xf32>
  %z3 = arith.mulf %z2, %z : tensor<4x512xf32>
  %t0 = arith.mulf %z3, %c0 : tensor<4x512xf32>
  %t1 = arith.addf %z, %t0 : tensor<4x512xf32>
  %t2 = arith.mulf %t1, %c1 : tensor<4x512xf32>
  %t3 = math.tanh %t2 : tensor<4x512xf32>
  %t4 = arith.addf %t3, %one : tensor<4x512xf32>
  %t5 = arith.mulf %z, %half : tensor<4x512xf32>
  %y = arith.mulf %t5, %t4 : tensor<4x512xf32>
  tile.store %y, %Yv[%m, %n] : tensor<4x512xf32>, !tile.part<4x512xf32>
  tile.return
}
