// RUN: kbench-opt %s --transform-interpreter | FileCheck %s

// A failing transform.tile.single_pass changes no kernel of its handle:
// @twopass could take the fast path, @onepass reads each tile once, so
// neither is versioned (the failure is suppressed).

// CHECK-LABEL: tile.kernel @twopass
// CHECK-NOT:   scf.if
// CHECK:       scf.for
// CHECK:       scf.for
// CHECK-LABEL: tile.kernel @onepass
// CHECK-NOT:   scf.if
// CHECK:       scf.for
// CHECK-NOT:   scf.if
// CHECK:       transform.named_sequence
module attributes {transform.with_named_sequence} {
  tile.kernel @twopass(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  tile.kernel @onepass(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<2xf32>
    %r = tile.grid %Yv : !tile.part<2xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2x256xf32>
    %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2x256xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %s = arith.addf %a, %x : tensor<2x256xf32>
      scf.yield %s : tensor<2x256xf32>
    }
    %y = tile.reduce add %acc dim 1 : tensor<2x256xf32> -> tensor<2xf32>
    tile.store %y, %Yv[%r] : tensor<2xf32>, !tile.part<2xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %k = transform.structured.match ops{["tile.kernel"]} in %r : (!transform.any_op) -> !transform.any_op
      transform.tile.single_pass %k 1 : !transform.any_op
    }
    transform.yield
  }
}
