// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s
// RUN: sed 's/tile.pipeline_stages = 4/tile.pipeline_stages = 3/' %s | kbench-opt --split-input-file --tile-to-gpu | FileCheck %s --check-prefix=STAGES3

// tile.mma (impl = wgmma), bf16 x bf16 -> f32, A 64x64 and B 32x64 (NxK,
// transpose_b) on one warpgroup. The CTA's buffer is aligned to 1024 bytes
// at run time (its address rounded up inside a buffer 1008 bytes larger:
// 12288 + 1008); A and B are stored to it as swizzled rows of 64 elements,
// made visible to the async proxy and published by a barrier; the matrix
// descriptors carry the address bits 4..17 and the flags (leading byte
// offset 16, stride byte offset 1024, 128-byte swizzle:
// 0x4000004000010000); one wgmma group of four m64n32k16 steps, waited for
// at once.

// CHECK-LABEL: gpu.func @wgmma_once
// CHECK-SAME: workgroup(%{{.*}} : memref<13296xi8, #gpu.address_space<workgroup>>
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[MIS:.*]] = arith.remui %[[BASE]], %c1024
// CHECK: %[[SHIFT:.*]] = arith.remui %{{.*}}, %c1024
// CHECK: %[[ALIGNED:.*]] = memref.view %{{.*}}[%[[SHIFT]]][%c12288]
// CHECK: %[[AS:.*]] = memref.view %[[ALIGNED]][%c0][] : {{.*}} to memref<4096xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[BS:.*]] = memref.view %[[ALIGNED]][%c8192][] : {{.*}} to memref<2048xbf16, #gpu.address_space<workgroup>>
// CHECK: arith.xori
// CHECK: vector.store %{{.*}}, %[[AS]]
// CHECK: vector.store %{{.*}}, %[[BS]]
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: memref.extract_aligned_pointer_as_index %[[AS]]
// CHECK: arith.ori %{{.*}}, %c4611686293305360384_i64 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[BS]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @wgmma_once(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                        %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                        %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 32, BK = 64, num_warps = 4, vector_width = 8} requires ["K <= BK"] {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<32x64xbf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x32xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
  %b = tile.load %Bv[%n, %c0] : !tile.part<32x64xbf16, pad = zero> -> tensor<32x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x64xbf16>, tensor<32x64xbf16> -> tensor<64x32xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x32xf32>, !tile.part<64x32xf32>
  tile.return
}

// -----

// A K loop of 4 cp.async stages on two warpgroups (128x64 accumulator, 64
// rows each). The loop carries one register struct per wgmma tile, so no
// other instruction writes the registers of a group in flight. Each step:
// wait for its copies (one newer group may be pending: with a wgmma group in
// flight the copies run two steps ahead, not three), fence, one barrier,
// then the copies of step k + 2, versioned at run time (cp.async when the
// rows of K are 16-byte aligned, element loads and 16-byte shared stores
// chunk by chunk otherwise), then the wgmma group, left in flight except
// after the last step. With 3 stages (STAGES3) nothing stays in flight:
// copies first, then the group, waited for, and a second barrier.

