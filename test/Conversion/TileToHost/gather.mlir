// RUN: kbench-opt %s --tile-to-host | FileCheck %s

// tile.gather on the host: a linalg.generic over the index tile whose body
// computes each element's position (tile coordinate times tile size, plus the
// index along the gathered dim, plus the element's own index along the
// others), checks it against the memref's extents on every dim, and reads
// the element or the view's pad (-inf here).

tile.kernel @embedding(%I: memref<?xi32> {tile.dims = ["T"]},
                       %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                       %Y: memref<?x?xf32> {tile.dims = ["T", "D"]}) {
  %c0 = arith.constant 0 : index
  %Iv = tile.partition %I tile [4] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Wv = tile.partition %W tile [1, 8] pad(neg_inf) : memref<?x?xf32> -> !tile.part<1x8xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4, 8] : memref<?x?xf32> -> !tile.part<4x8xf32>
  %t, %j = tile.grid %Yv : !tile.part<4x8xf32>
  %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
  %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x8xi32>
  %e = tile.gather %Wv[%c0, %j] dim 0 by %rows : !tile.part<1x8xf32, pad = neg_inf>, tensor<4x8xi32> -> tensor<4x8xf32>
  tile.store %e, %Yv[%t, %j] : tensor<4x8xf32>, !tile.part<4x8xf32>
  tile.return
}

// CHECK-LABEL: func.func @embedding(
// CHECK: %[[PAD:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xi32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: ^bb0(%[[IDX:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[ROW:.*]] = arith.index_cast %[[IDX]] : i32 to index
// CHECK: %[[POS0:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK: %[[V:.*]] = memref.dim %[[W:.*]], %{{.*}} : memref<?x?xf32>
// CHECK: arith.cmpi sge, %[[POS0]]
// CHECK: arith.cmpi slt, %[[POS0]], %[[V]] : index
// CHECK: %[[COL:.*]] = linalg.index 1 : index
// CHECK: %[[POS1:.*]] = arith.addi %{{.*}}, %[[COL]] : index
// CHECK: %[[D:.*]] = memref.dim %[[W]], %{{.*}} : memref<?x?xf32>
// CHECK: arith.cmpi slt, %[[POS1]], %[[D]] : index
// CHECK-NEXT: %[[IN1:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[OK:.*]] = arith.andi %{{.*}}, %[[IN1]] : i1
// CHECK-NEXT: scf.if %[[OK]] -> (f32) {
// CHECK-NEXT: %[[E:.*]] = memref.load %[[W]][%[[POS0]], %[[POS1]]] : memref<?x?xf32>
// CHECK-NEXT: scf.yield %[[E]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[PAD]] : f32
