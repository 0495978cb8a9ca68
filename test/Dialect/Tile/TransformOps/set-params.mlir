// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// Retiles a GEMM: partitions, loads, the mma, the scf.for iter_arg and
// result, the splat constant, the broadcast and the elementwise epilogue.

// CHECK-LABEL: tile.kernel @gemm
// CHECK-SAME: params {BK = 8, BM = 128, BN = 32, num_warps = 4}
// CHECK: tile.partition %{{.*}} tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<128x8xf32, pad = zero>
// CHECK: tile.partition %{{.*}} tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<32x8xf32, pad = zero>
// CHECK: tile.partition %{{.*}} tile [BN] pad(zero) : memref<?xf32> -> !tile.part<32xf32, pad = zero>
// CHECK: tile.partition %{{.*}} tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x32xf32>
// CHECK: tile.grid %{{.*}} : !tile.part<128x32xf32>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128x32xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Z]]) -> (tensor<128x32xf32>)
// CHECK:   tile.load {{.*}} -> tensor<128x8xf32>
// CHECK:   tile.load {{.*}} -> tensor<32x8xf32>
// CHECK:   tile.mma {{.*}} {transpose_b} : tensor<128x8xf32>, tensor<32x8xf32> -> tensor<128x32xf32>
// CHECK:   scf.yield %{{.*}} : tensor<128x32xf32>
// CHECK: tile.load {{.*}} -> tensor<32xf32>
// CHECK: tile.broadcast %{{.*}} dims [0] : tensor<32xf32> -> tensor<128x32xf32>
// CHECK: arith.addf %{{.*}} : tensor<128x32xf32>
// CHECK: arith.maximumf %{{.*}} : tensor<128x32xf32>
// CHECK: tile.store %{{.*}} : tensor<128x32xf32>, !tile.part<128x32xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @gemm(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                    %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                    %b: memref<?xf32> {tile.dims = ["N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
    %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
    %bv = tile.partition %b tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
    %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
    %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
      %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
      %w = tile.load %Wv[%n, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
      %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
      scf.yield %r : tensor<64x64xf32>
    }
    %bt = tile.load %bv[%n] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<64xf32> -> tensor<64x64xf32>
    %s = arith.addf %acc, %bb : tensor<64x64xf32>
    %y = arith.maximumf %s, %z : tensor<64x64xf32>
    tile.store %y, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 32, BK = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// Every other shape rule: iota, splat constants, cmpi/select, reduce,
// expand_dims, broadcast, transpose (the second partition is [BC, BR]) and
// scf.if yields. The mma has transpose_a, so its M comes from a's dim 1.

