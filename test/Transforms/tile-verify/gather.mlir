// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C1,C9,C10,C11,C13"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C1,C9,C10,C11,C13 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// tile.gather in the checks (docs/verification.md, "Gathers"): along its
// other dims it reads like a tile.load; along the gathered dim its lanes are
// those of the index tile, and lanes where the index tile holds padding read
// an unknown row (C10 tracks them as any value); C11 keeps the index tile's
// origins; C9 follows a reduction along the gathered dim into the index tile;
// C13 does not model a gather from an output.

// An embedding lookup: proved.
tile.kernel @embedding(%I: memref<?xi32> {tile.dims = ["T"]},
                       %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                       %Y: memref<?x?xf32> {tile.dims = ["T", "D"]}) {
  %c0 = arith.constant 0 : index
  %Iv = tile.partition %I tile [4] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %t, %j = tile.grid %Yv : !tile.part<4x64xf32>
  %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
  %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x64xi32>
  %e = tile.gather %Wv[%c0, %j] dim 0 by %rows : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
  tile.store %e, %Yv[%t, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "diagnostics": [],
// CHECK-NEXT:  "kernel": "embedding",
// CHECK-NEXT:  "status": "proved"

// -----

// A bag of embeddings (the sum of the rows of all T tokens): the token
// tiles past T hold padded ids, which read some row of the table; summing
// them unmasked is refuted.
tile.kernel @bag_unmasked(%I: memref<?xi32> {tile.dims = ["T"]},
                          %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                          %Y: memref<?xf32> {tile.dims = ["D"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Iv = tile.partition %I tile [4] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %j = tile.grid %Yv : !tile.part<64xf32>
  %nt = tile.num_tiles %Iv[0] : !tile.part<4xi32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %sum = scf.for %t = %c0 to %nt step %c1 iter_args(%acc = %zero) -> (tensor<64xf32>) {
    %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
    %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x64xi32>
    %e = tile.gather %Wv[%c0, %j] dim 0 by %rows : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
    // expected-error @below {{reduces (add) lanes of I padded by tile.load at}}
    %s = tile.reduce add %e dim 0 : tensor<4x64xf32> -> tensor<64xf32>
    %next = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  tile.store %sum, %Yv[%j] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "consumer": "tile.reduce",
// CHECK:       "kind": "pad_not_neutral",
// CHECK-NEXT:  "lanes": "unknown values",
// CHECK:       "kernel": "bag_unmasked"

// -----

// The same bag with the padded tokens masked off: proved, including C9
// (every token tile reduced once: the reduction follows the gathered dim
// into the index tile's load).
tile.kernel @bag_masked(%I: memref<?xi32> {tile.dims = ["T"]},
                        %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                        %Y: memref<?xf32> {tile.dims = ["D"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Iv = tile.partition %I tile [4] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %j = tile.grid %Yv : !tile.part<64xf32>
  %nt = tile.num_tiles %Iv[0] : !tile.part<4xi32, pad = zero>
  %bt = tile.tile_size %Iv[0] : !tile.part<4xi32, pad = zero>
  %n = tile.extent %Iv[0] : !tile.part<4xi32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %zero2d = arith.constant dense<0.0> : tensor<4x64xf32>
  %tiota = tile.iota dim 0 : tensor<4x64xindex>
  %n2d = tile.splat %n : index -> tensor<4x64xindex>
  %sum = scf.for %t = %c0 to %nt step %c1 iter_args(%acc = %zero) -> (tensor<64xf32>) {
    %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
    %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x64xi32>
    %e = tile.gather %Wv[%c0, %j] dim 0 by %rows : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
    %t0 = arith.muli %t, %bt : index
    %base = tile.splat %t0 : index -> tensor<4x64xindex>
    %tok = arith.addi %base, %tiota : tensor<4x64xindex>
    %inb = arith.cmpi ult, %tok, %n2d : tensor<4x64xindex>
    %em = arith.select %inb, %e, %zero2d : tensor<4x64xi1>, tensor<4x64xf32>
    %s = tile.reduce add %em dim 0 : tensor<4x64xf32> -> tensor<64xf32>
    %next = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  tile.store %sum, %Yv[%j] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "diagnostics": [],
// CHECK-NEXT:  "kernel": "bag_masked",
// CHECK-NEXT:  "status": "proved"

// -----

// The gather reads column tile 0 but the store writes column tile j: the
// lanes read along D land on other indices of D.
tile.kernel @wrong_column(%I: memref<?xi32> {tile.dims = ["T"]},
                          %W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                          %Y: memref<?x?xf32> {tile.dims = ["T", "D"]}) {
  %c0 = arith.constant 0 : index
  %Iv = tile.partition %I tile [4] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %t, %j = tile.grid %Yv : !tile.part<4x64xf32>
  %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
  %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x64xi32>
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %rows : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
  // expected-error @below {{misaligned}}
  tile.store %e, %Yv[%t, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "misaligned",
// CHECK:       "kernel": "wrong_column"

// -----

// Gathering from an output: which stored elements are read is data, so C13
// cannot order the read after the writes.
tile.kernel @gather_output(%I: memref<?xi32> {tile.dims = ["T"]},
                           %Y: memref<?x?xf32> {tile.dims = ["T", "D"]},
                           %Z: memref<?x?xf32> {tile.dims = ["T", "D"]}) {
  %c0 = arith.constant 0 : index
  %Iv = tile.partition %I tile [4] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Yg = tile.partition %Y tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %Zv = tile.partition %Z tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %t, %j = tile.grid %Yv : !tile.part<4x64xf32>
  %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
  %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x64xi32>
  %zero = arith.constant dense<0.0> : tensor<4x64xf32>
  tile.store %zero, %Yv[%t, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
  // expected-error @below {{it gathers from an output, at positions that are data}}
  %e = tile.gather %Yg[%c0, %j] dim 0 by %rows : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
  tile.store %e, %Zv[%t, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kernel": "gather_output",
// CHECK-NEXT:  "status": "unsupported"
