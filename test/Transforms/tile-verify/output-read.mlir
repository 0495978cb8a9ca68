// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C13"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C13 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// C13: an output is read only where the block stored it first. A kernel that
// reads its output before storing it sees the previous run's result when
// timed, and may skip its work on it (the cached-output cheat).

// Reads Y before the store: refuted at the smallest shape, block and element.
tile.kernel @cached(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %Yr = tile.partition %Y tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  // expected-error @below {{reads element (0, 0) of Y, an output of the kernel, before any store of this block wrote it (M = 1, N = 1, block (0, 0))}}
  %old = tile.load %Yr[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %y = arith.addf %x, %old : tensor<16x16xf32>
  tile.store %y, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "check": "C13",
// CHECK-NEXT:  "hint": "store_first|atomic_add",
// CHECK-NEXT:  "kind": "output_read",
// CHECK-NEXT:  "message": "tile.load at {{.*}} reads element (0, 0) of Y, an output of the kernel, before any store of this block wrote it (M = 1, N = 1, block (0, 0)): it reads what the output held before the launch, the previous run's result when timed; store the element first, or accumulate with tile.atomic_add",
// CHECK:       "tensor": "Y",
// CHECK-NEXT:  "witness": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "M": 1,
// CHECK-NEXT:      "N": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "element": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK:       "kernel": "cached"

// -----

// Stored first, then read back by the same block: proved.
tile.kernel @store_then_read(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %Yr = tile.partition %Y tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  tile.store %x, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  %back = tile.load %Yr[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %y = arith.addf %x, %back : tensor<16x16xf32>
  tile.store %y, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C13": {
// CHECK-NEXT:    "queries": {{[0-9]+}},
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "store_then_read"

// -----

// The store came first, but of another block's tile: the element read
// (0, 16) was stored by block (0, 1), which need not have run yet.
tile.kernel @neighbour(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %Yr = tile.partition %Y tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  tile.store %x, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  %n1 = arith.addi %n, %c1 : index
  // expected-error @below {{reads element (0, 16) of Y, an output of the kernel, before any store of this block wrote it (M = 1, N = 17, block (0, 0))}}
  %next = tile.load %Yr[%m, %n1] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "output_read",
// CHECK:       "kernel": "neighbour"

// -----

// tile.atomic_add after an initializing store is declared accumulation, and
// reads nothing C13 checks: proved.
tile.kernel @init_then_accumulate(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  tile.store %z, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.atomic_add %one, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C13": {
// CHECK-NEXT:    "queries": 0,
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "init_then_accumulate"

// -----

// The store follows the read inside a loop they share: an earlier iteration
// may have stored the element, which C13 does not order, so the read it
// cannot cover is unsupported, not refuted.
tile.kernel @loop_carried(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %Yr = tile.partition %Y tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %i = tile.grid %Yv : !tile.part<64xf32>
  scf.for %k = %c0 to %c1 step %c1 {
    // expected-error @below {{possible read before store, but a store in an earlier iteration of a loop may write the element first, which C13 does not order}}
    %y = tile.load %Yr[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
    tile.store %y, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  }
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "unsupported",
// CHECK:       "kernel": "loop_carried"
