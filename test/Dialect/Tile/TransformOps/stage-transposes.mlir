// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics | FileCheck %s

// transform.tile.stage_transposes marks every store of a transposed tile,
// also through elementwise ops, and leaves other stores alone; the tile IR
// is otherwise unchanged. Value 0 marks nothing.

// CHECK-LABEL: tile.kernel @k
// CHECK: %[[T:.*]] = tile.transpose
// CHECK: %[[S:.*]] = arith.mulf %[[T]]
// CHECK: tile.store %[[S]], %{{.*}} {tile.stage_through_shared}
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : tensor<32x32xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["N", "M"]},
                 %Z: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 32, BN = 32, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
    %Yv = tile.partition %Y tile [BN, BM] : memref<?x?xf32> -> !tile.part<32x32xf32>
    %Zv = tile.partition %Z tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
    %j, %i = tile.grid %Yv : !tile.part<32x32xf32>
    %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
    %t = tile.transpose %x perm [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
    %s = arith.mulf %t, %t : tensor<32x32xf32>
    tile.store %s, %Yv[%j, %i] : tensor<32x32xf32>, !tile.part<32x32xf32>
    tile.store %x, %Zv[%i, %j] : tensor<32x32xf32>, !tile.part<32x32xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.tile.stage_transposes %k %one : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: tile.kernel @k
// CHECK-NOT: tile.stage_through_shared
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["N", "M"]})
      params {BM = 32, BN = 32, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
    %Yv = tile.partition %Y tile [BN, BM] : memref<?x?xf32> -> !tile.part<32x32xf32>
    %j, %i = tile.grid %Yv : !tile.part<32x32xf32>
    %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
    %t = tile.transpose %x perm [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
    tile.store %t, %Yv[%j, %i] : tensor<32x32xf32>, !tile.part<32x32xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_transposes %k 0 : !transform.any_op
    transform.yield
  }
}

// -----

// The value is 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["N", "M"]})
      params {BM = 32, BN = 32, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
    %Yv = tile.partition %Y tile [BN, BM] : memref<?x?xf32> -> !tile.part<32x32xf32>
    %j, %i = tile.grid %Yv : !tile.part<32x32xf32>
    %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
    %t = tile.transpose %x perm [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
    tile.store %t, %Yv[%j, %i] : tensor<32x32xf32>, !tile.part<32x32xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.stage_transposes: stage_transposes = 2 is neither 0 (leave the kernel as is) nor 1 (stage transposed stores through shared memory)}}
    transform.tile.stage_transposes %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Nothing to stage: no stored tile comes from a tile.transpose.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @copy(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 32, BN = 32, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
    %i, %j = tile.grid %Yv : !tile.part<32x32xf32>
    %x = tile.load %Xv[%i, %j] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
    tile.store %x, %Yv[%i, %j] : tensor<32x32xf32>, !tile.part<32x32xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.stage_transposes: @copy stores no tile that a tile.transpose produced (directly or through elementwise ops); stage_transposes has nothing to stage}}
    transform.tile.stage_transposes %k 1 : !transform.any_op
    transform.yield
  }
}
