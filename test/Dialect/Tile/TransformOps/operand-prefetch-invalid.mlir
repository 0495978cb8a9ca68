// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every refusal of the operand prefetch (PrefetchRules.h) that
// transform.tile.pipeline can hit on a loop whose mma_sync tile.mma ops read
// B operands loaded in the loop body, and its recheck by a later knob op.

// 32 chunks of 16 bytes in a 16x16 key tile, 64 threads.
module attributes {transform.with_named_sequence} {
  tile.kernel @chunks(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 16, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<16x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x16xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
      %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x16xbf16>, tensor<16x16xbf16> -> tensor<32x16xf32>
      %p = arith.truncf %s : tensor<32x16xf32> to tensor<32x16xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x16xbf16>, tensor<16x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: the prefetch copies 16-byte chunks, and the 16x16 B tile does not split evenly over 64 threads; raise the tile size or lower num_warps}}
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A KxN value tile is staged as rows of N = 8 elements.
module attributes {transform.with_named_sequence} {
  tile.kernel @narrow(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 8, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x8xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x8xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x8xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x8xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x8xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x8xbf16, pad = zero> -> tensor<32x8xbf16>
      %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x32xbf16>, tensor<32x8xbf16> -> tensor<32x8xf32>
      scf.yield %r : tensor<32x8xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x8xf32>, !tile.part<32x8xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: a KxN B operand is prefetched as rows of N, which must be a multiple of 16 elements, got 8; change the tile size}}
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// The key tile has a second use.
module attributes {transform.with_named_sequence} {
  tile.kernel @shared_use(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      %kf = arith.extf %k : tensor<32x16xbf16> to tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: a prefetched mma operand goes to shared memory only, so its tile.load (and the tile.squeeze after it) must feed that tile.mma alone; load the tile a second time for its other uses}}
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// The prefetch fills with zeros.
module attributes {transform.with_named_sequence} {
  tile.kernel @pad(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(neg_inf) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = neg_inf>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = neg_inf>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = neg_inf> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: the prefetch fills the tile past the memref with zeros, so the view of a prefetched mma operand must have pad(zero) or no pad}}
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// A key index the lowering cannot recompute: a tile op in the loop.
module attributes {transform.with_named_sequence} {
  tile.kernel @index(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %nk2 = tile.num_tiles %Kv[1] : !tile.part<32x16xbf16, pad = zero>
      %k = tile.load %Kv[%nk2, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 2: the indices of a prefetched tile.load must come from the induction variable and values defined outside the loop through scalar arith ops, so that the lowering can compute them iterations ahead}}
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Four stages of 128x256 key and value tiles.
module attributes {transform.with_named_sequence} {
  tile.kernel @big(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 128, BD = 256, BE = 256, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x256xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<128x256xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<128x256xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x256xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x256xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<128x256xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x128xf32>
    %zo = arith.constant dense<0.0> : tensor<32x256xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x256xbf16, pad = zero> -> tensor<32x256xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x256xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<128x256xbf16, pad = zero> -> tensor<128x256xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<128x256xbf16, pad = zero> -> tensor<128x256xbf16>
      %s = tile.mma %q, %k, %zs impl(mma_sync) warp_split(rows) {transpose_b} : tensor<32x256xbf16>, tensor<128x256xbf16> -> tensor<32x128xf32>
      %p = arith.truncf %s : tensor<32x128xf32> to tensor<32x128xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) warp_split(rows) : tensor<32x128xbf16>, tensor<128x256xbf16> -> tensor<32x256xf32>
      scf.yield %r : tensor<32x256xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x256xf32>, !tile.part<32x256xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: tile.pipeline_stages = 4: the prefetch buffers and the mma operands take 548864 bytes of shared memory, over the 232448-byte limit of one CTA; use fewer stages or smaller tiles}}
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.yield
  }
}

// -----

// simt tile.mma ops: no loop to pipeline.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @simt(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 32, BN = 32, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<32x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<32x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<32x32xf32>
    %zo = arith.constant dense<0.0> : tensor<32x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<32x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %s = tile.mma %q, %k, %zs impl(simt) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
      %p = arith.truncf %s : tensor<32x32xf32> to tensor<32x32xbf16>
      %r = tile.mma %p, %v, %acc impl(simt) : tensor<32x32xbf16>, tensor<32x16xbf16> -> tensor<32x16xf32>
      scf.yield %r : tensor<32x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<32x16xf32>, !tile.part<32x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.pipeline: @simt has no loop tile-to-gpu can pipeline (an scf.for whose body only loads the two operands of one tile.mma accumulating into its single iter_arg, or whose mma_sync or wgmma tile.mma ops read an operand loaded in the loop body)}}
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.yield
  }
}

// -----

// Rechecked: more warps after the prefetch.
module attributes {transform.with_named_sequence} {
  tile.kernel @recheck(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                 %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xbf16> {tile.dims = ["S", "E"]},
                 %O: memref<?x?xf32> {tile.dims = ["M", "E"]})
      params {BM = 64, BN = 32, BD = 16, BE = 16, num_warps = 2} requires ["D <= BD", "E <= BE"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x16xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BE] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BE] : memref<?x?xf32> -> !tile.part<64x16xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x16xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x32xf32>
    %zo = arith.constant dense<0.0> : tensor<64x16xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x16xbf16, pad = zero> -> tensor<64x16xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x16xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
      %s = tile.mma %q, %k, %zs impl(mma_sync) {transpose_b} : tensor<64x16xbf16>, tensor<32x16xbf16> -> tensor<64x32xf32>
      %p = arith.truncf %s : tensor<64x32xf32> to tensor<64x32xbf16>
      %r = tile.mma %p, %v, %acc impl(mma_sync) : tensor<64x32xbf16>, tensor<32x16xbf16> -> tensor<64x16xf32>
      scf.yield %r : tensor<64x16xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x16xf32>, !tile.part<64x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %k stages 2 : !transform.any_op
    // expected-error @below {{transform.tile.set_num_warps: tile.pipeline_stages = 2: the prefetch copies 16-byte chunks, and the 32x16 B tile does not split evenly over 128 threads}}
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.yield
  }
}
