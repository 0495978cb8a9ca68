// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.persistent (PersistentRules.h, the rules
// tile-to-gpu applies) and warp_specialize's refusal of a persistent kernel.

// The value is 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %B: memref<?xf32> {tile.dims = ["N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 8} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.persistent: persistent = 2 is neither 0 (leave the kernel as is) nor 1 (walk the tiles on persistent CTAs)}}
    transform.tile.persistent %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A producer warpgroup serves one tile: warp specialization first...
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %B: memref<?xf32> {tile.dims = ["N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 8} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.tile.warp_specialize %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.persistent: @k is warp-specialized: its producer warpgroup exits after the K loop of the first tile, so a persistent CTA would have none for the next; drop transform.tile.warp_specialize or transform.tile.persistent}}
    transform.tile.persistent %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// ...or persistence first: warp_specialize refuses.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %B: memref<?xf32> {tile.dims = ["N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 8} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{the TMA K loop}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.tile.persistent %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.warp_specialize: @k runs persistent CTAs (tile.persistent): the producer warpgroup exits after the K loop of the first tile, so the next would have none; drop transform.tile.persistent or transform.tile.warp_specialize}}
    transform.tile.warp_specialize %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The loop over tiles starts at the tile.grid, which must be at the top
// level of the kernel body.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @nested(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {num_warps = 4} {
    %Xv = tile.partition %X tile [64, 64] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %true = arith.constant true
    scf.if %true {
      %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
      %x = tile.load %Xv[%m, %n] : !tile.part<64x64xf32, pad = zero> -> tensor<64x64xf32>
      tile.store %x, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    }
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.persistent: @nested declares its tile.grid inside a `scf.if`; a persistent CTA loops over everything from the tile.grid to the end of the kernel, so the grid must be at the top level of the kernel body}}
    transform.tile.persistent %k 1 : !transform.any_op
    transform.yield
  }
}
