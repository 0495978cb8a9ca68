// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s
// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s --check-prefix=NOSTORE

// The cache_hints knob (transform.tile.cache_hints): a load of a tensor that
// a later pass reads again asks L2 to keep its lines (evict_last), the last
// pass's load of it lets them go first (evict_first). Only whole aligned runs
// take the hinted load (inline PTX at the element's address, row-major over
// the extents); masked runs, stores and tensors read in one place keep the
// plain accesses of test/Conversion/TileToGPU/load-store.mlir.

// Two passes over x: a row sum, then y = x - sum.
// CHECK-LABEL: gpu.func @two_pass
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %[[Y:.*]]: !llvm.ptr<1>, %{{.*}}: i64, %[[NARG:.*]]: i64)
// CHECK: %[[N:.*]] = arith.index_cast %[[NARG]] : i64 to index
// CHECK: scf.for
// Interior, aligned rows: the whole tile's runs with evict_last.
// CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK-NEXT: %[[ELEM:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK-NEXT: %[[OFF:.*]] = arith.index_cast %[[ELEM]] : index to i64
// CHECK-NEXT: %[[ADDR:.*]] = llvm.getelementptr %[[X]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[LD:.*]] = llvm.inline_asm has_side_effects {{.*}}createpolicy.fractional.L2::evict_last.b64 policy, 1.0;\0Ald.global.L1::evict_last.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [$4], policy;{{.*}}", "=r,=r,=r,=r,l" %[[ADDR]] : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[WORDS:.*]] = vector.from_elements {{.*}} : vector<4xi32>
// CHECK-NEXT: vector.bitcast %[[WORDS]] : vector<4xi32> to vector<4xf32>
// A boundary tile of aligned rows: whole runs hinted, the run at the edge
// masked without a hint.
// CHECK: } else {
// CHECK: llvm.inline_asm has_side_effects {{.*}}evict_last
// CHECK: vector.maskedload
// CHECK: vector.maskedload
// The second pass: evict_first; the store of y is a plain vector.store (no
// store anywhere is inline PTX).
// CHECK: scf.for
// CHECK: llvm.inline_asm has_side_effects {{.*}}createpolicy.fractional.L2::evict_first.b64 policy, 1.0;\0Ald.global.L1::evict_first.L2::cache_hint.v4.b32
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: gpu.return
// NOSTORE-NOT: st.global
tile.kernel @two_pass(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 1, BN = 512, num_warps = 4, vector_width = 4, cache_hints = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<1x512xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<1x512xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<1x512xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %s = scf.for %j = %c0 to %nt step %c1 iter_args(%acc = %zero) -> (tensor<1xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf32, pad = zero> -> tensor<1x512xf32>
    %t = tile.reduce add %x dim 1 : tensor<1x512xf32> -> tensor<1xf32>
    %n = arith.addf %acc, %t : tensor<1xf32>
    scf.yield %n : tensor<1xf32>
  }
  %sb = tile.broadcast %s dims [1] : tensor<1xf32> -> tensor<1x512xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf32, pad = zero> -> tensor<1x512xf32>
    %y = arith.subf %x, %sb : tensor<1x512xf32>
    tile.store %y, %Yv[%r, %j] : tensor<1x512xf32>, !tile.part<1x512xf32>
  }
  tile.return
}

// -----

// A tensor read in one place gets no hint, knob or not: the copy's load
// stays a vector.load.
// CHECK-LABEL: gpu.func @read_once
// CHECK-NOT: llvm.inline_asm
// CHECK: vector.load
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
tile.kernel @read_once(%X: memref<?xf32> {tile.dims = ["N"]},
                       %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 512, num_warps = 4, vector_width = 4, cache_hints = 1} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<512xf32>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<512xf32>
  %i = tile.grid %Yv : !tile.part<512xf32>
  %x = tile.load %Xv[%i] : !tile.part<512xf32> -> tensor<512xf32>
  tile.store %x, %Yv[%i] : tensor<512xf32>, !tile.part<512xf32>
  tile.return
}

// -----

// bf16 runs of 8 (16 bytes) are four 32-bit words; runs of 2 f32 (8 bytes)
// two. Rank 1, so runs are aligned by construction.
// CHECK-LABEL: gpu.func @words
// CHECK: llvm.inline_asm has_side_effects {{.*}}evict_last.L2::cache_hint.v4.b32 {{.*}} -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: vector.bitcast %{{.*}} : vector<4xi32> to vector<8xbf16>
// CHECK: llvm.inline_asm has_side_effects {{.*}}evict_first.L2::cache_hint.v4.b32
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @pairs
// CHECK: llvm.inline_asm has_side_effects {{.*}}evict_last.L2::cache_hint.v2.b32 {$0, $1}, [$2], policy;{{.*}}", "=r,=r,l"
// CHECK: vector.bitcast %{{.*}} : vector<2xi32> to vector<2xf32>
// CHECK: gpu.return
tile.kernel @words(%X: memref<?xbf16> {tile.dims = ["N"]},
                   %Y: memref<?xbf16> {tile.dims = ["N"]})
    params {BN = 1024, num_warps = 4, vector_width = 8, cache_hints = 1} {
  %Xv = tile.partition %X tile [BN] : memref<?xbf16> -> !tile.part<1024xbf16>
  %Yv = tile.partition %Y tile [BN] : memref<?xbf16> -> !tile.part<1024xbf16>
  %i = tile.grid %Yv : !tile.part<1024xbf16>
  %a = tile.load %Xv[%i] : !tile.part<1024xbf16> -> tensor<1024xbf16>
  %b = tile.load %Xv[%i] : !tile.part<1024xbf16> -> tensor<1024xbf16>
  %c = arith.addf %a, %b : tensor<1024xbf16>
  tile.store %c, %Yv[%i] : tensor<1024xbf16>, !tile.part<1024xbf16>
  tile.return
}
tile.kernel @pairs(%X: memref<?xf32> {tile.dims = ["N"]},
                   %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 256, num_warps = 4, vector_width = 2, cache_hints = 1} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %i = tile.grid %Yv : !tile.part<256xf32>
  %a = tile.load %Xv[%i] : !tile.part<256xf32> -> tensor<256xf32>
  %b = tile.load %Xv[%i] : !tile.part<256xf32> -> tensor<256xf32>
  %c = arith.addf %a, %b : tensor<256xf32>
  tile.store %c, %Yv[%i] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}
