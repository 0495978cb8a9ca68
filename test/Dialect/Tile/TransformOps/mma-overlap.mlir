// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.mma_overlap stores its param on a kernel with a loop of
// two wgmma tile.mma (the rotation: test/Conversion/TileToGPU/
// mma-overlap.mlir); 0 is the default and legal on any kernel.

// CHECK-LABEL: tile.kernel @two_mmas
// CHECK-SAME: mma_overlap = 1
module attributes {transform.with_named_sequence} {
  tile.kernel @two_mmas(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
      %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      scf.yield %r : tensor<64x128xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_overlap %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: tile.kernel @simt_off
// CHECK-SAME: mma_overlap = 0
module attributes {transform.with_named_sequence} {
  tile.kernel @simt_off(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %zs impl(simt) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
      %r = tile.mma %p, %v, %scaled impl(simt) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      scf.yield %r : tensor<64x128xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_overlap %k 0 : !transform.any_op
    transform.yield
  }
}
