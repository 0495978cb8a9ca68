// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of transform.tile.min_ctas_per_sm (KnobRules.cpp), and a
// later op that breaks it.

// The value is in 1..32.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]})
      params {BM = 128, BK = 8, num_warps = 8} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<128x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.min_ctas_per_sm: min_ctas_per_sm = 0 is outside 1..32; an SM holds at most 32 CTAs and 2048 threads, so also min_ctas_per_sm x 32 x num_warps <= 2048}}
    transform.tile.min_ctas_per_sm %k 0 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]})
      params {BM = 128, BK = 8, num_warps = 1} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<128x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.min_ctas_per_sm: min_ctas_per_sm = 33 is outside 1..32}}
    transform.tile.min_ctas_per_sm %k 33 : !transform.any_op
    transform.yield
  }
}

// -----

// That many CTAs of the kernel's threads fit the SM's 2048 threads...
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]})
      params {BM = 128, BK = 8, num_warps = 16} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<128x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.min_ctas_per_sm: min_ctas_per_sm = 5: 5 CTAs of 512 threads are 2560 threads, more than the 2048 an SM holds; use min_ctas_per_sm <= 4 or fewer warps}}
    transform.tile.min_ctas_per_sm %k 5 : !transform.any_op
    transform.yield
  }
}

// -----

// ...also when a later set_num_warps raises the threads.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]})
      params {BM = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<128x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.min_ctas_per_sm %k 8 : !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: min_ctas_per_sm = 8: 8 CTAs of 512 threads are 4096 threads, more than the 2048 an SM holds; use min_ctas_per_sm <= 4 or fewer warps}}
    transform.tile.set_num_warps %k 16 : !transform.any_op
    transform.yield
  }
}

// -----

// A warp-specialized kernel has its register limit already.
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
    transform.tile.warp_specialize %k 1 : !transform.any_op
    // expected-error @below {{transform.tile.min_ctas_per_sm: min_ctas_per_sm = 2 on warp-specialized @k: transform.tile.warp_specialize sets the kernel's register limit itself (.maxnreg); drop one of the two}}
    transform.tile.min_ctas_per_sm %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// ...and warp_specialize after it refuses the same way.
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
    transform.tile.min_ctas_per_sm %k 2 : !transform.any_op
    // expected-error @below {{transform.tile.warp_specialize: @k sets min_ctas_per_sm = 2: warp specialization sets the kernel's register limit itself (.maxnreg); drop one of the two}}
    transform.tile.warp_specialize %k 1 : !transform.any_op
    transform.yield
  }
}
