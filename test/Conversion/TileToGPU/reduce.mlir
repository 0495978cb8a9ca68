// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// A 16x8 tile on one warp: 8 lanes along N (stride 1), 4 along M (stride 8),
// 4 rows per thread. Reducing M: a tree over the thread's 4 rows, then the 4
// lanes of the same column (cluster of size 4, stride 8). The result stays
// with those lanes, so broadcasting it back along M is a register copy.

// CHECK-LABEL: gpu.func @clustered
// CHECK: %[[X:.*]] = scf.if
// CHECK: %[[R0:.*]] = vector.shuffle %[[X]], %[[X]] [0] : vector<4xf32>, vector<4xf32>
// CHECK: %[[R1:.*]] = vector.shuffle %[[X]], %[[X]] [1]
// CHECK: %[[S01:.*]] = arith.addf %[[R0]], %[[R1]] : vector<1xf32>
// CHECK: %[[S23:.*]] = arith.addf
// CHECK: %[[S:.*]] = arith.addf %[[S01]], %[[S23]] : vector<1xf32>
// CHECK: %[[SE:.*]] = vector.extract %[[S]][0] : f32 from vector<1xf32>
// CHECK: %[[T:.*]] = gpu.subgroup_reduce add %[[SE]] uniform cluster(size = 4, stride = 8) : (f32) -> f32
// CHECK: %[[TV:.*]] = vector.from_elements %[[T]] : vector<1xf32>
// CHECK-NOT: gpu.barrier
// CHECK: %[[E:.*]] = vector.extract %[[TV]][0]
// CHECK: %[[B:.*]] = vector.broadcast %[[E]] : f32 to vector<4xf32>
// CHECK: arith.divf %[[X]], %[[B]] : vector<4xf32>
tile.kernel @clustered(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 16, BN = 8, num_warps = 1} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x8xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
  %s = tile.reduce add %x dim 0 : tensor<16x8xf32> -> tensor<8xf32>
  %sb = tile.broadcast %s dims [0] : tensor<8xf32> -> tensor<16x8xf32>
  %y = arith.divf %x, %sb : tensor<16x8xf32>
  tile.store %y, %Yv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

// One 1024-wide row over 4 warps: every warp reduces its quarter with a full
// subgroup reduction, then partials meet in shared memory. Inside the loop a
// second barrier keeps the next iteration from overwriting partials that
// other warps still read.

// CHECK-LABEL: gpu.func @cross_warp
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<512xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BUF:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: %[[PS:.*]] = gpu.subgroup_reduce maximumf %{{.*}} uniform : (f32) -> f32
// CHECK: %[[P:.*]] = vector.from_elements %[[PS]] : vector<1xf32>
// CHECK: vector.store %[[P]], %[[BUF]][%{{.*}}]
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: vector.load %[[BUF]]
// CHECK: gpu.barrier
// CHECK: arith.maximumf
// CHECK: scf.yield
tile.kernel @cross_warp(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 1, BN = 1024, num_warps = 4, vector_width = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<1x1024xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<1xf32>
  %r = tile.grid %Yv : !tile.part<1xf32>
  %nc = tile.num_tiles %Xv[1] : !tile.part<1x1024xf32, pad = neg_inf>
  %init = arith.constant dense<0xFF800000> : tensor<1xf32>
  %m = scf.for %j = %c0 to %nc step %c1 iter_args(%acc = %init) -> (tensor<1xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x1024xf32, pad = neg_inf> -> tensor<1x1024xf32>
    %t = tile.reduce max %x dim 1 : tensor<1x1024xf32> -> tensor<1xf32>
    %a = arith.maximumf %acc, %t : tensor<1xf32>
    scf.yield %a : tensor<1xf32>
  }
  tile.store %m, %Yv[%r] : tensor<1xf32>, !tile.part<1xf32>
  tile.return
}

// -----

// An index reduction over a 2x256 tile on 4 warps (2 along the row): the
// upstream subgroup reduction shuffles 32-bit values only, so index and
// 64-bit values combine across lanes in a butterfly of index shuffles
// (lane ^ 16, 8, 4, 2, 1), each value as two 32-bit halves; the partials of
// the 2 warps then meet in shared memory (8-byte slots).

// CHECK-LABEL: gpu.func @index_min
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: %[[P16:.*]] = arith.xori %{{.*}}, %c16 : index
// CHECK: %[[L16:.*]] = arith.index_cast %[[P16]] : index to i32
// CHECK: gpu.shuffle  idx %{{.*}}, %[[L16]], %{{.*}} : i32
// CHECK: gpu.shuffle  idx %{{.*}}, %[[L16]], %{{.*}} : i32
// CHECK: arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: arith.xori %{{.*}}, %c8 : index
// CHECK: arith.xori %{{.*}}, %c4 : index
// CHECK: arith.xori %{{.*}}, %c2 : index
// CHECK: arith.xori %{{.*}}, %c1 : index
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<128xindex, #gpu.address_space<workgroup>>, vector<1xindex>
// CHECK: gpu.barrier
tile.kernel @index_min(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?xi64> {tile.dims = ["M"]})
    params {num_warps = 4, vector_width = 2} {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [2, 256] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [2] : memref<?xi64> -> !tile.part<2xi64>
  %r = tile.grid %Yv : !tile.part<2xi64>
  %x = tile.load %Xv[%r, %c0] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
  %zero = arith.constant dense<0.0> : tensor<2x256xf32>
  %big = arith.constant dense<256> : tensor<2x256xindex>
  %cols = tile.iota dim 1 : tensor<2x256xindex>
  %positive = arith.cmpf ogt, %x, %zero : tensor<2x256xf32>
  %offer = arith.select %positive, %cols, %big : tensor<2x256xi1>, tensor<2x256xindex>
  %first = tile.reduce min %offer dim 1 : tensor<2x256xindex> -> tensor<2xindex>
  %y = arith.index_cast %first : tensor<2xindex> to tensor<2xi64>
  tile.store %y, %Yv[%r] : tensor<2xi64>, !tile.part<2xi64>
  tile.return
}
