// RUN: kbench-opt %s --pass-pipeline="builtin.module(gpu.module(kbench-nvvm-grid-constant-params))" | FileCheck %s

// The tensor-map params that tile-to-gpu lists in kbench.tma_descriptor_args
// become byval 128-byte grid constants aligned to 64 (a CUtensorMap passed
// by value); other params and other functions keep their attributes.

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>,
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-LABEL: llvm.func @plain(
// CHECK-SAME: %{{.*}}: !llvm.ptr)
gpu.module @kernels {
  llvm.func @k(%out: !llvm.ptr<1>, %map: !llvm.ptr) attributes {kbench.tma_descriptor_args = array<i64: 1>, nvvm.kernel} {
    llvm.return
  }
  llvm.func @plain(%p: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}
