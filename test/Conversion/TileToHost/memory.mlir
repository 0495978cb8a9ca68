// RUN: kbench-opt %s --split-input-file --tile-to-host | FileCheck %s

// tile.load: the in-bounds window of the tile, along each dim
// [clamp(c*T, 0, E), clamp(c*T + T, 0, E)), is copied into a buffer filled
// with the pad value, at offset clamp(c*T, 0, E) - c*T (clamped to the tile).
// tile.store copies the same window of the tile back: nothing else is
// written.

tile.kernel @load_store(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 8] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4, 8] : memref<?x?xf32> -> !tile.part<4x8xf32>
  %i, %j = tile.grid %Yv : !tile.part<4x8xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<4x8xf32, pad = neg_inf> -> tensor<4x8xf32>
  tile.store %x, %Yv[%i, %j] : tensor<4x8xf32>, !tile.part<4x8xf32>
  tile.return
}

// CHECK-LABEL: func.func @load_store(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// CHECK: %[[Y:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to
// CHECK: scf.for %[[BJ:.*]] = %{{.*}} to
// CHECK: scf.for %[[BI:.*]] = %{{.*}} to
// Rows: tile size 4, extent M.
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[T0:.*]] = arith.constant 4 : index
// CHECK: %[[E0:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[B0:.*]] = arith.muli %[[BI]], %[[T0]] : index
// CHECK: %[[END0:.*]] = arith.addi %[[B0]], %[[T0]] : index
// CHECK: %[[L0A:.*]] = arith.maxsi %[[B0]], %[[ZERO]] : index
// CHECK: %[[LO0:.*]] = arith.minsi %[[L0A]], %[[E0]] : index
// CHECK: %[[H0A:.*]] = arith.maxsi %[[END0]], %[[ZERO]] : index
// CHECK: %[[HI0:.*]] = arith.minsi %[[H0A]], %[[E0]] : index
// CHECK: %[[IN0A:.*]] = arith.subi %[[LO0]], %[[B0]] : index
// CHECK: %[[IN0B:.*]] = arith.maxsi %[[IN0A]], %[[ZERO]] : index
// CHECK: %[[IN0:.*]] = arith.minsi %[[IN0B]], %[[T0]] : index
// CHECK: %[[SIZE0:.*]] = arith.subi %[[HI0]], %[[LO0]] : index
// Columns: the same with tile size 8 and extent N.
// CHECK: %[[T1:.*]] = arith.constant 8 : index
// CHECK: %[[E1:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[B1:.*]] = arith.muli %[[BJ]], %[[T1]] : index
// CHECK: %[[END1:.*]] = arith.addi %[[B1]], %[[T1]] : index
// CHECK: %[[L1A:.*]] = arith.maxsi %[[B1]], %[[ZERO]] : index
// CHECK: %[[LO1:.*]] = arith.minsi %[[L1A]], %[[E1]] : index
// CHECK: %[[H1A:.*]] = arith.maxsi %[[END1]], %[[ZERO]] : index
// CHECK: %[[HI1:.*]] = arith.minsi %[[H1A]], %[[E1]] : index
// CHECK: %[[IN1A:.*]] = arith.subi %[[LO1]], %[[B1]] : index
// CHECK: %[[IN1B:.*]] = arith.maxsi %[[IN1A]], %[[ZERO]] : index
// CHECK: %[[IN1:.*]] = arith.minsi %[[IN1B]], %[[T1]] : index
// CHECK: %[[SIZE1:.*]] = arith.subi %[[HI1]], %[[LO1]] : index
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: %[[PAD:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[PAD]] : f32) outs(%[[BUF]] : memref<4x8xf32>)
// CHECK: %[[SRC:.*]] = memref.subview %[[X]][%[[LO0]], %[[LO1]]] [%[[SIZE0]], %[[SIZE1]]] [1, 1]
// CHECK: %[[DST:.*]] = memref.subview %[[BUF]][%[[IN0]], %[[IN1]]] [%[[SIZE0]], %[[SIZE1]]] [1, 1]
// CHECK: linalg.copy ins(%[[SRC]] : {{.*}}) outs(%[[DST]] : {{.*}})
// CHECK: %[[TILE:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<4x8xf32> to tensor<4x8xf32>
// The store: the same window of Y's tile, from the tile's buffer.
// CHECK: %[[TBUF:.*]] = bufferization.to_buffer %[[TILE]] read_only : tensor<4x8xf32> to memref<4x8xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[TWIN:.*]] = memref.subview %[[TBUF]][%{{.*}}, %{{.*}}] [%[[SS0:.*]], %[[SS1:.*]]] [1, 1]
// CHECK: %[[YWIN:.*]] = memref.subview %[[Y]][%{{.*}}, %{{.*}}] [%[[SS0]], %[[SS1]]] [1, 1]
// CHECK: linalg.copy ins(%[[TWIN]] : {{.*}}) outs(%[[YWIN]] : {{.*}})

