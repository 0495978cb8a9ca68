// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// tile.gather in the blocked layout (MemoryLowering.cpp). The index tile
// takes the result's layout (no conversion). With the ids broadcast along
// the embedding dim, every run of 4 elements has one row: one 16-byte load
// when the run is whole and the rows aligned, a masked load otherwise; the
// row is checked with an unsigned compare against V (a negative id is out
// of range too) through the run's extent.

// CHECK-LABEL: gpu.func @embedding
// CHECK-NOT: tile.convert_layout
// CHECK: %[[ID:.*]] = vector.extract %{{.*}}[0] : i32 from vector<4xi32>
// CHECK-NEXT: %[[IDX:.*]] = arith.index_cast %[[ID]] : i32 to index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %{{.*}}, %[[IDX]] : index
// CHECK: arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK: %[[EXTENT:.*]] = arith.select
// CHECK: %[[WHOLE:.*]] = arith.cmpi sge, %[[EXTENT]], %c4 : index
// CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK-NEXT: %[[MASK:.*]] = vector.create_mask %[[EXTENT]] : vector<4xi1>
// CHECK: vector.maskedload %{{.*}}[%[[ROW]], %{{.*}}], %[[MASK]]
tile.kernel @embedding(%I: memref<?xi32> {tile.dims = ["T"]},
                       %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                       %Y: memref<?x?xf32> {tile.dims = ["T", "D"]})
    params {BT = 2, BD = 128, num_warps = 2, vector_width = 4} {
  %c0 = arith.constant 0 : index
  %Iv = tile.partition %I tile [BT] pad(zero) : memref<?xi32> -> !tile.part<2xi32, pad = zero>
  %Wv = tile.partition %W tile [1, BD] pad(zero) : memref<?x?xf32> -> !tile.part<1x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BT, BD] : memref<?x?xf32> -> !tile.part<2x128xf32>
  %t, %j = tile.grid %Yv : !tile.part<2x128xf32>
  %ids = tile.load %Iv[%t] : !tile.part<2xi32, pad = zero> -> tensor<2xi32>
  %rows = tile.broadcast %ids dims [1] : tensor<2xi32> -> tensor<2x128xi32>
  %e = tile.gather %Wv[%c0, %j] dim 0 by %rows : !tile.part<1x128xf32, pad = zero>, tensor<2x128xi32> -> tensor<2x128xf32>
  tile.store %e, %Yv[%t, %j] : tensor<2x128xf32>, !tile.part<2x128xf32>
  tile.return
}


// -----

// Any index tile (here loaded per element): each element is a guarded scalar
// load, at its own row, reading the pad (NaN) when out of bounds.

// CHECK-LABEL: gpu.func @any_index
// CHECK-NOT: tile.convert_layout
// CHECK: %[[ID0:.*]] = vector.extract %[[IDS:.*]][0] : i64 from vector<4xi64>
// CHECK-NEXT: %[[IDX0:.*]] = arith.index_cast %[[ID0]] : i64 to index
// CHECK-NEXT: %[[ROW0:.*]] = arith.addi %{{.*}}, %[[IDX0]] : index
// CHECK-NEXT: %[[ROK:.*]] = arith.cmpi ult, %[[ROW0]], %{{.*}} : index
// CHECK-NEXT: %[[COK:.*]] = arith.cmpi ult, %[[COL0:.*]], %{{.*}} : index
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[ROK]], %[[COK]] : i1
// CHECK-NEXT: scf.if %[[OK]] -> (f32) {
// CHECK-NEXT: memref.load %{{.*}}[%[[ROW0]], %[[COL0]]] : memref<?x?xf32, #gpu.address_space<global>>
// CHECK: } else {
// CHECK-NEXT: arith.constant 0x7FC00000 : f32
// CHECK: vector.extract %[[IDS]][1] : i64 from vector<4xi64>
// CHECK: vector.extract %[[IDS]][2] : i64 from vector<4xi64>
// CHECK: vector.extract %[[IDS]][3] : i64 from vector<4xi64>

tile.kernel @any_index(%I: memref<?x?xi64> {tile.dims = ["T", "D"]},
                       %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                       %Y: memref<?x?xf32> {tile.dims = ["T", "D"]})
    params {BT = 2, BD = 64, num_warps = 1, vector_width = 2} {
  %c0 = arith.constant 0 : index
  %Iv = tile.partition %I tile [BT, BD] pad(zero) : memref<?x?xi64> -> !tile.part<2x64xi64, pad = zero>
  %Wv = tile.partition %W tile [1, BD] pad(nan) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = nan>
  %Yv = tile.partition %Y tile [BT, BD] : memref<?x?xf32> -> !tile.part<2x64xf32>
  %t, %j = tile.grid %Yv : !tile.part<2x64xf32>
  %rows = tile.load %Iv[%t, %j] : !tile.part<2x64xi64, pad = zero> -> tensor<2x64xi64>
  %e = tile.gather %Wv[%c0, %j] dim 0 by %rows : !tile.part<1x64xf32, pad = nan>, tensor<2x64xi64> -> tensor<2x64xf32>
  tile.store %e, %Yv[%t, %j] : tensor<2x64xf32>, !tile.part<2x64xf32>
  tile.return
}

// -----

// Gathered along the innermost dim (the partner columns of a rotary
// embedding): per run, a run-time test that the indices are consecutive, the
// first position in bounds and a multiple of 4, the run whole and the rows
// aligned (N % 4, once per kernel) picks one aligned vector load; otherwise
// the guarded scalar loads.

// CHECK-LABEL: gpu.func @rotate_columns
// CHECK: %[[ROWS:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// CHECK: vector.extract %[[IDX:.*]][0] : i32 from vector<4xi32>
// CHECK: %[[I0:.*]] = vector.extract %[[IDX]][0] : i32 from vector<4xi32>
// CHECK-NEXT: %[[I1:.*]] = vector.extract %[[IDX]][1] : i32 from vector<4xi32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[E1:.*]] = arith.addi %[[I0]], %[[ONE]] : i32
// CHECK-NEXT: %[[S1:.*]] = arith.cmpi eq, %[[I1]], %[[E1]] : i32
// CHECK-NEXT: arith.andi %[[ROWS]], %[[S1]] : i1
// CHECK: vector.extract %[[IDX]][3] : i32 from vector<4xi32>
// CHECK: %[[REM:.*]] = arith.remui %[[POS:.*]], %c4 : index
// CHECK-NEXT: %[[AL:.*]] = arith.cmpi eq, %[[REM]], %c0 : index
// CHECK: %[[FAST:.*]] = arith.andi %{{.*}}, %[[AL]] : i1
// CHECK-NEXT: scf.if %[[FAST]] -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %[[POS]]] {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-4: memref.load
tile.kernel @rotate_columns(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 1, BN = 128, num_warps = 1, vector_width = 4} {
  %c0 = arith.constant 0 : index
  %Xg = tile.partition %X tile [BM, 1] pad(zero) : memref<?x?xf32> -> !tile.part<1x1xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<1x128xf32>
  %m = tile.grid %Yv dims [0] : !tile.part<1x128xf32>
  %cols = tile.iota dim 1 : tensor<1x128xi32>
  %shift = arith.constant dense<64> : tensor<1x128xi32>
  %partner = arith.addi %cols, %shift : tensor<1x128xi32>
  %x = tile.gather %Xg[%m, %c0] dim 1 by %partner : !tile.part<1x1xf32, pad = zero>, tensor<1x128xi32> -> tensor<1x128xf32>
  tile.store %x, %Yv[%m, %c0] : tensor<1x128xf32>, !tile.part<1x128xf32>
  tile.return
}
