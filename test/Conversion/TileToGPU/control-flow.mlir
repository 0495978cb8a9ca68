// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// ControlFlowLowering.cpp: scf.for with tile iter_args carries per-thread
// vectors; scalar iter_args and index arithmetic are kept as they are;
// scf.if with tile results yields vectors; tile.return is gpu.return.

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
// CHECK: gpu.return
// CHECK-NEXT: }
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

// A loop whose pipelining decision is "1 stage" is a plain loop: the
// decision is consumed (no attribute left), the body is lowered in place.

// CHECK-LABEL: gpu.func @one_stage
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2xf32>) {
// CHECK: scf.yield %{{.*}} : vector<2xf32>
// CHECK-NEXT: }
// CHECK-NOT: tile.pipeline_stages
// CHECK: gpu.return
tile.kernel @one_stage(%X: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 64, num_warps = 1} requires ["N % 64 == 0"] {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Xv : !tile.part<64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (tensor<64xf32>) {
    %x = tile.load %Xv[%n] : !tile.part<64xf32> -> tensor<64xf32>
    %a = arith.addf %acc, %x : tensor<64xf32>
    scf.yield %a : tensor<64xf32>
  } {tile.pipeline_stages = 1 : i64}
  tile.store %s, %Xv[%n] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
