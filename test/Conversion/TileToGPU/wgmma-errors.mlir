// RUN: kbench-opt %s --split-input-file --tile-to-gpu --verify-diagnostics

// Every refusal of the wgmma lowering (WgmmaRules.h). M, N and K that are not
// multiples of the m64nNk16 shape are refused by the tile.mma verifier first
// (test/Dialect/Tile/IR/invalid-ops.mlir) and by transform.tile.mma_impl.

// f32 operands need tf32, which this kernel does not allow (no
// tile.allow_tf32: its task does not opt in).
tile.kernel @tf32(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %a = arith.constant dense<1.0> : tensor<64x64xf32>
  %b = arith.constant dense<1.0> : tensor<64x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma with f32 operands needs tf32 tensor cores, which round the operands to 10 mantissa bits, and the task has not opted into tf32 ("allow_tf32": true in task.json); opt in, cast the operands to bf16, or use impl = simt}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// An f16 accumulator is a form of wgmma tile-to-gpu does not lower.
tile.kernel @f16_acc(%C: memref<?x?xf16> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf16> -> !tile.part<64x64xf16>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf16>
  %a = arith.constant dense<1.0> : tensor<64x64xf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf16>
  // expected-error @+1 {{'tile.mma' op impl = wgmma lowers bf16 x bf16 -> f32 and f16 x f16 -> f32 only, got f16 x f16 -> f16; use an f32 accumulator, or impl = simt}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  tile.store %c, %Cv[%m, %n] : tensor<64x64xf16>, !tile.part<64x64xf16>
  tile.return
}

// -----

// A given as KxM is not staged as rows of K.
tile.kernel @transpose_a(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %a = arith.constant dense<1.0> : tensor<64x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma reads A from shared memory as rows of K, so A must be MxK (no transpose_a); use impl = mma_sync for a KxM A}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_a, transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// A KxN B is staged N-major in columns of 64 elements: N = 32 is half one.
tile.kernel @no_transpose_b_n32(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Cv = tile.partition %C tile [64, 32] : memref<?x?xf32> -> !tile.part<64x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x32xf32>
  %a = arith.constant dense<1.0> : tensor<64x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x32xbf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma stages a KxN B (no transpose_b) in columns of 64 N elements (one 128-byte swizzle row each), so N must be a multiple of 64, got N = 32; change BN, or use transpose_b}}
  %c = tile.mma %a, %b, %z impl(wgmma) : tensor<64x64xbf16>, tensor<64x32xbf16> -> tensor<64x32xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x32xf32>, !tile.part<64x32xf32>
  tile.return
}

// -----

// A K tile of 32 elements is half a 128-byte swizzle row.
tile.kernel @k32(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<64x32xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma stages rows of K in blocks of 64 elements (one 128-byte swizzle row each), got a K tile of 32; set BK to a multiple of 64}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// Two warps are half a warpgroup.
tile.kernel @warps(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 2} {
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %a = arith.constant dense<1.0> : tensor<64x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma runs on whole warpgroups of 4 warps, got num_warps = 2; use a multiple of 4}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// Two warpgroups need 128 rows, 64 each.
tile.kernel @rows(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 8} {
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %a = arith.constant dense<1.0> : tensor<64x64xbf16>
  %b = arith.constant dense<1.0> : tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma gives each of the 2 warpgroups (num_warps = 8) whole 64-row wgmma tiles, so M must be a multiple of 128, got 64; change BM or num_warps}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// One wgmma is at most 256 columns wide.
tile.kernel @wide(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %Cv = tile.partition %C tile [64, 512] : memref<?x?xf32> -> !tile.part<64x512xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x512xf32>
  %a = arith.constant dense<1.0> : tensor<64x64xbf16>
  %b = arith.constant dense<1.0> : tensor<512x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x512xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma issues m64nNk16 with N the whole accumulator width, a multiple of 8 up to 256, got N = 512; change BN}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x64xbf16>, tensor<512x64xbf16> -> tensor<64x512xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x512xf32>, !tile.part<64x512xf32>
  tile.return
}

// -----

