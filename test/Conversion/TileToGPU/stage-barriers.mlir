// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// stage_barriers = 1 (OperandPrefetch.cpp): a loop with an operand prefetch
// paces its stages with two mbarriers each instead of the wait for the
// thread's own copies and a CTA barrier per step. Thread 0 initializes
// full[0 .. S) and empty[0 .. S) (each counting all 128 threads), a CTA
// barrier publishes them; every copy of a stage arrives on its full barrier
// when it lands (cp.async.mbarrier.arrive.noinc; a plain arrive after the
// element stores of unaligned rows); an iteration waits for its stage's
// full barrier, then the proxy fence for wgmma; the next copies first wait
// for the release of the stage they fill; the end of the body releases the
// stage it read. test/Conversion/TileToGPU/operand-prefetch.mlir has the
// same loops with the CTA barrier.

// CHECK-LABEL: gpu.func @prefetch_wgmma
// CHECK: scf.if
// CHECK-COUNT-4: nvvm.mbarrier.init {{.*}}, %c128_i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// The prologue fills stage 0 (a first fill: no wait for a release).
// CHECK-NOT: nvvm.mbarrier.try_wait.parity
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// CHECK: nvvm.mbarrier.arrive
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NOT: gpu.barrier
// CHECK: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mbarrier.arrive
// CHECK-NEXT: scf.yield
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK-NOT: nvvm.mbarrier.inval
// CHECK: gpu.return
tile.kernel @prefetch_wgmma(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, stage_barriers = 1} {
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

// With overlap_copies too, the wait for the stage's release and the copies
// follow the scores' commit.

// CHECK-LABEL: gpu.func @prefetch_wgmma_overlap
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: scf.if
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK-NEXT: scf.yield
tile.kernel @prefetch_wgmma_overlap(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, overlap_copies = 1, stage_barriers = 1} {
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

// With 3 stages no group is left in flight into the next iteration (the
// stage's release must follow its last read): the second group is waited
// for in the body, and the copies run two iterations ahead (the prologue
// fills stages 0 and 1).

// CHECK-LABEL: gpu.func @prefetch_wgmma_three_stages
// CHECK-COUNT-6: nvvm.mbarrier.init
// CHECK: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// CHECK: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK-NEXT: scf.yield
// CHECK-NOT: nvvm.wgmma.wait.group
// CHECK: gpu.return
tile.kernel @prefetch_wgmma_three_stages(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, stage_barriers = 1} {
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

// mma_sync reads the stages with ldmatrix, through the generic proxy: no
// proxy fence after the wait.

// CHECK-LABEL: gpu.func @prefetch_mma_sync
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: nvvm.fence.proxy
// CHECK: nvvm.cp.async.mbarrier.arrive {{.*}} {noinc = true}
// CHECK: nvvm.mma.sync
// CHECK: nvvm.mbarrier.arrive
// CHECK-NEXT: scf.yield
tile.kernel @prefetch_mma_sync(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, stage_barriers = 1} {
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

// -----

// An mma that stages an operand in the loop (here A, computed in the body)
// next to a prefetched one: without a CTA barrier at the loop head, a
// barrier after its group keeps the next iteration's staging from
// overwriting what this one reads.

// CHECK-LABEL: gpu.func @staged_a
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: gpu.barrier
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.mbarrier.arrive
// CHECK-NEXT: scf.yield
tile.kernel @staged_a(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, stage_barriers = 1} {
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
    %qq = arith.addf %q, %q : tensor<64x128xbf16>
    %s = tile.mma %qq, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %r = tile.mma %p, %v, %acc impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}

// -----

// In an enclosing loop each of its iterations initializes the barriers
// again: a CTA barrier first, and after the key loop a CTA barrier and
// thread 0's invalidation of all four.

// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: arith.cmpi eq, %thread_id_x
// CHECK-NEXT: scf.if
// CHECK: nvvm.mbarrier.init
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-4: nvvm.mbarrier.inval
tile.kernel @nested(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, stage_barriers = 1} {
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
  %c2 = arith.constant 2 : index
  %o2 = scf.for %t = %c0 to %c2 step %c1 iter_args(%acc0 = %zo) -> (tensor<64x128xf32>) {
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %acc0) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %r = tile.mma %p, %v, %acc impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      scf.yield %r : tensor<64x128xf32>
    } {tile.pipeline_stages = 2 : i64}
    scf.yield %o : tensor<64x128xf32>
  }
  tile.store %o2, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}
