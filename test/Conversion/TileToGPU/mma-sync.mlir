// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// tile.mma (impl = mma_sync), bf16 x bf16 -> f32, A 32x32 and B 32x32 (NxK,
// transpose_b) on 2 warps: the warp grid is 1x2 (32x16 and 16x32 warp tiles
// are equally square; the first wins), so each warp owns a 32x16
// accumulator of 2x2 m16n8k16 tiles. Both operands are stored to shared
// memory as [row][k] with the 16-byte chunk index XORed (K = 32 elements: two
// rows share a 128-byte line, whose index is the key), 8-element runs of the
// load layout (vector_width = 8) as 16-byte vector stores; per k16 step a warp
// loads its two A fragments with one ldmatrix.x4 each and its two B fragments
// with one, then issues four mma.sync. Two k16 steps: 8 mma.sync in all. The
// accumulator stays in the C-fragment layout for the store.

// CHECK-LABEL: gpu.func @mma_sync_once
// CHECK-DAG: %[[AS:.*]] = memref.view %{{.*}}[%c0][] : {{.*}} to memref<1024xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[BS:.*]] = memref.view %{{.*}}[%c2048][] : {{.*}} to memref<1024xbf16, #gpu.address_space<workgroup>>
// CHECK: arith.xori
// CHECK: vector.store %{{.*}}, %[[AS]]
// CHECK: vector.store %{{.*}}, %[[BS]]
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[AS]][%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<1024xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvgpu.ldmatrix %[[AS]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[BS]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-7: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: vector.from_elements {{.*}} : vector<16xf32>
// CHECK: gpu.return
tile.kernel @mma_sync_once(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                           %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                           %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 32, BN = 32, BK = 32, num_warps = 2, vector_width = 8} requires ["K <= BK"] {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<32x32xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<32x32xbf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<32x32xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<32x32xbf16, pad = zero> -> tensor<32x32xbf16>
  %b = tile.load %Bv[%n, %c0] : !tile.part<32x32xbf16, pad = zero> -> tensor<32x32xbf16>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %c = tile.mma %a, %b, %z impl(mma_sync) {transpose_b} : tensor<32x32xbf16>, tensor<32x32xbf16> -> tensor<32x32xf32>
  tile.store %c, %Cv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}

// -----

// f16 operands in a K loop, A transposed (KxM): A keeps its rows of M in
// shared memory and is read with ldmatrix.trans; f16 fragments feed mma.sync
// as vector<2xf16> (no bitcast); a barrier after the mma protects the buffers
// from the next step's stores. 16x8 accumulator on one warp: one mma per
// k16 step, its B fragment (NxK) from an ldmatrix.x2.

// CHECK-LABEL: gpu.func @mma_sync_loop_f16
// CHECK: scf.for
// CHECK: memref.store %{{.*}} : memref<256xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = false}
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: gpu.barrier
// CHECK: scf.yield
tile.kernel @mma_sync_loop_f16(%A: memref<?x?xf16> {tile.dims = ["K", "M"]},
                               %B: memref<?x?xf16> {tile.dims = ["N", "K"]},
                               %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 16, BN = 8, BK = 16, num_warps = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [BK, BM] pad(zero) : memref<?x?xf16> -> !tile.part<16x16xf16, pad = zero>
  %Bv = tile.partition %B tile [BN, BK] pad(zero) : memref<?x?xf16> -> !tile.part<8x16xf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x8xf32>
  %nk = tile.num_tiles %Bv[1] : !tile.part<8x16xf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<16x8xf32>) {
    %a = tile.load %Av[%k, %m] : !tile.part<16x16xf16, pad = zero> -> tensor<16x16xf16>
    %b = tile.load %Bv[%n, %k] : !tile.part<8x16xf16, pad = zero> -> tensor<8x16xf16>
    %r = tile.mma %a, %b, %s impl(mma_sync) {transpose_a, transpose_b} : tensor<16x16xf16>, tensor<8x16xf16> -> tensor<16x8xf32>
    scf.yield %r : tensor<16x8xf32>
  }
  tile.store %acc, %Cv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

// B given as KxN (no transpose_b) with N = 32: B keeps its rows of N
// (16-byte vector stores of the load layout's runs) and both column-tile
// pairs come from ldmatrix.x4.trans.

// CHECK-LABEL: gpu.func @mma_sync_kn
// CHECK: vector.store %{{.*}} : memref<512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<256xbf16
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true} : memref<512xbf16
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true} : memref<512xbf16
// CHECK-COUNT-4: nvvm.mma.sync
tile.kernel @mma_sync_kn(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                         %B: memref<?x?xbf16> {tile.dims = ["K", "N"]},
                         %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 16, BN = 32, BK = 16, num_warps = 1, vector_width = 8} requires ["K <= BK"] {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Bv = tile.partition %B tile [BK, BN] pad(zero) : memref<?x?xbf16> -> !tile.part<16x32xbf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x32xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
  %b = tile.load %Bv[%c0, %n] : !tile.part<16x32xbf16, pad = zero> -> tensor<16x32xbf16>
  %z = arith.constant dense<0.0> : tensor<16x32xf32>
  %c = tile.mma %a, %b, %z impl(mma_sync) : tensor<16x16xbf16>, tensor<16x32xbf16> -> tensor<16x32xf32>
  tile.store %c, %Cv[%m, %n] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}

