// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// vector_width = 4 and a fact making N a multiple of 4: 16-byte runs per
// thread, aligned. In-bounds tiles take plain vector loads and stores;
// boundary tiles mask with the view's pad (-inf here), run by run: a run
// wholly inside the memref still takes the plain access. The fact proves the
// alignment, so there is no run-time check on N.

// CHECK-LABEL: gpu.func @aligned
// CHECK-NOT: arith.remui {{.*}}, %c4 :
// CHECK: %[[FULL:.*]] = arith.andi
// CHECK: scf.if %[[FULL]] -> (vector<8xf32>)
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK: %[[PAD:.*]] = arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK: %[[WHOLE:.*]] = arith.cmpi sge, %{{.*}}, %c4 : index
// CHECK-NEXT: scf.if %[[WHOLE]] -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %{{.*}} {alignment = 16 : i64}
// CHECK: } else {
// CHECK-NEXT: %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<4xi1>
// CHECK-NEXT: vector.maskedload %{{.*}}, %[[MASK]], %[[PAD]] {alignment = 16 : i64}
// CHECK: scf.if
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: } else {
// CHECK: arith.cmpi sge
// CHECK: vector.store %{{.*}} {alignment = 16 : i64}
// CHECK: vector.maskedstore %{{.*}} {alignment = 16 : i64}
tile.kernel @aligned(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 2, BN = 256, num_warps = 2, vector_width = 4}
    requires ["N % 4 == 0"] {
  %Xv = tile.partition %X tile [BM, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<2x256xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<2x256xf32, pad = neg_inf> -> tensor<2x256xf32>
  tile.store %x, %Yv[%m, %n] : tensor<2x256xf32>, !tile.part<2x256xf32>
  tile.return
}

// -----

// Without a fact on N, row starts are not provably 16-byte aligned: each
// access is versioned at run time. `N % 4 == 0` is computed once in the
// prologue and joins the interior check of both the load and the store; the
// fast path is the aligned vector access. Boundary tiles split once more on
// the same check: with aligned rows each run of 4 takes the aligned access
// when it lies wholly inside the memref and the masked one otherwise; with
// unaligned rows every run is masked, without a per-run test and without an
// alignment.

// CHECK-LABEL: gpu.func @unaligned
// CHECK: %[[N:.*]] = arith.index_cast %arg3 : i64 to index
// CHECK: gpu.thread_id x
// CHECK: %[[REM:.*]] = arith.remui %[[N]], %[[C4:.*]] : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %c0 : index
// CHECK: gpu.block_id x
// CHECK: %[[INSIDE:.*]] = arith.andi
// CHECK: %[[FAST:.*]] = arith.andi %[[INSIDE]], %[[ALIGNED]] : i1
// CHECK: scf.if %[[FAST]] -> (vector<8xf32>) {
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
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
// CHECK-NOT: arith.cmpi sge
// CHECK-NOT: alignment
// CHECK: vector.maskedload %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NOT: arith.cmpi sge
// CHECK-NOT: alignment
// CHECK: vector.maskedload %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NOT: arith.remui {{.*}}, %c4 :
// CHECK: %[[SINSIDE:.*]] = arith.andi
// CHECK: %[[SFAST:.*]] = arith.andi %[[SINSIDE]], %[[ALIGNED]] : i1
// CHECK: scf.if %[[SFAST]] {
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xf32>
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
// CHECK-NOT: arith.cmpi sge
// CHECK-NOT: alignment
// CHECK: vector.maskedstore %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32>
// CHECK-NOT: alignment
// CHECK: vector.maskedstore %{{.*}} : memref<?x?xf32, #gpu.address_space<global>>, vector<4xi1>, vector<4xf32>
// CHECK: gpu.return
tile.kernel @unaligned(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 2, BN = 256, num_warps = 2, vector_width = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<2x256xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
  tile.store %x, %Yv[%m, %n] : tensor<2x256xf32>, !tile.part<2x256xf32>
  tile.return
}

// -----

// A rank-1 view needs no fact: its tile starts are multiples of the tile.
// Facts that make every dim a multiple of its tile size remove the boundary
// path altogether.

// CHECK-LABEL: gpu.func @full_tiles
// CHECK-NOT: scf.if
// CHECK-NOT: create_mask
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NOT: scf.if
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: gpu.return
tile.kernel @full_tiles(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 1024, num_warps = 4, vector_width = 4}
    requires ["N % BN == 0"] {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<1024xf32>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<1024xf32>
  %n = tile.grid %Yv : !tile.part<1024xf32>
  %x = tile.load %Xv[%n] : !tile.part<1024xf32> -> tensor<1024xf32>
  tile.store %x, %Yv[%n] : tensor<1024xf32>, !tile.part<1024xf32>
  tile.return
}

// -----

// A tile smaller than the CTA is replicated over the spare lanes and warps;
// only one replica stores.

// CHECK-LABEL: gpu.func @replicated
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: %[[LBITS:.*]] = arith.andi %[[LANE]], %c16
// CHECK: %[[L0:.*]] = arith.cmpi eq, %[[LBITS]], %c0
// CHECK: %[[WBITS:.*]] = arith.andi %[[WARP]], %c1
// CHECK: %[[W0:.*]] = arith.cmpi eq, %[[WBITS]], %c0
// CHECK: %[[OWNER:.*]] = arith.andi %[[L0]], %[[W0]]
// CHECK: scf.if %[[OWNER]] {
// CHECK: vector.store
tile.kernel @replicated(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 16, num_warps = 2} {
  %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<16xf32>
  %n = tile.grid %Yv : !tile.part<16xf32>
  %x = tile.load %Xv[%n] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  tile.store %x, %Yv[%n] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}

// -----

// atomic_add: one atomic per element, each masked to the memref.

// CHECK-LABEL: gpu.func @accumulate
// CHECK: scf.yield %{{.*}} : vector<4xf32>
// CHECK: scf.yield %{{.*}} : vector<4xf32>
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[E:.*]] = vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: memref.atomic_rmw addf %[[E]], %{{.*}} : (f32, memref<?x?xf32, #gpu.address_space<global>>) -> f32
// CHECK-COUNT-3: memref.atomic_rmw addf
// CHECK-NOT: memref.atomic_rmw
tile.kernel @accumulate(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 2, BN = 64, num_warps = 1, vector_width = 2} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<2x64xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<2x64xf32, pad = zero> -> tensor<2x64xf32>
  tile.atomic_add %x, %Yv[%m, %n] : tensor<2x64xf32>, !tile.part<2x64xf32>
  tile.return
}
