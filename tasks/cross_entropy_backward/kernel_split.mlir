// The cross-entropy gradient with each row's statistics split across CTAs,
// for shapes with few rows (schedules/dispatch.json: M <= 1024). At
// 512 x 32000 kernel.mlir's 4 rows per CTA give 128 CTAs, each walking
// 32,000 columns twice (statistics, then the gradient): 58% of the copy
// floor on an H100 machine (2026-12-06). Here the columns are cut into P
// chunks of BC (task.json's derived dim P = ceildiv(N, 4096); the kernel
// requires P == ceildiv(N, BC), so BC stays 4096 while BN may change).
// @cross_entropy_backward_stats gives every (row block, chunk) a CTA, which
// walks the chunk's column tiles with the online max m and sum l of
// exp(x - m) and writes both into temporaries of [P, M] marked
// tile.partials = 0 (tile-verify's C9 proves that the chunks of a row
// together see each column tile exactly once). @cross_entropy_backward_apply
// gives every (row block, column tile) a CTA: it combines the P pairs of its
// rows in chunk order (m = max m_i, l = sum of l_i exp(m_i - m)) and writes
// dx = dloss * (exp(x - m) / l - onehot(t)) for its tile. x is read twice,
// as in kernel.mlir, by P and N / BN times the CTAs; each apply CTA reads
// the 8 bytes per row and chunk of the partials again.
tile.kernel @cross_entropy_backward_stats(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
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
  %mx, %lx = scf.for %j = %lo to %hi step %c1
      iter_args(%mxi = %ninf, %lxi = %zero) -> (tensor<4xf32>, tensor<4xf32>) {
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
    scf.yield %mxn, %lxn : tensor<4xf32>, tensor<4xf32>
  }
  %mx2 = tile.expand_dims %mx dim 0 : tensor<4xf32> -> tensor<1x4xf32>
  %lx2 = tile.expand_dims %lx dim 0 : tensor<4xf32> -> tensor<1x4xf32>
  tile.store %mx2, %PMv[%c, %r] : tensor<1x4xf32>, !tile.part<1x4xf32>
  tile.store %lx2, %PLv[%c, %r] : tensor<1x4xf32>, !tile.part<1x4xf32>
  tile.return
}

