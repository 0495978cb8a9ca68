// RUN: kbench-opt %s --transform-interpreter | FileCheck %s

// A failing op leaves every kernel exactly as it was: here each failure is
// suppressed and the printed kernels still carry their original params and
// types. @small would accept BM = 128 but @big would exceed the register
// budget, so neither is edited; vector_width 8 makes 32-byte f32 accesses.

// CHECK-LABEL: tile.kernel @small
// CHECK-SAME: params {BM = 16, num_warps = 4}
// CHECK-NOT: vector_width
// CHECK: !tile.part<16x16xf32>
// CHECK: tensor<16x16xf32>
// CHECK-LABEL: tile.kernel @big
// CHECK-SAME: params {BM = 64, num_warps = 4}
// CHECK: tile.mma {{.*}} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @small(%X: memref<?x?xf32> {tile.dims = ["M", "M"]}) params {BM = 16, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BM] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %i, %j = tile.grid %Xv : !tile.part<16x16xf32>
    %x = tile.load %Xv[%i, %j] : !tile.part<16x16xf32> -> tensor<16x16xf32>
    tile.store %x, %Xv[%i, %j] : tensor<16x16xf32>, !tile.part<16x16xf32>
    tile.return
  }
  tile.kernel @big(%X: memref<?x?xf32> {tile.dims = ["M", "M"]}) params {BM = 64, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BM] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %i, %j = tile.grid %Xv : !tile.part<64x64xf32>
    %x = tile.load %Xv[%i, %j] : !tile.part<64x64xf32> -> tensor<64x64xf32>
    %r = tile.mma %x, %x, %x : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    tile.store %r, %Xv[%i, %j] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %k = transform.structured.match ops{["tile.kernel"]} in %r : (!transform.any_op) -> !transform.any_op
      transform.tile.set_params %k {BM = 256} : !transform.any_op
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %k = transform.structured.match ops{["tile.kernel"]} in %r : (!transform.any_op) -> !transform.any_op
      transform.tile.set_num_warps %k 64 : !transform.any_op
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %k = transform.structured.match ops{["tile.kernel"]} in %r : (!transform.any_op) -> !transform.any_op
      transform.tile.vector_width %k 8 : !transform.any_op
    }
    transform.yield
  }
}
