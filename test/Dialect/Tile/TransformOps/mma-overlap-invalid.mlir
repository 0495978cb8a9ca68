// RUN: kbench-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// transform.tile.mma_overlap is a switch: 0 or 1.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{in this kernel}}
  tile.kernel @range(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
      %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      scf.yield %r : tensor<64x128xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_overlap: mma_overlap = 2 is outside 0..1; it is a switch}}
    transform.tile.mma_overlap %k 2 : !transform.any_op
    transform.yield
  }
}

// -----

// The overlap is between wgmma groups.
module attributes {transform.with_named_sequence} {
  tile.kernel @simt(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %zs impl(simt) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
      %r = tile.mma %p, %v, %scaled impl(simt) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      scf.yield %r : tensor<64x128xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{both tile.mma need impl = wgmma; set transform.tile.mma_impl wgmma before it}}
    transform.tile.mma_overlap %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A loop of one tile.mma has nothing to overlap.
module attributes {transform.with_named_sequence} {
  tile.kernel @one_mma(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zs) -> (tensor<64x64xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %acc impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      scf.yield %s : tensor<64x64xf32>
    }
        tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_overlap rotates a loop whose body holds exactly two tile.mma, both directly in it; this scf.for holds 1}}
    transform.tile.mma_overlap %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The accumulator is read before the first mma: the rotated loop would
// read it before the second mma of the step before has produced it.
module attributes {transform.with_named_sequence} {
  tile.kernel @acc_early(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
      %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      scf.yield %r : tensor<64x128xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{so the loop-carried accumulator may only be read after the first tile.mma; 'arith.mulf' reads it before}}
    transform.tile.mma_overlap %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// The second mma's result must be the carried accumulator itself.
module attributes {transform.with_named_sequence} {
  tile.kernel @result_used(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
      %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      %twice = arith.addf %r, %r : tensor<64x128xf32>
      scf.yield %twice : tensor<64x128xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_overlap runs the second tile.mma one step late, so its result must feed only the scf.yield (the loop-carried accumulator)}}
    transform.tile.mma_overlap %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// Only reads may move across steps.
module attributes {transform.with_named_sequence} {
  tile.kernel @writes(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                    %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                    %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
      params {BM = 64, BN = 64, BD = 128, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Vv = tile.partition %V tile [BN, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<64x128xbf16, pad = zero>
    %Ov = tile.partition %O tile [BM, BD] : memref<?x?xf32> -> !tile.part<64x128xf32>
    %m = tile.grid %Ov dims [0] : !tile.part<64x128xf32>
    %nk = tile.num_tiles %Kv[0] : !tile.part<64x128xbf16, pad = zero>
    %zs = arith.constant dense<0.0> : tensor<64x64xf32>
    %zo = arith.constant dense<0.0> : tensor<64x128xf32>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    // expected-note @below {{this scf.for}}
    %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
      %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
      %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
      tile.store %scaled, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
      %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
      scf.yield %r : tensor<64x128xf32>
    }
    tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{so the loop body may only read memory (tile.load) and compute; this scf.for has an op with other effects}}
    transform.tile.mma_overlap %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A kernel without a loop of tile.mma.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{this kernel}}
  tile.kernel @copy(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BM = 2, BN = 256, num_warps = 2, vector_width = 4} {
    %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %m, %n = tile.grid %Xv : !tile.part<2x256xf32>
    tile.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.tile.mma_overlap: mma_overlap rotates loops of two tile.mma, and this kernel has no scf.for with a tile.mma}}
    transform.tile.mma_overlap %k 1 : !transform.any_op
    transform.yield
  }
}
