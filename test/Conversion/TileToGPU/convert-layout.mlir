// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// MemoryLowering.cpp, tile.convert_layout: the tile goes through a
// shared-memory scratch buffer, written in the source layout (a vector.store
// per run of 2 contiguous elements) and read back in the target layout (one
// memref.load per element: its runs are 1 long), with a barrier between.
// Inside a loop a second barrier fences the buffer against the next
// iteration's write.

#pairs = #tile.blocked<per_thread = [2], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>
#cyclic = #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>

// CHECK-LABEL: gpu.func @convert
// CHECK-SAME: workgroup(%{{.*}} : memref<256xi8, #gpu.address_space<workgroup>>
// CHECK: %[[BUF:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[X:.*]] = vector.load %{{.*}} : memref<?xf32, #gpu.address_space<global>>, vector<2xf32>
// CHECK: vector.store %[[X]], %[[BUF]][%{{.*}}] {alignment = 8 : i64} : memref<64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[E0:.*]] = memref.load %[[BUF]]
// CHECK: %[[E1:.*]] = memref.load %[[BUF]]
// CHECK-NEXT: %[[Y:.*]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
// The store writes the cyclic layout's runs of 1.
// CHECK-NOT: gpu.barrier
// CHECK: %[[Y0:.*]] = vector.extract_strided_slice %[[Y]] {offsets = [0], sizes = [1], strides = [1]}
// CHECK: vector.store %[[Y0]]
tile.kernel @convert(%X: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 64, num_warps = 1} requires ["N % 64 == 0"] {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Yv : !tile.part<64xf32>
  %x = tile.load %Xv[%n] : !tile.part<64xf32> -> tensor<64xf32, #pairs>
  %y = tile.convert_layout %x : tensor<64xf32, #pairs> -> tensor<64xf32, #cyclic>
  tile.store %y, %Yv[%n] : tensor<64xf32, #cyclic>, !tile.part<64xf32>
  tile.return
}

// -----

#pairs = #tile.blocked<per_thread = [2], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>
#cyclic = #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>

// CHECK-LABEL: gpu.func @convert_in_loop
// CHECK: scf.for
// CHECK: vector.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NEXT: gpu.barrier
// CHECK: vector.from_elements
// CHECK-NEXT: gpu.barrier
// CHECK: scf.yield
tile.kernel @convert_in_loop(%X: memref<?xf32> {tile.dims = ["N"]},
                             %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 64, num_warps = 1} requires ["N % 64 == 0"] {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Yv : !tile.part<64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32, #cyclic>
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (tensor<64xf32, #cyclic>) {
    %x = tile.load %Xv[%n] : !tile.part<64xf32> -> tensor<64xf32, #pairs>
    %c = tile.convert_layout %x : tensor<64xf32, #pairs> -> tensor<64xf32, #cyclic>
    %next = arith.addf %acc, %c : tensor<64xf32, #cyclic>
    scf.yield %next : tensor<64xf32, #cyclic>
  }
  tile.store %sum, %Yv[%n] : tensor<64xf32, #cyclic>, !tile.part<64xf32>
  tile.return
}
