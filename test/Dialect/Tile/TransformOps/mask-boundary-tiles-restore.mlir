// RUN: kbench-opt %s --transform-interpreter | FileCheck %s

// A failing transform.tile.mask_boundary_tiles changes nothing: @masked
// could be rewritten, @unmasked has no mask, so neither is (the failure is
// suppressed).

// CHECK-LABEL: tile.kernel @masked
// CHECK-NOT:   scf.if
// CHECK:       arith.select
// CHECK-LABEL: tile.kernel @unmasked
module attributes {transform.with_named_sequence} {
  tile.kernel @masked(%X: memref<?xf32> {tile.dims = ["N"]},
                      %Y: memref<?xf32> {tile.dims = ["N"]})
      params {BN = 64, num_warps = 1} {
    %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv dims [0] : !tile.part<64xf32>
    %n = tile.extent %Xv[0] : !tile.part<64xf32, pad = zero>
    %x = tile.load %Xv[%b] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
    %i = tile.iota dim 0 : tensor<64xindex>
    %n1 = tile.splat %n : index -> tensor<64xindex>
    %in = arith.cmpi ult, %i, %n1 : tensor<64xindex>
    %zeros = arith.constant dense<0.0> : tensor<64xf32>
    %y = arith.select %in, %x, %zeros : tensor<64xi1>, tensor<64xf32>
    tile.store %y, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }

  tile.kernel @unmasked(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]})
      params {BN = 64, num_warps = 1} {
    %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv dims [0] : !tile.part<64xf32>
    %x = tile.load %Xv[%b] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
    tile.store %x, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.sequence %k : !transform.any_op failures(suppress) {
    ^bb0(%kk: !transform.any_op):
      transform.tile.mask_boundary_tiles %kk 1 : !transform.any_op
    }
    transform.yield
  }
}