// CHECK-LABEL: gpu.func @wgmma_loop
// CHECK: %[[ANY:.*]] = arith.cmpi ult, %c0{{[_0-9]*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[ANY]] -> (!llvm.struct<(f32,
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} -> (!llvm.struct<(f32,
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: } else {
// CHECK: scf.for
// CHECK: memref.load
// CHECK: vector.store {{.*}} vector<8xbf16>
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield %[[LOOP]]#0, %[[LOOP]]#1
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK: nvvm.cp.async.wait.group 0

// STAGES3-LABEL: gpu.func @wgmma_loop
// STAGES3: scf.for {{.*}} -> (!llvm.struct<(f32,
// STAGES3: scf.if
// STAGES3: nvgpu.device_async_copy
// STAGES3: nvvm.cp.async.commit.group
// STAGES3-NEXT: nvvm.cp.async.wait.group 2
// STAGES3-NEXT: nvvm.fence.proxy
// STAGES3-NEXT: gpu.barrier
// STAGES3: nvvm.wgmma.fence.aligned
// STAGES3-COUNT-4: nvvm.wgmma.mma_async
// STAGES3-NEXT: nvvm.wgmma.commit.group.sync.aligned
// STAGES3-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// STAGES3-NEXT: gpu.barrier
// STAGES3: scf.yield
tile.kernel @wgmma_loop(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                        %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                        %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 64, BK = 64, num_warps = 8, vector_width = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<128x64xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<128x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<128x64xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %b = tile.load %Bv[%n, %k] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
    %r = tile.mma %a, %b, %s impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    scf.yield %r : tensor<128x64xf32>
  } {tile.pipeline_stages = 4}
  tile.store %acc, %Cv[%m, %n] : tensor<128x64xf32>, !tile.part<128x64xf32>
  tile.return
}

// -----

// A batched matmul's K loop: [1, BM, BK] and [1, BK, BN] tiles squeezed to
// rank 2, B KxN (no transpose_b). The cp.async pipeline copies both tiles
// as they are in memory, indexing the rank-3 memrefs with the batch first;
// B's rows of N land N-major: column n / 64 of 64 K rows (8192 bytes), each
// row's 16-byte chunks swizzled by the row. B's descriptor names that
// layout: leading byte offset 8192 (between the columns of 64 N), stride
// byte offset 1024 (between 8-row groups of K), 128-byte swizzle:
// 0x4000004002000000; wgmma reads it transposed (B layout row, imm-trans-b
// = 1) and a k16 step moves 16 rows down (2048 bytes: descriptor + 128).

// CHECK-LABEL: gpu.func @wgmma_bmm
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], 8, %{{.*}} {bypassL1} : memref<?x?x?xbf16, #gpu.address_space<global>>
// CHECK: arith.divui %{{.*}}, %c64
// CHECK: arith.remui %{{.*}}, %c64
// CHECK: arith.muli %{{.*}}, %c4096
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], 8, %{{.*}} {bypassL1} : memref<?x?x?xbf16, #gpu.address_space<global>>
// CHECK: scf.for
// CHECK: arith.ori %{{.*}}, %c4611686293338849280_i64 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: arith.addi %{{.*}}, %c128_i64 : i64
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} B[<bf16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
tile.kernel @wgmma_bmm(%A: memref<?x?x?xbf16> {tile.dims = ["B", "M", "K"]},
                       %W: memref<?x?x?xbf16> {tile.dims = ["B", "K", "N"]},
                       %C: memref<?x?x?xf32> {tile.dims = ["B", "M", "N"]})
    params {BM = 64, BN = 128, BK = 64, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [1, BM, BK] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x64xbf16, pad = zero>
  %Wv = tile.partition %W tile [1, BK, BN] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x128xbf16, pad = zero>
  %Cv = tile.partition %C tile [1, BM, BN] : memref<?x?x?xf32> -> !tile.part<1x64x128xf32>
  %n, %m, %b = tile.grid %Cv dims [2, 1, 0] : !tile.part<1x64x128xf32>
  %nk = tile.num_tiles %Av[2] : !tile.part<1x64x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x128xf32>) {
    %x3 = tile.load %Av[%b, %m, %k] : !tile.part<1x64x64xbf16, pad = zero> -> tensor<1x64x64xbf16>
    %x = tile.squeeze %x3 dim 0 : tensor<1x64x64xbf16> -> tensor<64x64xbf16>
    %w3 = tile.load %Wv[%b, %k, %n] : !tile.part<1x64x128xbf16, pad = zero> -> tensor<1x64x128xbf16>
    %w = tile.squeeze %w3 dim 0 : tensor<1x64x128xbf16> -> tensor<64x128xbf16>
    %r = tile.mma %x, %w, %a impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 3 : i64}
  %c3 = tile.expand_dims %acc dim 0 : tensor<64x128xf32> -> tensor<1x64x128xf32>
  tile.store %c3, %Cv[%b, %m, %n] : tensor<1x64x128xf32>, !tile.part<1x64x128xf32>
  tile.return
}

