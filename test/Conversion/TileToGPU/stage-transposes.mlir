// RUN: kbench-opt %s --split-input-file --tile-assign-layouts | FileCheck %s
// RUN: kbench-opt %s --split-input-file --tile-assign-layouts --tile-to-gpu | FileCheck %s --check-prefix=GPU

// A store marked tile.stage_through_shared (transform.tile.stage_transposes)
// takes its tile in the store's own layout, the default blocked one (lanes
// and 4-element runs along the innermost dim), through a tile.convert_layout
// that carries the mark; tile-to-gpu lowers that conversion through shared
// memory whose rows are one element longer (32 x 33 floats), with scalar
// accesses on both sides.
// CHECK: #[[LOAD:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 4], lanes = [4, 8], lane_strides = [8, 1], warps = [4, 1], warp_strides = [1, 4], num_warps = 4>
// CHECK: #[[TRANSPOSED:blocked[0-9]*]] = #tile.blocked<per_thread = [4, 1], lanes = [8, 4], lane_strides = [1, 8], warps = [1, 4], warp_strides = [4, 1], num_warps = 4>
// CHECK-LABEL: tile.kernel @staged
// CHECK: %[[X:.*]] = tile.load {{.*}} -> tensor<32x32xf32, #[[LOAD]]>
// CHECK: %[[T:.*]] = tile.transpose %[[X]] perm [1, 0] : tensor<32x32xf32, #[[LOAD]]> -> tensor<32x32xf32, #[[TRANSPOSED]]>
// CHECK: %[[C:.*]] = tile.convert_layout %[[T]] {tile.stage_through_shared} : tensor<32x32xf32, #[[TRANSPOSED]]> -> tensor<32x32xf32, #[[LOAD]]>
// CHECK: tile.store %[[C]], {{.*}} {tile.stage_through_shared}
// GPU-LABEL: gpu.func @staged
// GPU: memref.view {{.*}} to memref<1056xf32, #gpu.address_space<workgroup>>
// GPU-NOT: vector.store {{.*}}#gpu.address_space<workgroup>
// GPU: memref.store {{.*}}#gpu.address_space<workgroup>
// GPU: gpu.barrier
// GPU-NOT: vector.load {{.*}}#gpu.address_space<workgroup>
// GPU: memref.load {{.*}}#gpu.address_space<workgroup>
tile.kernel @staged(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["N", "M"]})
    params {BM = 32, BN = 32, num_warps = 4, vector_width = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN, BM] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %j, %i = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  %y = tile.transpose %x perm [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
  tile.store %y, %Yv[%j, %i] {tile.stage_through_shared} : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}

// -----

// Without the mark the transposed tile is stored in the layout it has: no
// conversion, no shared memory (each lane writes along y's columns).
// CHECK-LABEL: tile.kernel @direct
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store
// GPU-LABEL: gpu.func @direct
// GPU-NOT: workgroup
// GPU: gpu.return
tile.kernel @direct(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["N", "M"]})
    params {BM = 32, BN = 32, num_warps = 4, vector_width = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN, BM] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %j, %i = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  %y = tile.transpose %x perm [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
  tile.store %y, %Yv[%j, %i] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}

// -----

// A marked tile.atomic_add is staged the same way.
// CHECK-LABEL: tile.kernel @staged_add
// CHECK: %[[C:.*]] = tile.convert_layout %{{.*}} {tile.stage_through_shared}
// CHECK: tile.atomic_add %[[C]], {{.*}} {tile.stage_through_shared}
// GPU-LABEL: gpu.func @staged_add
// GPU: memref.view {{.*}} to memref<1056xf32, #gpu.address_space<workgroup>>
tile.kernel @staged_add(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["N", "M"]})
    params {BM = 32, BN = 32, num_warps = 4, vector_width = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN, BM] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %j, %i = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  %y = tile.transpose %x perm [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
  tile.atomic_add %y, %Yv[%j, %i] {tile.stage_through_shared} : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}
