// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu "--kbench-gpu-to-ptx=ptx-file=%t.ptx cubin-file=%t.cubin" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTX < %t.ptx %}

// impl = mma_sync with f32 operands in a kernel that allows tf32 (its task
// opts in; the compile driver sets tile.allow_tf32): mma.sync.m16n8k8 with
// tf32 multiplicands. A k8 step reads the 32 bytes of a row of K that a k16
// step of halves reads, so the staging is the 16-bit one in bytes: 16-byte
// chunks of 4 floats, the swizzle of a row of 2K halves, ldmatrix of 8x4
// float matrices; each float is rounded to tf32 (round to nearest, ties
// away) after its ldmatrix.

// A K loop of 3 cp.async stages: chunks of 4 floats (K % 4 == 0 checked at
// run time; otherwise 4 element loads and one 16-byte store per chunk); per
// k8 step ldmatrix.x4 of A and B, cvt to tf32, one mma per (row tile, column
// tile): 2 x 4 per warp and k8 step on the 2 x 2 warp grid, 4 steps per BK.
// CHECK-LABEL: gpu.func @pipelined
// CHECK-SAME: tile.allow_tf32
// CHECK-DAG: %[[AS:.*]] = memref.view %{{.*}} to memref<6144xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[BS:.*]] = memref.view %{{.*}} to memref<6144xf32, #gpu.address_space<workgroup>>
// CHECK: scf.if %[[ALIGNED:.*]] {
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}, 4, %{{.*}} {bypassL1} : memref<?x?xf32, #gpu.address_space<global>> to memref<6144xf32, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK: scf.for
// CHECK-COUNT-4: memref.load
// CHECK: vector.store %{{.*}}, %[[AS]]{{.*}} vector<4xf32>
// CHECK: scf.for {{.*}} -> (vector<32xf32>, index)
// CHECK: nvvm.cp.async.wait.group 2
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[AS]][%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<6144xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// CHECK: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: nvgpu.ldmatrix %[[BS]]
// CHECK: nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
// CHECK-COUNT-31: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: scf.yield
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'pipelined' uses {{[0-9]+}} registers, 0 bytes spill stores
// PTX-LABEL: .entry pipelined(
// PTX: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16, %{{.*}};
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: cvt.rna.tf32.f32
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
tile.kernel @pipelined(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                       %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4, vector_width = 4}
    attributes {tile.allow_tf32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %w = tile.load %Wv[%n, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  } {tile.pipeline_stages = 3}
  tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// Staged from registers, a KxN B is transposed by its store into rows of K
// (element stores: ldmatrix.trans cannot transpose floats), then read like
// an NxK one.
// CHECK-LABEL: gpu.func @registers_kxn
// CHECK: %[[BS:.*]] = memref.view %{{.*}} to memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: memref.store %{{.*}}, %[[BS]]
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<1024xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// CHECK-NOT: transpose = true
// CHECK: multiplicandAPtxType = #nvvm.mma_type<tf32>
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'registers_kxn' uses {{[0-9]+}} registers, 0 bytes spill stores
tile.kernel @registers_kxn(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                           %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 16, num_warps = 4, vector_width = 4}
    attributes {tile.allow_tf32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x16xf32, pad = zero>
  %Wv = tile.partition %W tile [BK, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x16xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x16xf32, pad = zero> -> tensor<64x16xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<16x64xf32, pad = zero> -> tensor<16x64xf32>
    %r = tile.mma %x, %w, %a impl(mma_sync) : tensor<64x16xf32>, tensor<16x64xf32> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// The operand prefetch (a loop-invariant A, B loaded in the loop) copies
// tf32 operands in 4-float chunks too.
// CHECK-LABEL: gpu.func @prefetched
// CHECK: nvgpu.device_async_copy {{.*}}, 4, %{{.*}} {bypassL1} : memref<?x?xf32, #gpu.address_space<global>>
// CHECK: multiplicandAPtxType = #nvvm.mma_type<tf32>
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'prefetched' uses {{[0-9]+}} registers, 0 bytes spill stores
tile.kernel @prefetched(%Q: memref<?x?xf32> {tile.dims = ["M", "D"]},
                        %K: memref<?x?xf32> {tile.dims = ["S", "D"]},
                        %O: memref<?x?xf32> {tile.dims = ["M", "S"]})
    params {num_warps = 2} attributes {tile.allow_tf32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Kv = tile.partition %K tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Ov = tile.partition %O tile [32, 32] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<32x32xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  %s = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %z) -> (tensor<32x32xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    %r = tile.mma %q, %k, %acc impl(mma_sync) {transpose_b} : tensor<32x16xf32>, tensor<32x16xf32> -> tensor<32x32xf32>
    scf.yield %r : tensor<32x32xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %s, %Ov[%m, %c0] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}
