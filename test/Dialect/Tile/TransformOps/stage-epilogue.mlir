// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics | FileCheck %s

// transform.tile.stage_epilogue marks the tile.store of a matmul epilogue:
// an elementwise chain (here bias, relu, bf16 cast) over one tile.mma
// result, its other leaves splat constants and broadcast vectors. The tile
// IR is otherwise unchanged. Value 0 marks nothing.

// CHECK-LABEL: tile.kernel @linear
// CHECK: %[[Y:.*]] = arith.truncf
// CHECK: tile.store %[[Y]], %{{.*}} {tile.staged_epilogue}
module attributes {transform.with_named_sequence} {
  tile.kernel @linear(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                      %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                      %B: memref<?xf32> {tile.dims = ["N"]},
                      %Y: memref<?x?xbf16> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xbf16> -> !tile.part<64x64xbf16>
    %m, %n = tile.grid %Yv : !tile.part<64x64xbf16>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xbf16, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    %b = tile.load %Bv[%n] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
    %bb = tile.broadcast %b dims [0] : tensor<64xf32> -> tensor<64x64xf32>
    %s = arith.addf %acc, %bb : tensor<64x64xf32>
    %relu = arith.maximumf %s, %z : tensor<64x64xf32>
    %y = arith.truncf %relu : tensor<64x64xf32> to tensor<64x64xbf16>
    tile.store %y, %Yv[%m, %n] : tensor<64x64xbf16>, !tile.part<64x64xbf16>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.tile.stage_epilogue %k %one : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: tile.kernel @plain
// CHECK-NOT: tile.staged_epilogue
module attributes {transform.with_named_sequence} {
  tile.kernel @plain(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                     %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %x = tile.load %Xv[%m, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    tile.store %r, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_epilogue %k 0 : !transform.any_op
    transform.yield
  }
}

// -----

// The value is 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @two(%Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {num_warps = 4} {
    %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    tile.store %z, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.stage_epilogue: stage_epilogue = 2 is neither 0 (leave the kernel as is) nor 1 (stage the matmul epilogue through shared memory)}}
    transform.tile.stage_epilogue %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// An elementwise kernel has no matmul result to stage.
module attributes {transform.with_named_sequence} {
  tile.kernel @scale(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {num_warps = 4} {
    %Xv = tile.partition %X tile [64, 64] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %x = tile.load %Xv[%m, %n] : !tile.part<64x64xf32, pad = zero> -> tensor<64x64xf32>
    %two = arith.constant dense<2.0> : tensor<64x64xf32>
    %y = arith.mulf %x, %two : tensor<64x64xf32>
    // expected-note @below {{this tile.store}}
    tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.stage_epilogue: @scale stores no matmul epilogue to stage: the stored tile reads no tile.mma result, only loads and constants (a staged epilogue serves matmul results, whose accumulator layout is not the store's)}}
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A residual (a loaded tile of the stored shape) is a leaf the staged loop
// loads a run at a time.
// CHECK-LABEL: tile.kernel @residual
// CHECK: tile.store %{{.*}} {tile.staged_epilogue}
module attributes {transform.with_named_sequence} {
  tile.kernel @residual(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                        %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                        %R: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {num_warps = 4} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [64, 32] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Wv = tile.partition %W tile [64, 32] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Rv = tile.partition %R tile [64, 64] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %x = tile.load %Xv[%m, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %acc = tile.mma %x, %w, %z {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %r = tile.load %Rv[%m, %n] : !tile.part<64x64xf32, pad = zero> -> tensor<64x64xf32>
    %y = arith.addf %acc, %r : tensor<64x64xf32>
    tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Two matmul results (a gated product) are two tiles the chain starts from.
module attributes {transform.with_named_sequence} {
  tile.kernel @gated(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                        %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                        %R: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {num_warps = 4} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [64, 32] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Wv = tile.partition %W tile [64, 32] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
    %Rv = tile.partition %R tile [64, 64] pad(zero) : memref<?x?xf32> -> !tile.part<64x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %x = tile.load %Xv[%m, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %c0] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %acc = tile.mma %x, %w, %z {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %acc2 = tile.mma %x, %w, %z {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %y = arith.mulf %acc, %acc2 : tensor<64x64xf32>
    // expected-note @below {{this tile.store}}
    tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.stage_epilogue: @gated stores no matmul epilogue to stage: the stored tile must be an elementwise chain (arith and math ops, splat constants, broadcasts of a row or a column vector, loads of tiles of its shape) over exactly one other tile, and it reaches 2 tiles}}
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A batched output: the chain is 2-D and tile.expand_dims dim 0 puts the
// batch's unit dim in front for the store ([1, BM, BN]); the store is staged.
// CHECK-LABEL: tile.kernel @batched
// CHECK: tile.store %{{.*}} {tile.staged_epilogue}
module attributes {transform.with_named_sequence} {
  tile.kernel @batched(%A: memref<?x?x?xbf16> {tile.dims = ["B", "M", "K"]},
                       %W: memref<?x?x?xbf16> {tile.dims = ["B", "N", "K"]},
                       %C: memref<?x?x?xf32> {tile.dims = ["B", "M", "N"]})
      params {num_warps = 4} {
    %c0 = arith.constant 0 : index
    %Av = tile.partition %A tile [1, 64, 32] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x32xbf16, pad = zero>
    %Wv = tile.partition %W tile [1, 64, 32] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x32xbf16, pad = zero>
    %Cv = tile.partition %C tile [1, 64, 64] : memref<?x?x?xf32> -> !tile.part<1x64x64xf32>
    %b, %m, %n = tile.grid %Cv : !tile.part<1x64x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %a3 = tile.load %Av[%b, %m, %c0] : !tile.part<1x64x32xbf16, pad = zero> -> tensor<1x64x32xbf16>
    %w3 = tile.load %Wv[%b, %n, %c0] : !tile.part<1x64x32xbf16, pad = zero> -> tensor<1x64x32xbf16>
    %a = tile.squeeze %a3 dim 0 : tensor<1x64x32xbf16> -> tensor<64x32xbf16>
    %w = tile.squeeze %w3 dim 0 : tensor<1x64x32xbf16> -> tensor<64x32xbf16>
    %acc = tile.mma %a, %w, %z {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %two = arith.constant dense<2.0> : tensor<64x64xf32>
    %y = arith.mulf %acc, %two : tensor<64x64xf32>
    %y3 = tile.expand_dims %y dim 0 : tensor<64x64xf32> -> tensor<1x64x64xf32>
    tile.store %y3, %Cv[%b, %m, %n] : tensor<1x64x64xf32>, !tile.part<1x64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A unit dim put between the chain's rows and columns is not an indexing
// matter of the store alone: refused.
module attributes {transform.with_named_sequence} {
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
    %acc = tile.mma %x, %w, %z {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %y3 = tile.expand_dims %acc dim 1 : tensor<64x64xf32> -> tensor<64x1x64xf32>
    // expected-note @below {{this tile.store}}
    tile.store %y3, %Yv[%m, %p, %n] : tensor<64x1x64xf32>, !tile.part<64x1x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.stage_epilogue: @middle_unit stores no matmul epilogue to stage: a staged epilogue stores 2-D tiles, or 2-D tiles with unit dims put in front by tile.expand_dims dim 0 in the block of the store, and this tile.store stores a rank-3 tile made otherwise}}
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.yield
  }
}