// -----

// A K tile of 128 is staged as two blocks of 64 K elements, each with all
// the rows (A: 64 rows, 8192 bytes a block; B: 32 rows, 4096 bytes): the
// first four k16 steps read block 0 at 32-byte steps (descriptor + 0, 2, 4,
// 6), the next four block 1 (A + 512 + 0, 2, 4, 6; B + 256 + ...).

// CHECK-LABEL: gpu.func @wgmma_k128
// CHECK: arith.divui %{{.*}}, %c64
// CHECK: arith.muli %{{.*}}, %c4096
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.addi %{{.*}}, %c6_i64 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.addi %{{.*}}, %c256_i64 : i64
// CHECK: arith.addi %{{.*}}, %c512_i64 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
tile.kernel @wgmma_k128(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                        %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                        %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 32, BK = 128, num_warps = 4, vector_width = 8} requires ["K <= BK"] {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<32x128xbf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x32xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
  %b = tile.load %Bv[%n, %c0] : !tile.part<32x128xbf16, pad = zero> -> tensor<32x128xbf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<32x128xbf16> -> tensor<64x32xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x32xf32>, !tile.part<64x32xf32>
  tile.return
}

// -----

// A bf16 cast of a wgmma's result is the A of the next wgmma straight from
// the registers when its layout is the accumulator layout of a wgmma as
// wide as K (getWgmmaLayout(128, 64) on 8 warps here): nothing of A is
// staged (three buffers: Q, K and V) and each k16 step packs four pairs of
// the thread's 32 elements (rows g and g + 8 at columns 2t and 2t + 8 of the
// step: positions 0, 16, 2, 18, then 4, 20, 6, 22, ...) into 32-bit words,
// all before wgmma.fence. NVVM's wgmma op takes a descriptor A only, so
// these are inline PTX: 32 f32 accumulators tied to the outputs, the four
// A words, the B descriptor, scale-d true, imm-trans-b 1 (V is a KxN B).

// CHECK-LABEL: gpu.func @wgmma_register_a
// CHECK-COUNT-3: memref.view {{.*}} to memref<{{[0-9]+}}xbf16
// CHECK-NOT: memref.view
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: vector.extract_strided_slice %[[P:.*]] {offsets = [0], sizes = [2], strides = [1]} : vector<32xbf16> to vector<2xbf16>
// CHECK-NEXT: vector.extract_strided_slice %[[P]] {offsets = [16], sizes = [2], strides = [1]}
// CHECK-NEXT: vector.extract_strided_slice %[[P]] {offsets = [2], sizes = [2], strides = [1]}
// CHECK-NEXT: vector.extract_strided_slice %[[P]] {offsets = [18], sizes = [2], strides = [1]}
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: vector.extract_strided_slice %[[P]] {offsets = [4], sizes = [2], strides = [1]}
// CHECK: vector.extract_strided_slice %[[P]] {offsets = [30], sizes = [2], strides = [1]}
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "=f,{{.*}},=f,0,1,{{.*}},31,r,r,r,r,l"
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
tile.kernel @wgmma_register_a(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                              %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                              %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                              %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
    params {BM = 128, BN = 64, BD = 64, num_warps = 8} {
  %c0 = arith.constant 0 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
  %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
  %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<128x64xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<128x64xf32>
  %zs = arith.constant dense<0.0> : tensor<128x64xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
  %k = tile.load %Kv[%c0, %c0] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
  %v = tile.load %Vv[%c0, %c0] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
  %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
  %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
  %o = tile.mma %p, %v, %zs impl(wgmma) : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
  tile.store %o, %Ov[%m, %c0] : tensor<128x64xf32>, !tile.part<128x64xf32>
  tile.return
}
