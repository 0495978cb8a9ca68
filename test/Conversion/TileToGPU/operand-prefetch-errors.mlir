// RUN: kbench-opt %s --split-input-file --tile-to-gpu -verify-diagnostics

// tile-to-gpu's own check of a recorded depth on a loop that is not a K loop
// (hand-written IR; transform.tile.pipeline refuses these first): a
// tensor-core tile.mma in the loop but no B operand loaded in the body (the
// key tile is cast from f32 first), so there is nothing to prefetch.
tile.kernel @nothing_to_prefetch(%Q: memref<?x?xbf16> {tile.dims = ["M", "D"]},
                                 %K: memref<?x?xf32> {tile.dims = ["S", "D"]},
                                 %O: memref<?x?xf32> {tile.dims = ["M", "S"]})
    params {BM = 32, BN = 32, BD = 16, num_warps = 2} requires ["D <= BD"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [BM, BD] pad(zero) : memref<?x?xbf16> -> !tile.part<32x16xbf16, pad = zero>
  %Kv = tile.partition %K tile [BN, BD] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Ov = tile.partition %O tile [BM, BN] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<32x32xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<32x16xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xbf16, pad = zero> -> tensor<32x16xbf16>
  // expected-error @below {{'scf.for' op tile.pipeline_stages = 2: this scf.for is neither a K loop (a body that only loads the two operands of one tile.mma accumulating into the single iter_arg) nor a loop whose mma_sync or wgmma tile.mma ops read an operand loaded in the loop body; use stages 1}}
  %s = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %z) -> (tensor<32x32xf32>) {
    %kf = tile.load %Kv[%j, %c0] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    %k = arith.truncf %kf : tensor<32x16xf32> to tensor<32x16xbf16>
    %r = tile.mma %q, %k, %acc impl(mma_sync) {transpose_b} : tensor<32x16xbf16>, tensor<32x16xbf16> -> tensor<32x32xf32>
    scf.yield %r : tensor<32x32xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %s, %Ov[%m, %c0] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}

// -----

// tf32: the prefetch copies a KxN B as its rows of N, which a tf32 mma
// cannot read (ldmatrix.trans is 16-bit).
tile.kernel @tf32_kxn_prefetch(%Q: memref<?x?xf32> {tile.dims = ["M", "D"]},
                               %V: memref<?x?xf32> {tile.dims = ["D", "S"]},
                               %O: memref<?x?xf32> {tile.dims = ["M", "S"]})
    params {num_warps = 2} attributes {tile.allow_tf32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Vv = tile.partition %V tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Ov = tile.partition %O tile [32, 32] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<32x32xf32>
  %nk = tile.num_tiles %Qv[1] : !tile.part<32x16xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %q = tile.load %Qv[%m, %c0] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  // expected-error @below {{'scf.for' op tile.pipeline_stages = 2: a KxN B is prefetched as its rows of N, and tf32 reads B as rows of K (ldmatrix cannot transpose 32-bit elements); give B as NxK (transpose_b)}}
  %s = scf.for %j = %c0 to %nk step %c1 iter_args(%acc = %z) -> (tensor<32x32xf32>) {
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %r = tile.mma %q, %v, %acc impl(mma_sync) : tensor<32x16xf32>, tensor<16x32xf32> -> tensor<32x32xf32>
    scf.yield %r : tensor<32x32xf32>
  } {tile.pipeline_stages = 2 : i64}
  tile.store %s, %Ov[%m, %c0] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}
