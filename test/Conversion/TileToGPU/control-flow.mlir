// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// scf.for with tile iter_args carries per-thread vectors; scalar iter_args
// and index arithmetic are kept as they are.

// CHECK-LABEL: gpu.func @row_sum
// CHECK: %[[NC:.*]] = arith.ceildivui
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : vector<1xf32>
// CHECK: %[[SUM:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %[[NC]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]], %[[CNT:.*]] = %{{.*}}) -> (vector<1xf32>, index)
// CHECK: %[[PS:.*]] = gpu.subgroup_reduce add %{{.*}} uniform : (f32) -> f32
// CHECK: %[[P:.*]] = vector.from_elements %[[PS]] : vector<1xf32>
// CHECK: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[P]] : vector<1xf32>
// CHECK: %[[CNT1:.*]] = arith.addi %[[CNT]]
// CHECK: scf.yield %[[NEXT]], %[[CNT1]] : vector<1xf32>, index
// CHECK: scf.if
// CHECK: vector.store %[[SUM]]#0
tile.kernel @row_sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 128, num_warps = 4, vector_width = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nc = tile.num_tiles %Xv[1] : !tile.part<4x128xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %s, %n = scf.for %j = %c0 to %nc step %c1 iter_args(%acc = %z, %cnt = %c0) -> (tensor<4xf32>, index) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x128xf32, pad = zero> -> tensor<4x128xf32>
    %p = tile.reduce add %x dim 1 : tensor<4x128xf32> -> tensor<4xf32>
    %a = arith.addf %acc, %p : tensor<4xf32>
    %cnt1 = arith.addi %cnt, %c1 : index
    scf.yield %a, %cnt1 : tensor<4xf32>, index
  }
  tile.store %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// -----

// scf.if on a block-uniform condition with a tile result.

// CHECK-LABEL: gpu.func @select_tile
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK: arith.negf %{{.*}} : vector<4xf32>
// CHECK: scf.yield
// CHECK: } else {
// CHECK: scf.yield
// CHECK: vector.store
tile.kernel @select_tile(%X: memref<?xf32> {tile.dims = ["N"]},
                         %Y: memref<?xf32> {tile.dims = ["N"]}, %flip: i1)
    params {BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<512xf32>
  %n = tile.grid %Yv : !tile.part<512xf32>
  %x = tile.load %Xv[%n] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %y = scf.if %flip -> (tensor<512xf32>) {
    %neg = arith.negf %x : tensor<512xf32>
    scf.yield %neg : tensor<512xf32>
  } else {
    scf.yield %x : tensor<512xf32>
  }
  tile.store %y, %Yv[%n] : tensor<512xf32>, !tile.part<512xf32>
  tile.return
}

// -----

// group_m: a bijective grouped order of a 2-D grid. Block ids are linearized
// (x fastest), cut into groups of group_m tiles along grid result 0, and
// walked column by column inside a group.

// CHECK-LABEL: gpu.func @grouped
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[GX:.*]] = gpu.grid_dim x
// CHECK: %[[GY:.*]] = gpu.grid_dim y
// CHECK: %[[T:.*]] = arith.muli %[[BY]], %[[GX]]
// CHECK: %[[PID:.*]] = arith.addi %[[T]], %[[BX]]
// CHECK: %[[WIDTH:.*]] = arith.muli %[[G:.*]], %[[GY]]
// CHECK: %[[GROUP:.*]] = arith.divui %[[PID]], %[[WIDTH]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[G]]
// CHECK: %[[REST:.*]] = arith.subi %[[GX]], %[[FIRST]]
// CHECK: %[[SIZE:.*]] = arith.minui %[[REST]], %[[G]]
// CHECK: %[[IN:.*]] = arith.remui %[[PID]], %[[WIDTH]]
// CHECK: %[[OFF:.*]] = arith.remui %[[IN]], %[[SIZE]]
// CHECK: %[[M:.*]] = arith.addi %[[FIRST]], %[[OFF]]
// CHECK: %[[N:.*]] = arith.divui %[[IN]], %[[SIZE]]
// CHECK: arith.muli %[[M]], %c32
// CHECK: arith.muli %[[N]], %c32
tile.kernel @grouped(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 32, BN = 32, num_warps = 4, group_m = 8} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m, %n = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  tile.store %x, %Yv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}
