// Cross-entropy with the columns of each row split across CTAs, for shapes
// with few rows (schedules/dispatch.json: M <= 1024). At 512 x 32000
// kernel.mlir's 4 rows per CTA give 128 CTAs, each walking 32,000 columns:
// 42% of the copy floor on an H100 machine (2026-12-06). Here the columns
// are cut into P chunks of BC (task.json's derived dim P = ceildiv(N, 4096);
// the kernel requires P == ceildiv(N, BC), so BC stays 4096 while BN may
// change): @cross_entropy_partial gives every (row block, chunk) a CTA, which
// walks the chunk's column tiles as kernel.mlir walks the whole row (online
// max m and sum l of exp(x - m), and the target's logit where the target
// falls in the chunk, else 0) and writes the three into temporaries of
// [P, M] marked tile.partials = 0: tile-verify's C9 proves that the chunks
// of a row together see each column tile exactly once. @cross_entropy_finish
// combines the P triples of each row in chunk order (m = max m_i, l = sum of
// l_i exp(m_i - m), the picked logits summed: one chunk holds the target)
// into loss = m + log l - picked. Deterministic; the partials are 24 bytes
// per row and chunk against the 16 KB of x a chunk row reads.
tile.kernel @cross_entropy_partial(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                   %T: memref<?xi64> {tile.dims = ["M"]},
                                   %PM: memref<?x?xf32> {tile.dims = ["P", "M"], tile.partials = 0},
                                   %PL: memref<?x?xf32> {tile.dims = ["P", "M"], tile.partials = 0},
                                   %PX: memref<?x?xf32> {tile.dims = ["P", "M"], tile.partials = 0})
    params {BR = 4, BN = 1024, BC = 4096, num_warps = 4}
    requires ["N <= 2147483647", "P == ceildiv(N, BC)"] {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Xc = tile.partition %X tile [BR, BC] : memref<?x?xf32> -> !tile.part<4x4096xf32>
  %Tv = tile.partition %T tile [BR] pad(zero) : memref<?xi64> -> !tile.part<4xi64, pad = zero>
  %PMv = tile.partition %PM tile [1, BR] : memref<?x?xf32> -> !tile.part<1x4xf32>
  %PLv = tile.partition %PL tile [1, BR] : memref<?x?xf32> -> !tile.part<1x4xf32>
  %PXv = tile.partition %PX tile [1, BR] : memref<?x?xf32> -> !tile.part<1x4xf32>
  %r, %c = tile.grid %PMv dims [1, 0] : !tile.part<1x4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %bc = tile.tile_size %Xc[1] : !tile.part<4x4096xf32>
  %per = arith.divui %bc, %bn : index
  %lo = arith.muli %c, %per : index
  %lper = arith.addi %lo, %per : index
  %hi = arith.minsi %lper, %nt : index
  %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %n32 = arith.index_cast %n : index to i32
  %n2d = tile.splat %n32 : i32 -> tensor<4x1024xi32>
  %ciota = tile.iota dim 1 : tensor<4x1024xi32>
  %t = tile.load %Tv[%r] : !tile.part<4xi64, pad = zero> -> tensor<4xi64>
  %t32 = arith.trunci %t : tensor<4xi64> to tensor<4xi32>
  %tb = tile.broadcast %t32 dims [1] : tensor<4xi32> -> tensor<4x1024xi32>
  %zero2d = arith.constant dense<0.0> : tensor<4x1024xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %mx, %lx, %px = scf.for %j = %lo to %hi step %c1
      iter_args(%mxi = %ninf, %lxi = %zero, %pxi = %zero)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %xmax = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %mxn = arith.maximumf %mxi, %xmax : tensor<4xf32>
    %mxb = tile.broadcast %mxn dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %dx = arith.subf %x, %mxb : tensor<4x1024xf32>
    %ex = math.exp %dx : tensor<4x1024xf32>
    %exs = tile.reduce add %ex dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %shx = arith.subf %mxi, %mxn : tensor<4xf32>
    %scx = math.exp %shx : tensor<4xf32>
    %lxs = arith.mulf %lxi, %scx : tensor<4xf32>
    %lxn = arith.addf %lxs, %exs : tensor<4xf32>
    // The target's logit: the one element of the tile (if any) at column t.
    %j0 = arith.muli %j, %bn : index
    %j032 = arith.index_cast %j0 : index to i32
    %cbase = tile.splat %j032 : i32 -> tensor<4x1024xi32>
    %cols = arith.addi %cbase, %ciota : tensor<4x1024xi32>
    %hit = arith.cmpi eq, %cols, %tb : tensor<4x1024xi32>
    %pick = arith.select %hit, %x, %zero2d : tensor<4x1024xi1>, tensor<4x1024xf32>
    %inb = arith.cmpi ult, %cols, %n2d : tensor<4x1024xi32>
    %pick_in = arith.select %inb, %pick, %zero2d : tensor<4x1024xi1>, tensor<4x1024xf32>
    %ps = tile.reduce add %pick_in dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %pxn = arith.addf %pxi, %ps : tensor<4xf32>
    scf.yield %mxn, %lxn, %pxn : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  %mx2 = tile.expand_dims %mx dim 0 : tensor<4xf32> -> tensor<1x4xf32>
  %lx2 = tile.expand_dims %lx dim 0 : tensor<4xf32> -> tensor<1x4xf32>
  %px2 = tile.expand_dims %px dim 0 : tensor<4xf32> -> tensor<1x4xf32>
  tile.store %mx2, %PMv[%c, %r] : tensor<1x4xf32>, !tile.part<1x4xf32>
  tile.store %lx2, %PLv[%c, %r] : tensor<1x4xf32>, !tile.part<1x4xf32>
  tile.store %px2, %PXv[%c, %r] : tensor<1x4xf32>, !tile.part<1x4xf32>
  tile.return
}