// -----

// The pad value of each kind; pad(none) promises full tiles and reads zero
// where the promise is broken.

tile.kernel @pads(%X: memref<?xf32> {tile.dims = ["N"]},
                  %I: memref<?xi32> {tile.dims = ["N"]},
                  %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %zero = tile.partition %X tile [8] pad(zero) : memref<?xf32> -> !tile.part<8xf32, pad = zero>
  %pinf = tile.partition %X tile [8] pad(pos_inf) : memref<?xf32> -> !tile.part<8xf32, pad = pos_inf>
  %ninf = tile.partition %X tile [8] pad(neg_inf) : memref<?xf32> -> !tile.part<8xf32, pad = neg_inf>
  %nan = tile.partition %X tile [8] pad(nan) : memref<?xf32> -> !tile.part<8xf32, pad = nan>
  %none = tile.partition %X tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %int = tile.partition %I tile [8] pad(zero) : memref<?xi32> -> !tile.part<8xi32, pad = zero>
  %Yv = tile.partition %Y tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %i = tile.grid %Yv : !tile.part<8xf32>
  %a = tile.load %zero[%i] : !tile.part<8xf32, pad = zero> -> tensor<8xf32>
  %b = tile.load %pinf[%i] : !tile.part<8xf32, pad = pos_inf> -> tensor<8xf32>
  %c = tile.load %ninf[%i] : !tile.part<8xf32, pad = neg_inf> -> tensor<8xf32>
  %d = tile.load %nan[%i] : !tile.part<8xf32, pad = nan> -> tensor<8xf32>
  %e = tile.load %none[%i] : !tile.part<8xf32> -> tensor<8xf32>
  %f = tile.load %int[%i] : !tile.part<8xi32, pad = zero> -> tensor<8xi32>
  %g = arith.sitofp %f : tensor<8xi32> to tensor<8xf32>
  %s0 = arith.addf %a, %b : tensor<8xf32>
  %s1 = arith.addf %s0, %c : tensor<8xf32>
  %s2 = arith.addf %s1, %d : tensor<8xf32>
  %s3 = arith.addf %s2, %e : tensor<8xf32>
  %s4 = arith.addf %s3, %g : tensor<8xf32>
  tile.store %s4, %Yv[%i] : tensor<8xf32>, !tile.part<8xf32>
  tile.return
}

// CHECK-LABEL: func.func @pads(
// CHECK: %[[C0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[C0]] : f32) outs(%{{.*}} : memref<8xf32>)
// CHECK: %[[C1:.*]] = arith.constant 0x7F800000 : f32
// CHECK: linalg.fill ins(%[[C1]] : f32) outs(%{{.*}} : memref<8xf32>)
// CHECK: %[[C2:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[C2]] : f32) outs(%{{.*}} : memref<8xf32>)
// CHECK: %[[C3:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: linalg.fill ins(%[[C3]] : f32) outs(%{{.*}} : memref<8xf32>)
// CHECK: %[[C4:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[C4]] : f32) outs(%{{.*}} : memref<8xf32>)
// CHECK: %[[C5:.*]] = arith.constant 0 : i32
// CHECK: linalg.fill ins(%[[C5]] : i32) outs(%{{.*}} : memref<8xi32>)

// -----

// tile.atomic_add: memory += the in-bounds window of the tile. Blocks run one
// after another, so a read-modify-write is atomic.

