// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C1"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C1 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// C1: tile coordinates stay in the index space ceildiv(dim, tile); pad(none)
// loads read full tiles.

// A K loop that runs one tile too far reads tile ceildiv(K, 32) of X.
tile.kernel @loop_overrun(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "K"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [64, 32] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [64, 32] : memref<?x?xf32> -> !tile.part<64x32xf32>
  %m, %j = tile.grid %Yv : !tile.part<64x32xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
  %ub = arith.addi %nk, %c1 : index
  scf.for %k = %c0 to %ub step %c1 {
    // expected-error @below {{reads tile (0, 1) of X, outside its index space along dim 1: ceildiv(K, 32) = 1 tiles (M = 1, K = 1, block (0, 0), iv0 = 1) (hint: index_offset|loop_bound|grid_ceildiv)}}
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
  }
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  tile.store %z, %Yv[%m, %j] : tensor<64x32xf32>, !tile.part<64x32xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C1": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "violated",
// CHECK:       "check": "C1"
// CHECK:       "dim": 1,
// CHECK:       "dim_name": "K",
// CHECK:       "hint": "index_offset|loop_bound|grid_ceildiv",
// CHECK:       "index_space": "ceildiv(K, 32)",
// CHECK:       "kind": "oob",
// CHECK:       "op_name": "tile.load",
// CHECK:       "side": "upper",
// CHECK:       "status": "violated",
// CHECK:       "tensor": "X",
// CHECK:       "witness": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "K": 1,
// CHECK-NEXT:      "M": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "element": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      32
// CHECK-NEXT:    ],
// CHECK-NEXT:    "iter": {
// CHECK-NEXT:      "iv0": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "tile": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      1
// CHECK-NEXT:    ]
// CHECK:       "kernel": "loop_overrun"

// -----

// Reading the previous tile (k - 1) goes below the index space at k = 0.
tile.kernel @negative(%X: memref<?xf32> {tile.dims = ["N"]},
                      %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [128] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
  %Yv = tile.partition %Y tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %i = tile.grid %Yv : !tile.part<128xf32>
  %p = arith.subi %i, %c1 : index
  // expected-error @below {{reads tile (-1) of X: tile coordinate 0 is negative (N = 1, block (0)) (hint: index_offset)}}
  %x = tile.load %Xv[%p] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  tile.store %x, %Yv[%i] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "side": "lower",
// CHECK:       "kernel": "negative"

// -----

// The dropped tail mask: pad(none) on a view whose tiles overhang N.
tile.kernel @no_tail_mask(%X: memref<?xf32> {tile.dims = ["N"]},
                          %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %Yv = tile.partition %Y tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %i = tile.grid %Yv : !tile.part<128xf32>
  // expected-error @below {{reads tile (0) of X with pad(none), but the tile overhangs N = 1 along dim 0: element (1) is past the extent (N = 1, block (0)); give the partition a pad or require full tiles, e.g. requires ["N % 128 == 0"] (hint: tail_mask|requires)}}
  %x = tile.load %Xv[%i] : !tile.part<128xf32> -> tensor<128xf32>
  tile.store %x, %Yv[%i] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "tail_read",
// CHECK:       "side": "tail",
// CHECK:       "dims": {
// CHECK-NEXT:    "N": 1
// CHECK:       "element": [
// CHECK-NEXT:    1
// CHECK-NEXT:  ],
// CHECK:       "kernel": "no_tail_mask"

// -----

// With a requires fact that makes the tiles full, pad(none) is proved.
tile.kernel @full_tiles(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]})
    params {B = 128} requires ["N % B == 0"] {
  %Xv = tile.partition %X tile [B] : memref<?xf32> -> !tile.part<128xf32>
  %Yv = tile.partition %Y tile [B] : memref<?xf32> -> !tile.part<128xf32>
  %i = tile.grid %Yv : !tile.part<128xf32>
  %x = tile.load %Xv[%i] : !tile.part<128xf32> -> tensor<128xf32>
  tile.store %x, %Yv[%i] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C1": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "proved",
// CHECK:       "diagnostics": [],
// CHECK-NEXT:  "kernel": "full_tiles"

// -----

// An off-by-one stride: the store writes tile m + 1, past the last block.
tile.kernel @store_offset(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %m1 = arith.addi %m, %c1 : index
  // expected-error @below {{writes tile (1, 0) of Y, outside its index space along dim 0: ceildiv(M, 16) = 1 tiles (M = 1, N = 1, block (0, 0))}}
  tile.store %x, %Yv[%m1, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "op_name": "tile.store",
// CHECK:       "side": "upper",
// CHECK:       "kernel": "store_offset"

// -----

// Signed division is modelled as floor division only for non-negative values.
tile.kernel @signed_division(%X: memref<?xf32> {tile.dims = ["N"]},
                             %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %Xv = tile.partition %X tile [128] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
  %Yv = tile.partition %Y tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %i = tile.grid %Yv : !tile.part<128xf32>
  %p = arith.subi %i, %c1 : index
  %h = arith.divsi %p, %c2 : index
  // expected-error @+2 {{divides a value that can be negative (N = 1, block (0)); the verifier models arith.divsi/divui/remsi/remui only on non-negative values, use arith.floordivsi}}
  // expected-error @+1 {{reads tile (-1) of X}}
  %x = tile.load %Xv[%h] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  tile.store %x, %Yv[%i] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "unsupported",
// CHECK:       "status": "unsupported"
// CHECK:       "kernel": "signed_division"
