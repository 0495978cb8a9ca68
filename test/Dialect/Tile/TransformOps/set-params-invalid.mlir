// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// A schedule that matches nothing.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match attributes{tile.tag = "missing"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: the target handle is empty, so the schedule matched no tile.kernel}}
    transform.tile.set_params %k {BR = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// A target outside any kernel.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{target payload op}}
  func.func @host() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: target func.func is neither a tile.kernel nor inside one}}
    transform.tile.set_params %f {BR = 8} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4, num_warps = 4} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: @k has no param 'BX' (its params: BR, num_warps); declare it in the kernel's params {...} or set one of these}}
    transform.tile.set_params %k {BX = 8} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4, num_warps = 4} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: num_warps has its own op with its own checks; use transform.tile.set_num_warps instead}}
    transform.tile.set_params %k {num_warps = 8} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: BR = 0 is outside 1..65536; tile sizes are positive}}
    transform.tile.set_params %k {BR = 0} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %big = transform.param.constant 100000 : i64 -> !transform.param<i64>
    // expected-error @below {{transform.tile.set_params: BR = 100000 is outside 1..65536; tile sizes are positive}}
    transform.tile.set_params %k {BR = %big} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.param.constant 8 : i64 -> !transform.param<i64>
    %b = transform.param.constant 16 : i64 -> !transform.param<i64>
    %ab = transform.merge_handles %a, %b : !transform.param<i64>
    // expected-error @below {{transform.tile.set_params: the value of BR is a param holding 2 values; pass exactly one}}
    transform.tile.set_params %k {BR = %ab} : !transform.any_op
    transform.yield
  }
}

// -----

// Two params joined by an elementwise op must stay equal.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "M"]}) params {BM = 16, BN = 16} {
    %A = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %B = tile.partition %X tile [BN, BM] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %i, %j = tile.grid %A : !tile.part<16x16xf32>
    %a = tile.load %A[%i, %j] : !tile.part<16x16xf32> -> tensor<16x16xf32>
    %b = tile.load %B[%j, %i] : !tile.part<16x16xf32> -> tensor<16x16xf32>
    // expected-note @below {{arith.addf joins tiles sized by BM and BN}}
    %s = arith.addf %a, %b : tensor<16x16xf32>
    tile.store %s, %A[%i, %j] : tensor<16x16xf32>, !tile.part<16x16xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: BM = 32 and BN = 16 size the same tile dim, which arith.addf joins; give them the same value}}
    transform.tile.set_params %k {BM = 32} : !transform.any_op
    transform.yield
  }
}

// -----

// A param tied to a literal tile size.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]}) params {BM = 16, BK = 32} {
    %A = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<16x32xf32>
    // expected-note @below {{tile.partition fixes this dim to 32}}
    %B = tile.partition %X tile [BM, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
    %i, %j = tile.grid %A : !tile.part<16x32xf32>
    %a = tile.load %A[%i, %j] : !tile.part<16x32xf32> -> tensor<16x32xf32>
    %b = tile.load %B[%i, %j] : !tile.part<16x32xf32> -> tensor<16x32xf32>
    %s = arith.addf %a, %b : tensor<16x32xf32>
    tile.store %s, %A[%i, %j] : tensor<16x32xf32>, !tile.part<16x32xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: BK = 64 resizes a tile dim fixed to 32 by the literal tile size of a tile.partition (arith.addf joins them); write the param name instead of the literal, or leave BK at 32}}
    transform.tile.set_params %k {BK = 64} : !transform.any_op
    transform.yield
  }
}

// -----

// A param tied to the unit dim that expand_dims inserts.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) params {BR = 4, BC = 1} {
    %Xv = tile.partition %X tile [BR, BC] : memref<?x?xf32> -> !tile.part<4x1xf32>
    %i, %j = tile.grid %Xv : !tile.part<4x1xf32>
    %x = tile.load %Xv[%i, %j] : !tile.part<4x1xf32> -> tensor<4x1xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x1xf32> -> tensor<4xf32>
    // expected-note @below {{tile.expand_dims fixes this dim to 1}}
    %e = tile.expand_dims %s dim 1 : tensor<4xf32> -> tensor<4x1xf32>
    %y = arith.addf %x, %e : tensor<4x1xf32>
    tile.store %y, %Xv[%i, %j] : tensor<4x1xf32>, !tile.part<4x1xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: BC = 4 resizes a tile dim fixed to 1 by the unit dim tile.expand_dims inserts (arith.addf joins them); leave BC at 1}}
    transform.tile.set_params %k {BC = 4} : !transform.any_op
    transform.yield
  }
}

// -----

