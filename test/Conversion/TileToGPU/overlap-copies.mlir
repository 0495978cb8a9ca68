// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// overlap_copies = 1 (OperandPrefetch.cpp): the operand prefetch of a loop
// whose first tile.mma runs on wgmma issues the next iteration's copies
// after that mma's group is committed and before it is waited for, so that
// the tensor cores run the group (attention's scores) while the warps
// issue them. The head keeps the wait, the proxy fence and the barrier;
// the copies' index arithmetic is computed there, their cp.async ops come
// after the commit. test/Conversion/TileToGPU/operand-prefetch.mlir has
// the same loops without the knob (copies at the head).

// CHECK-LABEL: gpu.func @prefetch_wgmma
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: gpu.barrier
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
tile.kernel @prefetch_wgmma(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, overlap_copies = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
  %zs = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x128xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %r = tile.mma %p, %v, %acc impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}

// -----

// With 3 stages the second mma's group stays in flight into the next
// iteration (getDeferredWaitMma) and the copies run one iteration ahead:
// they still follow the first group's commit, since the stage they fill is
// neither the one this iteration reads nor the one the deferred group of
// the previous iteration still reads.

// CHECK-LABEL: gpu.func @prefetch_wgmma_deferred
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma.wait.group
// CHECK: scf.yield
tile.kernel @prefetch_wgmma_deferred(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, overlap_copies = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
  %zs = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x128xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
    %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 3 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}

// -----

// mma_sync has no asynchronous group to run under the copies: the knob
// leaves its loop as it is, the copies at the head.

// CHECK-LABEL: gpu.func @prefetch_mma_sync
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.mma.sync
tile.kernel @prefetch_mma_sync(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, overlap_copies = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
  %zs = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x128xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(mma_sync) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %r = tile.mma %p, %v, %acc impl(mma_sync) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}
