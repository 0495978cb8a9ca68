// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s

// ViewLowering.cpp: a tile.partition is the global memref of the kernel
// argument it cuts; tile.grid is the block ids; tile.num_tiles is
// ceildiv(extent, tile size); tile.extent is the dim param of the kernel ABI,
// converted to index once; tile.tile_size is a constant.

// CHECK-LABEL: gpu.func @views
// CHECK-SAME: (%[[XP:.*]]: !llvm.ptr<1>, %[[YP:.*]]: !llvm.ptr<1>, %[[M:.*]]: i64, %[[N:.*]]: i64)
// CHECK: %[[MI:.*]] = arith.index_cast %[[M]] : i64 to index
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: llvm.insertvalue %[[XP]]
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32, #gpu.address_space<global>>
// CHECK: llvm.insertvalue %[[YP]]
// CHECK: %[[Y:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32, #gpu.address_space<global>>
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[NT:.*]] = arith.ceildivui %[[NI]], %[[C32]] : index
// CHECK: %[[MT:.*]] = arith.ceildivui %[[MI]], %[[C8]] : index
// CHECK: arith.addi %[[NT]], %[[MT]] : index
// CHECK: vector.load %[[X]]
// CHECK: vector.store %{{.*}}, %[[Y]]
tile.kernel @views(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 8, BN = 32, num_warps = 1} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<8x32xf32>
  %m, %n = tile.grid %Yv : !tile.part<8x32xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<8x32xf32, pad = zero>
  %mt = tile.num_tiles %Xv[0] : !tile.part<8x32xf32, pad = zero>
  %s = arith.addi %nt, %mt : index
  %j = arith.minui %s, %n : index
  %x = tile.load %Xv[%m, %j] : !tile.part<8x32xf32, pad = zero> -> tensor<8x32xf32>
  tile.store %x, %Yv[%m, %n] : tensor<8x32xf32>, !tile.part<8x32xf32>
  tile.return
}

// -----

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

// -----

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

// -----

// group_m: a bijective grouped order of a 2-D grid. Block ids are linearized
// (x fastest), cut into groups of group_m tiles along grid result 0, and
// walked column by column inside a group.

// CHECK-LABEL: gpu.func @grouped
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[GX:.*]] = gpu.grid_dim x
// CHECK: %[[GY:.*]] = gpu.grid_dim y
// CHECK: %[[T:.*]] = arith.muli %[[BY]], %[[GX]]
// CHECK: %[[PID:.*]] = arith.addi %[[T]], %[[BX]]
// CHECK: %[[WIDTH:.*]] = arith.muli %[[G:.*]], %[[GY]]
// CHECK: %[[GROUP:.*]] = arith.divui %[[PID]], %[[WIDTH]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[G]]
// CHECK: %[[REST:.*]] = arith.subi %[[GX]], %[[FIRST]]
// CHECK: %[[SIZE:.*]] = arith.minui %[[REST]], %[[G]]
// CHECK: %[[IN:.*]] = arith.remui %[[PID]], %[[WIDTH]]
// CHECK: %[[OFF:.*]] = arith.remui %[[IN]], %[[SIZE]]
// CHECK: %[[M:.*]] = arith.addi %[[FIRST]], %[[OFF]]
// CHECK: %[[N:.*]] = arith.divui %[[IN]], %[[SIZE]]
// CHECK: arith.muli %[[M]], %c32
// CHECK: arith.muli %[[N]], %c32
tile.kernel @grouped(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 32, BN = 32, num_warps = 4, group_m = 8} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m, %n = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  tile.store %x, %Yv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}