tile.kernel @cross_entropy_finish(%PM: memref<?x?xf32> {tile.dims = ["P", "M"]},
                                  %PL: memref<?x?xf32> {tile.dims = ["P", "M"]},
                                  %PX: memref<?x?xf32> {tile.dims = ["P", "M"]},
                                  %L: memref<?xf32> {tile.dims = ["M"]})
    params {FP = 16, FR = 128, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %PMv = tile.partition %PM tile [FP, FR] pad(neg_inf) : memref<?x?xf32> -> !tile.part<16x128xf32, pad = neg_inf>
  %PLv = tile.partition %PL tile [FP, FR] pad(zero) : memref<?x?xf32> -> !tile.part<16x128xf32, pad = zero>
  %PXv = tile.partition %PX tile [FP, FR] pad(zero) : memref<?x?xf32> -> !tile.part<16x128xf32, pad = zero>
  %Lv = tile.partition %L tile [FR] : memref<?xf32> -> !tile.part<128xf32>
  %r = tile.grid %Lv : !tile.part<128xf32>
  %pt = tile.num_tiles %PMv[0] : !tile.part<16x128xf32, pad = neg_inf>
  %fp = tile.tile_size %PMv[0] : !tile.part<16x128xf32, pad = neg_inf>
  %p = tile.extent %PMv[0] : !tile.part<16x128xf32, pad = neg_inf>
  %p32 = arith.index_cast %p : index to i32
  %p2d = tile.splat %p32 : i32 -> tensor<16x128xi32>
  %ciota = tile.iota dim 0 : tensor<16x128xi32>
  %zero2d = arith.constant dense<0.0> : tensor<16x128xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %m, %l, %px = scf.for %q = %c0 to %pt step %c1
      iter_args(%mi = %ninf, %li = %zero, %pi = %zero)
      -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
    %pm = tile.load %PMv[%q, %r] : !tile.part<16x128xf32, pad = neg_inf> -> tensor<16x128xf32>
    %pl = tile.load %PLv[%q, %r] : !tile.part<16x128xf32, pad = zero> -> tensor<16x128xf32>
    %pp = tile.load %PXv[%q, %r] : !tile.part<16x128xf32, pad = zero> -> tensor<16x128xf32>
    %tmax = tile.reduce max %pm dim 0 : tensor<16x128xf32> -> tensor<128xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<128xf32>
    %mnb = tile.broadcast %mn dims [0] : tensor<128xf32> -> tensor<16x128xf32>
    %d = arith.subf %pm, %mnb : tensor<16x128xf32>
    %e = math.exp %d : tensor<16x128xf32>
    %scaled = arith.mulf %pl, %e : tensor<16x128xf32>
    // Chunks past P hold no partial: their lanes add nothing.
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
    %tp = tile.reduce add %pp dim 0 : tensor<16x128xf32> -> tensor<128xf32>
    %pn = arith.addf %pi, %tp : tensor<128xf32>
    scf.yield %mn, %ln, %pn : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
  }
  %logl = math.log %l : tensor<128xf32>
  %lse = arith.addf %m, %logl : tensor<128xf32>
  %loss = arith.subf %lse, %px : tensor<128xf32>
  tile.store %loss, %Lv[%r] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %t: memref<?xi64>, %loss: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %p = arith.ceildivsi %n, %c4096 : index
  %pm = memref.alloc(%p, %m) : memref<?x?xf32>
  %pl = memref.alloc(%p, %m) : memref<?x?xf32>
  %px = memref.alloc(%p, %m) : memref<?x?xf32>
  tile.launch @cross_entropy_partial(%x, %t, %pm, %pl, %px)
      : (memref<?x?xf32>, memref<?xi64>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  tile.launch @cross_entropy_finish(%pm, %pl, %px, %loss)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  memref.dealloc %pm : memref<?x?xf32>
  memref.dealloc %pl : memref<?x?xf32>
  memref.dealloc %px : memref<?x?xf32>
  return
}
