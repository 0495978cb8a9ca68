// RUN: kbench-opt %s --tile-to-gpu --split-input-file -verify-diagnostics

// tile-to-gpu applies the rules of transform.tile.operand_copies (TmaRules.h)
// to a loop that records tma copies without the op having checked them.

tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
               %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  // expected-error @below {{tile.operand_copies = tma copies into pipeline stages, and this loop has 1; set transform.tile.pipeline stages 2 to 4 first}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 1, tile.operand_copies = "tma"}
  tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}

// -----

tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
               %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  // expected-error @below {{tile.operand_copies = tma is lowered for impl = wgmma K loops only, and this tile.mma has impl = simt; set transform.tile.mma_impl wgmma first}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %r = tile.mma %x, %w, %a  {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 2, tile.operand_copies = "tma"}
  tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}

// -----

// TMA copies B as NxK boxes; a KxN B goes through cp.async.
tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
               %W: memref<?x?xbf16> {tile.dims = ["K", "N"]},
               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 64, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Wv = tile.partition %W tile [BK, BN] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  // expected-error @below {{tile.operand_copies = tma copies B as NxK boxes (rows of K), and this tile.mma's B is KxN (no transpose_b); use operand_copies cp_async, whose copies stage a KxN B as rows of N}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %w = tile.load %Wv[%k, %n] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %r = tile.mma %x, %w, %a impl(wgmma) : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 3, tile.operand_copies = "tma"}
  tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}

// -----

// A kernel marked tile.warp_specialized without the transform op having
// checked it: tile-to-gpu applies the same rules (the producer warpgroup
// would run the bias load before the loop, outside every layout).
// expected-error @below {{tile.warp_specialized: @k runs `tile.load` before its TMA K loop; the producer warpgroup runs the code before that loop and has no place in the layouts, so only scalar code (index arithmetic, constants, splats, views and the grid) may come before it; move the op after the loop}}
tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
               %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
               %B: memref<?xf32> {tile.dims = ["N"]},
               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 64, num_warps = 4}
    attributes {tile.warp_specialized} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
  %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 3, tile.operand_copies = "tma"}
  %y = arith.addf %acc, %bb : tensor<128x128xf32>
  tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
