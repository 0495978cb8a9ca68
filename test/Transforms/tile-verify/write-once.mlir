// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C3"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C3 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// C3: no element is written twice; tile.atomic_add is declared accumulation.

// Two stores overlapping: the second view's tiles straddle the first's.
tile.kernel @overlap(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %Yh = tile.partition %Y tile [32] : memref<?xf32> -> !tile.part<32xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %h = arith.constant dense<1.0> : tensor<32xf32>
  tile.store %z, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  // expected-error @below {{element (0) of Y is written twice for N = 1: by tile.store at}}
  tile.store %h, %Yh[%i] : tensor<32xf32>, !tile.part<32xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C3": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "violated",
// CHECK:       "check": "C3",
// CHECK-NEXT:  "hint": "index_offset|stride|atomic_add",
// CHECK-NEXT:  "kind": "double_write",
// CHECK:       "witness": {
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "N": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "element": [
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "first": {
// CHECK-NEXT:      "block": [
// CHECK-NEXT:        0
// CHECK-NEXT:      ],
// CHECK-NEXT:      "iter": {},
// CHECK-NEXT:      "tile": [
// CHECK-NEXT:        0
// CHECK-NEXT:      ]
// CHECK-NEXT:    },
// CHECK-NEXT:    "second": {
// CHECK-NEXT:      "block": [
// CHECK-NEXT:        0
// CHECK-NEXT:      ],
// CHECK:       "kernel": "overlap"

// -----

// A grid twice too fine: blocks 2j and 2j + 1 both write tile j.
tile.kernel @half_stride(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c2 = arith.constant 2 : index
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %Yh = tile.partition %Y tile [32] : memref<?xf32> -> !tile.part<32xf32>
  %i = tile.grid %Yh : !tile.part<32xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %q = arith.divui %i, %c2 : index
  // expected-error @below {{element (0) of Y is written twice for N = 33: by tile.store at}}
  tile.store %z, %Yv[%q] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "first": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0
// CHECK:       "second": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      1
// CHECK:       "kernel": "half_stride"

// -----

// Storing the accumulator in every iteration of the K loop.
tile.kernel @store_in_loop(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "K"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m = tile.grid %Yv dims [0] : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Yv[1] : !tile.part<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  scf.for %k = %c0 to %nk step %c1 {
    // expected-error @below {{element (0, 0) of Y is written twice for M = 1, K = 17: by tile.store at}}
    tile.store %z, %Yv[%m, %c0] : tensor<16x16xf32>, !tile.part<16x16xf32>
  }
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "first": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "iter": {
// CHECK-NEXT:      "iv0": 0
// CHECK:       "second": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "iter": {
// CHECK-NEXT:      "iv0": 1
// CHECK:       "kernel": "store_in_loop"

// -----

// A store and an atomic add to one element race.
tile.kernel @store_and_atomic(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  tile.atomic_add %z, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  // expected-error @below {{; a store and an atomic add to one element race}}
  tile.store %z, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "message": "element (0) of Y is written twice for N = 1: by tile.atomic_add at {{.*}}:[[#@LINE-6]]:3 in block (0) and by tile.store at {{.*}}:[[#@LINE-4]]:3 in block (0); a store and an atomic add to one element race",
// CHECK:       "kernel": "store_and_atomic"

// -----

// Two atomic adds to one element are declared accumulation (C9 checks them).
tile.kernel @two_atomics(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  tile.atomic_add %z, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.atomic_add %z, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C3": {
// CHECK-NEXT:    "queries": 0,
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "two_atomics"

// -----

tile.kernel @proved(%Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  tile.store %z, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C3": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "proved"

// -----

tile.kernel @unsupported(%Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %sq = arith.muli %i, %i : index
  %z = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @below {{cannot prove that no element is written twice: tile.store at}}
  tile.store %z, %Yv[%sq] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "message": "cannot prove that no element is written twice: tile.store at {{.*}} is outside the affine fragment: tile coordinate 0 is computed by arith.muli at {{.*}}, a product of two values that are not constants",
// CHECK:       "kernel": "unsupported"
