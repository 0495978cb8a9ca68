// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C11"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C11 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// C11: lanes keep their index along a named dim from load to store.

// Every block reads row tile 0 of X: in bounds, covered, written once, but
// block (1, 0) stores the rows of tile 0 into tile 1.
tile.kernel @wrong_row_tile(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %x = tile.load %Xv[%c0, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  // expected-error @below {{writes tile 1 along M (dim 0) of Y with lanes that tile.load at}}
  tile.store %x, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "check": "C11",
// CHECK-NEXT:  "dim": 0,
// CHECK-NEXT:  "dim_name": "M",
// CHECK-NEXT:  "hint": "index_offset|coordinate",
// CHECK-NEXT:  "kind": "misaligned",
// CHECK-NEXT:  "message": "tile.store at {{.*}} writes tile 1 along M (dim 0) of Y with lanes that tile.load at {{.*}} read from tile 0 along M of X (M = 17, N = 1, block (1, 0)); data must keep its index along a dim: use the same tile coordinate for both",
// CHECK:       "witness": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "M": 17,
// CHECK-NEXT:      "N": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "iter": {},
// CHECK-NEXT:    "load_element": 0,
// CHECK-NEXT:    "load_tile": 0,
// CHECK-NEXT:    "store_element": 16,
// CHECK-NEXT:    "store_tile": 1
// CHECK:       "kernel": "wrong_row_tile"

// -----

// A transpose moves dim M to axis 1; Y[n, m] receives X[m, n] aligned.
tile.kernel @transpose(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["N", "M"]}) {
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [32, 16] : memref<?x?xf32> -> !tile.part<32x16xf32>
  %n, %m = tile.grid %Yv : !tile.part<32x16xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  tile.store %t, %Yv[%n, %m] : tensor<32x16xf32>, !tile.part<32x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C11": {
// CHECK-NEXT:    "queries": 4,
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "transpose"

// -----

// Swapped block coordinates in a bias broadcast: b is indexed by the row tile.
tile.kernel @bias_wrong_coordinate(%X: memref<?x?xf32> {tile.dims = ["N", "N"]},
                                   %B: memref<?xf32> {tile.dims = ["N"]},
                                   %Y: memref<?x?xf32> {tile.dims = ["N", "N"]}) {
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Bv = tile.partition %B tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %i, %j = tile.grid %Yv : !tile.part<16x16xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %b = tile.load %Bv[%i] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  %bb = tile.broadcast %b dims [0] : tensor<16xf32> -> tensor<16x16xf32>
  %y = arith.addf %x, %bb : tensor<16x16xf32>
  // expected-error @below {{writes tile 0 along N (dim 1) of Y with lanes that tile.load at}}
  tile.store %y, %Yv[%i, %j] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "misaligned",
// CHECK:       "kernel": "bias_wrong_coordinate"

// -----

// Lanes cannot be followed through ops C11 does not model.
tile.kernel @unmodelled(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %x = tile.load %Xv[%i] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  // expected-error @below {{cannot follow lanes through tensor.extract at}}
  %v = tensor.extract %x[%c0] : tensor<16xf32>
  %t = tile.splat %v : f32 -> tensor<16xf32>
  tile.store %t, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "unsupported",
// CHECK:       "kernel": "unmodelled"

// -----

// A store outside the fragment cannot be checked.
tile.kernel @outside(%X: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?xf32> {tile.dims = ["N"]}, %s: index) {
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %x = tile.load %Xv[%i] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  // expected-error @below {{puts its lanes: it is outside the affine fragment}}
  tile.store %x, %Yv[%s] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "unsupported",
// CHECK:       "kernel": "outside"

// -----

// The axis-swap miss: a square tile transposed once too often. Every tile
// coordinate matches, but the lanes read along N land along M: X[r, c] is
// stored at Y[c, r]. Refuted per element, with both lanes in the witness.
tile.kernel @swapped_axes(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<16x16xf32> -> tensor<16x16xf32>
  // expected-error @below {{writes along M (dim 0) of Y lanes that tile.load at}}
  // expected-error @below {{writes along N (dim 1) of Y lanes that tile.load at}}
  tile.store %t, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "check": "C11",
// CHECK-NEXT:  "dim": 0,
// CHECK-NEXT:  "dim_name": "N",
// CHECK-NEXT:  "hint": "transpose|coordinate",
// CHECK-NEXT:  "kind": "misaligned",
// CHECK-NEXT:  "message": "tile.store at {{.*}} writes along M (dim 0) of Y lanes that tile.load at {{.*}} read along N (dim 1) of X: the element read at index 1 along N is stored at index 0 along N (dim 1) of Y (M = 2, N = 2, block (0, 0), lanes 1 and 0); the tile's axes are permuted: data must keep its index along each named dim (a tile.transpose too many or too few?)",
// CHECK:       "store_dim": 1,
// CHECK:       "witness": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "M": 2,
// CHECK-NEXT:      "N": 2
// CHECK-NEXT:    },
// CHECK-NEXT:    "iter": {},
// CHECK-NEXT:    "lanes": {
// CHECK-NEXT:      "0": 1,
// CHECK-NEXT:      "1": 0
// CHECK-NEXT:    },
// CHECK-NEXT:    "load_element": 1,
// CHECK-NEXT:    "load_tile": 0,
// CHECK-NEXT:    "store_element": 0,
// CHECK-NEXT:    "store_tile": 0
// CHECK:       "kernel": "swapped_axes"

// -----

// The correct counterpart: transposed twice, every lane is back on its dim.
tile.kernel @transposed_back(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<16x16xf32> -> tensor<16x16xf32>
  %u = tile.transpose %t perm [1, 0] : tensor<16x16xf32> -> tensor<16x16xf32>
  tile.store %u, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C11": {
// CHECK-NEXT:    "queries": 4,
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "transposed_back"
