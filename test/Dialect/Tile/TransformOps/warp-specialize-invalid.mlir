// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.warp_specialize (TmaRules.h, the rules
// tile-to-gpu applies) and their recheck by later knob ops.

// The value is 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
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
    // expected-error @below {{transform.tile.warp_specialize: warp_specialize = 2 is neither 0 (leave the kernel as is) nor 1 (give the TMA copies a producer warpgroup)}}
    transform.tile.warp_specialize %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Without TMA copies there is nothing for a producer to issue.
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
    // expected-error @below {{transform.tile.warp_specialize: @k has no K loop that copies its operands with TMA (transform.tile.operand_copies tma); warp specialization gives those copies a producer warpgroup}}
    transform.tile.warp_specialize %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The producer warpgroup runs the code before the loop: no tile loads.
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
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
    // expected-note @below {{the TMA K loop}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %y = arith.addf %acc, %bb : tensor<128x128xf32>
    tile.store %y, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    // expected-error @below {{transform.tile.warp_specialize: @k runs `tile.load` before its TMA K loop; the producer warpgroup runs the code before that loop and has no place in the layouts, so only scalar code (index arithmetic, constants, splats, views and the grid) may come before it; move the op after the loop}}
    transform.tile.warp_specialize %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A CTA has at most 32 warps: 28 consumers and the producer warpgroup.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %B: memref<?xf32> {tile.dims = ["N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 512, BN = 128, BK = 64, num_warps = 32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<512x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<512x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<512x128xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<512x64xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<512x128xf32>
    // expected-note @below {{the TMA K loop}}
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<512x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<512x64xbf16, pad = zero> -> tensor<512x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<512x64xbf16>, tensor<128x64xbf16> -> tensor<512x128xf32>
      scf.yield %r : tensor<512x128xf32>
    }
    %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<512x128xf32>
    %y = arith.addf %acc, %bb : tensor<512x128xf32>
    tile.store %y, %Yv[%m, %n] : tensor<512x128xf32>, !tile.part<512x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    // expected-error @below {{transform.tile.warp_specialize: @k has num_warps = 32, which leaves no room for the producer warpgroup (28 warps at most with warp specialization: 1024 threads per CTA)}}
    transform.tile.warp_specialize %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A later op that takes the TMA copies away is refused.
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
    // expected-error @below {{transform.tile.operand_copies: tile.warp_specialized: @k has no K loop that copies its operands with TMA (transform.tile.operand_copies tma); warp specialization gives those copies a producer warpgroup}}
    transform.tile.operand_copies %k cp_async : !transform.any_op
    transform.yield
  }
}

// -----

// The producer exits after its loop, which must run once per CTA.
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
    scf.for %rep = %c0 to %c1 step %c1 {
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
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    // expected-error @below {{transform.tile.warp_specialize: @k's TMA K loop sits inside a `scf.for`; the producer warpgroup exits after the loop, so the loop must be at the top level of the kernel and run once per CTA}}
    transform.tile.warp_specialize %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The producer warpgroup serves one TMA K loop; a kernel with two is refused.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @k(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 64, num_warps = 8} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
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
    %acc2 = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %acc) -> (tensor<128x128xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
      %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    tile.store %acc2, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    // expected-error @below {{transform.tile.warp_specialize: @k has 2 K loops that copy with TMA; the producer warpgroup serves one loop and exits after it}}
    transform.tile.warp_specialize %k 1 : !transform.any_op
    transform.yield
  }
}
