// RUN: kbench-opt %s --split-input-file --tile-to-gpu --verify-diagnostics

// Every refusal of the mma_sync lowering (MmaSyncRules.h). Tile sizes that
// are not multiples of m16n8k16 are refused by the tile.mma verifier first
// (test/Dialect/Tile/invalid.mlir) and by transform.tile.mma_impl.

// f32 operands need tf32, which this kernel does not allow (no
// tile.allow_tf32: its task does not opt in).
tile.kernel @tf32(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
                  %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1} {
  %Cv = tile.partition %C tile [16, 8] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x8xf32>
  %a = arith.constant dense<1.0> : tensor<16x16xf32>
  %b = arith.constant dense<1.0> : tensor<8x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  // expected-error @+1 {{'tile.mma' op impl = mma_sync with f32 operands needs tf32 tensor cores, which round the operands to 10 mantissa bits, and the task has not opted into tf32 ("allow_tf32": true in task.json); opt in, cast the operands to bf16, or use impl = simt}}
  %c = tile.mma %a, %b, %z impl(mma_sync) {transpose_b} : tensor<16x16xf32>, tensor<8x16xf32> -> tensor<16x8xf32>
  tile.store %c, %Cv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

tile.kernel @f16_acc(%C: memref<?x?xf16> {tile.dims = ["M", "N"]})
    params {num_warps = 1} {
  %Cv = tile.partition %C tile [16, 8] : memref<?x?xf16> -> !tile.part<16x8xf16>
  %m, %n = tile.grid %Cv : !tile.part<16x8xf16>
  %a = arith.constant dense<1.0> : tensor<16x16xf16>
  %b = arith.constant dense<1.0> : tensor<8x16xf16>
  %z = arith.constant dense<0.0> : tensor<16x8xf16>
  // expected-error @+1 {{'tile.mma' op impl = mma_sync lowers bf16 x bf16 -> f32, f16 x f16 -> f32 and (as tf32) f32 x f32 -> f32 only, got f16 x f16 -> f16; use an f32 accumulator, or impl = simt}}
  %c = tile.mma %a, %b, %z impl(mma_sync) {transpose_b} : tensor<16x16xf16>, tensor<8x16xf16> -> tensor<16x8xf16>
  tile.store %c, %Cv[%m, %n] : tensor<16x8xf16>, !tile.part<16x8xf16>
  tile.return
}

// -----

// A 16x8 accumulator is one mma tile: it cannot be split over 4 warps.
tile.kernel @warps(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Cv = tile.partition %C tile [16, 8] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x8xf32>
  %a = arith.constant dense<1.0> : tensor<16x16xbf16>
  %b = arith.constant dense<1.0> : tensor<8x16xbf16>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  // expected-error @+1 {{'tile.mma' op impl = mma_sync cannot split the 16x8 accumulator over num_warps = 4: every warp needs a multiple of 16 rows and 8 columns; lower num_warps or raise BM/BN}}
  %c = tile.mma %a, %b, %z impl(mma_sync) {transpose_b} : tensor<16x16xbf16>, tensor<8x16xbf16> -> tensor<16x8xf32>
  tile.store %c, %Cv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

// (64 + 32) x 2048 bf16 operands need 384 KB of shared memory.
tile.kernel @smem(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 8} {
  %Cv = tile.partition %C tile [64, 32] : memref<?x?xf32> -> !tile.part<64x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x32xf32>
  %a = arith.constant dense<1.0> : tensor<64x2048xbf16>
  %b = arith.constant dense<1.0> : tensor<32x2048xbf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.mma' op impl = mma_sync stages its operands in 393216 bytes of shared memory, over the 232448-byte limit of one CTA; lower BM, BN or BK}}
  %c = tile.mma %a, %b, %z impl(mma_sync) {transpose_b} : tensor<64x2048xbf16>, tensor<32x2048xbf16> -> tensor<64x32xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x32xf32>, !tile.part<64x32xf32>
  tile.return
}

// -----

// The cp.async pipeline copies 16-byte chunks, one or more per thread: an
// 8x16 B tile has 16 chunks for 32 threads.
tile.kernel @stages(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                    %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                    %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [16, 16] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Bv = tile.partition %B tile [8, 16] pad(zero) : memref<?x?xbf16> -> !tile.part<8x16xbf16, pad = zero>
  %Cv = tile.partition %C tile [16, 8] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x8xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<16x16xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 2: the cp.async pipeline copies 16-byte chunks, and the 16x16 and 8x16 operand tiles do not split evenly over 32 threads; raise BM, BN or BK, or lower num_warps; use stages 1}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<16x8xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
    %b = tile.load %Bv[%n, %k] : !tile.part<8x16xbf16, pad = zero> -> tensor<8x16xbf16>
    %r = tile.mma %a, %b, %s impl(mma_sync) {transpose_b} : tensor<16x16xbf16>, tensor<8x16xbf16> -> tensor<16x8xf32>
    scf.yield %r : tensor<16x8xf32>
  } {tile.pipeline_stages = 2}
  tile.store %acc, %Cv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

// A given as KxM (transpose_a) is not staged as rows of K.
tile.kernel @stages_transpose_a(%A: memref<?x?xbf16> {tile.dims = ["K", "M"]},
                                %B: memref<?x?xbf16> {tile.dims = ["K", "N"]},
                                %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [16, 16] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Bv = tile.partition %B tile [16, 16] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Cv = tile.partition %C tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Av[0] : !tile.part<16x16xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 4: the cp.async pipeline copies operand rows as they are in memory and stages A as rows of K, so A must be MxK (no transpose_a); use stages 1}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<16x16xf32>) {
    %a = tile.load %Av[%k, %m] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
    %b = tile.load %Bv[%k, %n] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
    %r = tile.mma %a, %b, %s impl(mma_sync) {transpose_a} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  } {tile.pipeline_stages = 4}
  tile.store %acc, %Cv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// -----

