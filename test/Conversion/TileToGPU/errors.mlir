// RUN: kbench-opt %s --split-input-file --tile-to-gpu --verify-diagnostics

// expected-error @+1 {{'tile.kernel' op cannot be lowered by tile-to-gpu: num_warps = 48 is not a power of two from 1 to 32 (the SIMT lowering splits tiles over warps in powers of two, and a CTA has at most 1024 threads)}}
tile.kernel @warps(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 64, num_warps = 48} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Xv : !tile.part<64xf32>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op cannot be lowered by tile-to-gpu: vector_width = 3 is not a power of two from 1 to 16 (one access moves at most 16 bytes, so also vector_width x element bytes <= 16)}}
tile.kernel @width(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 64, vector_width = 3} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Xv : !tile.part<64xf32>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op cannot be lowered by tile-to-gpu: group_m = 70000 is outside 1..65536; a group holds at least one row of blocks}}
tile.kernel @group(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) params {BM = 64, BN = 64, group_m = 70000} {
  %Xv = tile.partition %X tile [BM, BN] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Xv : !tile.part<64x64xf32>
  tile.return
}

// -----

tile.kernel @unsupported(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 64} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Xv : !tile.part<64xf32>
  // expected-error @+1 {{'tensor.empty' op is not supported by tile-to-gpu (the SIMT lowering handles tile ops, elementwise arith/math on tiles, scalar arith/math/index, scf.for and scf.if)}}
  %e = tensor.empty() : tensor<64xf32>
  tile.store %e, %Xv[%n] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @constant(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 4} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<4xf32>
  %n = tile.grid %Xv : !tile.part<4xf32>
  // expected-error @+1 {{'arith.constant' op non-splat tile constants are not supported by tile-to-gpu; build the tile with tile.iota, tile.splat and arith ops}}
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  tile.store %c, %Xv[%n] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// -----

tile.kernel @budget(%X: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 4096, num_warps = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<64x4096xf32, pad = zero>
  %m, %n = tile.grid %Xv : !tile.part<64x4096xf32, pad = zero>
  // expected-error @+1 {{'tile.load' op tile 'tensor<64x4096xf32>' needs 2048 elements per thread with num_warps = 4; at most 1024 fit the SIMT lowering: lower the tile sizes or raise num_warps}}
  %x = tile.load %Xv[%m, %n] : !tile.part<64x4096xf32, pad = zero> -> tensor<64x4096xf32>
  tile.store %x, %Xv[%m, %n] : tensor<64x4096xf32>, !tile.part<64x4096xf32, pad = zero>
  tile.return
}

// -----

