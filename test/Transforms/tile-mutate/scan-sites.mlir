// RUN: kbench-opt %s --tile-mutate=list-sites -o /dev/null | FileCheck %s --check-prefix=SITES
// RUN: kbench-opt %s --tile-mutate="mutation=F5:0:0" | FileCheck %s --check-prefix=SWAP
// RUN: kbench-opt %s --tile-mutate="mutation=F6:1:1" | FileCheck %s --check-prefix=ROUND

// tile.scan is a mutation site like tile.reduce: F5 swaps its combiner (a
// cumulative sum becomes a cumulative max), F6 rounds its input.

// SITES:      F5:0 variants=1 tile.scan at {{.*}}scan-sites.mlir:[[#@LINE+17]]:8 [swap kind]
// SITES-NEXT: F6:0 variants=2 tile.load at {{.*}} [round via f16|round via bf16]
// SITES-NEXT: F6:1 variants=2 tile.scan at {{.*}} [round input via f16|round input via bf16]

// SWAP: tile.scan max %{{.*}} dim 1 : tensor<4x64xf32>

// ROUND: %[[DOWN:.*]] = arith.truncf %{{.*}} : tensor<4x64xf32> to tensor<4x64xbf16>
// ROUND: %[[UP:.*]] = arith.extf %[[DOWN]] : tensor<4x64xbf16> to tensor<4x64xf32>
// ROUND: tile.scan add %[[UP]] dim 1 : tensor<4x64xf32>
tile.kernel @row_cumsum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["N <= 64"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, 64] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
  %s = tile.scan add %x dim 1 : tensor<4x64xf32>
  tile.store %s, %Yv[%r, %c0] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}