// A tile that flows through an op set_params cannot retile.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    %x = tile.load %Xv[%i] : !tile.part<4xf32> -> tensor<4xf32>
    // expected-note @below {{arith.constant cannot be retiled}}
    %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %y = arith.mulf %x, %c : tensor<4xf32>
    tile.store %y, %Xv[%i] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: BR = 8 would resize a tile that flows through arith.constant, which set_params cannot retile; keep BR at 4 or rewrite that op with tile ops}}
    transform.tile.set_params %k {BR = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// The retiled kernel must verify: wgmma needs M % 64 == 0.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<64x8xf32>
    %Wv = tile.partition %W tile [BK, BN] : memref<?x?xf32> -> !tile.part<8x64xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<64x8xf32> -> tensor<64x8xf32>
    %w = tile.load %Wv[%c0, %n] : !tile.part<8x64xf32> -> tensor<8x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    // expected-note @below {{this op does not verify after the edit}}
    %r = tile.mma %x, %w, %z {impl = 2 : i32} : tensor<64x8xf32>, tensor<8x64xf32> -> tensor<64x64xf32>
    tile.store %r, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: the edited kernel does not verify: 'tile.mma' op impl = wgmma needs M to be a multiple of 64, got 32}}
    transform.tile.set_params %k {BM = 32} : !transform.any_op
    transform.yield
  }
}

// -----

// Budgets: shared memory for staging the mma operands (impl = simt: one
// buffer per operand in the accumulator type, rows padded by 16 bytes).
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 8} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<64x32xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<64x32xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<64x32xf32> -> tensor<64x32xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<64x32xf32> -> tensor<64x32xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    // expected-note @below {{operands of this tile.mma are staged}}
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
    tile.store %r, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: the shared-memory estimate 270336 bytes (the operand buffers of 1 tile.mma op as tile-to-gpu stages them; the largest 270336 bytes, operands 128x256 and 128x256 f32) exceeds the 232448-byte (227 KB) limit of one CTA; lower the mma tile sizes or the pipeline stages}}
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 256} : !transform.any_op
    transform.yield
  }
}

// -----

// impl = simt widens bf16 operands to the f32 accumulator: the same tiles
// that tensor cores stage in 128 KB take 264 KB, and the message says to
// pick the impl before the tile sizes.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, num_warps = 8} {
    %Xv = tile.partition %X tile [BM, 256] : memref<?x?xbf16> -> !tile.part<64x256xbf16>
    %Wv = tile.partition %W tile [BN, 256] : memref<?x?xbf16> -> !tile.part<64x256xbf16>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<64x256xbf16> -> tensor<64x256xbf16>
    %w = tile.load %Wv[%n, %c0] : !tile.part<64x256xbf16> -> tensor<64x256xbf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    // expected-note @below {{operands of this tile.mma are staged}}
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<64x256xbf16>, tensor<64x256xbf16> -> tensor<64x64xf32>
    tile.store %r, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: the shared-memory estimate 270336 bytes (the operand buffers of 1 tile.mma op as tile-to-gpu stages them; the largest 270336 bytes, operands 128x256 and 128x256 bf16) exceeds the 232448-byte (227 KB) limit of one CTA; lower the mma tile sizes or the pipeline stages; impl = simt stages bf16 operands as f32, so a schedule that switches to tensor cores runs transform.tile.mma_impl before it sets tile sizes}}
    transform.tile.set_params %k {BM = 128, BN = 128} : !transform.any_op
    transform.yield
  }
}

// -----

// Budgets: accumulator registers per thread.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<64x32xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<64x32xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<64x32xf32> -> tensor<64x32xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<64x32xf32> -> tensor<64x32xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    // expected-note @below {{this tile.mma}}
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
    tile.store %r, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: the tile.mma accumulator 256x128 f32 needs 256 registers per thread over 128 threads (num_warps = 4); the limit is 128: lower the M or N tile sizes or raise num_warps}}
    transform.tile.set_params %k {BM = 256, BN = 128, BK = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// A stored vector_width must keep dividing the innermost tile size.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4, vector_width = 4} {
    // expected-note @below {{this partition}}
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: vector_width = 4 does not divide the innermost tile size 2 of the partition of argument #0 'X' (dims [M]) (tile [BR] = 2); use a width that divides it or retile}}
    transform.tile.set_params %k {BR = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// A param tied to the unit dim that squeeze drops.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?x?xf32> {tile.dims = ["H", "M", "N"]}) params {BH = 1, BM = 4} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BH, BM, 32] : memref<?x?x?xf32> -> !tile.part<1x4x32xf32>
    %h, %i = tile.grid %Xv dims [0, 1] : !tile.part<1x4x32xf32>
    %x = tile.load %Xv[%h, %i, %c0] : !tile.part<1x4x32xf32> -> tensor<1x4x32xf32>
    // expected-note @below {{tile.squeeze fixes this dim to 1}}
    %s = tile.squeeze %x dim 0 : tensor<1x4x32xf32> -> tensor<4x32xf32>
    %y = arith.addf %s, %s : tensor<4x32xf32>
    %e = tile.expand_dims %y dim 0 : tensor<4x32xf32> -> tensor<1x4x32xf32>
    tile.store %e, %Xv[%h, %i, %c0] : tensor<1x4x32xf32>, !tile.part<1x4x32xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_params: BH = 2 resizes a tile dim fixed to 1 by the unit dim tile.squeeze drops}}
    transform.tile.set_params %k {BH = 2} : !transform.any_op
    transform.yield
  }
}
