// RUN: kbench-opt %s --pass-pipeline="builtin.module(gpu.module(kbench-gpu-prepare-nvvm))" | FileCheck %s

// The stock convert-gpu-to-nvvm of MLIR 22 leaves f32 gpu.subgroup_reduce and
// vector.create_mask alone; this pass expands them first.

// CHECK-LABEL: gpu.func @reductions
// CHECK-NOT: gpu.subgroup_reduce
// Full warp: 5 butterfly steps (xor 1, 2, 4, 8, 16).
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// Cluster of 4 lanes with stride 8: xor 8 and 16.
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: vector.create_mask
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : vector<4xi64>
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @reductions(%x: vector<1xf32>, %n: index, %p: memref<?xf32>) kernel {
    %full = gpu.subgroup_reduce maximumf %x uniform : (vector<1xf32>) -> vector<1xf32>
    %part = gpu.subgroup_reduce add %full uniform cluster(size = 4, stride = 8) : (vector<1xf32>) -> vector<1xf32>
    %c0 = arith.constant 0 : index
    vector.store %part, %p[%c0] : memref<?xf32>, vector<1xf32>
    %mask = vector.create_mask %n : vector<4xi1>
    %v = arith.constant dense<1.0> : vector<4xf32>
    vector.maskedstore %p[%c0], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xf32>
    gpu.return
  }
}
