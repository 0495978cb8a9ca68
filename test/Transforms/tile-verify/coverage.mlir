// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C2"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C2 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// C2: every element of every output is written, tails included.

// A floor instead of a ceil grid: the grid spans the index space of a view
// with twice the store's tile, so ceildiv(N, 128) blocks store 64-wide tiles.
tile.kernel @floor_grid(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %Yg = tile.partition %Y tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %i = tile.grid %Yg : !tile.part<128xf32>
  %x = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  // expected-error @below {{element (64) of Y is never written for N = 65: no block of the launch grid (1 blocks) writes tile (1) of the view stored by}}
  tile.store %x, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C2": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "violated",
// CHECK:       "check": "C2",
// CHECK-NEXT:  "hint": "grid_ceildiv|loop_bound|index_offset",
// CHECK-NEXT:  "kind": "uncovered",
// CHECK:       "op_name": "tile.store",
// CHECK:       "tensor": "Y",
// CHECK-NEXT:  "witness": {
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "N": 65
// CHECK-NEXT:    },
// CHECK-NEXT:    "element": [
// CHECK-NEXT:      64
// CHECK-NEXT:    ],
// CHECK-NEXT:    "grid": [
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK-NEXT:    "tile": [
// CHECK-NEXT:      1
// CHECK-NEXT:    ]
// CHECK:       "kernel": "floor_grid"

// -----

// Two half-width stores per block cover a grid over the full-width view.
tile.kernel @two_halves(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %Yv = tile.partition %Y tile [32] : memref<?xf32> -> !tile.part<32xf32>
  %Yg = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yg : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<32xf32>
  %lo = arith.muli %i, %c2 : index
  %hi = arith.addi %lo, %c1 : index
  tile.store %z, %Yv[%lo] : tensor<32xf32>, !tile.part<32xf32>
  tile.store %z, %Yv[%hi] : tensor<32xf32>, !tile.part<32xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C2": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "two_halves"

// -----

// A column loop bound of num_tiles - 1 never writes the last column tile.
tile.kernel @short_store_loop(%Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Yv = tile.partition %Y tile [4, 16] : memref<?x?xf32> -> !tile.part<4x16xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x16xf32>
  %nt = tile.num_tiles %Yv[1] : !tile.part<4x16xf32>
  %ub = arith.subi %nt, %c1 : index
  %z = arith.constant dense<0.0> : tensor<4x16xf32>
  scf.for %j = %c0 to %ub step %c1 {
    // expected-error @below {{element (0, 0) of Y is never written for M = 1, N = 1: no block of the launch grid (1 blocks) writes tile (0, 0) of the view stored by}}
    tile.store %z, %Yv[%r, %j] : tensor<4x16xf32>, !tile.part<4x16xf32>
  }
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "uncovered",
// CHECK:       "related": [
// CHECK-NEXT:    "loc(\"{{.*}}coverage.mlir\":[[#@LINE-13]]:8)",
// CHECK-NEXT:    "loc(\"{{.*}}coverage.mlir\":[[#@LINE-8]]:5)",
// CHECK-NEXT:    "loc(\"{{.*}}coverage.mlir\":[[#@LINE-11]]:3)"
// CHECK-NEXT:  ],
// CHECK:       "kernel": "short_store_loop"

// -----

// A store whose tile coordinate is a run-time scalar is outside the fragment.
tile.kernel @scalar_index(%Y: memref<?xf32> {tile.dims = ["N"]}, %s: index) {
  %Yv = tile.partition %Y tile [32] : memref<?xf32> -> !tile.part<32xf32>
  %i = tile.grid %Yv : !tile.part<32xf32>
  %z = arith.constant dense<0.0> : tensor<32xf32>
  // expected-error @below {{cannot prove that every output element is written: tile.store at}}
  tile.store %z, %Yv[%s] : tensor<32xf32>, !tile.part<32xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "message": "cannot prove that every output element is written: tile.store at {{.*}} is outside the affine fragment: tile coordinate 0 is the kernel's scalar argument #1, a run-time value the verifier cannot bound",
// CHECK:       "status": "unsupported"
// CHECK:       "kernel": "scalar_index"
