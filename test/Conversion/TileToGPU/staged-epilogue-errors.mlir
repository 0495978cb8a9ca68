// RUN: kbench-opt %s --split-input-file --tile-to-gpu --verify-diagnostics

// Refusals of the staged epilogue lowering (StagedEpilogue.cpp). A store
// marked by hand that is no matmul epilogue is refused with the rule's
// reason (EpilogueRules.h; transform.tile.stage_epilogue refuses it first).
tile.kernel @not_a_matmul(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Xv = tile.partition %X tile [64, 64] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<64x64xf32, pad = zero> -> tensor<64x64xf32>
  // expected-error @below {{'tile.store' op tile.staged_epilogue: the chain of the stored tile starts from a tile that no tile.mma produced (a staged epilogue serves matmul results, whose accumulator layout is not the store's)}}
  tile.store %x, %Yv[%m, %n] {tile.staged_epilogue} : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// 3 cp.async stages of 128x96 and 256x96 bf16 tiles leave about 9 KB of
// shared memory: not even 16-column phases of the 128x256 f32 accumulator
// fit.
tile.kernel @too_big(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                    %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                    %B: memref<?xf32> {tile.dims = ["N"]},
                    %Y: memref<?x?xbf16> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 256, BK = 96, num_warps = 8} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x96xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<256x96xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xbf16> -> !tile.part<128x256xbf16>
  %m, %n = tile.grid %Yv : !tile.part<128x256xbf16>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x96xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x256xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x96xbf16, pad = zero> -> tensor<128x96xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<256x96xbf16, pad = zero> -> tensor<256x96xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<128x96xbf16>, tensor<256x96xbf16> -> tensor<128x256xf32>
    scf.yield %r : tensor<128x256xf32>
  } {tile.pipeline_stages = 3}
  %b = tile.load %Bv[%n] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %bb = tile.broadcast %b dims [0] : tensor<256xf32> -> tensor<128x256xf32>
  %s = arith.addf %acc, %bb : tensor<128x256xf32>
  %relu = arith.maximumf %s, %z : tensor<128x256xf32>
  %y = arith.truncf %relu : tensor<128x256xf32> to tensor<128x256xbf16>
  // expected-error @below {{'tile.store' op tile.staged_epilogue: no split of the 128x256 tile into column phases gives every one of the 256 threads one 16-byte run per row block with a buffer that fits the 9200 bytes of shared memory left; use a smaller tile or fewer pipeline stages, or leave the epilogue in registers}}
  tile.store %y, %Yv[%m, %n] {tile.staged_epilogue} : tensor<128x256xbf16>, !tile.part<128x256xbf16>
  tile.return
}

