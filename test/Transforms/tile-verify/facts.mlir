// RUN: kbench-opt %s -split-input-file -verify-diagnostics --tile-verify

// requires facts: the linear fragment (with % by a constant) is assumed; a
// fact outside it is not, and a witness that breaks it is reported as
// unsupported, not as a violation.

tile.kernel @multiple_of_tile(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                              %Y: memref<?x?xf32> {tile.dims = ["M", "K"]})
    params {BK = 32} requires ["K % BK == 0", "M >= 2 * 16 - 31"] {
  %Xv = tile.partition %X tile [16, BK] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %Yv = tile.partition %Y tile [16, BK] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m, %k = tile.grid %Yv : !tile.part<16x32xf32>
  // The rows still overhang M: pad(none) is not enough along dim 0.
  // expected-error @below {{but the tile overhangs M = 1 along dim 0: element (1, 0) is past the extent (M = 1, K = 32, block (0, 0))}}
  %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32> -> tensor<16x32xf32>
  tile.store %x, %Yv[%m, %k] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}

// -----

// "min(N, 256) == 256" says N >= 256 but is not linear; the N = 1 witness
// breaks it, so the tail read is only a possible violation.
tile.kernel @nonlinear_fact(%X: memref<?xf32> {tile.dims = ["N"]},
                            %Y: memref<?xf32> {tile.dims = ["N"]})
    requires ["min(N, 256) == 256"] {
  %Xv = tile.partition %X tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %Yv = tile.partition %Y tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %i = tile.grid %Yv : !tile.part<128xf32>
  // expected-error @below {{[C1] unsupported: possible violation, but its witness breaks requires "min(N, 256) == 256" (min/max is a disjunction), which the verifier cannot model: tile.load at}}
  %x = tile.load %Xv[%i] : !tile.part<128xf32> -> tensor<128xf32>
  tile.store %x, %Yv[%i] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}
