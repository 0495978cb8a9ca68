// RUN: kbench-opt %s --transform-interpreter | FileCheck %s

// A failing transform.tile.split_reduction changes nothing: @sum could be
// split, @max cannot (a max does not combine by addition), so neither is
// split, no zeroing kernel is added and @main launches what it did (the
// failure is suppressed).

// CHECK-NOT:   tile.kernel @sum_zero
// CHECK-LABEL: tile.kernel @sum
// CHECK-SAME:  params {BN = 1024, BR = 4, num_warps = 4}
// CHECK:       tile.grid %{{.*}} : !tile.part<4xf32>
// CHECK:       tile.store
// CHECK-LABEL: tile.kernel @max
// CHECK:       tile.store
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  tile.launch @sum
// CHECK-NEXT:  tile.launch @max
module attributes {transform.with_named_sequence} {
  tile.kernel @sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
      %s = arith.addf %a, %x : tensor<4x1024xf32>
      scf.yield %s : tensor<4x1024xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  tile.kernel @max(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
    %ninf = arith.constant dense<0xFF800000> : tensor<4x1024xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %ninf) -> (tensor<4x1024xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
      %m = arith.maximumf %a, %x : tensor<4x1024xf32>
      scf.yield %m : tensor<4x1024xf32>
    }
    %y = tile.reduce max %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>, %z: memref<?xf32>) {
    tile.launch @sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    tile.launch @max(%x, %z) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %k = transform.structured.match ops{["tile.kernel"]} in %r : (!transform.any_op) -> !transform.any_op
      transform.tile.split_reduction %k chunk 8 : !transform.any_op
    }
    transform.yield
  }
}
