// RUN: kbench-opt %s --tile-to-host-llvm | FileCheck %s
// RUN: kbench-opt %s --tile-to-host-llvm | FileCheck %s --check-prefix=ONLY-LLVM

// The whole host pipeline: one llvm.func per kernel with the C signature
// void k(void **params, int64_t grid_x, int64_t grid_y, int64_t grid_z), heap
// buffers freed, math through LLVM intrinsics or libm, and no call into an
// MLIR runtime library (kernel.so links only libc and libm).

tile.kernel @gelu_rows(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %i = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %sum = scf.for %j = %c0 to %nt step %c1 iter_args(%acc = %z) -> (tensor<4xf32>) {
    %x = tile.load %Xv[%i, %j] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
    %t = math.tanh %x : tensor<4x16xf32>
    %f = math.erf %t : tensor<4x16xf32>
    %e = math.exp %f : tensor<4x16xf32>
    %r = tile.reduce add %e dim 1 : tensor<4x16xf32> -> tensor<4xf32>
    %s = arith.addf %acc, %r : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  tile.store %sum, %Yv[%i] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  tile.launch @gelu_rows(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
  return
}

// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)
// CHECK-DAG: llvm.func @erff(f32) -> f32
// CHECK-LABEL: llvm.func @gelu_rows(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64, %arg3: i64) {
// CHECK: llvm.call @malloc
// CHECK: llvm.intr.tanh
// CHECK: llvm.call @erff
// CHECK: llvm.intr.exp
// CHECK: llvm.call @free

// ONLY-LLVM-NOT: memrefCopy
// ONLY-LLVM-NOT: @main
// ONLY-LLVM-NOT: {{(tile|memref|linalg|scf|tensor|bufferization|arith|math|func|cf)\.[a-z_]+}}
