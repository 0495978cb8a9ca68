// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// The scalar_unaligned_rows knob (transform.tile.scalar_unaligned_rows):
// where rows turn out unaligned at run time, interior tiles take plain
// accesses without the alignment and boundary tiles test each run once,
// instead of masking every element (test/Conversion/TileToGPU/load-store.mlir
// has the default).


// scalar_unaligned_rows = 1. Without a fact on N, row starts are not
// provably 16-byte aligned: each access is versioned at run time. `N % 4 == 0` is computed once in the
// prologue and picks, under the interior check of both the load and the
// store, between the aligned vector access and the same access without an
// alignment (LLVM splits it into unpredicated scalars). Boundary tiles split
// on the same check: each run of 4 takes the plain access (aligned or not)
// when it lies wholly inside the memref and the masked one otherwise.

// CHECK-LABEL: gpu.func @unaligned
// CHECK: %[[N:.*]] = arith.index_cast %arg3 : i64 to index
// CHECK: gpu.thread_id x
// CHECK: %[[REM:.*]] = arith.remui %[[N]], %[[C4:.*]] : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %c0 : index
// CHECK: gpu.block_id x
// CHECK: %[[INSIDE:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[INSIDE]] -> (vector<8xf32>) {
// CHECK-NEXT: scf.if %[[ALIGNED]] -> (vector<8xf32>) {
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: vector.load %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NOT: scf.if
// CHECK: vector.load %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK-NEXT: scf.if %[[ALIGNED]] -> (vector<8xf32>) {
// CHECK: %[[WHOLE:.*]] = arith.cmpi sge, %{{.*}}, %c4 : index
// CHECK-NEXT: scf.if %[[WHOLE]] -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %{{.*}} {alignment = 16 : i64}
// CHECK: } else {
// CHECK-NOT: alignment
// CHECK: vector.maskedload %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK: arith.cmpi sge
// CHECK: vector.load %{{.*}} {alignment = 16 : i64}
// CHECK: } else {
// CHECK-NOT: alignment
// CHECK: vector.maskedload %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK: } else {
// CHECK: %[[UWHOLE:.*]] = arith.cmpi sge, %{{.*}}, %c4 : index
// CHECK-NEXT: scf.if %[[UWHOLE]] -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK-NOT: alignment
// CHECK: vector.maskedload %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK: arith.cmpi sge
// CHECK-NOT: alignment
// CHECK: vector.load %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NOT: alignment
// CHECK: vector.maskedload %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NOT: arith.remui {{.*}}, %c4 :
// CHECK: %[[SINSIDE:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[SINSIDE]] {
// CHECK-NEXT: scf.if %[[ALIGNED]] {
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: vector.store %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NOT: scf.if
// CHECK: vector.store %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK-NEXT: scf.if %[[ALIGNED]] {
// CHECK: arith.cmpi sge
// CHECK: vector.store %{{.*}} {alignment = 16 : i64}
// CHECK: } else {
// CHECK-NOT: alignment
// CHECK: vector.maskedstore %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32>
// CHECK: arith.cmpi sge
// CHECK: vector.store %{{.*}} {alignment = 16 : i64}
// CHECK: } else {
// CHECK-NOT: alignment
// CHECK: vector.maskedstore %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32>
// CHECK: } else {
// CHECK: arith.cmpi sge
// CHECK-NOT: alignment
// CHECK: vector.store %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NOT: alignment
// CHECK: vector.maskedstore %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32>
// CHECK: arith.cmpi sge
// CHECK-NOT: alignment
// CHECK: vector.store %{{[^{]*}}: memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NOT: alignment
// CHECK: vector.maskedstore %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32>
// CHECK: gpu.return
tile.kernel @unaligned(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 2, BN = 256, num_warps = 2, scalar_unaligned_rows = 1, vector_width = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<2x256xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
  tile.store %x, %Yv[%m, %n] : tensor<2x256xf32>, !tile.part<2x256xf32>
  tile.return
}

// -----

// With the alignment proven by a fact there is nothing to check at run time:
// the knob changes nothing (the same code as load-store.mlir's @aligned).

// CHECK-LABEL: gpu.func @proven
// CHECK-NOT: arith.remui {{.*}}, %c4 :
// CHECK: %[[FULL:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[FULL]] -> (vector<8xf32>)
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK: %[[WHOLE:.*]] = arith.cmpi sge, %{{.*}}, %c4 : index
// CHECK-NEXT: scf.if %[[WHOLE]] -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %{{.*}} {alignment = 16 : i64}
// CHECK: } else {
// CHECK: vector.maskedload %{{.*}} {alignment = 16 : i64}
tile.kernel @proven(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 2, BN = 256, num_warps = 2, scalar_unaligned_rows = 1, vector_width = 4}
    requires ["N % 4 == 0"] {
  %Xv = tile.partition %X tile [BM, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<2x256xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<2x256xf32, pad = neg_inf> -> tensor<2x256xf32>
  tile.store %x, %Yv[%m, %n] : tensor<2x256xf32>, !tile.part<2x256xf32>
  tile.return
}