// Four stages of 256x64 and 256x64 bf16 tiles are 256 KB of shared memory.
tile.kernel @smem(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                    %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                    %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [256, 64] pad(zero) : memref<?x?xbf16> -> !tile.part<256x64xbf16, pad = zero>
  %Bv = tile.partition %B tile [256, 64] pad(zero) : memref<?x?xbf16> -> !tile.part<256x64xbf16, pad = zero>
  %Cv = tile.partition %C tile [256, 256] : memref<?x?xf32> -> !tile.part<256x256xf32>
  %mi, %ni = tile.grid %Cv : !tile.part<256x256xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<256x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<256x256xf32>
  // expected-error @+1 {{'scf.for' op impl = wgmma stages its operands in 263168 bytes of shared memory, over the 232448-byte limit of one CTA; lower BM, BN or the pipeline stages}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<256x256xf32>) {
    %a = tile.load %Av[%mi, %k] : !tile.part<256x64xbf16, pad = zero> -> tensor<256x64xbf16>
    %b = tile.load %Bv[%ni, %k] : !tile.part<256x64xbf16, pad = zero> -> tensor<256x64xbf16>
    %r = tile.mma %a, %b, %s impl(wgmma) {transpose_b} : tensor<256x64xbf16>, tensor<256x64xbf16> -> tensor<256x256xf32>
    scf.yield %r : tensor<256x256xf32>
  } {tile.pipeline_stages = 4}
  tile.store %acc, %Cv[%mi, %ni] : tensor<256x256xf32>, !tile.part<256x256xf32>
  tile.return
}

// -----

// Five stages are out of range.
tile.kernel @stages_range(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                    %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                    %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [64, 64] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
  %Bv = tile.partition %B tile [64, 64] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %mi, %ni = tile.grid %Cv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<64x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 5 is out of range for impl = wgmma: use 1 to 4}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<64x64xf32>) {
    %a = tile.load %Av[%mi, %k] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
    %b = tile.load %Bv[%ni, %k] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
    %r = tile.mma %a, %b, %s impl(wgmma) {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  } {tile.pipeline_stages = 5}
  tile.store %acc, %Cv[%mi, %ni] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// An 8x64 B tile has 64 16-byte chunks for 128 threads: the cp.async copies do not split evenly.
tile.kernel @stages_chunks(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                    %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                    %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [64, 64] pad(zero) : memref<?x?xbf16> -> !tile.part<64x64xbf16, pad = zero>
  %Bv = tile.partition %B tile [8, 64] pad(zero) : memref<?x?xbf16> -> !tile.part<8x64xbf16, pad = zero>
  %Cv = tile.partition %C tile [64, 8] : memref<?x?xf32> -> !tile.part<64x8xf32>
  %mi, %ni = tile.grid %Cv : !tile.part<64x8xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<64x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x8xf32>
  // expected-error @+1 {{'scf.for' op tile.pipeline_stages = 3: the cp.async pipeline copies 16-byte chunks, and the 64x64 and 8x64 operand tiles do not split evenly over 128 threads; raise BM, BN or BK, or lower num_warps; use stages 1}}
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%s = %z) -> (tensor<64x8xf32>) {
    %a = tile.load %Av[%mi, %k] : !tile.part<64x64xbf16, pad = zero> -> tensor<64x64xbf16>
    %b = tile.load %Bv[%ni, %k] : !tile.part<8x64xbf16, pad = zero> -> tensor<8x64xbf16>
    %r = tile.mma %a, %b, %s impl(wgmma) {transpose_b} : tensor<64x64xbf16>, tensor<8x64xbf16> -> tensor<64x8xf32>
    scf.yield %r : tensor<64x8xf32>
  } {tile.pipeline_stages = 3}
  tile.store %acc, %Cv[%mi, %ni] : tensor<64x8xf32>, !tile.part<64x8xf32>
  tile.return
}

// -----

// A kernel that allows tf32 gets it from mma_sync only.
tile.kernel @tf32_allowed(%C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} attributes {tile.allow_tf32} {
  %Cv = tile.partition %C tile [64, 8] : memref<?x?xf32> -> !tile.part<64x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x8xf32>
  %a = arith.constant dense<1.0> : tensor<64x16xf32>
  %b = arith.constant dense<1.0> : tensor<8x16xf32>
  %z = arith.constant dense<0.0> : tensor<64x8xf32>
  // expected-error @+1 {{'tile.mma' op impl = wgmma does not lower f32 (tf32) operands; use impl = mma_sync, or cast the operands to bf16}}
  %c = tile.mma %a, %b, %z impl(wgmma) {transpose_b} : tensor<64x16xf32>, tensor<8x16xf32> -> tensor<64x8xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x8xf32>, !tile.part<64x8xf32>
  tile.return
}