tile.kernel @atomic_add(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %I: memref<?x?xi64> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 8] : memref<?x?xf32> -> !tile.part<4x8xf32>
  %Iv = tile.partition %I tile [4, 8] : memref<?x?xi64> -> !tile.part<4x8xi64>
  %i, %j = tile.grid %Xv : !tile.part<4x8xf32>
  %one = arith.constant dense<1.0> : tensor<4x8xf32>
  tile.atomic_add %one, %Xv[%i, %j] : tensor<4x8xf32>, !tile.part<4x8xf32>
  %two = arith.constant dense<2> : tensor<4x8xi64>
  tile.atomic_add %two, %Iv[%i, %j] : tensor<4x8xi64>, !tile.part<4x8xi64>
  tile.return
}

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @atomic_add(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// CHECK: %[[I:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xi64>
// CHECK: %[[T:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<4x8xf32>
// CHECK: %[[TW:.*]] = memref.subview %[[T]]
// CHECK: %[[XW:.*]] = memref.subview %[[X]]
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[TW]] : {{.*}}) outs(%[[XW]] : {{.*}})
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
// CHECK: memref.subview %[[I]]
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[IIN:.*]]: i64, %[[IOUT:.*]]: i64):
// CHECK-NEXT: arith.addi %[[IOUT]], %[[IIN]] : i64

// -----

// tile.num_tiles: ceildiv(extent, tile size).

tile.kernel @num_tiles(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                       %Y: memref<?xi64> {tile.dims = ["M"]}) {
  %Xv = tile.partition %X tile [4, 32] pad(zero) : memref<?x?xf32> -> !tile.part<4x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xi64> -> !tile.part<4xi64>
  %i = tile.grid %Yv : !tile.part<4xi64>
  %nk = tile.num_tiles %Xv[1] : !tile.part<4x32xf32, pad = zero>
  %n = arith.index_cast %nk : index to i64
  %t = tile.splat %n : i64 -> tensor<4xi64>
  tile.store %t, %Yv[%i] : tensor<4xi64>, !tile.part<4xi64>
  tile.return
}

// CHECK-LABEL: func.func @num_tiles(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// CHECK: %[[K:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[BK:.*]] = arith.constant 32 : index
// CHECK: %[[NK:.*]] = arith.ceildivsi %[[K]], %[[BK]] : index
// CHECK: arith.index_cast %[[NK]] : index to i64

// -----

// tile.extent: the memref's extent along the dim.

tile.kernel @extent(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                    %Y: memref<?xi64> {tile.dims = ["M"]}) {
  %Xv = tile.partition %X tile [4, 32] pad(zero) : memref<?x?xf32> -> !tile.part<4x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xi64> -> !tile.part<4xi64>
  %i = tile.grid %Yv : !tile.part<4xi64>
  %k = tile.extent %Xv[1] : !tile.part<4x32xf32, pad = zero>
  %n = arith.index_cast %k : index to i64
  %t = tile.splat %n : i64 -> tensor<4xi64>
  tile.store %t, %Yv[%i] : tensor<4xi64>, !tile.part<4xi64>
  tile.return
}

// CHECK-LABEL: func.func @extent(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// CHECK: scf.for
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[K:.*]] = memref.dim %[[X]], %[[ONE]] : memref<?x?xf32>
// CHECK-NEXT: arith.index_cast %[[K]] : index to i64

// -----

// tile.tile_size: the static tile size of the view, a constant.

tile.kernel @tile_size(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                       %Y: memref<?xi64> {tile.dims = ["M"]}) {
  %Xv = tile.partition %X tile [4, 32] pad(zero) : memref<?x?xf32> -> !tile.part<4x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xi64> -> !tile.part<4xi64>
  %i = tile.grid %Yv : !tile.part<4xi64>
  %bk = tile.tile_size %Xv[1] : !tile.part<4x32xf32, pad = zero>
  %n = arith.index_cast %bk : index to i64
  %t = tile.splat %n : i64 -> tensor<4xi64>
  tile.store %t, %Yv[%i] : tensor<4xi64>, !tile.part<4xi64>
  tile.return
}

// CHECK-LABEL: func.func @tile_size(
// CHECK: scf.for
// CHECK: %[[BK:.*]] = arith.constant 32 : index
// CHECK-NEXT: arith.index_cast %[[BK]] : index to i64
