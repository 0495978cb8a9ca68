// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C10,C11"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C10,C11 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// tile.scan in C10 (pads along the scanned dim must be neutral; the padded
// lanes then hold running totals) and C11 (a scanned lane keeps its index).

// A row cumulative sum over any N: pad(zero) is neutral for the scan and the
// carry; the lanes past N hold the row total and the store masks them.
tile.kernel @row_cumsum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 64] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x64xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %total = scf.for %j = %c0 to %nt step %c1 iter_args(%carry = %zero) -> (tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.scan add %x dim 1 : tensor<4x64xf32>
    %cb = tile.broadcast %carry dims [1] : tensor<4xf32> -> tensor<4x64xf32>
    %y = arith.addf %cb, %s : tensor<4x64xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
    %t = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    %next = arith.addf %carry, %t : tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "diagnostics": [],
// CHECK-NEXT:  "kernel": "row_cumsum",
// CHECK-NEXT:  "status": "proved"

// -----

// pad(neg_inf) under a sum: every lane after a padded one would be -inf.
tile.kernel @neg_inf_into_scan(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["N <= 64"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, 64] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x64xf32, pad = neg_inf> -> tensor<4x64xf32>
  // expected-error @below {{scans (add) lanes of X padded by tile.load at}}
  %s = tile.scan add %x dim 1 : tensor<4x64xf32>
  tile.store %s, %Yv[%r, %c0] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "consumer": "tile.scan",
// CHECK:       "kind": "pad_not_neutral",
// CHECK-NEXT:  "lanes": "-inf",
// CHECK-NEXT:  "message": "tile.scan at {{.*}} scans (add) lanes of X padded by tile.load at {{.*}} with pad(neg_inf) along dim 1, which hold -inf there (for M = 1, N = 1, block (0) reads element (0, 1) past N); add needs zero there: use pad(zero) or mask the lanes with arith.select",
// CHECK:       "kernel": "neg_inf_into_scan"

// -----

// After a scan the padded lanes hold the running total, not the zero pad: a
// sum over the scanned dim must mask them.
tile.kernel @sum_of_scan(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                         %Y: memref<?xf32> {tile.dims = ["M"]})
    requires ["N <= 64"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, 64] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
  %s = tile.scan add %x dim 1 : tensor<4x64xf32>
  // expected-error @below {{reduces (add) lanes of X padded by tile.load at}}
  %t = tile.reduce add %s dim 1 : tensor<4x64xf32> -> tensor<4xf32>
  tile.store %t, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "consumer": "tile.reduce",
// CHECK:       "kind": "pad_not_neutral",
// CHECK-NEXT:  "lanes": "{{.*}}finite{{.*}}",
// CHECK:       "kernel": "sum_of_scan"

// -----

// Rows past M padded with zero scan to zero along N: a sum over M still sees
// neutral lanes.
tile.kernel @scan_then_column_sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %Y: memref<?xf32> {tile.dims = ["N"]})
    requires ["M <= 16", "N <= 64"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16, 64] pad(zero) : memref<?x?xf32> -> !tile.part<16x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Yv : !tile.part<64xf32>
  %x = tile.load %Xv[%c0, %n] : !tile.part<16x64xf32, pad = zero> -> tensor<16x64xf32>
  %s = tile.scan add %x dim 1 : tensor<16x64xf32>
  %t = tile.reduce add %s dim 0 : tensor<16x64xf32> -> tensor<64xf32>
  tile.store %t, %Yv[%n] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "diagnostics": [],
// CHECK-NEXT:  "kernel": "scan_then_column_sum",
// CHECK-NEXT:  "status": "proved"

// -----

// C11: the scanned tile of row block r stored at row block r + 1.
tile.kernel @scan_shifted(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["N <= 64"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 64] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x64xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
  %s = tile.scan add %x dim 1 : tensor<4x64xf32>
  %r1 = arith.addi %r, %c1 : index
  // expected-error @below {{misaligned}}
  tile.store %s, %Yv[%r1, %c0] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "check": "C11",
// CHECK:       "kind": "misaligned",
// CHECK:       "kernel": "scan_shifted"
