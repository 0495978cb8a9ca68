// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// tile.mma (impl = simt) outside a loop: operands widened to the f32
// accumulator, staged k-major in shared memory (rows padded by 16 bytes:
// 32 + 4 floats per k), one barrier, then one outer product per k. A 32x32
// accumulator on 64 threads is a 4x4 micro-tile per thread; K = 16 runs as a
// loop over 2 groups of 8 k steps x 4 rows = 32 row FMAs. Nothing reuses the
// buffers, so no trailing barrier.

// CHECK-LABEL: gpu.func @mma_once
// CHECK-SAME: workgroup(%{{.*}} : memref<4608xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[AS:.*]] = memref.view %{{.*}}[%c0][] : {{.*}} to memref<576xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[BS:.*]] = memref.view %{{.*}}[%c2304][] : {{.*}} to memref<576xf32, #gpu.address_space<workgroup>>
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: memref.store %{{.*}}, %[[AS]]
// CHECK: memref.store %{{.*}}, %[[BS]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c8{{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: vector.load %[[AS]][%{{.*}}] {alignment = 16 : i64} : memref<576xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.load %[[BS]][%{{.*}}] {alignment = 16 : i64} : memref<576xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-32: vector.fma %{{.*}} : vector<4xf32>
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @mma_once(%A: memref<?x?xf16> {tile.dims = ["M", "K"]},
                      %B: memref<?x?xf16> {tile.dims = ["K", "N"]},
                      %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 32, BN = 32, BK = 16, num_warps = 2} requires ["K <= BK"] {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xf16> -> !tile.part<32x16xf16, pad = zero>
  %Bv = tile.partition %B tile [BK, BN] pad(zero) : memref<?x?xf16> -> !tile.part<16x32xf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<32x32xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<32x16xf16, pad = zero> -> tensor<32x16xf16>
  %b = tile.load %Bv[%c0, %n] : !tile.part<16x32xf16, pad = zero> -> tensor<16x32xf16>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %c = tile.mma %a, %b, %z : tensor<32x16xf16>, tensor<16x32xf16> -> tensor<32x32xf32>
  tile.store %c, %Cv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}

// -----

// The K loop of linear_bias_relu at 128x128x8 on 8 warps is software
// pipelined: two shared-memory buffers per operand (2 x 8 x (128 + 4) floats
// each, 16896 bytes), the prologue stages step 0, and every iteration
// prefetches step k+1 into registers (guarded: K is a multiple of BK, so a
// tile past the end would not be masked), runs 8 outer products of an 8x8
// micro-tile (64 FMAs on vector<8xf32> rows) from the current buffer, stages
// the prefetched tiles into the other buffer and synchronizes once. The
// accumulator rows and the buffer index are loop-carried. The bias row is
// loaded straight into the accumulator's columns (two 16-byte runs).

// CHECK-LABEL: gpu.func @linear_bias_relu
// CHECK-SAME: workgroup(%{{.*}} : memref<16896xi8, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: %[[LOOP:.*]]:9 = scf.for %[[K:.*]] = {{.*}} iter_args({{.*}}, %[[BUF:.*]] = %c0) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, index)
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]]
// CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[NEXT]]
// CHECK: %[[PRE:.*]]:2 = scf.if %[[HAS]] -> (vector<4xf32>, vector<4xf32>)
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: arith.muli %[[BUF]]
// CHECK-COUNT-64: vector.fma %{{.*}} : vector<8xf32>
// CHECK: %[[OTHER:.*]] = arith.subi %c1{{.*}}, %[[BUF]]
// CHECK: vector.extract %[[PRE]]#0[0]
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield {{.*}}, %[[OTHER]]
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: arith.maximumf %{{.*}} : vector<64xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
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
