// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// The operand prefetch (OperandPrefetch.cpp): a key loop that is not a K
// loop (two tile.mma, the second fed by the first) with
// tile.pipeline_stages = 2. The B operands loaded in the loop (K, NxK, and V,
// KxN) get two stage buffers each (2 x 32 x 16 bf16), filled by cp.async
// one iteration ahead: the prologue issues iteration 0 (versioned on rows of
// a multiple of 8 elements: cp.async, else element loads and a 16-byte
// shared store) and commits it; each iteration waits for its own group,
// passes the one barrier of the iteration, issues the next and reads its
// stage with ldmatrix (.trans for V). The loads lower to nothing; the query
// tile, loop-invariant, is staged once before the loop. warp_split(rows)
// on 2 warps: the scores' C layout is the A fragment of the second mma, so
// the bf16 probabilities feed it from registers (extract_strided_slice, no
// shared buffer, no ldmatrix). After the loop the zero-filling copies past
// the end are waited for.

// CHECK-LABEL: gpu.func @prefetch_chain
// CHECK-DAG: %[[KS:.*]] = memref.view %{{.*}}[%c0][] : {{.*}} to memref<1024xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[VS:.*]] = memref.view %{{.*}}[%c2048][] : {{.*}} to memref<1024xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[QS:.*]] = memref.view %{{.*}}[%c4096][] : {{.*}} to memref<512xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[KS]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[VS]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: } else {
// CHECK: vector.store %{{.*}}, %[[KS]]
// CHECK: vector.store %{{.*}}, %[[VS]]
// CHECK: nvvm.cp.async.commit.group
// CHECK: memref.store %{{.*}}, %[[QS]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[KS]]
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[VS]]
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.load {{.*}}global
// CHECK: nvgpu.ldmatrix %[[QS]]
// CHECK: nvgpu.ldmatrix %[[KS]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvgpu.ldmatrix %[[QS]]
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [2], strides = [1]} : vector<16xbf16> to vector<2xbf16>
// CHECK: nvgpu.ldmatrix %[[VS]][%{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK: gpu.return
tile.kernel @prefetch_chain(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                   %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                   %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                   %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 32, BN = 32, BD = 16, num_warps = 2} requires ["D <= BD"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<32x16xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
  %zs = arith.constant dense<0.0> : tensor<32x32xf32>
  %zo = arith.constant dense<0.0> : tensor<32x16xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
    %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
    %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
    scf.yield %r : tensor<32x16xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
  tile.return
}

// -----

// A batched matmul's loop that scales its running sum after each step: the
// loop yields the product, not the mma's result, so it is not a K loop of
// the dedicated pipeline, and with 3 stages both squeezed operand tiles are
// prefetched (A as rows of K, B, KxN, as rows of N read with
// ldmatrix.trans). The copies index the rank-3 memrefs with the batch
// coordinate first; each iteration waits until at most one group is
// pending, and the mma's only barrier is the loop head's.

