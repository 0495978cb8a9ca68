// y = x @ w^T for few rows (schedules/dispatch.json: M < 128),
// with the K loop split across CTAs, deterministically. At M = 16 the
// one-kernel form has N / BN CTAs (32 at N = 4096), each walking all of K:
// most SMs idle while w, 32 MB, streams through a few. Here K is cut into P
// chunks of BKC (task.json's derived dim P = ceildiv(K, 512) where this
// variant runs; the kernel requires P == ceildiv(K, BKC), so BKC stays 512
// while BK may change): @matmul_bf16_partial gives every (chunk, row block,
// column block) a CTA, which accumulates its chunk's K tiles with tile.mma
// into the temporary py [P, M, N] (marked tile.partials = 0: tile-verify's
// C9 proves that the P partials of each output tile together see each K
// tile exactly once). @matmul_bf16_sum adds the P partials of each output
// element in chunk order, so the result is bitwise reproducible. The
// partials are 4 * P * M * N bytes, written once and read once (2 MB each
// way at M = 16, N = 4096, K = 4096), against the 32 MB of w.
tile.kernel @matmul_bf16_partial(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                                 %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                                 %PY: memref<?x?x?xf32> {tile.dims = ["P", "M", "N"], tile.partials = 0})
    params {BM = 64, BN = 64, BK = 32, BKC = 512, num_warps = 4}
    requires ["P == ceildiv(K, BKC)"] {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Xc = tile.partition %X tile [BM, BKC] : memref<?x?xbf16> -> !tile.part<64x512xbf16>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Pv = tile.partition %PY tile [1, BM, BN] : memref<?x?x?xf32> -> !tile.part<1x64x64xf32>
  %n, %m, %c = tile.grid %Pv dims [2, 1, 0] : !tile.part<1x64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xbf16, pad = zero>
  %bk = tile.tile_size %Xv[1] : !tile.part<64x32xbf16, pad = zero>
  %bkc = tile.tile_size %Xc[1] : !tile.part<64x512xbf16>
  %per = arith.divui %bkc, %bk : index
  %lo = arith.muli %c, %per : index
  %lper = arith.addi %lo, %per : index
  %hi = arith.minsi %lper, %nk : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %lo to %hi step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %acc3 = tile.expand_dims %acc dim 0 : tensor<64x64xf32> -> tensor<1x64x64xf32>
  tile.store %acc3, %Pv[%c, %m, %n] : tensor<1x64x64xf32>, !tile.part<1x64x64xf32>
  tile.return
}

tile.kernel @matmul_bf16_sum(%PY: memref<?x?x?xf32> {tile.dims = ["P", "M", "N"]},
                             %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {SM = 16, SN = 256, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Pv = tile.partition %PY tile [1, SM, SN] pad(zero) : memref<?x?x?xf32> -> !tile.part<1x16x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [SM, SN] : memref<?x?xf32> -> !tile.part<16x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x256xf32>
  %np = tile.num_tiles %Pv[0] : !tile.part<1x16x256xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x256xf32>
  %sum = scf.for %p = %c0 to %np step %c1 iter_args(%a = %z) -> (tensor<16x256xf32>) {
    %t = tile.load %Pv[%p, %m, %n] : !tile.part<1x16x256xf32, pad = zero> -> tensor<1x16x256xf32>
    %t2 = tile.squeeze %t dim 0 : tensor<1x16x256xf32> -> tensor<16x256xf32>
    %s = arith.addf %a, %t2 : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  tile.store %sum, %Yv[%m, %n] : tensor<16x256xf32>, !tile.part<16x256xf32>
  tile.return
}

// Host level: the task's inputs (x, w) then its output (y); the partials
// are a temporary of P x M x N.
func.func @main(%x: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %m = memref.dim %x, %c0 : memref<?x?xbf16>
  %k = memref.dim %x, %c1 : memref<?x?xbf16>
  %n = memref.dim %w, %c0 : memref<?x?xbf16>
  %p = arith.ceildivsi %k, %c512 : index
  %py = memref.alloc(%p, %m, %n) : memref<?x?x?xf32>
  tile.launch @matmul_bf16_partial(%x, %w, %py)
      : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?x?xf32>) -> ()
  tile.launch @matmul_bf16_sum(%py, %y) : (memref<?x?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %py : memref<?x?x?xf32>
  return
}
