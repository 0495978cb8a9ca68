// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s

// An mma_sync K loop with tile.pipeline_stages = 3: A and B are copied into 3
// swizzled buffers each (64x32 bf16 = 4 KB per stage and operand: 24 KB), 2
// steps ahead: a prologue of two steps, then per step one issue, wait until
// at most 2 newer groups are pending, barrier, ldmatrix + mma.sync from this
// step's buffer, barrier. After the loop every group is waited for. Each
// issue is versioned at run time on K % 8 == 0 for both operands (16-byte
// cp.async needs aligned rows): cp.async of 256 chunks of A and of B over
// 128 threads (2 + 2 copies per thread), or, for unaligned rows, a loop over
// the thread's chunks (not to be unrolled) of 8 element loads and one
// 16-byte shared store each. Either way one commit group per step.

// CHECK-LABEL: gpu.func @pipelined
// CHECK-DAG: %[[AS:.*]] = memref.view %{{.*}} to memref<6144xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[BS:.*]] = memref.view %{{.*}} to memref<6144xbf16, #gpu.address_space<workgroup>>
// Prologue: steps 0 and 1.
// CHECK: scf.if %[[ALIGNED:.*]] {
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1}
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c128 {
// CHECK-COUNT-8: memref.load
// CHECK: vector.store %{{.*}}, %[[AS]]{{.*}} vector<8xbf16>
// CHECK: } {loop_annotation = #loop_annotation}
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c128 {
// CHECK: vector.store %{{.*}}, %[[BS]]{{.*}} vector<8xbf16>
// CHECK: } {loop_annotation = #loop_annotation}
// CHECK: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK: scf.if %[[ALIGNED]] {
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[STAGE:.*]] = %c0{{.*}}) -> (vector<32xf32>, index)
// CHECK: scf.if %[[ALIGNED]] {
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 2
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[AS]]
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NOT: scf.for
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.return
tile.kernel @pipelined(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                       %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4, vector_width = 8} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  } {tile.pipeline_stages = 3}
  tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// A batched matmul's K loop: [1, BM, BK] and [1, BK, BN] tiles squeezed to
// the mma's rank 2 are a K loop all the same. Each step copies both tiles
// as they are in memory, indexing the rank-3 memrefs with the batch first:
// A as rows of K, the KxN B as rows of N, which ldmatrix.trans reads.

// CHECK-LABEL: gpu.func @pipelined_bmm
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], 8, %{{.*}} {bypassL1} : memref<?x?x?xbf16, #gpu.address_space<global>>
// CHECK: scf.for {{.*}} -> (vector<32xf32>, index)
// CHECK: nvvm.cp.async.wait.group 2
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK: scf.yield
tile.kernel @pipelined_bmm(%A: memref<?x?x?xbf16> {tile.dims = ["B", "M", "K"]},
                           %W: memref<?x?x?xbf16> {tile.dims = ["B", "K", "N"]},
                           %C: memref<?x?x?xf32> {tile.dims = ["B", "M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [1, BM, BK] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [1, BK, BN] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x32x64xbf16, pad = zero>
  %Cv = tile.partition %C tile [1, BM, BN] : memref<?x?x?xf32> -> !tile.part<1x64x64xf32>
  %b, %m, %n = tile.grid %Cv : !tile.part<1x64x64xf32>
  %nk = tile.num_tiles %Av[2] : !tile.part<1x64x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x3 = tile.load %Av[%b, %m, %k] : !tile.part<1x64x32xbf16, pad = zero> -> tensor<1x64x32xbf16>
    %x = tile.squeeze %x3 dim 0 : tensor<1x64x32xbf16> -> tensor<64x32xbf16>
    %w3 = tile.load %Wv[%b, %k, %n] : !tile.part<1x32x64xbf16, pad = zero> -> tensor<1x32x64xbf16>
    %w = tile.squeeze %w3 dim 0 : tensor<1x32x64xbf16> -> tensor<32x64xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  } {tile.pipeline_stages = 3 : i64}
  %c3 = tile.expand_dims %acc dim 0 : tensor<64x64xf32> -> tensor<1x64x64xf32>
  tile.store %c3, %Cv[%b, %m, %n] : tensor<1x64x64xf32>, !tile.part<1x64x64xf32>
  tile.return
}
