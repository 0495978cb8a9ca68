// Folds of tile ops.
// RUN: kbench-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[T:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[T]]
func.func @transpose_identity(%t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tile.transpose %t perm [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_twice
// CHECK-SAME: (%[[T:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: return %[[T]]
func.func @transpose_twice(%t: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %a = tile.transpose %t perm [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %b = tile.transpose %a perm [1, 2, 0] : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %b : tensor<2x3x4xf32>
}

// -----

// Two transposes that do not undo each other stay.
// CHECK-LABEL: func.func @transpose_kept
// CHECK: tile.transpose
// CHECK: tile.transpose
func.func @transpose_kept(%t: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %a = tile.transpose %t perm [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %b = tile.transpose %a perm [2, 0, 1] : tensor<4x2x3xf32> -> tensor<3x4x2xf32>
  return %b : tensor<3x4x2xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_nothing
// CHECK-SAME: (%[[T:.*]]: tensor<8xf32>)
// CHECK-NEXT: return %[[T]]
func.func @broadcast_nothing(%t: tensor<8xf32>) -> tensor<8xf32> {
  %r = tile.broadcast %t dims [] : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4x8xf32>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_constant() -> tensor<4x8xf32> {
  %c = arith.constant dense<2.0> : tensor<8xf32>
  %r = tile.broadcast %c dims [0] : tensor<8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @splat_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<3> : tensor<4x8xi32>
// CHECK-NEXT: return %[[C]]
func.func @splat_constant() -> tensor<4x8xi32> {
  %c = arith.constant 3 : i32
  %r = tile.splat %c : i32 -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}

// -----

// CHECK-LABEL: func.func @splat_value
// CHECK: tile.splat
func.func @splat_value(%s: f32) -> tensor<4xf32> {
  %r = tile.splat %s : f32 -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// tile.tile_size folds to the tile size its view's type spells.
// CHECK-LABEL: tile.kernel @tile_size
// CHECK-NOT: tile.tile_size
// CHECK: %[[C:.*]] = arith.constant dense<16> : tensor<32xindex>
// CHECK: tile.store %[[C]]
tile.kernel @tile_size(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?xindex> {tile.dims = ["M"]})
    params {BM = 32, BN = 16} {
  %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x16xf32>
  %Yv = tile.partition %Y tile [BM] : memref<?xindex> -> !tile.part<32xindex>
  %m = tile.grid %Yv : !tile.part<32xindex>
  %bn = tile.tile_size %Xv[1] : !tile.part<32x16xf32>
  %t = tile.splat %bn : index -> tensor<32xindex>
  tile.store %t, %Yv[%m] : tensor<32xindex>, !tile.part<32xindex>
  tile.return
}
