// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// ElementwiseLowering.cpp: an elementwise arith/math op on tiles is the same
// op on the per-thread vectors (256 elements over 64 threads with
// vector_width = 4: vector<4 x T>, i1 tiles too); a splat tile constant is a
// splat vector constant (a non-splat one is refused: errors.mlir). Scalar
// ops stay as they are.

// CHECK-LABEL: gpu.func @elementwise
// CHECK: %[[X:.*]] = vector.load %{{.*}} : memref<?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: %[[H:.*]] = arith.mulf %[[X]], %[[HALF]] : vector<4xf32>
// CHECK: %[[E:.*]] = math.exp %[[H]] : vector<4xf32>
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : vector<4xf32>
// CHECK: %[[Y:.*]] = arith.select %[[POS]], %[[E]], %[[X]] : vector<4xi1>, vector<4xf32>
// CHECK: vector.store %[[Y]]
tile.kernel @elementwise(%X: memref<?xf32> {tile.dims = ["N"]},
                         %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 256, num_warps = 2, vector_width = 4} requires ["N % 256 == 0"] {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %n = tile.grid %Yv : !tile.part<256xf32>
  %x = tile.load %Xv[%n] : !tile.part<256xf32> -> tensor<256xf32>
  %half = arith.constant dense<0.5> : tensor<256xf32>
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %h = arith.mulf %x, %half : tensor<256xf32>
  %e = math.exp %h : tensor<256xf32>
  %pos = arith.cmpf ogt, %x, %zero : tensor<256xf32>
  %y = arith.select %pos, %e, %x : tensor<256xi1>, tensor<256xf32>
  tile.store %y, %Yv[%n] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}

// -----

// Integer tiles and a scalar operand mixed with tiles: the scalar op is kept,
// the tile op gets the per-thread vector (one element per thread here).

// CHECK-LABEL: gpu.func @integer
// CHECK: %[[S:.*]] = arith.muli %[[K:.*]], %[[K]] : i32
// CHECK: %[[SV:.*]] = vector.broadcast %[[S]] : i32 to vector<1xi32>
// CHECK: %[[X:.*]] = vector.load %{{.*}} : memref<?xi32, #gpu.address_space<global>>, vector<1xi32>
// CHECK: %[[R:.*]] = arith.addi %[[X]], %[[SV]] : vector<1xi32>
// CHECK: %[[M:.*]] = arith.maxsi %[[R]], %{{.*}} : vector<1xi32>
// CHECK: vector.store %[[M]]
tile.kernel @integer(%X: memref<?xi32> {tile.dims = ["N"]},
                     %Y: memref<?xi32> {tile.dims = ["N"]}, %k: i32)
    params {BN = 32, num_warps = 1} requires ["N % 32 == 0"] {
  %Xv = tile.partition %X tile [BN] : memref<?xi32> -> !tile.part<32xi32>
  %Yv = tile.partition %Y tile [BN] : memref<?xi32> -> !tile.part<32xi32>
  %n = tile.grid %Yv : !tile.part<32xi32>
  %s = arith.muli %k, %k : i32
  %sv = tile.splat %s : i32 -> tensor<32xi32>
  %x = tile.load %Xv[%n] : !tile.part<32xi32> -> tensor<32xi32>
  %r = arith.addi %x, %sv : tensor<32xi32>
  %zero = arith.constant dense<0> : tensor<32xi32>
  %m = arith.maxsi %r, %zero : tensor<32xi32>
  tile.store %m, %Yv[%n] : tensor<32xi32>, !tile.part<32xi32>
  tile.return
}
