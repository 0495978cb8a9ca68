// RUN: kbench-opt %s --split-input-file --tile-assign-layouts --tile-plan-pipelining | FileCheck %s
// RUN: kbench-opt %s --split-input-file --tile-to-gpu | FileCheck %s --check-prefix=GPU

// The K loop that only loads the operands of one mma into its iter_arg is
// marked for two stages, and tile-to-gpu double-buffers it: two staging
// buffers per operand (8704 bytes) and the buffer index as an extra
// iter_arg.
// CHECK-LABEL: tile.kernel @loop
// CHECK: scf.for
// CHECK: tile.mma
// CHECK: } {tile.pipeline_stages = 2 : i64}
// GPU-LABEL: gpu.func @loop
// GPU-SAME: memref<8704xi8, #gpu.address_space<workgroup>>
// GPU: scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %c0) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, index)
tile.kernel @loop(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
                  %B: memref<?x?xf32> {tile.dims = ["K", "N"]},
                  %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4, vector_width = 4} {
  %Av = tile.partition %A tile [64, 8] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
  %Bv = tile.partition %B tile [8, 64] pad(zero) : memref<?x?xf32> -> !tile.part<8x64xf32, pad = zero>
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %kt = tile.num_tiles %Av[1] : !tile.part<64x8xf32, pad = zero>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
    %b = tile.load %Bv[%k, %n] : !tile.part<8x64xf32, pad = zero> -> tensor<8x64xf32>
    %d = tile.mma %a, %b, %c : tensor<64x8xf32>, tensor<8x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %acc, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// A schedule vetoes pipelining with 1: the pass keeps it, and the loop is
// lowered plainly (one staging buffer per operand, the accumulator as the
// only iter_arg).
// CHECK-LABEL: tile.kernel @vetoed
// CHECK: } {tile.pipeline_stages = 1 : i64}
// GPU-LABEL: gpu.func @vetoed
// GPU-SAME: memref<4352xi8, #gpu.address_space<workgroup>>
// GPU: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<32xf32>)
tile.kernel @vetoed(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
                  %B: memref<?x?xf32> {tile.dims = ["K", "N"]},
                  %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4, vector_width = 4} {
  %Av = tile.partition %A tile [64, 8] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
  %Bv = tile.partition %B tile [8, 64] pad(zero) : memref<?x?xf32> -> !tile.part<8x64xf32, pad = zero>
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %kt = tile.num_tiles %Av[1] : !tile.part<64x8xf32, pad = zero>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
    %b = tile.load %Bv[%k, %n] : !tile.part<8x64xf32, pad = zero> -> tensor<8x64xf32>
    %d = tile.mma %a, %b, %c : tensor<64x8xf32>, tensor<8x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.pipeline_stages = 1}
  tile.store %acc, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// Any other loop is left unmarked.
// CHECK-LABEL: tile.kernel @accumulate
// CHECK-NOT: tile.pipeline_stages
// GPU-LABEL: gpu.func @accumulate
// GPU: scf.for {{.*}} -> (vector<16xf32>)
tile.kernel @accumulate(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4, vector_width = 4} {
  %Xv = tile.partition %X tile [4, 512] pad(zero) : memref<?x?xf32> -> !tile.part<4x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 512] : memref<?x?xf32> -> !tile.part<4x512xf32>
  %m = tile.grid %Yv dims [0] : !tile.part<4x512xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x512xf32, pad = zero>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<4x512xf32>
  %s = scf.for %k = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x512xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<4x512xf32, pad = zero> -> tensor<4x512xf32>
    %b = arith.addf %a, %x : tensor<4x512xf32>
    scf.yield %b : tensor<4x512xf32>
  }
  tile.store %s, %Yv[%m, %c0] : tensor<4x512xf32>, !tile.part<4x512xf32>
  tile.return
}
