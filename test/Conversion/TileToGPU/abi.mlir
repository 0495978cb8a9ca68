// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s

// The launch ABI of docs/bundle.md: arguments in getKernelABI order, a memref
// as a 64-bit global pointer, a dim as i64 (after all arguments, in order of
// first appearance), a scalar as its value (index as i64); 32 * num_warps
// threads; grid axis i is tile.grid result i. Host code that launches the
// kernel is dropped: the module holds device code only.

// CHECK: module attributes {gpu.container_module}
// CHECK-NOT: func.func @main
// CHECK-LABEL: gpu.module @kbench_kernels
// CHECK: gpu.func @scale(%[[X:.*]]: !llvm.ptr<1>, %[[Y:.*]]: !llvm.ptr<1>, %[[ALPHA:.*]]: f32, %[[OFF:.*]]: i64, %[[M:.*]]: i64, %[[N:.*]]: i64)
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 64, 1, 1>}
// The memref descriptor over the pointer: extents M x N, row stride N.
// CHECK: llvm.insertvalue %[[X]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[N]], %{{.*}}[3, 1]
// CHECK: llvm.insertvalue %[[M]], %{{.*}}[3, 0]
// CHECK: %[[XM:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32, #gpu.address_space<global>>
// CHECK: %[[OFFI:.*]] = arith.index_cast %[[OFF]] : i64 to index
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: arith.addi %[[BX]], %[[OFFI]] : index
// CHECK: vector.load %[[XM]]
// CHECK: vector.broadcast %[[ALPHA]] : f32 to vector<2xf32>
// CHECK: gpu.return
tile.kernel @scale(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %Y: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %alpha: f32, %offset: index)
    params {BM = 2, BN = 64, num_warps = 2} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<2x64xf32>
  %mo = arith.addi %m, %offset : index
  %x = tile.load %Xv[%mo, %n] : !tile.part<2x64xf32, pad = zero> -> tensor<2x64xf32>
  %a = tile.splat %alpha : f32 -> tensor<2x64xf32>
  %y = arith.mulf %x, %a : tensor<2x64xf32>
  tile.store %y, %Yv[%m, %n] : tensor<2x64xf32>, !tile.part<2x64xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %alpha: f32, %o: index) {
  tile.launch @scale(%x, %y, %alpha, %o) : (memref<?x?xf32>, memref<?x?xf32>, f32, index) -> ()
  return
}
