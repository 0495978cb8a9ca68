// RUN: kbench-opt %s --pass-pipeline="builtin.module(gpu.module(kbench-nvvm-extern-dynamic-shared))" | FileCheck %s

// convert-gpu-to-nvvm makes the dynamic shared memory global internal; the
// NVPTX backend would then demote it to a 1-byte static variable.

// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// Other shared globals keep their linkage.
// CHECK: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
}
