// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// iota: the per-thread offsets are a constant vector; the thread's own
// coordinate along the dim is added as a broadcast. An 8x32 tile on one warp
// puts 32 lanes along dim 1 and 8 elements per thread along dim 0.

// CHECK-LABEL: gpu.func @iota
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[ROWS:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
// CHECK: %[[COLS0:.*]] = arith.constant dense<0> : vector<8xi32>
// CHECK: %[[L:.*]] = arith.index_cast %[[LANE]] : index to i32
// CHECK: %[[LB:.*]] = vector.broadcast %[[L]] : i32 to vector<8xi32>
// CHECK: %[[COLS:.*]] = arith.addi %[[COLS0]], %[[LB]] : vector<8xi32>
// CHECK: arith.addi %[[ROWS]], %[[COLS]] : vector<8xi32>
tile.kernel @iota(%C: memref<?x?xi32> {tile.dims = ["M", "N"]})
    params {BM = 8, BN = 32, num_warps = 1} {
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xi32> -> !tile.part<8x32xi32>
  %m, %n = tile.grid %Cv : !tile.part<8x32xi32>
  %rows = tile.iota dim 0 : tensor<8x32xi32>
  %cols = tile.iota dim 1 : tensor<8x32xi32>
  %s = arith.addi %rows, %cols : tensor<8x32xi32>
  tile.store %s, %Cv[%m, %n] : tensor<8x32xi32>, !tile.part<8x32xi32>
  tile.return
}

// -----

// transpose and expand_dims only rename positions: the result lives in the
// permuted (or extended) layout, so no data moves here.

// CHECK-LABEL: gpu.func @transpose
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.view
// CHECK: gpu.return
tile.kernel @transpose(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?x?xf32> {tile.dims = ["N", "M", "O"]})
    params {BM = 8, BN = 32, num_warps = 1} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN, BM, 1] : memref<?x?x?xf32> -> !tile.part<32x8x1xf32>
  %m, %n = tile.grid %Xv : !tile.part<8x32xf32, pad = zero>
  %c0 = arith.constant 0 : index
  %x = tile.load %Xv[%m, %n] : !tile.part<8x32xf32, pad = zero> -> tensor<8x32xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<8x32xf32> -> tensor<32x8xf32>
  %e = tile.expand_dims %t dim 2 : tensor<32x8xf32> -> tensor<32x8x1xf32>
  tile.store %e, %Yv[%n, %m, %c0] : tensor<32x8x1xf32>, !tile.part<32x8x1xf32>
  tile.return
}

// -----

// squeeze drops a unit dim: each thread keeps its elements in the same order,
// so no data moves either.

// CHECK-LABEL: gpu.func @squeeze
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.view
// CHECK: gpu.return
tile.kernel @squeeze(%X: memref<?x?x?xf32> {tile.dims = ["H", "M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 8, BN = 32, num_warps = 1} {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [1, BM, BN] pad(zero) : memref<?x?x?xf32> -> !tile.part<1x8x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<8x32xf32>
  %m, %n = tile.grid %Yv : !tile.part<8x32xf32>
  %x = tile.load %Xv[%c0, %m, %n] : !tile.part<1x8x32xf32, pad = zero> -> tensor<1x8x32xf32>
  %s = tile.squeeze %x dim 0 : tensor<1x8x32xf32> -> tensor<8x32xf32>
  tile.store %s, %Yv[%m, %n] : tensor<8x32xf32>, !tile.part<8x32xf32>
  tile.return
}

// -----

// Two reductions of differently laid out tiles meet in one addition: the
// result class takes the first reduction's layout and the second result goes
// through shared memory (store, barrier, load; no trailing barrier outside a
// loop).

// CHECK-LABEL: gpu.func @conversion
// CHECK: %[[BUF:.*]] = memref.view %{{.*}} to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: gpu.subgroup_reduce add %{{.*}} uniform : (f32) -> f32
// CHECK: vector.from_elements %{{.*}} : vector<8xf32>
// CHECK: %[[B:.*]] = gpu.subgroup_reduce add %{{.*}} uniform cluster(size = 4, stride = 8) : (f32) -> f32
// CHECK: %[[BV:.*]] = vector.from_elements %[[B]] : vector<1xf32>
// CHECK: %[[E:.*]] = vector.extract %[[BV]][0]
// CHECK: memref.store %[[E]], %[[BUF]]
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[BUF]]
// CHECK-NOT: gpu.barrier
// CHECK: vector.from_elements
// CHECK: arith.addf %{{.*}} : vector<8xf32>
tile.kernel @conversion(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %W: memref<?x?xf32> {tile.dims = ["N", "M"]},
                        %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BM = 8, BN = 32, num_warps = 1} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x32xf32, pad = zero>
  %Wv = tile.partition %W tile [BN, BM] pad(zero) : memref<?x?xf32> -> !tile.part<32x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<8xf32>
  %m = tile.grid %Yv : !tile.part<8xf32>
  %c0 = arith.constant 0 : index
  %x = tile.load %Xv[%m, %c0] : !tile.part<8x32xf32, pad = zero> -> tensor<8x32xf32>
  %w = tile.load %Wv[%c0, %m] : !tile.part<32x8xf32, pad = zero> -> tensor<32x8xf32>
  %a = tile.reduce add %x dim 1 : tensor<8x32xf32> -> tensor<8xf32>
  %b = tile.reduce add %w dim 0 : tensor<32x8xf32> -> tensor<8xf32>
  %s = arith.addf %a, %b : tensor<8xf32>
  tile.store %s, %Yv[%m] : tensor<8xf32>, !tile.part<8xf32>
  tile.return
}
