// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// The fast_math knob (transform.tile.fast_math): once the body is lowered,
// every floating-point arith op of the gpu.func is marked contract (the
// NVPTX backend may then fuse a multiply into the add that uses it), and each
// f32 math.exp2 becomes one llvm.nvvm.ex2.approx.ftz call per element.
// Integer arith keeps no flags (it has none).

// CHECK-LABEL: gpu.func @softmax_numerator
// CHECK: scf.for
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<4xf32>
// CHECK: %[[D:.*]] = arith.subf %[[S]], %{{.*}} fastmath<contract> : vector<4xf32>
// CHECK-NOT: math.exp2
// CHECK: %[[E0:.*]] = vector.extract %[[D]][0] : f32 from vector<4xf32>
// CHECK-NEXT: %[[X0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[E0]]) : (f32) -> f32
// CHECK: %[[E3:.*]] = vector.extract %[[D]][3] : f32 from vector<4xf32>
// CHECK-NEXT: %[[X3:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[E3]]) : (f32) -> f32
// CHECK-NEXT: vector.from_elements %[[X0]], %{{.*}}, %{{.*}}, %[[X3]] : vector<4xf32>
// CHECK-NOT: math.exp2
// CHECK: gpu.return
tile.kernel @softmax_numerator(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 1, BN = 512, num_warps = 4, vector_width = 4, fast_math = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<1x512xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<1x512xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<1x512xf32, pad = zero>
  %scale = arith.constant dense<1.44269504> : tensor<1x512xf32>
  %shift = arith.constant dense<3.0> : tensor<1x512xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf32, pad = zero> -> tensor<1x512xf32>
    %s = arith.mulf %x, %scale : tensor<1x512xf32>
    %d = arith.subf %s, %shift : tensor<1x512xf32>
    %e = math.exp2 %d : tensor<1x512xf32>
    tile.store %e, %Yv[%r, %j] : tensor<1x512xf32>, !tile.part<1x512xf32>
  }
  tile.return
}

// -----

// Without the knob (or with 0): no flags, and math.exp2 stays for the
// backend (which lowers it to the denormal-preserving ex2.approx.f32).
// CHECK-LABEL: gpu.func @default_math
// CHECK-NOT: fastmath
// CHECK-NOT: llvm.call_intrinsic
// CHECK: math.exp2 %{{.*}} : vector<4xf32>
// CHECK: gpu.return
tile.kernel @default_math(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 1, BN = 512, num_warps = 4, vector_width = 4, fast_math = 0} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<1x512xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<1x512xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<1x512xf32, pad = zero>
  %scale = arith.constant dense<1.44269504> : tensor<1x512xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf32, pad = zero> -> tensor<1x512xf32>
    %s = arith.mulf %x, %scale : tensor<1x512xf32>
    %e = math.exp2 %s : tensor<1x512xf32>
    tile.store %e, %Yv[%r, %j] : tensor<1x512xf32>, !tile.part<1x512xf32>
  }
  tile.return
}

// -----

// An exp2 that is not f32 (here f16) keeps the default lowering; the
// arith ops are still marked.
// CHECK-LABEL: gpu.func @half_exp2
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<4xf16>
// CHECK: math.exp2 %{{.*}} : vector<4xf16>
// CHECK-NOT: llvm.call_intrinsic
// CHECK: gpu.return
tile.kernel @half_exp2(%X: memref<?x?xf16> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf16> {tile.dims = ["M", "N"]})
    params {BR = 1, BN = 512, num_warps = 4, vector_width = 4, fast_math = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf16> -> !tile.part<1x512xf16, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf16> -> !tile.part<1x512xf16>
  %r = tile.grid %Yv dims [0] : !tile.part<1x512xf16>
  %nt = tile.num_tiles %Xv[1] : !tile.part<1x512xf16, pad = zero>
  %scale = arith.constant dense<2.0> : tensor<1x512xf16>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf16, pad = zero> -> tensor<1x512xf16>
    %s = arith.mulf %x, %scale : tensor<1x512xf16>
    %e = math.exp2 %s : tensor<1x512xf16>
    tile.store %e, %Yv[%r, %j] : tensor<1x512xf16>, !tile.part<1x512xf16>
  }
  tile.return
}
