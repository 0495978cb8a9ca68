// A pipeline depth set by a schedule that tile-to-gpu cannot build is an
// error on the loop, not a silent fallback.
// RUN: kbench-opt %s --split-input-file --tile-to-gpu --verify-diagnostics

tile.kernel @stages3(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
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
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 3 is not supported: tile-to-gpu pipelines with 2 stages a K loop whose body only loads the two operands of one simt tile.mma accumulating into the loop's single iter_arg}}
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
    %b = tile.load %Bv[%k, %n] : !tile.part<8x64xf32, pad = zero> -> tensor<8x64xf32>
    %d = tile.mma %a, %b, %c : tensor<64x8xf32>, tensor<8x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.pipeline_stages = 3}
  tile.store %acc, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

tile.kernel @not_mma(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4, vector_width = 4} {
  %Xv = tile.partition %X tile [4, 512] pad(zero) : memref<?x?xf32> -> !tile.part<4x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 512] : memref<?x?xf32> -> !tile.part<4x512xf32>
  %m = tile.grid %Yv dims [0] : !tile.part<4x512xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x512xf32, pad = zero>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<4x512xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 2 is not supported: tile-to-gpu pipelines with 2 stages a K loop whose body only loads the two operands of one simt tile.mma accumulating into the loop's single iter_arg}}
  %s = scf.for %k = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x512xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<4x512xf32, pad = zero> -> tensor<4x512xf32>
    %b = arith.addf %a, %x : tensor<4x512xf32>
    scf.yield %b : tensor<4x512xf32>
  } {tile.pipeline_stages = 2}
  tile.store %s, %Yv[%m, %c0] : tensor<4x512xf32>, !tile.part<4x512xf32>
  tile.return
}