// -----

// A loop-invariant A (attention's query tile against a loop of key tiles)
// is staged once, before the loop, behind its own barrier; each step stages
// B only, and the barrier after the mma guards B's buffer.

// CHECK-LABEL: gpu.func @mma_sync_invariant_a
// CHECK: memref.store %{{.*}} : memref<256xbf16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-NOT: memref<256xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}} : memref<128xbf16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix %{{.*}} : memref<256xbf16
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK: vector.store {{.*}} memref<?x?xf32, #gpu.address_space<global>>
// CHECK: gpu.return
tile.kernel @mma_sync_invariant_a(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                                  %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                                  %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 16, BN = 8, BK = 16, num_warps = 1} requires ["K <= BK"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<8x16xbf16, pad = zero>
  %Cv = tile.partition %C tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m = tile.grid %Cv dims [0] : !tile.part<16x8xf32>
  %nn = tile.num_tiles %Bv[0] : !tile.part<8x16xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %a = tile.load %Av[%m, %c0] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
  scf.for %n = %c0 to %nn step %c1 {
    %b = tile.load %Bv[%n, %c0] : !tile.part<8x16xbf16, pad = zero> -> tensor<8x16xbf16>
    %r = tile.mma %a, %b, %z impl(mma_sync) {transpose_b} : tensor<16x16xbf16>, tensor<8x16xbf16> -> tensor<16x8xf32>
    tile.store %r, %Cv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  }
  tile.return
}

// -----

// warp_split(rows) on 2 warps: each warp owns 16 whole rows of both
// accumulators, so the bf16 cast of the scores is already the A fragment
// of the second tile.mma (getMmaSyncOperandALayout): its four registers per
// k16 step are pairs of the thread's vector (extract_strided_slice at
// positions 0, 8, 2, 10: rows g, g + 8 of the first and second 8-column
// tile), and A gets no shared buffer, store or ldmatrix. Only the query,
// key and value tiles are staged (three buffers).

// CHECK-LABEL: gpu.func @mma_sync_register_a
// CHECK-COUNT-3: memref.view
// CHECK-NOT: memref.view
// CHECK: scf.for
// CHECK: nvgpu.ldmatrix
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvgpu.ldmatrix {{.*}}transpose = false
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [2], strides = [1]} : vector<16xbf16> to vector<2xbf16>
// CHECK-NEXT: vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [2], strides = [1]}
// CHECK-NEXT: vector.extract_strided_slice %{{.*}} {offsets = [2], sizes = [2], strides = [1]}
// CHECK-NEXT: vector.extract_strided_slice %{{.*}} {offsets = [10], sizes = [2], strides = [1]}
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvvm.mma.sync
tile.kernel @mma_sync_register_a(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
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
  }
  tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
  tile.return
}