// CHECK-LABEL: tile.kernel @shapes
// CHECK-SAME: params {BC = 128, BR = 8}
// CHECK: tile.partition %{{.*}} tile [BR, BC] pad(zero) : memref<?x?xf32> -> !tile.part<8x128xf32, pad = zero>
// CHECK: tile.partition %{{.*}} tile [BC, BR] : memref<?x?xf32> -> !tile.part<128x8xf32>
// CHECK: tile.load {{.*}} -> tensor<8x128xf32>
// CHECK: tile.iota dim 1 : tensor<8x128xi32>
// CHECK: arith.constant dense<10> : tensor<8x128xi32>
// CHECK: arith.cmpi slt, %{{.*}} : tensor<8x128xi32>
// CHECK: tile.splat %{{.*}} : f32 -> tensor<8x128xf32>
// CHECK: arith.select %{{.*}} : tensor<8x128xi1>, tensor<8x128xf32>
// CHECK: tile.reduce add %{{.*}} dim 1 : tensor<8x128xf32> -> tensor<8xf32>
// CHECK: tile.expand_dims %{{.*}} dim 1 : tensor<8xf32> -> tensor<8x1xf32>
// CHECK: tile.reduce max %{{.*}} dim 1 : tensor<8x1xf32> -> tensor<8xf32>
// CHECK: tile.broadcast %{{.*}} dims [1] : tensor<8xf32> -> tensor<8x128xf32>
// CHECK: arith.divf %{{.*}} : tensor<8x128xf32>
// CHECK: tile.transpose %{{.*}} perm [1, 0] : tensor<8x128xf32> -> tensor<128x8xf32>
// CHECK: tile.splat %{{.*}} : f32 -> tensor<8x8xf32>
// CHECK: tile.mma %{{.*}} {transpose_a} : tensor<8x128xf32>, tensor<8x8xf32> -> tensor<128x8xf32>
// CHECK: scf.if %{{.*}} -> (tensor<128x8xf32>)
// CHECK:   scf.yield %{{.*}} : tensor<128x8xf32>
// CHECK: } else {
// CHECK:   arith.constant dense<0.000000e+00> : tensor<128x8xf32>
// CHECK: tile.store %{{.*}} : tensor<128x8xf32>, !tile.part<128x8xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @shapes(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %Y: memref<?x?xf32> {tile.dims = ["N", "M"]}, %s: f32)
      params {BR = 4, BC = 64} {
    %Xv = tile.partition %X tile [BR, BC] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BC, BR] : memref<?x?xf32> -> !tile.part<64x4xf32>
    %i, %j = tile.grid %Xv : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%i, %j] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %cols = tile.iota dim 1 : tensor<4x64xi32>
    %lim = arith.constant dense<10> : tensor<4x64xi32>
    %mask = arith.cmpi slt, %cols, %lim : tensor<4x64xi32>
    %fill = tile.splat %s : f32 -> tensor<4x64xf32>
    %sel = arith.select %mask, %x, %fill : tensor<4x64xi1>, tensor<4x64xf32>
    %sum = tile.reduce add %sel dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    %col = tile.expand_dims %sum dim 1 : tensor<4xf32> -> tensor<4x1xf32>
    %same = tile.reduce max %col dim 1 : tensor<4x1xf32> -> tensor<4xf32>
    %b = tile.broadcast %same dims [1] : tensor<4xf32> -> tensor<4x64xf32>
    %d = arith.divf %sel, %b : tensor<4x64xf32>
    %t = tile.transpose %d perm [1, 0] : tensor<4x64xf32> -> tensor<64x4xf32>
    %sq = tile.splat %s : f32 -> tensor<4x4xf32>
    %p = tile.mma %d, %sq, %t {transpose_a} : tensor<4x64xf32>, tensor<4x4xf32> -> tensor<64x4xf32>
    %c = arith.cmpf ogt, %s, %s : f32
    %r = scf.if %c -> (tensor<64x4xf32>) {
      scf.yield %p : tensor<64x4xf32>
    } else {
      %z = arith.constant dense<0.0> : tensor<64x4xf32>
      scf.yield %z : tensor<64x4xf32>
    }
    tile.store %r, %Yv[%j, %i] : tensor<64x4xf32>, !tile.part<64x4xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BR = 8, BC = 128} : !transform.any_op
    transform.yield
  }
}

// -----

// Values from upstream tuning ops, targets found by tile.tag on an op inside
// the kernel, and two kernels in one handle (each edited once).

// CHECK-LABEL: tile.kernel @first
// CHECK-SAME: params {BR = 16, BX = 2}
// CHECK: !tile.part<16xf32>
// CHECK-LABEL: tile.kernel @second
// CHECK-SAME: params {BR = 16, BX = 2}
// CHECK: !tile.part<16xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @first(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4, BX = 1} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    %x = tile.load %Xv[%i] {tile.tag = "body"} : !tile.part<4xf32> -> tensor<4xf32>
    tile.store %x, %Xv[%i] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  tile.kernel @second(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4, BX = 1} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    %x = tile.load %Xv[%i] {tile.tag = "body"} : !tile.part<4xf32> -> tensor<4xf32>
    %y = arith.negf %x {tile.tag = "body"} : tensor<4xf32>
    tile.store %y, %Xv[%i] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tagged = transform.structured.match attributes{tile.tag = "body"} in %root : (!transform.any_op) -> !transform.any_op
    %br = transform.tune.knob<"BR"> = 16 from options = [4, 8, 16] -> !transform.param<i64>
    %bx = transform.tune.alternatives<"BX"> selected_region = 1 -> !transform.param<i64> {
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.yield %one : !transform.param<i64>
    }, {
      %two = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.yield %two : !transform.param<i64>
    }
    transform.tile.set_params %tagged {BR = %br, BX = %bx} : !transform.any_op
    transform.yield
  }
}

// -----

// Params that size the same dim may change together.

