// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every failure of set_num_warps, vector_width and raster.

// set_num_warps has a CTA of 1 to 32 warps.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: num_warps = 0 is not a power of two from 1 to 32 (the SIMT lowering splits tiles over warps in powers of two, and a CTA has at most 1024 threads)}}
    transform.tile.set_num_warps %k 0 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: num_warps = 33 is not a power of two from 1 to 32 (the SIMT lowering splits tiles over warps in powers of two, and a CTA has at most 1024 threads)}}
    transform.tile.set_num_warps %k 33 : !transform.any_op
    transform.yield
  }
}

// -----

// The lowering splits tiles over warps in powers of two, so 12 is refused here
// rather than by tile-to-gpu.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: num_warps = 12 is not a power of two from 1 to 32 (the SIMT lowering splits tiles over warps in powers of two, and a CTA has at most 1024 threads)}}
    transform.tile.set_num_warps %k 12 : !transform.any_op
    transform.yield
  }
}

// -----

// wgmma runs on whole warpgroups.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{tile.mma with impl = wgmma}}
    %r = tile.mma %x, %w, %z {transpose_b, impl = 2 : i32} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: num_warps = 2 is not a multiple of 4, which tile.mma with impl = wgmma needs (a warpgroup is 4 warps); use 4, 8, 16 or 32}}
    transform.tile.set_num_warps %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Fewer warps mean more accumulators per thread.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    // expected-note @below {{this tile.mma}}
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: the tile.mma accumulator 128x128 f32 needs 256 registers per thread over 64 threads (num_warps = 2); the limit is 128: lower the M or N tile sizes or raise num_warps}}
    transform.tile.set_num_warps %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A knob param must hold one value.
module attributes {transform.with_named_sequence} {
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.param.constant 4 : i64 -> !transform.param<i64>
        %ab = transform.merge_handles %a, %a : !transform.param<i64>
    // expected-error @below {{transform.tile.set_num_warps: the value of num_warps is a param holding 2 values; pass exactly one}}
        transform.tile.set_num_warps %k %ab : !transform.any_op
    transform.yield
  }
}

// -----

// vector_width values.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @v(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %b: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 16, BK = 8} requires [] {
    %bv = tile.partition %b tile [BM] : memref<?xf32> -> !tile.part<16xf32>
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<16x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<16x8xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.vector_width: vector_width = 3 is not a power of two from 1 to 16 (one access moves at most 16 bytes, so also vector_width x element bytes <= 16)}}
    transform.tile.vector_width %k 3 : !transform.any_op
    transform.yield
  }
}

// -----

// At most 16 bytes per access.
module attributes {transform.with_named_sequence} {
  tile.kernel @v(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %b: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 16, BK = 8} requires [] {
    // expected-note @below {{this partition}}
    %bv = tile.partition %b tile [BM] : memref<?xf32> -> !tile.part<16xf32>
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<16x8xf32>
    %m, %n = tile.grid %Xv : !tile.part<16x8xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.vector_width: vector_width = 8 makes 32-byte accesses to the f32 elements of argument #1 'b' (dims [M]); the limit is 16 bytes, so at most 4 for this element type}}
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.yield
  }
}

// -----

// The width divides the innermost tile size.
module attributes {transform.with_named_sequence} {
  tile.kernel @v(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %b: memref<?xf32> {tile.dims = ["M"]})
      params {BM = 16, BK = 8} requires ["K % 4 == 0"] {
    %bv = tile.partition %b tile [BM] : memref<?xf32> -> !tile.part<16xf32>
    // expected-note @below {{this partition}}
    %Xv = tile.partition %X tile [BM, 2] : memref<?x?xf32> -> !tile.part<16x2xf32>
    %m, %n = tile.grid %Xv : !tile.part<16x2xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.vector_width: vector_width = 4 does not divide the innermost tile size 2 of the partition of argument #0 'X' (dims [M, K]) (tile [BM, 2] = 16x2); use a width that divides it or retile}}
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}

// -----

// Grouped order needs a 2-D grid.
module attributes {transform.with_named_sequence} {
  tile.kernel @r(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 128} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<128xf32>
    // expected-note @below {{the launch grid}}
    %i = tile.grid %Xv : !tile.part<128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.raster: group_m = 8 needs a 2-D grid but the tile.grid of @r spans 1 dim; grouped order only applies to 2-D grids, so drop the raster op for this kernel}}
    transform.tile.raster %k group_m 8 : !transform.any_op
    transform.yield
  }
}

// -----

// group_m range.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.raster: group_m = 0 is outside 1..65536; a group holds at least one row of blocks}}
    transform.tile.raster %k group_m 0 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                 %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 128, BN = 128, BK = 8, num_warps = 4} {
    %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Wv = tile.partition %W tile [BN, BK] : memref<?x?xf32> -> !tile.part<128x8xf32>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
    %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
    %c0 = arith.constant 0 : index
    %x = tile.load %Xv[%m, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %w = tile.load %Wv[%n, %c0] : !tile.part<128x8xf32> -> tensor<128x8xf32>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<128x8xf32>, tensor<128x8xf32> -> tensor<128x128xf32>
    tile.store %r, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 70000 : i64 -> !transform.param<i64>
    // expected-error @below {{transform.tile.raster: group_m = 70000 is outside 1..65536; a group holds at least one row of blocks}}
        transform.tile.raster %k group_m %g : !transform.any_op
    transform.yield
  }
}

// -----

// An empty handle.
module attributes {transform.with_named_sequence} {
  tile.kernel @r(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 128} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<128xf32>
    %i = tile.grid %Xv : !tile.part<128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    %none = transform.structured.match attributes{tile.tag = "none"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.raster: the target handle is empty, so the schedule matched no tile.kernel}}
        transform.tile.raster %none group_m 8 : !transform.any_op
    transform.yield
  }
}

// -----

// A partition gathered along its innermost dim: the width must divide the
// gathered tile's innermost size (2 here), not the view's tile size 1.
module attributes {transform.with_named_sequence} {
  tile.kernel @gathered_columns(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 4} {
    %c0 = arith.constant 0 : index
    // expected-note @below {{this partition}}
    %Xg = tile.partition %X tile [BM, 1] pad(zero) : memref<?x?xf32> -> !tile.part<4x1xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, 2] : memref<?x?xf32> -> !tile.part<4x2xf32>
    %m = tile.grid %Yv dims [0] : !tile.part<4x2xf32>
    %cols = tile.iota dim 1 : tensor<4x2xi32>
    %x = tile.gather %Xg[%m, %c0] dim 1 by %cols : !tile.part<4x1xf32, pad = zero>, tensor<4x2xi32> -> tensor<4x2xf32>
    tile.store %x, %Yv[%m, %c0] : tensor<4x2xf32>, !tile.part<4x2xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.vector_width: vector_width = 4 does not divide the innermost size 2 of the tiles tile.gather reads from the partition of argument #0 'X' (dims [M, N]) (tile [BM, 1] = 4x1); use a width that divides it or retile}}
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
