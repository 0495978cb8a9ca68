// RUN: kbench-opt %s --split-input-file --tile-to-gpu -verify-diagnostics | FileCheck %s

// ping_pong = 1 (OperandPrefetch.cpp): in a loop paced by stage barriers
// (test/Conversion/TileToGPU/stage-barriers.mlir) the two warpgroups take
// turns to issue the body's first wgmma group. Warpgroup w (the warp index
// read from lane 0, divided by 4) waits on named barrier 2 + w before the
// group and arrives on barrier 3 - w after its commit, each barrier
// counting both warpgroups' 256 threads. The second warpgroup arrives on
// barrier 2 before the loop, so the first goes first; the first consumes
// the second's last arrival after the loop.

// CHECK-LABEL: gpu.func @ping_pong
// CHECK: %[[LANE0:.*]], %{{.*}} = gpu.shuffle idx %{{.*}}, %c0_i32, %c32_i32 : i32
// CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[WG:.*]] = arith.divui %[[LANE0]], %[[FOUR]] : i32
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[OWN:.*]] = arith.addi %[[TWO]], %[[WG]] : i32
// CHECK-NEXT: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %[[THREE]], %[[WG]] : i32
// CHECK-NEXT: %[[N:.*]] = arith.constant 256 : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[WG]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[B0:.*]] = arith.constant 2 : i32
// CHECK-NEXT: nvvm.barrier.arrive id = %[[B0]] number_of_threads = %[[N]]
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %[[N]]
// CHECK: nvvm.cp.async.mbarrier.arrive
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %[[N]]
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.barrier
// CHECK: scf.yield
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[B0AFTER:.*]] = arith.constant 2 : i32
// CHECK-NEXT: nvvm.barrier id = %[[B0AFTER]] number_of_threads = %[[N]]
// CHECK-NEXT: }
tile.kernel @ping_pong(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 128, BN = 64, BD = 128, num_warps = 8, ping_pong = 1, stage_barriers = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<128x128xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
  %zs = arith.constant dense<0.0> : tensor<128x64xf32>
  %zo = arith.constant dense<0.0> : tensor<128x128xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<128x128xbf16, pad = zero> -> tensor<128x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<128x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<128x128xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %r = tile.mma %p, %v, %acc impl(wgmma) : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}

// -----

// With overlap_copies the arrival comes first after the commit, then the
// wait for the stage's release and the copies.

// CHECK-LABEL: gpu.func @ping_pong_overlap
// CHECK: scf.for
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// CHECK-NEXT: scf.if
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
tile.kernel @ping_pong_overlap(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 128, BN = 64, BD = 128, num_warps = 8, overlap_copies = 1, ping_pong = 1, stage_barriers = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<128x128xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
  %zs = arith.constant dense<0.0> : tensor<128x64xf32>
  %zo = arith.constant dense<0.0> : tensor<128x128xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<128x128xbf16, pad = zero> -> tensor<128x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<128x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<128x128xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %r = tile.mma %p, %v, %acc impl(wgmma) : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}

// -----

// A kernel whose params were written without the transform ops is checked
// by tile-to-gpu too.

// expected-error @below {{'tile.kernel' op cannot be lowered by tile-to-gpu: ping_pong = 1 needs stage_barriers = 1 (set it first): with a CTA barrier at every step the warpgroups cannot take turns}}
tile.kernel @no_barriers(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 128, BN = 64, BD = 128, num_warps = 8, ping_pong = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<128x128xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
  %zs = arith.constant dense<0.0> : tensor<128x64xf32>
  %zo = arith.constant dense<0.0> : tensor<128x128xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<128x128xbf16, pad = zero> -> tensor<128x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<128x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<128x128xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %r = tile.mma %p, %v, %acc impl(wgmma) : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
