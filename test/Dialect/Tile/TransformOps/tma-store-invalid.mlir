// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.tma_store (EpilogueRules.h, the rules
// tile-to-gpu applies) and its recheck by a later knob op.

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
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.tma_store: tma_store = 2 is neither 0 (leave the kernel as is) nor 1 (write the staged epilogue's output with TMA)}}
    transform.tile.tma_store %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Only a staged epilogue is written from shared memory.
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
    // expected-error @below {{transform.tile.tma_store: @k has no staged epilogue store (tile.staged_epilogue); tma_store writes the output of one, so apply transform.tile.stage_epilogue 1 first}}
    transform.tile.tma_store %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A box is 128 bytes of a row: 32 f32 columns.
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
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    // expected-note @below {{this tile.store}}
    tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BN = 16} : !transform.any_op
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.tma_store: tile.tma_store writes boxes of 128 bytes of a row (32 columns of f32), and the stored tile has 16 columns; make them a multiple of 32}}
    transform.tile.tma_store %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A later set_params rechecks the rules.
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
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    // expected-note @below {{this tile.store}}
    tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.tile.tma_store %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.set_params: tile.tma_store writes boxes of 128 bytes of a row (32 columns of f32), and the stored tile has 16 columns; make them a multiple of 32}}
    transform.tile.set_params %k {BN = 16} : !transform.any_op
    transform.yield
  }
}

// -----

// A box has at most 256 rows.
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
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    // expected-note @below {{this tile.store}}
    tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k simt : !transform.any_op
    transform.tile.set_num_warps %k 16 : !transform.any_op
    transform.tile.set_params %k {BM = 512, BN = 32, BK = 16} : !transform.any_op
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.tma_store: tile.tma_store writes boxes of at most 256 rows, and the stored tile has 512; lower the tile's rows}}
    transform.tile.tma_store %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Tensor maps of f32, bf16 or f16 only.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %B: memref<?xf32> {tile.dims = ["N"]},
                 %Y: memref<?x?xi32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 8} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xi32> -> !tile.part<128x128xi32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xi32>
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
    %yi = arith.fptosi %y : tensor<128x128xf32> to tensor<128x128xi32>
    // expected-note @below {{this tile.store}}
    tile.store %yi, %Yv[%m, %n] : tensor<128x128xi32>, !tile.part<128x128xi32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.tma_store: tile.tma_store writes f32, bf16 or f16 tiles, and this one is i32}}
    transform.tile.tma_store %k 1 : !transform.any_op
    transform.yield
  }
}