tile.kernel @mma_impl(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
                      %C: memref<?x?xf32> {tile.dims = ["M", "M"]})
    params {BM = 64, BK = 8, num_warps = 4} {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
  %Cv = tile.partition %C tile [BM, BM] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // f32 operands would need tf32 tensor cores (WgmmaRules.h; every refusal is
  // in wgmma-errors.mlir).
  // expected-error @+1 {{'tile.mma' op impl = wgmma with f32 operands needs tf32 tensor cores, which round the operands to 10 mantissa bits, and the task has not opted into tf32 ("allow_tf32": true in task.json); opt in, cast the operands to bf16, or use impl = simt}}
  %c = tile.mma %a, %a, %z impl(wgmma) {transpose_b} : tensor<64x8xf32>, tensor<64x8xf32> -> tensor<64x64xf32>
  tile.store %c, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_small(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
                       %C: memref<?x?xf32> {tile.dims = ["M", "M"]})
    params {BM = 8, BK = 8, num_warps = 4} {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<8x8xf32, pad = zero>
  %Cv = tile.partition %C tile [BM, BM] : memref<?x?xf32> -> !tile.part<8x8xf32>
  %m, %n = tile.grid %Cv : !tile.part<8x8xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<8x8xf32, pad = zero> -> tensor<8x8xf32>
  %z = arith.constant dense<0.0> : tensor<8x8xf32>
  // expected-error @+1 {{'tile.mma' op accumulator tile 8x8 cannot be split into per-thread micro-tiles over 128 threads: it needs at least as many elements as threads and power-of-two dims; raise BM/BN or lower num_warps}}
  %c = tile.mma %a, %a, %z {transpose_b} : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  tile.store %c, %Cv[%m, %n] : tensor<8x8xf32>, !tile.part<8x8xf32>
  tile.return
}

// -----

// 256x256 accumulator, K = 128, staged once: (128 x 260 floats) x 2 operands
// = 266240 bytes of shared memory.
// expected-error @+1 {{'tile.kernel' op needs 266240 bytes of shared memory (staging and scratch buffers); sm_90a allows 232448 per CTA: lower the tile sizes (BM, BN, BK) or the number of reductions and layout conversions}}
tile.kernel @smem(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
                  %C: memref<?x?xf32> {tile.dims = ["M", "M"]})
    params {BM = 256, BK = 128, num_warps = 8} {
  %Av = tile.partition %A tile [BM, BK] pad(zero) : memref<?x?xf32> -> !tile.part<256x128xf32, pad = zero>
  %Cv = tile.partition %C tile [BM, BM] : memref<?x?xf32> -> !tile.part<256x256xf32>
  %m, %n = tile.grid %Cv : !tile.part<256x256xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<256x128xf32, pad = zero> -> tensor<256x128xf32>
  %z = arith.constant dense<0.0> : tensor<256x256xf32>
  %c = tile.mma %a, %a, %z {transpose_b} : tensor<256x128xf32>, tensor<256x128xf32> -> tensor<256x256xf32>
  tile.store %c, %Cv[%m, %n] : tensor<256x256xf32>, !tile.part<256x256xf32>
  tile.return
}

// -----

tile.kernel @view_if(%X: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?xf32> {tile.dims = ["N"]}, %c: i1) params {BN = 64} {
  %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %n = tile.grid %Yv : !tile.part<64xf32, pad = zero>
  // expected-error @+1 {{'scf.if' op carries a tile view (!tile.part) through control flow; tile-to-gpu needs every view to be a tile.partition of the kernel body}}
  %v = scf.if %c -> (!tile.part<64xf32, pad = zero>) {
    scf.yield %Xv : !tile.part<64xf32, pad = zero>
  } else {
    scf.yield %Yv : !tile.part<64xf32, pad = zero>
  }
  %x = tile.load %v[%n] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  tile.store %x, %Yv[%n] : tensor<64xf32>, !tile.part<64xf32, pad = zero>
  tile.return
}

// -----

// A kernel with some encodings is taken as assigned: tile-to-gpu needs all.
tile.kernel @partial_layouts(%X: memref<?xf32> {tile.dims = ["N"]}, %Y: memref<?xf32> {tile.dims = ["N"]}) params {num_warps = 1} {
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %x = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32, #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>>
  // expected-error @+1 {{'tile.load' op has a tile value of type 'tensor<64xf32>' without a #tile.blocked layout encoding; give every tile value of the kernel one, or none (tile-assign-layouts then assigns them)}}
  %z = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  tile.store %x, %Yv[%i] : tensor<64xf32, #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>>, !tile.part<64xf32>
  tile.return
}

// -----

// An op of an accepted dialect on tiles that no pattern lowers.
tile.kernel @no_pattern(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 64} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Xv : !tile.part<64xf32>
  // expected-error @+1 {{'ub.poison' op is not supported by tile-to-gpu (the SIMT lowering handles tile ops, elementwise arith/math on tiles, scalar arith/math/index, scf.for and scf.if)}}
  %p = ub.poison : tensor<64xf32>
  tile.store %p, %Xv[%n] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}

// -----

// Control flow other than scf.for and scf.if, even without tiles.
tile.kernel @while(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 64} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Xv : !tile.part<64xf32>
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.while' op is not supported by tile-to-gpu}}
  %r = scf.while (%i = %n) : (index) -> index {
    %more = arith.cmpi ult, %i, %c1 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    scf.yield %i : index
  }
  %t = arith.constant dense<0.0> : tensor<64xf32>
  tile.store %t, %Xv[%r] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}

// -----

// A view that is not a tile.partition of a kernel argument.
tile.kernel @poison_view(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 64} {
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  %n = tile.grid %Xv : !tile.part<64xf32>
  %Pv = ub.poison : !tile.part<64xf32>
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.store' op takes a view that is not a tile.partition result of the kernel body; tile-to-gpu does not carry views through block arguments or control flow}}
  tile.store %t, %Pv[%n] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
