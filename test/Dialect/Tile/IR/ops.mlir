// Round trip of every tile op and type: custom form, and generic form back
// to custom form.
// RUN: kbench-opt %s | kbench-opt | FileCheck %s
// RUN: kbench-opt %s --mlir-print-op-generic | kbench-opt | FileCheck %s
// RUN: kbench-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// The requires facts are one #tile.requires attribute (parsed once).
// GENERIC: requires = #tile.requires<["K % 16 == 0", "M >= 1"]>

// CHECK-LABEL: tile.kernel @all_ops
// CHECK-SAME: (%{{.*}}: memref<?x?xf32> {tile.dims = ["M", "K"]}, %{{.*}}: memref<?x?xf32> {tile.dims = ["N", "K"]}, %{{.*}}: memref<?xf32> {tile.dims = ["N"]}, %{{.*}}: memref<?x?xf32> {tile.dims = ["M", "N"]}, %{{.*}}: f32)
// CHECK-SAME: params {BK = 16, BM = 32, BN = 32, num_warps = 4}
// CHECK-SAME: requires ["K % 16 == 0", "M >= 1"]
tile.kernel @all_ops(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                     %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                     %b: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %s: f32)
    params {BM = 32, BN = 32, BK = 16, num_warps = 4}
    requires ["K % 16 == 0", "M >= 1"] {
  // CHECK: %[[XV:.*]] = tile.partition %{{.*}} tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  // CHECK: tile.partition %{{.*}} tile [32, 16] pad(neg_inf) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = neg_inf>
  %Wv = tile.partition %W tile [32, 16] pad(neg_inf) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = neg_inf>
  // CHECK: tile.partition %{{.*}} tile [BN] pad(nan) : memref<?xf32> -> !tile.part<32xf32, pad = nan>
  %bv = tile.partition %b tile [BN] pad(nan) : memref<?xf32> -> !tile.part<32xf32, pad = nan>
  // CHECK: %[[YV:.*]] = tile.partition %{{.*}} tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
  // CHECK: tile.partition %{{.*}} tile [BM, BN] pad(pos_inf) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = pos_inf>
  %Yp = tile.partition %Y tile [BM, BN] pad(pos_inf) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = pos_inf>
  // CHECK: %[[G:.*]]:2 = tile.grid %[[YV]] : !tile.part<32x32xf32>
  %m, %n = tile.grid %Yv : !tile.part<32x32xf32>
  // CHECK: tile.num_tiles %[[XV]][1] : !tile.part<32x16xf32, pad = zero>
  %nk = tile.num_tiles %Xv[1] : !tile.part<32x16xf32, pad = zero>
  // CHECK: tile.extent %[[XV]][0] : !tile.part<32x16xf32, pad = zero>
  %em = tile.extent %Xv[0] : !tile.part<32x16xf32, pad = zero>
  // CHECK: tile.tile_size %[[XV]][1] : !tile.part<32x16xf32, pad = zero>
  %ts = tile.tile_size %Xv[1] : !tile.part<32x16xf32, pad = zero>
  // CHECK: tile.load %[[XV]][%[[G]]#0, %{{.*}}] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  %x = tile.load %Xv[%m, %nk] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  %w = tile.load %Wv[%n, %nk] : !tile.part<32x16xf32, pad = neg_inf> -> tensor<32x16xf32>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} {transpose_b} : tensor<32x16xf32>, tensor<32x16xf32> -> tensor<32x32xf32>
  %acc = tile.mma %x, %w, %z {transpose_b} : tensor<32x16xf32>, tensor<32x16xf32> -> tensor<32x32xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} impl(mma_sync) {transpose_a} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<32x32xf32>
  %xt = tile.transpose %x perm [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
  %wt = tile.transpose %w perm [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
  %acc2 = tile.mma %xt, %wt, %acc impl(mma_sync) {transpose_a} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<32x32xf32>
  // CHECK: tile.broadcast %{{.*}} dims [0] : tensor<32xf32> -> tensor<32x32xf32>
  %bt = tile.load %bv[%n] : !tile.part<32xf32, pad = nan> -> tensor<32xf32>
  %bb = tile.broadcast %bt dims [0] : tensor<32xf32> -> tensor<32x32xf32>
  // CHECK: tile.reduce max %{{.*}} dim 1 : tensor<32x32xf32> -> tensor<32xf32>
  // CHECK: tile.reduce add %{{.*}} dim 0 : tensor<32xf32> -> tensor<f32>
  // CHECK: tile.reduce min
  // CHECK: tile.reduce mul
  %mx = tile.reduce max %acc2 dim 1 : tensor<32x32xf32> -> tensor<32xf32>
  %total = tile.reduce add %mx dim 0 : tensor<32xf32> -> tensor<f32>
  %mn = tile.reduce min %acc2 dim 0 : tensor<32x32xf32> -> tensor<32xf32>
  %pr = tile.reduce mul %mn dim 0 : tensor<32xf32> -> tensor<f32>
  // CHECK: tile.scan add %{{.*}} dim 1 : tensor<32x32xf32>
  // CHECK: tile.scan max %{{.*}} dim 0 : tensor<32x32xf32>
  %cs = tile.scan add %acc2 dim 1 : tensor<32x32xf32>
  %cm = tile.scan max %cs dim 0 : tensor<32x32xf32>
  // CHECK: tile.expand_dims %{{.*}} dim 1 : tensor<32xf32> -> tensor<32x1xf32>
  %col = tile.expand_dims %mx dim 1 : tensor<32xf32> -> tensor<32x1xf32>
  // CHECK: tile.squeeze %{{.*}} dim 1 : tensor<32x1xf32> -> tensor<32xf32>
  %row = tile.squeeze %col dim 1 : tensor<32x1xf32> -> tensor<32xf32>
  // CHECK: tile.iota dim 1 : tensor<32x32xi32>
  %cols = tile.iota dim 1 : tensor<32x32xi32>
  // CHECK: tile.splat %{{.*}} : f32 -> tensor<32x32xf32>
  %st = tile.splat %s : f32 -> tensor<32x32xf32>
  %sum = arith.addf %acc2, %bb : tensor<32x32xf32>
  %scaled = arith.mulf %sum, %st : tensor<32x32xf32>
  // CHECK: tile.store %{{.*}}, %[[YV]][%[[G]]#0, %[[G]]#1] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.store %scaled, %Yv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
  // CHECK: tile.atomic_add %{{.*}}, %{{.*}}[%[[G]]#0, %[[G]]#1] : tensor<32x32xf32>, !tile.part<32x32xf32, pad = pos_inf>
  tile.atomic_add %scaled, %Yp[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32, pad = pos_inf>
  tile.return
}

// CHECK-LABEL: tile.kernel @grid_dims
// CHECK: %{{.*}} = tile.grid %{{.*}} dims [0] : !tile.part<4x64xf32>
// CHECK: tile.mma %{{.*}} impl(wgmma)
// CHECK: tile.mma %{{.*}} impl(simt)
// CHECK: tile.mma %{{.*}} impl(mma_sync) warp_split(rows) :
tile.kernel @grid_dims(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %A: memref<?x?xf16> {tile.dims = ["M", "N"]},
                       %S: memref<?x?x?xi32> {tile.dims = ["B", "M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %Sv = tile.partition %S tile [1, 4, 8] : memref<?x?x?xi32> -> !tile.part<1x4x8xi32>
  %r = tile.grid %Xv dims [0] : !tile.part<4x64xf32>
  %a = arith.constant dense<1.0> : tensor<64x16xf16>
  %b = arith.constant dense<1.0> : tensor<16x64xf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %a, %b, %c impl(wgmma) : tensor<64x16xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  %e = tile.mma %a, %b, %d impl(simt) : tensor<64x16xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  %f = tile.mma %a, %b, %e impl(mma_sync) warp_split(rows) : tensor<64x16xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  tile.return
}

// Host level: a task's entry launches its kernels.
// CHECK-LABEL: func.func @main
// CHECK: tile.launch @all_ops(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, f32) -> ()
func.func @main(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %b: memref<?xf32>,
                %y: memref<?x?xf32>, %s: f32) {
  tile.launch @all_ops(%x, %w, %b, %y, %s)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, f32) -> ()
  return
}
