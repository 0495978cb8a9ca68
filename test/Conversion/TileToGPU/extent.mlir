// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s

// tile.extent is the dim param of the kernel ABI, converted to index once;
// tile.tile_size is a constant.

// CHECK-LABEL: gpu.func @extent
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[M:.*]]: i64, %[[N:.*]]: i64)
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[NV:.*]] = arith.index_cast %[[NI]] : index to i64
// CHECK: arith.sitofp %[[NV]] : i64 to f32
tile.kernel @extent(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 128, num_warps = 1} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %n = tile.extent %Xv[1] : !tile.part<4x128xf32, pad = zero>
  %n64 = arith.index_cast %n : index to i64
  %nf = arith.sitofp %n64 : i64 to f32
  %t = tile.splat %nf : f32 -> tensor<4xf32>
  tile.store %t, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// CHECK-LABEL: gpu.func @tile_size
// CHECK: %[[BN:.*]] = arith.constant 128 : index
// CHECK: arith.index_cast %[[BN]] : index to i64
tile.kernel @tile_size(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?xi64> {tile.dims = ["M"]})
    params {BR = 4, BN = 128, num_warps = 1} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR] : memref<?xi64> -> !tile.part<4xi64>
  %r = tile.grid %Yv : !tile.part<4xi64>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x128xf32, pad = zero>
  %b64 = arith.index_cast %bn : index to i64
  %t = tile.splat %b64 : i64 -> tensor<4xi64>
  tile.store %t, %Yv[%r] : tensor<4xi64>, !tile.part<4xi64>
  tile.return
}
