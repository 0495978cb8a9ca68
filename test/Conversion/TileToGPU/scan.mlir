// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// tile.scan in the blocked layout (ScanLowering.cpp). A 1x256 row on one
// warp with vector_width 4: every lane owns 2 runs (reps) of 4 contiguous
// elements. Per run: a running sum in the thread; then an inclusive
// Hillis-Steele scan of the run totals over the 32 lanes (5 index shuffles
// from the lane 1, 2, 4, 8, 16 back, each taken only where that lane
// exists), the exclusive prefix (one more shuffle, -0.0 on lane 0) and the
// segment total from lane 31. The second run adds the first run's segment
// total: no shared memory, no barrier.

// CHECK-LABEL: gpu.func @one_warp
// CHECK: %[[E0:.*]] = vector.extract %[[X:.*]][0] : f32 from vector<8xf32>
// CHECK: %[[E1:.*]] = vector.extract %[[X]][1] : f32 from vector<8xf32>
// CHECK: %[[L1:.*]] = arith.addf %[[E0]], %[[E1]] : f32
// CHECK: %[[L2:.*]] = arith.addf %[[L1]], %{{.*}} : f32
// CHECK: %[[T0:.*]] = arith.addf %[[L2]], %{{.*}} : f32
// CHECK: %[[HAS1:.*]] = arith.cmpi uge, %[[LANE:.*]], %c1 : index
// CHECK: %[[SH1:.*]], %{{.*}} = gpu.shuffle  idx %[[T0]], %{{.*}}, %{{.*}} : f32
// CHECK: %[[S1:.*]] = arith.addf %[[SH1]], %[[T0]] : f32
// CHECK: arith.select %[[HAS1]], %[[S1]], %[[T0]] : f32
// CHECK-COUNT-4: gpu.shuffle  idx
// CHECK: %[[EX:.*]], %{{.*}} = gpu.shuffle  idx
// CHECK: %[[BEFORE0:.*]] = arith.select %{{.*}}, %[[EX]], %[[ID:.*]] : f32
// CHECK: %[[SEG0:.*]], %{{.*}} = gpu.shuffle  idx
// CHECK-COUNT-6: gpu.shuffle  idx
// CHECK: %[[BEFORE1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ID]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[O0:.*]] = arith.addf %[[BEFORE0]], %[[E0]] : f32
// CHECK: %[[O1:.*]] = arith.addf %[[BEFORE0]], %[[L1]] : f32
// CHECK: %[[O2:.*]] = arith.addf %[[BEFORE0]], %[[L2]] : f32
// CHECK: %[[O3:.*]] = arith.addf %[[BEFORE0]], %[[T0]] : f32
// CHECK: %[[P1:.*]] = arith.addf %[[SEG0]], %[[BEFORE1]] : f32
// CHECK: %[[O4:.*]] = arith.addf %[[P1]], %{{.*}} : f32
// CHECK: vector.from_elements %[[O0]], %[[O1]], %[[O2]], %[[O3]], %[[O4]], %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @one_warp(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1, vector_width = 4} {
  %Xv = tile.partition %X tile [1, 256] pad(zero) : memref<?x?xf32> -> !tile.part<1x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [1, 256] : memref<?x?xf32> -> !tile.part<1x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<1x256xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<1x256xf32, pad = zero> -> tensor<1x256xf32>
  %s = tile.scan add %x dim 1 : tensor<1x256xf32>
  tile.store %s, %Yv[%m, %n] : tensor<1x256xf32>, !tile.part<1x256xf32>
  tile.return
}

// -----

// A 128x8 column scan (dim 0) on 4 warps, vector_width 1: 8 lanes along N,
// 4 along M (lane stride 8), 4 warps along M, 8 rows per thread (reps).
// Lanes: 2 shuffle steps of 8 and 16 lanes back. Warps: every thread writes
// its 8 segment totals (one per rep) to shared memory, a barrier, then reads
// the 4 warps' totals of its column and combines those of the warps before
// its own (`w < warp`), and all 4 for the rep's total. Inside a loop a
// second barrier keeps the next iteration from overwriting totals still
// being read.

// CHECK-LABEL: gpu.func @across_warps
// CHECK: %[[BUF:.*]] = memref.view {{.*}} to memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: gpu.shuffle  idx %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-8: memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK: %[[W0:.*]] = memref.load %[[BUF]][%{{.*}}] : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK: %[[EARLIER:.*]] = arith.cmpi ult, %c0{{.*}}, %[[WARP:.*]] : index
// CHECK: %[[ACC:.*]] = arith.addf %{{.*}}, %[[W0]] : f32
// CHECK: arith.select %[[EARLIER]], %[[ACC]], %{{.*}} : f32
// CHECK: memref.load %[[BUF]]
// CHECK: arith.cmpi ult, %c1{{.*}}, %[[WARP]] : index
// CHECK: gpu.barrier
// CHECK: vector.from_elements
// CHECK: gpu.return
tile.kernel @across_warps(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4, vector_width = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [128, 8] pad(zero) : memref<?x?xf32> -> !tile.part<128x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [128, 8] : memref<?x?xf32> -> !tile.part<128x8xf32>
  %c = tile.grid %Yv dims [1] : !tile.part<128x8xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<128x8xf32, pad = zero>
  scf.for %i = %c0 to %mt step %c1 {
    %x = tile.load %Xv[%i, %c] : !tile.part<128x8xf32, pad = zero> -> tensor<128x8xf32>
    %s = tile.scan add %x dim 0 : tensor<128x8xf32>
    tile.store %s, %Yv[%i, %c] : tensor<128x8xf32>, !tile.part<128x8xf32>
  }
  tile.return
}

// -----

// 64-bit values cross lanes as two 32-bit halves; the identity of a max
// scan over i64 is the smallest i64.

// CHECK-LABEL: gpu.func @wide
// CHECK-DAG: %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: %[[LO:.*]] = arith.trunci %[[V:.*]] : i64 to i32
// CHECK: gpu.shuffle  idx %[[LO]]
// CHECK: %[[HI64:.*]] = arith.shrui %[[V]], %{{.*}} : i64
// CHECK: %[[HI:.*]] = arith.trunci %[[HI64]] : i64 to i32
// CHECK: gpu.shuffle  idx %[[HI]]
// CHECK: arith.ori
// CHECK: arith.maxsi
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[MIN]] : i64
tile.kernel @wide(%X: memref<?xi64> {tile.dims = ["N"]},
                  %Y: memref<?xi64> {tile.dims = ["N"]})
    params {num_warps = 1, vector_width = 1} {
  %Xv = tile.partition %X tile [32] pad(zero) : memref<?xi64> -> !tile.part<32xi64, pad = zero>
  %Yv = tile.partition %Y tile [32] : memref<?xi64> -> !tile.part<32xi64>
  %n = tile.grid %Yv : !tile.part<32xi64>
  %x = tile.load %Xv[%n] : !tile.part<32xi64, pad = zero> -> tensor<32xi64>
  %s = tile.scan max %x dim 0 : tensor<32xi64>
  tile.store %s, %Yv[%n] : tensor<32xi64>, !tile.part<32xi64>
  tile.return
}