// CHECK-LABEL: tile.kernel @tied
// CHECK-SAME: params {BM = 32, BN = 32}
// CHECK: arith.addf %{{.*}} : tensor<32x32xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @tied(%X: memref<?x?xf32> {tile.dims = ["M", "M"]})
      params {BM = 16, BN = 16} {
    %A = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %B = tile.partition %X tile [BN, BM] : memref<?x?xf32> -> !tile.part<16x16xf32>
    %i, %j = tile.grid %A : !tile.part<16x16xf32>
    %a = tile.load %A[%i, %j] : !tile.part<16x16xf32> -> tensor<16x16xf32>
    %b = tile.load %B[%j, %i] : !tile.part<16x16xf32> -> tensor<16x16xf32>
    %s = arith.addf %a, %b : tensor<16x16xf32>
    tile.store %s, %A[%i, %j] : tensor<16x16xf32>, !tile.part<16x16xf32>
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BM = 32, BN = 32} : !transform.any_op
    transform.yield
  }
}

// -----

// A tile.tag on the kernel itself.

// CHECK-LABEL: tile.kernel @tagged
// CHECK-SAME: params {BR = 8} attributes {tile.tag = "rows"}
// CHECK: !tile.part<8xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @tagged(%X: memref<?xf32> {tile.dims = ["M"]}) params {BR = 4} attributes {tile.tag = "rows"} {
    %Xv = tile.partition %X tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %i = tile.grid %Xv : !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match attributes{tile.tag = "rows"} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BR = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// A masked row kernel (as tasks/layernorm): tile.extent reads a dim of the
// memref and tile.tile_size the view's tile size, so neither pins BN; the
// tile-size value follows the view's new type.

// CHECK-LABEL: tile.kernel @masked_rows
// CHECK-SAME: params {BN = 512, BR = 8}
// CHECK: %[[XV:.*]] = tile.partition %{{.*}} tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
// CHECK: tile.extent %[[XV]][1] : !tile.part<8x512xf32, pad = zero>
// CHECK: tile.tile_size %[[XV]][1] : !tile.part<8x512xf32, pad = zero>
// CHECK: tile.iota dim 1 : tensor<8x512xindex>
// CHECK: arith.cmpi ult, %{{.*}} : tensor<8x512xindex>
// CHECK: arith.select %{{.*}} : tensor<8x512xi1>, tensor<8x512xf32>
// CHECK: tile.reduce add %{{.*}} dim 1 : tensor<8x512xf32> -> tensor<8xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @masked_rows(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %Y: memref<?xf32> {tile.dims = ["M"]})
      params {BR = 4, BN = 1024} {
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
    %r = tile.grid %Yv : !tile.part<4xf32>
    %c0 = arith.constant 0 : index
    %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
    %x = tile.load %Xv[%r, %c0] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %cols = tile.iota dim 1 : tensor<4x1024xindex>
    %j0 = arith.muli %c0, %bn : index
    %base = tile.splat %j0 : index -> tensor<4x1024xindex>
    %col = arith.addi %base, %cols : tensor<4x1024xindex>
    %n2d = tile.splat %n : index -> tensor<4x1024xindex>
    %inb = arith.cmpi ult, %col, %n2d : tensor<4x1024xindex>
    %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
    %m = arith.select %inb, %x, %zero : tensor<4x1024xi1>, tensor<4x1024xf32>
    %s = tile.reduce add %m dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    tile.store %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BR = 8, BN = 512} : !transform.any_op
    transform.yield
  }
}

// -----

// The shared-memory budget counts what the chosen impl stages: bf16 tiles
// that impl = simt would widen to f32 (264 KB, set-params-invalid.mlir) fit
// once mma_impl picked mma_sync (128 KB of bf16 buffers).

// CHECK-LABEL: tile.kernel @mma_sync_budget
// CHECK-SAME: params {BM = 128, BN = 128, num_warps = 8}
// CHECK: tile.mma {{.*}} impl(mma_sync) {transpose_b} : tensor<128x256xbf16>, tensor<128x256xbf16> -> tensor<128x128xf32>
module attributes {transform.with_named_sequence} {
  tile.kernel @mma_sync_budget(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
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
    %r = tile.mma %x, %w, %z {transpose_b} : tensor<64x256xbf16>, tensor<64x256xbf16> -> tensor<64x64xf32>
    tile.store %r, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128} : !transform.any_op
    transform.yield
  }
}
