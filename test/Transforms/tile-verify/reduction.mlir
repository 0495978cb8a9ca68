// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C9"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C9 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// C9: every reduction sees each tile of its reduced dim exactly once, and the
// operands of tile.mma agree on k.

// The reference: a K loop over all ceildiv(K, 32) tiles.
tile.kernel @gemm(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                  %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    %r = tile.mma %x, %w, %a : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C9": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "gemm"

// -----

// A K loop short by one tile.
tile.kernel @k_loop_short(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                          %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x32xf32, pad = zero>
  %ub = arith.subi %nk, %c1 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %ub step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    // expected-error @below {{never reduces k tile 0 (elements [0, 1) of K = 1) for block (0, 0) (M = 1, K = 1, N = 1); every output must see all ceildiv(K, 32) tiles of the reduced dim (hint: k_loop_bound|k_step)}}
    %r = tile.mma %x, %w, %a : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "check": "C9",
// CHECK-NEXT:  "hint": "k_loop_bound|k_step",
// CHECK-NEXT:  "k_dim": "K",
// CHECK-NEXT:  "k_tile_size": 32,
// CHECK-NEXT:  "kind": "k_gap",
// CHECK:       "op_name": "tile.mma",
// CHECK:       "witness": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "K": 1,
// CHECK-NEXT:      "M": 1,
// CHECK-NEXT:      "N": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "iter": {},
// CHECK-NEXT:    "k_tile": 0
// CHECK:       "kernel": "k_loop_short"

// -----

// Steps of two tiles skip every other k tile.
tile.kernel @k_step_two(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                        %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c2 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    // expected-error @below {{never reduces k tile 1 (elements [32, 33) of K = 33) for block (0, 0)}}
    %r = tile.mma %x, %w, %a : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "k_gap",
// CHECK:       "k_tile": 1
// CHECK:       "kernel": "k_step_two"

// -----

// The operands of the mma read different k tiles.
tile.kernel @k_mismatch(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                        %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %k1 = arith.addi %k, %c1 : index
    %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %w = tile.load %Wv[%k1, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    // expected-error @below {{combines k tile 0 of X (tile.load at}}
    %r = tile.mma %x, %w, %a : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "hint": "k_index",
// CHECK:       "kind": "k_mismatch",
// CHECK:       "message": "tile.mma at {{.*}} combines k tile 0 of X (tile.load at {{.*}}) with k tile 1 of W (tile.load at {{.*}}) in block (0, 0), iv0 = 0 (M = 1, K = 1, N = 1)",
// CHECK:       "k_tiles": [
// CHECK-NEXT:    0,
// CHECK-NEXT:    1
// CHECK-NEXT:  ]
// CHECK:       "kernel": "k_mismatch"

// -----

// The operands reduce dims with different names.
tile.kernel @k_dims_differ(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                           %W: memref<?x?xf32> {tile.dims = ["K2", "N"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %w = tile.load %Wv[%c0, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  // expected-error @below {{reduces dim K of X against dim K2 of W, which differ for M = 1, K = 1, K2 = 2, N = 1; add a requires fact that makes them equal or fix the operand}}
  // expected-error @below {{never reduces k tile 1 (elements [32, 33) of K = 33)}}
  %r = tile.mma %x, %w, %z : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
  tile.store %r, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "k_mismatch",
// CHECK:       "kernel": "k_dims_differ"

// -----

// Double accumulation: each k tile enters the accumulator twice.
tile.kernel @double_accumulate(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                               %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    %r = tile.mma %x, %w, %a : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
    // expected-error @below {{k tile 0 (elements [0, 1) of K = 1) is reduced twice for block (0, 0) (M = 1, K = 1, N = 1): by tile.mma at}}
    %r2 = tile.mma %x, %w, %r : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
    scf.yield %r2 : tensor<16x16xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "hint": "k_step|k_index|double_accumulate",
// CHECK:       "kind": "k_dup",
// CHECK:       "first": {
// CHECK:       "second": {
// CHECK:       "kernel": "double_accumulate"

// -----

// Split-K: block (m, kb) adds one k tile's product into every N tile of Y.
tile.kernel @split_k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                     %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %kb = tile.grid %Xv : !tile.part<16x32xf32, pad = zero>
  %nn = tile.num_tiles %Wv[0] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %kb] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  scf.for %n = %c0 to %nn step %c1 {
    %w = tile.load %Wv[%n, %kb] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %p = tile.mma %x, %w, %z {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    tile.atomic_add %p, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  }
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C9": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "split_k"

// -----

// Split-K without a reduction: every block overwrites the output tile with
// its partial product.
tile.kernel @split_k_store(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                           %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %kb = tile.grid %Xv : !tile.part<16x32xf32, pad = zero>
  %nn = tile.num_tiles %Wv[0] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %kb] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  scf.for %n = %c0 to %nn step %c1 {
    %w = tile.load %Wv[%n, %kb] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{never reduces k tile 1 (elements [32, 33) of K = 33) for block (0, 0), iv0 = 0 (M = 1, K = 33, N = 1)}}
    %p = tile.mma %x, %w, %z {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    tile.store %p, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  }
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "k_gap",
// CHECK:       "kernel": "split_k_store"

// -----

// A row reduction over one column tile needs `N <= BN`.
tile.kernel @row_max(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BN = 16} {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x16xf32, pad = neg_inf> -> tensor<4x16xf32>
  // expected-error @below {{never reduces k tile 1 (elements [16, 17) of N = 17) for block (0) (M = 1, N = 17)}}
  %m = tile.reduce max %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %m, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "k_gap",
// CHECK:       "op_name": "tile.reduce",
// CHECK:       "kernel": "row_max"

// -----

// The same kernel with the requires fact is proved.
tile.kernel @row_max_requires(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                              %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BN = 16} requires ["N <= BN"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x16xf32, pad = neg_inf> -> tensor<4x16xf32>
  %m = tile.reduce max %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %m, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C9": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "row_max_requires"

// -----

// A loop-carried row sum (acc += x, reduced after the loop) is proved; one
// that overwrites its accumulator keeps only the last tile.
tile.kernel @row_sum_reset(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4x16xf32>
  %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x16xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
    %s = arith.addf %zero, %x : tensor<4x16xf32>
    scf.yield %s : tensor<4x16xf32>
  }
  // expected-error @below {{never reduces k tile 0 (elements [0, 16) of N = 17) for block (0) (M = 1, N = 17)}}
  %y = tile.reduce add %acc dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "k_gap",
// CHECK:       "kernel": "row_sum_reset"

// -----

// A reduction whose data comes through an scf.if: each lane holds one
// branch's yield, so the reduced dim is traced into both (as through a
// select) and the kernel proves.
tile.kernel @through_if(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?xf32> {tile.dims = ["M"]}, %flag: i1)
    requires ["N <= 16"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
  %v = scf.if %flag -> (tensor<4x16xf32>) {
    scf.yield %x : tensor<4x16xf32>
  } else {
    %n = arith.negf %x : tensor<4x16xf32>
    scf.yield %n : tensor<4x16xf32>
  }
  %y = tile.reduce add %v dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kernel": "through_if",
// CHECK-NEXT:  "status": "proved"

// -----

// A reduction whose data comes through an op C9 does not follow:
// scf.index_switch.
tile.kernel @through_switch(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %Y: memref<?xf32> {tile.dims = ["M"]}, %which: index)
    requires ["N <= 16"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
  %v = scf.index_switch %which -> tensor<4x16xf32>
  case 1 {
    %n = arith.negf %x : tensor<4x16xf32>
    scf.yield %n : tensor<4x16xf32>
  }
  default {
    scf.yield %x : tensor<4x16xf32>
  }
  // expected-error @below {{cannot prove that tile.reduce at}}
  %y = tile.reduce add %v dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "message": "cannot prove that tile.reduce at {{.*}} reduces every tile exactly once: the reduced dim passes through scf.index_switch at {{.*}}, which C9 does not model",
// CHECK:       "kernel": "through_switch"

// -----

// A product that reaches two atomic adds is not modelled.
tile.kernel @two_atomics(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %kb = tile.grid %Xv : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %kb] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %w = tile.load %Wv[%m, %kb] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  // expected-error @below {{reduces every tile exactly once: its result reaches two ops that combine it across blocks (tile.atomic_add, or a tile.store of partials)}}
  %p = tile.mma %x, %w, %z {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
  tile.atomic_add %p, %Yv[%m, %m] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.atomic_add %p, %Yv[%m, %m] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "unsupported",
// CHECK:       "kernel": "two_atomics"