// CHECK-LABEL: gpu.func @prefetch_bmm
// CHECK-DAG: %[[AS:.*]] = memref.view %{{.*}}[%c0][] : {{.*}} to memref<1536xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[BS:.*]] = memref.view %{{.*}}[%c3072][] : {{.*}} to memref<1536xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %[[AS]][%{{.*}}], 8, %{{.*}} {bypassL1} : memref<?x?x?xbf16, #gpu.address_space<global>>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %[[BS]][%{{.*}}], 8, %{{.*}} {bypassL1} : memref<?x?x?xbf16, #gpu.address_space<global>>
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[AS]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[BS]][%{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
tile.kernel @prefetch_bmm(%A: memref<?x?x?xbf16> {tile.dims = ["B", "M", "K"]},
                          %W: memref<?x?x?xbf16> {tile.dims = ["B", "K", "N"]},
                          %C: memref<?x?x?xf32> {tile.dims = ["B", "M", "N"]})
    params {BM = 32, BN = 32, BK = 16, num_warps = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [1, BM, BK] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x32x16xbf16, pad = zero>
  %Wv = tile.partition %W tile [1, BK, BN] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x16x32xbf16, pad = zero>
  %Cv = tile.partition %C tile [1, BM, BN] : memref<?x?x?xf32> -> !tile.part<1x32x32xf32>
  %b, %m, %n = tile.grid %Cv : !tile.part<1x32x32xf32>
  %nk = tile.num_tiles %Av[2] : !tile.part<1x32x16xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %half = arith.constant dense<0.5> : tensor<32x32xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<32x32xf32>) {
    %x3 = tile.load %Av[%b, %m, %k] : !tile.part<1x32x16xbf16, pad = zero> -> tensor<1x32x16xbf16>
    %x = tile.squeeze %x3 dim 0 : tensor<1x32x16xbf16> -> tensor<32x16xbf16>
    %w3 = tile.load %Wv[%b, %k, %n] : !tile.part<1x16x32xbf16, pad = zero> -> tensor<1x16x32xbf16>
    %w = tile.squeeze %w3 dim 0 : tensor<1x16x32xbf16> -> tensor<16x32xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) : tensor<32x16xbf16>, tensor<16x32xbf16> -> tensor<32x32xf32>
    %scaled = arith.mulf %r, %half : tensor<32x32xf32>
    scf.yield %scaled : tensor<32x32xf32>
  } {tile.pipeline_stages = 3 : i64}
  %c3 = tile.expand_dims %acc dim 0 : tensor<32x32xf32> -> tensor<1x32x32xf32>
  tile.store %c3, %Cv[%b, %m, %n] : tensor<1x32x32xf32>, !tile.part<1x32x32xf32>
  tile.return
}

// -----

// The prefetch serves wgmma too: the key tile (NxK, K = BD = 128 in two
// blocks of 64) and the value tile (KxN, staged N-major) are copied one
// iteration ahead into 1024-byte aligned stage buffers, where the wgmma
// descriptors read them; wgmma reads through the async proxy, so each
// iteration fences after its wait, before the barrier that publishes the
// tiles. The probabilities are the A of the second mma straight from the
// registers (wgmma with a register A, inline PTX): nothing is staged there,
// so the loop's only barrier is its head's.

// CHECK-LABEL: gpu.func @prefetch_wgmma
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: gpu.barrier
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
tile.kernel @prefetch_wgmma(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
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

// The same loop with 3 stages, the output rescaled between the two mma
// (as attention's is): the second mma's result only feeds the next
// iteration, and the first mma comes before every read of it, so its
// wgmma group stays in flight (getDeferredWaitMma): the first mma's wait for
// 0 groups in the next iteration covers it. The copies then run one
// iteration ahead, not two (the prologue issues one group, each iteration
// waits for 0 pending), so that the stage a deferred group still reads is
// not overwritten before every warp has waited for it; the loop runs in
// `scf.if (lb < ub)`, whose branch waits for every wgmma group after it.

// CHECK-LABEL: gpu.func @prefetch_wgmma_deferred
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %{{.*}} = scf.if %[[ANY]] -> (vector<64xf32>) {
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma.wait.group
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: nvvm.cp.async.wait.group 0
tile.kernel @prefetch_wgmma_deferred(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
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

// Rescaled before the first mma, the output is read while the group would
// still be in flight: every group is waited for at once, and 3 stages
// prefetch two iterations ahead (two groups in the prologue, each
// iteration waits until at most 1 is pending).

// CHECK-LABEL: gpu.func @prefetch_wgmma_waited
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: -> (vector<64xf32>) {
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
tile.kernel @prefetch_wgmma_waited(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
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
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 3 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}

// -----

// The wgmma loop above with a fact making D a multiple of 8: the rows of
// the key and value tiles are 16-byte aligned, so the copies' run-time
// versioning folds to the cp.async version (its condition is the constant
// true) and the element copies, whose addresses the loop would otherwise
// keep in registers, disappear once the branch folds. A dispatch variant's
// `when` facts reach the lowering the same way (docs/schedules.md).

// CHECK-LABEL: gpu.func @prefetch_wgmma_rows
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[BOTH:.*]] = arith.andi %[[TRUE]], %[[TRUE]] : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK-NEXT: arith.muli
// CHECK: nvgpu.device_async_copy
tile.kernel @prefetch_wgmma_rows(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                            %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                            %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4} requires ["D % 8 == 0"] {
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


