// RUN: kbench-opt %s --tile-to-host | FileCheck %s

// A K loop with a tensor iter_arg stays an scf.for: the loads inside it read
// the tile of the current iteration, and the accumulator is carried as a
// tensor until bufferization.

tile.kernel @k_loop(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                    %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 8] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 8] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x8xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
    %w = tile.load %Wv[%n, %k] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// CHECK-LABEL: func.func @k_loop(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[NK:.*]] = arith.ceildivsi
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK: %[[ACC:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[NK]] step %{{.*}} iter_args(%[[A:.*]] = %[[Z]]) -> (tensor<16x16xf32>) {
// CHECK: arith.muli %[[M]], %{{.*}} : index
// CHECK: arith.muli %[[K]], %{{.*}} : index
// CHECK: %[[XT:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<16x8xf32> to tensor<16x8xf32>
// CHECK: arith.muli %[[N]], %{{.*}} : index
// CHECK: arith.muli %[[K]], %{{.*}} : index
// CHECK: %[[WT:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<16x8xf32> to tensor<16x8xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[XT]], %[[WT]] : tensor<16x8xf32>, tensor<16x8xf32>) outs(%[[A]] : tensor<16x16xf32>)
// CHECK: scf.yield %[[R]] : tensor<16x16xf32>
// CHECK: bufferization.to_buffer %[[ACC]] read_only