tile.kernel @cross_entropy_backward_apply(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                          %T: memref<?xi64> {tile.dims = ["M"]},
                                          %DL: memref<?xf32> {tile.dims = ["M"]},
                                          %PM: memref<?x?xf32> {tile.dims = ["P", "M"]},
                                          %PL: memref<?x?xf32> {tile.dims = ["P", "M"]},
                                          %DX: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {AR = 4, AN = 1024, AP = 16, num_warps = 4} requires ["N <= 2147483647"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [AR, AN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Tv = tile.partition %T tile [AR] pad(zero) : memref<?xi64> -> !tile.part<4xi64, pad = zero>
  %DLv = tile.partition %DL tile [AR] pad(zero) : memref<?xf32> -> !tile.part<4xf32, pad = zero>
  %PMv = tile.partition %PM tile [AP, AR] pad(neg_inf) : memref<?x?xf32> -> !tile.part<16x4xf32, pad = neg_inf>
  %PLv = tile.partition %PL tile [AP, AR] pad(zero) : memref<?x?xf32> -> !tile.part<16x4xf32, pad = zero>
  %DXv = tile.partition %DX tile [AR, AN] : memref<?x?xf32> -> !tile.part<4x1024xf32>
  %r, %j = tile.grid %DXv : !tile.part<4x1024xf32>
  // The row statistics from the P partials, in chunk order.
  %pt = tile.num_tiles %PMv[0] : !tile.part<16x4xf32, pad = neg_inf>
  %ap = tile.tile_size %PMv[0] : !tile.part<16x4xf32, pad = neg_inf>
  %p = tile.extent %PMv[0] : !tile.part<16x4xf32, pad = neg_inf>
  %p32 = arith.index_cast %p : index to i32
  %p2d = tile.splat %p32 : i32 -> tensor<16x4xi32>
  %piota = tile.iota dim 0 : tensor<16x4xi32>
  %pzero = arith.constant dense<0.0> : tensor<16x4xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %mx, %lx = scf.for %q = %c0 to %pt step %c1
      iter_args(%mi = %ninf, %li = %zero) -> (tensor<4xf32>, tensor<4xf32>) {
    %pm = tile.load %PMv[%q, %r] : !tile.part<16x4xf32, pad = neg_inf> -> tensor<16x4xf32>
    %pl = tile.load %PLv[%q, %r] : !tile.part<16x4xf32, pad = zero> -> tensor<16x4xf32>
    %tmax = tile.reduce max %pm dim 0 : tensor<16x4xf32> -> tensor<4xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<4xf32>
    %mnb = tile.broadcast %mn dims [0] : tensor<4xf32> -> tensor<16x4xf32>
    %d = arith.subf %pm, %mnb : tensor<16x4xf32>
    %e = math.exp %d : tensor<16x4xf32>
    %scaled = arith.mulf %pl, %e : tensor<16x4xf32>
    // Chunks past P hold no partial: their lanes add nothing.
    %q0 = arith.muli %q, %ap : index
    %q032 = arith.index_cast %q0 : index to i32
    %qbase = tile.splat %q032 : i32 -> tensor<16x4xi32>
    %chunks = arith.addi %qbase, %piota : tensor<16x4xi32>
    %inb = arith.cmpi ult, %chunks, %p2d : tensor<16x4xi32>
    %scaled_in = arith.select %inb, %scaled, %pzero : tensor<16x4xi1>, tensor<16x4xf32>
    %ts = tile.reduce add %scaled_in dim 0 : tensor<16x4xf32> -> tensor<4xf32>
    %sh = arith.subf %mi, %mn : tensor<4xf32>
    %sc = math.exp %sh : tensor<4xf32>
    %ls = arith.mulf %li, %sc : tensor<4xf32>
    %ln = arith.addf %ls, %ts : tensor<4xf32>
    scf.yield %mn, %ln : tensor<4xf32>, tensor<4xf32>
  }
  // This CTA's tile of the gradient.
  %an = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %t = tile.load %Tv[%r] : !tile.part<4xi64, pad = zero> -> tensor<4xi64>
  %t32 = arith.trunci %t : tensor<4xi64> to tensor<4xi32>
  %tb = tile.broadcast %t32 dims [1] : tensor<4xi32> -> tensor<4x1024xi32>
  %ciota = tile.iota dim 1 : tensor<4x1024xi32>
  %dl = tile.load %DLv[%r] : !tile.part<4xf32, pad = zero> -> tensor<4xf32>
  %mxb = tile.broadcast %mx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %lxb = tile.broadcast %lx dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %dlb = tile.broadcast %dl dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %one2d = arith.constant dense<1.0> : tensor<4x1024xf32>
  %zero2d = arith.constant dense<0.0> : tensor<4x1024xf32>
  %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
  %dx0 = arith.subf %x, %mxb : tensor<4x1024xf32>
  %ex = math.exp %dx0 : tensor<4x1024xf32>
  %sx = arith.divf %ex, %lxb : tensor<4x1024xf32>
  %j0 = arith.muli %j, %an : index
  %j032 = arith.index_cast %j0 : index to i32
  %cbase = tile.splat %j032 : i32 -> tensor<4x1024xi32>
  %cols = arith.addi %cbase, %ciota : tensor<4x1024xi32>
  %hit = arith.cmpi eq, %cols, %tb : tensor<4x1024xi32>
  %onehot = arith.select %hit, %one2d, %zero2d : tensor<4x1024xi1>, tensor<4x1024xf32>
  %diff = arith.subf %sx, %onehot : tensor<4x1024xf32>
  %dx = arith.mulf %dlb, %diff : tensor<4x1024xf32>
  tile.store %dx, %DXv[%r, %j] : tensor<4x1024xf32>, !tile.part<4x1024xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %t: memref<?xi64>, %dloss: memref<?xf32>,
                %dx: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %p = arith.ceildivsi %n, %c4096 : index
  %pm = memref.alloc(%p, %m) : memref<?x?xf32>
  %pl = memref.alloc(%p, %m) : memref<?x?xf32>
  tile.launch @cross_entropy_backward_stats(%x, %pm, %pl)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  tile.launch @cross_entropy_backward_apply(%x, %t, %dloss, %pm, %pl, %dx)
      : (memref<?x?xf32>, memref<?xi64>, memref<?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  memref.dealloc %pm : memref<?x?xf32>
  memref.dealloc %pl : memref<?x?xf32>
  return
}
