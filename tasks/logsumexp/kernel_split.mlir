// Logsumexp with the columns of each row split across CTAs, for shapes with
// few long rows (schedules/dispatch.json: M <= 1024). At 512 x 50257
// kernel.mlir's 4 rows per CTA give 128 CTAs, each walking 50,257 columns:
// 35% of the copy floor on the H200 machine (2026-12-06); split, 43.9 against
// 71.1 us on an H100 machine (2026-12-06). Here the columns
// are cut into P chunks of BC (task.json's derived dim P = ceildiv(N, 4096);
// the kernel requires P == ceildiv(N, BC), so BC stays 4096 while BN may
// change): @logsumexp_partial gives every (row block, chunk) a CTA, which
// walks the chunk's column tiles as kernel.mlir walks the whole row (online
// max m and sum l of exp(x - m)) and writes both into temporaries of [P, M]
// marked tile.partials = 0: tile-verify's C9 proves that the chunks of a row
// together see each column tile exactly once. @logsumexp_finish combines the
// P pairs of each row in chunk order (m = max m_i, l = sum of
// l_i exp(m_i - m)) into y = m + log l. Deterministic; the partials are 8
// bytes per row and chunk against the 16 KB of x a chunk row reads. The same
// split as cross_entropy's kernel_split.mlir, without the target's logit.
tile.kernel @logsumexp_partial(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                               %PM: memref<?x?xf32> {tile.dims = ["P", "M"], tile.partials = 0},
                               %PL: memref<?x?xf32> {tile.dims = ["P", "M"], tile.partials = 0})
    params {BR = 4, BN = 1024, BC = 4096, num_warps = 4}
    requires ["P == ceildiv(N, BC)"] {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Xc = tile.partition %X tile [BR, BC] : memref<?x?xf32> -> !tile.part<4x4096xf32>
  %PMv = tile.partition %PM tile [1, BR] : memref<?x?xf32> -> !tile.part<1x4xf32>
  %PLv = tile.partition %PL tile [1, BR] : memref<?x?xf32> -> !tile.part<1x4xf32>
  %r, %c = tile.grid %PMv dims [1, 0] : !tile.part<1x4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %bc = tile.tile_size %Xc[1] : !tile.part<4x4096xf32>
  %per = arith.divui %bc, %bn : index
  %lo = arith.muli %c, %per : index
  %lper = arith.addi %lo, %per : index
  %hi = arith.minsi %lper, %nt : index
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %m, %l = scf.for %j = %lo to %hi step %c1 iter_args(%mi = %ninf, %li = %zero)
      -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %tmax = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<4xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %d = arith.subf %x, %mb : tensor<4x1024xf32>
    %e = math.exp %d : tensor<4x1024xf32>
    %ts = tile.reduce add %e dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %shift = arith.subf %mi, %mn : tensor<4xf32>
    %scale = math.exp %shift : tensor<4xf32>
    %ls = arith.mulf %li, %scale : tensor<4xf32>
    %ln = arith.addf %ls, %ts : tensor<4xf32>
    scf.yield %mn, %ln : tensor<4xf32>, tensor<4xf32>
  }
  %m2 = tile.expand_dims %m dim 0 : tensor<4xf32> -> tensor<1x4xf32>
  %l2 = tile.expand_dims %l dim 0 : tensor<4xf32> -> tensor<1x4xf32>
  tile.store %m2, %PMv[%c, %r] : tensor<1x4xf32>, !tile.part<1x4xf32>
  tile.store %l2, %PLv[%c, %r] : tensor<1x4xf32>, !tile.part<1x4xf32>
  tile.return
}

tile.kernel @logsumexp_finish(%PM: memref<?x?xf32> {tile.dims = ["P", "M"]},
                              %PL: memref<?x?xf32> {tile.dims = ["P", "M"]},
                              %Y: memref<?xf32> {tile.dims = ["M"]})
    params {FP = 16, FR = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %PMv = tile.partition %PM tile [FP, FR] pad(neg_inf) : memref<?x?xf32> -> !tile.part<16x128xf32, pad = neg_inf>
  %PLv = tile.partition %PL tile [FP, FR] pad(zero) : memref<?x?xf32> -> !tile.part<16x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [FR] : memref<?xf32> -> !tile.part<128xf32>
  %r = tile.grid %Yv : !tile.part<128xf32>
  %pt = tile.num_tiles %PMv[0] : !tile.part<16x128xf32, pad = neg_inf>
  %fp = tile.tile_size %PMv[0] : !tile.part<16x128xf32, pad = neg_inf>
  %p = tile.extent %PMv[0] : !tile.part<16x128xf32, pad = neg_inf>
  %p32 = arith.index_cast %p : index to i32
  %p2d = tile.splat %p32 : i32 -> tensor<16x128xi32>
  %ciota = tile.iota dim 0 : tensor<16x128xi32>
  %zero2d = arith.constant dense<0.0> : tensor<16x128xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %m, %l = scf.for %q = %c0 to %pt step %c1 iter_args(%mi = %ninf, %li = %zero)
      -> (tensor<128xf32>, tensor<128xf32>) {
    %pm = tile.load %PMv[%q, %r] : !tile.part<16x128xf32, pad = neg_inf> -> tensor<16x128xf32>
    %pl = tile.load %PLv[%q, %r] : !tile.part<16x128xf32, pad = zero> -> tensor<16x128xf32>
    %tmax = tile.reduce max %pm dim 0 : tensor<16x128xf32> -> tensor<128xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<128xf32>
    %mnb = tile.broadcast %mn dims [0] : tensor<128xf32> -> tensor<16x128xf32>
    %d = arith.subf %pm, %mnb : tensor<16x128xf32>
    %e = math.exp %d : tensor<16x128xf32>
    %scaled = arith.mulf %pl, %e : tensor<16x128xf32>
    // Chunks past P hold no partial: their lanes add nothing (their m is
    // -inf, so exp(m - mn) would be 0 already unless a whole row block were
    // -inf; the select keeps that case at 0 too).
    %q0 = arith.muli %q, %fp : index
    %q032 = arith.index_cast %q0 : index to i32
    %qbase = tile.splat %q032 : i32 -> tensor<16x128xi32>
    %chunks = arith.addi %qbase, %ciota : tensor<16x128xi32>
    %inb = arith.cmpi ult, %chunks, %p2d : tensor<16x128xi32>
    %scaled_in = arith.select %inb, %scaled, %zero2d : tensor<16x128xi1>, tensor<16x128xf32>
    %ts = tile.reduce add %scaled_in dim 0 : tensor<16x128xf32> -> tensor<128xf32>
    %sh = arith.subf %mi, %mn : tensor<128xf32>
    %sc = math.exp %sh : tensor<128xf32>
    %ls = arith.mulf %li, %sc : tensor<128xf32>
    %ln = arith.addf %ls, %ts : tensor<128xf32>
    scf.yield %mn, %ln : tensor<128xf32>, tensor<128xf32>
  }
  %logl = math.log %l : tensor<128xf32>
  %y = arith.addf %m, %logl : tensor<128xf32>
  tile.store %y, %Yv[%r] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %p = arith.ceildivsi %n, %c4096 : index
  %pm = memref.alloc(%p, %m) : memref<?x?xf32>
  %pl = memref.alloc(%p, %m) : memref<?x?xf32>
  tile.launch @logsumexp_partial(%x, %pm, %pl)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  tile.launch @logsumexp_finish(%pm, %pl, %y)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  memref.dealloc %pm : memref<?x?xf32>
  memref.dealloc %pl : memref<?x?xf32>
  return
}
