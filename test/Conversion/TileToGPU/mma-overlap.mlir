// RUN: kbench-opt %s --split-input-file --tile-overlap-mma | FileCheck %s
// RUN: kbench-opt %s --split-input-file --tile-overlap-mma --tile-to-gpu | FileCheck %s --check-prefix=GPU

// mma_overlap = 1 rotates a loop of two wgmma tile.mma (attention's shape:
// scores, work on them, the rescaled accumulator, the second mma). The
// prologue runs iteration 0 without the second mma; iteration j issues its
// first mma, then the second mma of iteration j - 1 (its B tile loaded at
// j - 1, its A and accumulator operands carried from iteration j - 1 as
// iter_args), then the rest of iteration j, which reads the accumulator as
// that second mma left it; the epilogue runs the second mma of the last
// iteration, lb + (ub - lb - 1) / step * step. Loops of no iteration yield
// the initial values.

// CHECK-LABEL: tile.kernel @overlap
// CHECK: %[[Q:.*]] = tile.load
// CHECK: %[[ANY:.*]] = arith.cmpi slt, %[[C0:.*]], %[[NK:.*]] : index
// CHECK-NEXT: %[[OUT:.*]] = scf.if %[[ANY]] -> (tensor<64x128xf32>) {
// CHECK-NEXT: %[[K0:.*]] = tile.load %{{.*}}[%[[C0]], %[[C0]]]
// CHECK-NEXT: %[[S0:.*]] = tile.mma %[[Q]], %[[K0]]
// CHECK-NEXT: %[[E0:.*]] = math.exp2 %[[S0]]
// CHECK-NEXT: %[[P0:.*]] = arith.truncf %[[E0]]
// CHECK-NEXT: %[[HALF0:.*]] = arith.constant
// CHECK-NEXT: %[[SCALED0:.*]] = arith.mulf %[[ZO:.*]], %[[HALF0]]
// CHECK-NEXT: %[[START:.*]] = arith.addi %[[C0]], %[[C1:.*]] : index
// CHECK-NEXT: %[[LOOP:.*]]:3 = scf.for %[[J:.*]] = %[[START]] to %[[NK]] step %[[C1]] iter_args(%{{.*}} = %[[ZO]], %[[P:.*]] = %[[P0]], %[[SCALED:.*]] = %[[SCALED0]]) -> (tensor<64x128xf32>, tensor<64x64xbf16>, tensor<64x128xf32>) {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[J]], %[[C1]] : index
// CHECK-NEXT: %[[K:.*]] = tile.load %{{.*}}[%[[J]], %[[C0]]]
// CHECK-NEXT: %[[S:.*]] = tile.mma %[[Q]], %[[K]]
// CHECK-NEXT: %[[V:.*]] = tile.load %{{.*}}[%[[PREV]], %[[C0]]]
// CHECK-NEXT: %[[R:.*]] = tile.mma %[[P]], %[[V]], %[[SCALED]]
// CHECK-NEXT: %[[E:.*]] = math.exp2 %[[S]]
// CHECK-NEXT: %[[PN:.*]] = arith.truncf %[[E]]
// CHECK-NEXT: %[[HALF:.*]] = arith.constant
// CHECK-NEXT: %[[SCALEDN:.*]] = arith.mulf %[[R]], %[[HALF]]
// CHECK-NEXT: scf.yield %[[R]], %[[PN]], %[[SCALEDN]]
// CHECK-NEXT: } {tile.mma_overlap, tile.pipeline_stages = 3 : i64}
// CHECK: %[[SPAN:.*]] = arith.subi %[[NK]], %[[C0]] : index
// CHECK-NEXT: %[[REST:.*]] = arith.subi %[[SPAN]], %{{.*}} : index
// CHECK-NEXT: %[[STEPS:.*]] = arith.divui %[[REST]], %[[C1]] : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[STEPS]], %[[C1]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[C0]], %[[OFFSET]] : index
// CHECK-NEXT: %[[VL:.*]] = tile.load %{{.*}}[%[[LAST]], %[[C0]]]
// CHECK-NEXT: %[[RL:.*]] = tile.mma %[[LOOP]]#1, %[[VL]], %[[LOOP]]#2
// CHECK-NEXT: scf.yield %[[RL]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZO]]
// CHECK: tile.store %[[OUT]]

// In the lowered loop (3 stages) the copies run two iterations ahead (no
// group outlives its iteration), the first mma's group stays in flight
// past the second's issue, the work on its result waits for it alone (1
// group pending) and the accumulator's first reader for both (0).
// GPU-LABEL: gpu.func @overlap
// GPU: scf.for
// GPU: nvvm.cp.async.wait.group 1
// GPU: nvvm.wgmma.mma_async
// GPU: nvvm.wgmma.commit.group.sync.aligned
// GPU-NOT: nvvm.wgmma.wait.group
// GPU: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// GPU: nvvm.wgmma.commit.group.sync.aligned
// GPU-NOT: nvvm.wgmma.wait.group
// GPU: nvvm.wgmma.wait.group.sync.aligned 1
// GPU-NEXT: math.exp2
// GPU-NOT: nvvm.wgmma.wait.group
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU-NEXT: arith.mulf
// GPU-NEXT: scf.yield
// GPU-NEXT: }
// GPU-NEXT: nvvm.cp.async.wait.group 0
tile.kernel @overlap(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                     %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                     %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                     %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, mma_overlap = 1} {
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
  %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
    %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 3 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}

// -----

// Without the knob (0, the default) the loop stays as written.
// CHECK-LABEL: tile.kernel @no_overlap
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK-NOT: tile.mma_overlap
tile.kernel @no_overlap(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
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
  %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
    %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 3 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}

// -----

// A loop the rotation does not accept (here the accumulator is read before
// the first mma) is left alone; transform.tile.mma_overlap refuses such a
// kernel (test/Dialect/Tile/TransformOps/mma-overlap-invalid.mlir).
// CHECK-LABEL: tile.kernel @acc_read_early
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK-NOT: tile.mma_overlap
tile.kernel @acc_read_early(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                     %K: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                     %V: memref<?x?xbf16> {tile.dims = ["S", "D"]},
                     %O: memref<?x?xf32> {tile.dims = ["M", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4, mma_overlap = 1} {
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
  %q = tile.load %Qv[%m, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
  %o = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %zo) -> (tensor<64x128xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %v = tile.load %Vv[%j, %c0] : !tile.part<64x128xbf16, pad = zero> -> tensor<64x128xbf16>
    %half = arith.constant dense<0.5> : tensor<64x128xf32>
    %scaled = arith.mulf %acc, %half : tensor<64x128xf32>
    %s = tile.mma %q, %k, %zs impl(wgmma) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
    %r = tile.mma %p, %v, %scaled impl(wgmma) : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %r : tensor<64x128xf32>
  } {tile.pipeline_stages = 3 : i64}
  tile.store %o, %Ov[%m, %c0] : tensor<64x128xf32>, !tile.part<64x128xf32>
  tile.return
}
