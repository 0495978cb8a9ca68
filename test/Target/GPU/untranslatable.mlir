// RUN: not kbench-opt %s -split-input-file --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="see current operation" --implicit-check-not="LLVM Translation"

// Ops that MLIR 22.1's NVVM conversion leaves as they are would fail inside
// LLVM IR translation with a dump of the whole gpu.module;
// kbench-nvvm-check-translatable refuses them first, at the op in the kernel.

// CHECK: untranslatable.mlir:[[# @LINE + 8]]:8: error: 'math.trunc' does not lower to NVVM for sm_90a: MLIR's NVVM conversion leaves it as is and LLVM IR translation has no rule for it (docs/tile-ir.md, "Which arith and math ops lower"); compute it from ops that lower, or compile for the host target
tile.kernel @trunc(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 32, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<4x32xf32>
  %r, %c = tile.grid %Yv : !tile.part<4x32xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x32xf32, pad = zero> -> tensor<4x32xf32>
  %t = math.trunc %x : tensor<4x32xf32>
  tile.store %t, %Yv[%r, %c] : tensor<4x32xf32>, !tile.part<4x32xf32>
  tile.return
}

// -----

// CHECK: untranslatable.mlir:[[# @LINE + 8]]:8: error: 'math.ctlz' does not lower to NVVM for sm_90a
tile.kernel @ctlz(%X: memref<?x?xi32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xi32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 32, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xi32> -> !tile.part<4x32xi32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xi32> -> !tile.part<4x32xi32>
  %r, %c = tile.grid %Yv : !tile.part<4x32xi32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x32xi32, pad = zero> -> tensor<4x32xi32>
  %t = math.ctlz %x : tensor<4x32xi32>
  tile.store %t, %Yv[%r, %c] : tensor<4x32xi32>, !tile.part<4x32xi32>
  tile.return
}

// -----

// CHECK: untranslatable.mlir:[[# @LINE + 8]]:8: error: 'math.ipowi' does not lower to NVVM for sm_90a
tile.kernel @ipowi(%X: memref<?x?xi32> {tile.dims = ["M", "N"]},
                   %Y: memref<?x?xi32> {tile.dims = ["M", "N"]})
    params {BR = 4, BN = 32, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xi32> -> !tile.part<4x32xi32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xi32> -> !tile.part<4x32xi32>
  %r, %c = tile.grid %Yv : !tile.part<4x32xi32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x32xi32, pad = zero> -> tensor<4x32xi32>
  %t = math.ipowi %x, %x : tensor<4x32xi32>
  tile.store %t, %Yv[%r, %c] : tensor<4x32xi32>, !tile.part<4x32xi32>
  tile.return
}