// A KxN B (no transpose_b) is staged as its rows of N: 8 is half a swizzle
// unit.
tile.kernel @stages_kxn_n8(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                           %B: memref<?x?xbf16> {tile.dims = ["K", "N"]},
                           %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [16, 16] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Bv = tile.partition %B tile [16, 8] pad(zero) : memref<?x?xbf16> -> !tile.part<16x8xbf16, pad = zero>
  %Cv = tile.partition %C tile [16, 8] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x8xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<16x16xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 4: the cp.async pipeline stages a KxN B (no transpose_b) as its rows of N, which must be a multiple of 16 elements, got N = 8; change BN; use stages 1}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<16x8xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
    %b = tile.load %Bv[%k, %n] : !tile.part<16x8xbf16, pad = zero> -> tensor<16x8xbf16>
    %r = tile.mma %a, %b, %s impl(mma_sync) : tensor<16x16xbf16>, tensor<16x8xbf16> -> tensor<16x8xf32>
    scf.yield %r : tensor<16x8xf32>
  } {tile.pipeline_stages = 4}
  tile.store %acc, %Cv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

// Five stages are out of range.
tile.kernel @stages_range(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                          %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                          %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [16, 16] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Bv = tile.partition %B tile [16, 16] pad(zero) : memref<?x?xbf16> -> !tile.part<16x16xbf16, pad = zero>
  %Cv = tile.partition %C tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<16x16xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 5 is out of range for impl = mma_sync: use 1 to 4}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<16x16xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
    %b = tile.load %Bv[%n, %k] : !tile.part<16x16xbf16, pad = zero> -> tensor<16x16xbf16>
    %r = tile.mma %a, %b, %s impl(mma_sync) {transpose_b} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  } {tile.pipeline_stages = 5}
  tile.store %acc, %Cv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// -----

// tf32 (the kernel allows it): ldmatrix.trans moves 16-bit elements, so a
// tf32 A must come as MxK.
tile.kernel @tf32_transposed_a(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1} attributes {tile.allow_tf32} {
  %Cv = tile.partition %C tile [16, 8] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x8xf32>
  %a = arith.constant dense<1.0> : tensor<8x16xf32>
  %b = arith.constant dense<1.0> : tensor<8x8xf32>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  // expected-error @+1 {{'tile.mma' op impl = mma_sync with tf32 operands reads A as rows of K (ldmatrix cannot transpose 32-bit elements), so A must be MxK (no transpose_a)}}
  %c = tile.mma %a, %b, %z impl(mma_sync) {transpose_a} : tensor<8x16xf32>, tensor<8x8xf32> -> tensor<16x8xf32>
  tile.store %c, %Cv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

// tf32 in a cp.async K loop: the copies keep a KxN B's rows of N, which a
// tf32 mma cannot read; staged from registers (no pipeline) it is
// transposed by the store and lowers (mma-sync-tf32.mlir).
tile.kernel @tf32_pipelined_kxn(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                                %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                                %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} attributes {tile.allow_tf32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [64, 16] pad(zero) : memref<?x?xf32> -> !tile.part<64x16xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 64] pad(zero) : memref<?x?xf32> -> !tile.part<16x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x16xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 3: the cp.async pipeline copies a KxN B as its rows of N, and tf32 reads B as rows of K (ldmatrix cannot transpose 32-bit elements); give B as NxK (transpose_b); use stages 1}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x16xf32, pad = zero> -> tensor<64x16xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<16x64xf32, pad = zero> -> tensor<16x64xf32>
    %r = tile.mma %x, %w, %a impl(mma_sync) : tensor<64x16xf32>, tensor<16x64xf32> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  } {tile.pipeline_stages = 3}
  tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}
