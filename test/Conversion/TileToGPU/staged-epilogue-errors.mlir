// RUN: kbench-opt %s --split-input-file --tile-to-gpu --verify-diagnostics

// Refusals of the staged epilogue lowering (StagedEpilogue.cpp). A store
// marked by hand that is no matmul epilogue (here a transposed load) is
// refused with the rule's reason (EpilogueRules.h;
// transform.tile.stage_epilogue refuses it first). When no phase fits the
// shared memory, the plan's reason (StagedEpilogueTest.cpp checks its text).
// A store marked tile.tma_store by hand that the TMA store rules refuse
// (EpilogueRules.h; transform.tile.tma_store refuses it first) gets their
// reason before anything is lowered.
tile.kernel @not_a_matmul(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Xv = tile.partition %X tile [64, 64] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<64x64xf32, pad = zero> -> tensor<64x64xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  // expected-error @below {{'tile.store' op tile.staged_epilogue: the chain of the stored tile starts from a tile that no tile.mma produced (a staged epilogue serves matmul results, whose accumulator layout is not the store's)}}
  tile.store %t, %Yv[%m, %n] {tile.staged_epilogue} : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

tile.kernel @tma_store_not_staged(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Xv = tile.partition %X tile [64, 64] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<64x64xf32, pad = zero> -> tensor<64x64xf32>
  // expected-error @below {{'tile.store' op tile.tma_store writes the output of a staged epilogue from shared memory, and this tile.store is not staged; apply transform.tile.stage_epilogue 1 first}}
  tile.store %x, %Yv[%m, %n] {tile.tma_store} : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// A rank-3 tile whose unit dim sits between the chain's rows and columns,
// marked by hand: refused before anything is lowered.
tile.kernel @middle_unit(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                         %Y: memref<?x?x?xf32> {tile.dims = ["M", "P", "N"]})
    params {num_warps = 4} {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [64, 32] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [64, 32] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Yv = tile.partition %Y tile [64, 1, 64] : memref<?x?x?xf32> -> !tile.part<64x1x64xf32>
  %m, %p, %n = tile.grid %Yv : !tile.part<64x1x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %x = tile.load %Xv[%m, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
  %w = tile.load %Wv[%n, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
  %acc = tile.mma %x, %w, %z impl(mma_sync) {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
  %y3 = tile.expand_dims %acc dim 1 : tensor<64x64xf32> -> tensor<64x1x64xf32>
  // expected-error @below {{'tile.store' op tile.staged_epilogue: a staged epilogue stores 2-D tiles, or 2-D tiles with unit dims put in front by tile.expand_dims dim 0 in the block of the store, and this tile.store stores a rank-3 tile made otherwise}}
  tile.store %y3, %Yv[%m, %p, %n] {tile.staged_epilogue} : tensor<64x1x64xf32>, !tile.part<64x1x64xf32>
  tile.return
}
