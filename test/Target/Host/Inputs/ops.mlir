// Small kernels that together use every tile op, every pad kind, scalar
// arguments of each ABI kind and 1-, 2- and 3-D grids; ops.c runs each one
// against a C reference (test/Target/Host/ops.test). All of them live in one
// module, so the test also builds a kernel.so with several entry points.

// C[i, k] = the number of padded elements row i met over its column tiles,
// counted once per pad kind (k = zero, neg_inf, pos_inf, nan): nt * 8 - N.
// The inputs lie in [1, 2), so only padding compares equal.
tile.kernel @pad_counts(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %C: memref<?x?xi32> {tile.dims = ["M", "P"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xz = tile.partition %X tile [4, 8] pad(zero) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = zero>
  %Xn = tile.partition %X tile [4, 8] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = neg_inf>
  %Xp = tile.partition %X tile [4, 8] pad(pos_inf) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = pos_inf>
  %Xq = tile.partition %X tile [4, 8] pad(nan) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = nan>
  %Cv = tile.partition %C tile [4, 4] : memref<?x?xi32> -> !tile.part<4x4xi32>
  %r = tile.grid %Cv dims [0] : !tile.part<4x4xi32>
  %nt = tile.num_tiles %Xz[1] : !tile.part<4x8xf32, pad = zero>
  %none = arith.constant dense<0> : tensor<4x4xi32>
  %counts = scf.for %j = %c0 to %nt step %c1 iter_args(%acc = %none) -> (tensor<4x4xi32>) {
    %a = tile.load %Xz[%r, %j] : !tile.part<4x8xf32, pad = zero> -> tensor<4x8xf32>
    %b = tile.load %Xn[%r, %j] : !tile.part<4x8xf32, pad = neg_inf> -> tensor<4x8xf32>
    %c = tile.load %Xp[%r, %j] : !tile.part<4x8xf32, pad = pos_inf> -> tensor<4x8xf32>
    %d = tile.load %Xq[%r, %j] : !tile.part<4x8xf32, pad = nan> -> tensor<4x8xf32>
    %fz = arith.constant dense<0.0> : tensor<4x8xf32>
    %fn = arith.constant dense<0xFF800000> : tensor<4x8xf32>
    %fp = arith.constant dense<0x7F800000> : tensor<4x8xf32>
    %ma = arith.cmpf oeq, %a, %fz : tensor<4x8xf32>
    %mb = arith.cmpf oeq, %b, %fn : tensor<4x8xf32>
    %mc = arith.cmpf oeq, %c, %fp : tensor<4x8xf32>
    %md = arith.cmpf uno, %d, %d : tensor<4x8xf32>
    %one = arith.constant dense<1> : tensor<4x8xi32>
    %zero = arith.constant dense<0> : tensor<4x8xi32>
    %ia = arith.select %ma, %one, %zero : tensor<4x8xi1>, tensor<4x8xi32>
    %ib = arith.select %mb, %one, %zero : tensor<4x8xi1>, tensor<4x8xi32>
    %ic = arith.select %mc, %one, %zero : tensor<4x8xi1>, tensor<4x8xi32>
    %id = arith.select %md, %one, %zero : tensor<4x8xi1>, tensor<4x8xi32>
    %sa = tile.reduce add %ia dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %sb = tile.reduce add %ib dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %sc = tile.reduce add %ic dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %sd = tile.reduce add %id dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %ba = tile.broadcast %sa dims [1] : tensor<4xi32> -> tensor<4x4xi32>
    %bb = tile.broadcast %sb dims [1] : tensor<4xi32> -> tensor<4x4xi32>
    %bc = tile.broadcast %sc dims [1] : tensor<4xi32> -> tensor<4x4xi32>
    %bd = tile.broadcast %sd dims [1] : tensor<4xi32> -> tensor<4x4xi32>
    // Column k of the result takes the count of pad kind k.
    %col = tile.iota dim 1 : tensor<4x4xi32>
    %k0 = arith.constant dense<0> : tensor<4x4xi32>
    %k1 = arith.constant dense<1> : tensor<4x4xi32>
    %k2 = arith.constant dense<2> : tensor<4x4xi32>
    %is0 = arith.cmpi eq, %col, %k0 : tensor<4x4xi32>
    %is1 = arith.cmpi eq, %col, %k1 : tensor<4x4xi32>
    %is2 = arith.cmpi eq, %col, %k2 : tensor<4x4xi32>
    %v2 = arith.select %is2, %bc, %bd : tensor<4x4xi1>, tensor<4x4xi32>
    %v1 = arith.select %is1, %bb, %v2 : tensor<4x4xi1>, tensor<4x4xi32>
    %v0 = arith.select %is0, %ba, %v1 : tensor<4x4xi1>, tensor<4x4xi32>
    %next = arith.addi %acc, %v0 : tensor<4x4xi32>
    scf.yield %next : tensor<4x4xi32>
  }
  tile.store %counts, %Cv[%r, %c0] : tensor<4x4xi32>, !tile.part<4x4xi32>
  tile.return
}

// Y = (negate ? -alpha : alpha) * X^T over a 2-D grid of Y's tiles.
tile.kernel @scale_transpose(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %alpha: f32, %negate: i1,
                             %Y: memref<?x?xf32> {tile.dims = ["N", "M"]}) {
  %Xv = tile.partition %X tile [8, 16] pad(zero) : memref<?x?xf32> -> !tile.part<8x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 8] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %n, %m = tile.grid %Yv : !tile.part<16x8xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<8x16xf32, pad = zero> -> tensor<8x16xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %a = tile.splat %alpha : f32 -> tensor<16x8xf32>
  %s = arith.mulf %t, %a : tensor<16x8xf32>
  %y = scf.if %negate -> (tensor<16x8xf32>) {
    %neg = arith.negf %s : tensor<16x8xf32>
    scf.yield %neg : tensor<16x8xf32>
  } else {
    scf.yield %s : tensor<16x8xf32>
  }
  tile.store %y, %Yv[%n, %m] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// S[i, :] = (sum, max, min, product) of row i, one column tile at a time;
// each pad is neutral for its reduction (nan is masked to 1 for the product).
// Each statistic is stored as a 4x1 tile (expand_dims) at its own column.
tile.kernel @row_stats(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %S: memref<?x?xf32> {tile.dims = ["M", "Q"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %Xz = tile.partition %X tile [4, 8] pad(zero) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = zero>
  %Xn = tile.partition %X tile [4, 8] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = neg_inf>
  %Xp = tile.partition %X tile [4, 8] pad(pos_inf) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = pos_inf>
  %Xq = tile.partition %X tile [4, 8] pad(nan) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = nan>
  %Sv = tile.partition %S tile [4, 1] : memref<?x?xf32> -> !tile.part<4x1xf32>
  %r = tile.grid %Sv dims [0] : !tile.part<4x1xf32>
  %nt = tile.num_tiles %Xz[1] : !tile.part<4x8xf32, pad = zero>
  %sum0 = arith.constant dense<0.0> : tensor<4xf32>
  %max0 = arith.constant dense<0xFF800000> : tensor<4xf32>
  %min0 = arith.constant dense<0x7F800000> : tensor<4xf32>
  %prod0 = arith.constant dense<1.0> : tensor<4xf32>
  %sum, %max, %min, %prod = scf.for %j = %c0 to %nt step %c1
      iter_args(%s = %sum0, %mx = %max0, %mn = %min0, %p = %prod0)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %a = tile.load %Xz[%r, %j] : !tile.part<4x8xf32, pad = zero> -> tensor<4x8xf32>
    %b = tile.load %Xn[%r, %j] : !tile.part<4x8xf32, pad = neg_inf> -> tensor<4x8xf32>
    %c = tile.load %Xp[%r, %j] : !tile.part<4x8xf32, pad = pos_inf> -> tensor<4x8xf32>
    %d = tile.load %Xq[%r, %j] : !tile.part<4x8xf32, pad = nan> -> tensor<4x8xf32>
    %isnan = arith.cmpf uno, %d, %d : tensor<4x8xf32>
    %ones = arith.constant dense<1.0> : tensor<4x8xf32>
    %dm = arith.select %isnan, %ones, %d : tensor<4x8xi1>, tensor<4x8xf32>
    %ra = tile.reduce add %a dim 1 : tensor<4x8xf32> -> tensor<4xf32>
    %rb = tile.reduce max %b dim 1 : tensor<4x8xf32> -> tensor<4xf32>
    %rc = tile.reduce min %c dim 1 : tensor<4x8xf32> -> tensor<4xf32>
    %rd = tile.reduce mul %dm dim 1 : tensor<4x8xf32> -> tensor<4xf32>
    %s1 = arith.addf %s, %ra : tensor<4xf32>
    %mx1 = arith.maximumf %mx, %rb : tensor<4xf32>
    %mn1 = arith.minimumf %mn, %rc : tensor<4xf32>
    %p1 = arith.mulf %p, %rd : tensor<4xf32>
    scf.yield %s1, %mx1, %mn1, %p1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  %es = tile.expand_dims %sum dim 1 : tensor<4xf32> -> tensor<4x1xf32>
  %emx = tile.expand_dims %max dim 1 : tensor<4xf32> -> tensor<4x1xf32>
  %emn = tile.expand_dims %min dim 1 : tensor<4xf32> -> tensor<4x1xf32>
  %ep = tile.expand_dims %prod dim 1 : tensor<4xf32> -> tensor<4x1xf32>
  tile.store %es, %Sv[%r, %c0] : tensor<4x1xf32>, !tile.part<4x1xf32>
  tile.store %emx, %Sv[%r, %c1] : tensor<4x1xf32>, !tile.part<4x1xf32>
  tile.store %emn, %Sv[%r, %c2] : tensor<4x1xf32>, !tile.part<4x1xf32>
  tile.store %ep, %Sv[%r, %c3] : tensor<4x1xf32>, !tile.part<4x1xf32>
  tile.return
}

// S[i, :] = (sum, max, min, product) of an i32 row, for N a multiple of 8
// (pad(none): the loads are full). The product wraps around like C's
// unsigned arithmetic.
tile.kernel @int_row_stats(%X: memref<?x?xi32> {tile.dims = ["M", "N"]},
                           %S: memref<?x?xi32> {tile.dims = ["M", "Q"]})
    requires ["N % 8 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %Xv = tile.partition %X tile [4, 8] : memref<?x?xi32> -> !tile.part<4x8xi32>
  %Sv = tile.partition %S tile [4, 1] : memref<?x?xi32> -> !tile.part<4x1xi32>
  %r = tile.grid %Sv dims [0] : !tile.part<4x1xi32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x8xi32>
  %sum0 = arith.constant dense<0> : tensor<4xi32>
  %max0 = arith.constant dense<-2147483648> : tensor<4xi32>
  %min0 = arith.constant dense<2147483647> : tensor<4xi32>
  %prod0 = arith.constant dense<1> : tensor<4xi32>
  %sum, %max, %min, %prod = scf.for %j = %c0 to %nt step %c1
      iter_args(%s = %sum0, %mx = %max0, %mn = %min0, %p = %prod0)
      -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x8xi32> -> tensor<4x8xi32>
    %ra = tile.reduce add %x dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %rb = tile.reduce max %x dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %rc = tile.reduce min %x dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %rd = tile.reduce mul %x dim 1 : tensor<4x8xi32> -> tensor<4xi32>
    %s1 = arith.addi %s, %ra : tensor<4xi32>
    %mx1 = arith.maxsi %mx, %rb : tensor<4xi32>
    %mn1 = arith.minsi %mn, %rc : tensor<4xi32>
    %p1 = arith.muli %p, %rd : tensor<4xi32>
    scf.yield %s1, %mx1, %mn1, %p1 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
  }
  %es = tile.expand_dims %sum dim 1 : tensor<4xi32> -> tensor<4x1xi32>
  %emx = tile.expand_dims %max dim 1 : tensor<4xi32> -> tensor<4x1xi32>
  %emn = tile.expand_dims %min dim 1 : tensor<4xi32> -> tensor<4x1xi32>
  %ep = tile.expand_dims %prod dim 1 : tensor<4xi32> -> tensor<4x1xi32>
  tile.store %es, %Sv[%r, %c0] : tensor<4x1xi32>, !tile.part<4x1xi32>
  tile.store %emx, %Sv[%r, %c1] : tensor<4x1xi32>, !tile.part<4x1xi32>
  tile.store %emn, %Sv[%r, %c2] : tensor<4x1xi32>, !tile.part<4x1xi32>
  tile.store %ep, %Sv[%r, %c3] : tensor<4x1xi32>, !tile.part<4x1xi32>
  tile.return
}

// Y = X^3 by math.ipowi, which has no LLVM intrinsic: tile-to-host's
// pipeline turns it into a call of a generated function (convert-math-to-
// funcs). Ragged M, N % 8 == 0.
tile.kernel @int_cube(%X: memref<?x?xi32> {tile.dims = ["M", "N"]},
                      %Y: memref<?x?xi32> {tile.dims = ["M", "N"]})
    requires ["N % 8 == 0"] {
  %Xv = tile.partition %X tile [4, 8] pad(zero) : memref<?x?xi32> -> !tile.part<4x8xi32, pad = zero>
  %Yv = tile.partition %Y tile [4, 8] : memref<?x?xi32> -> !tile.part<4x8xi32>
  %r, %c = tile.grid %Yv : !tile.part<4x8xi32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x8xi32, pad = zero> -> tensor<4x8xi32>
  %three = arith.constant dense<3> : tensor<4x8xi32>
  %y = math.ipowi %x, %three : tensor<4x8xi32>
  tile.store %y, %Yv[%r, %c] : tensor<4x8xi32>, !tile.part<4x8xi32>
  tile.return
}

// C = causal(A @ B^T) with f16 operands and an f32 accumulator: elements
// above the diagonal (global column > global row) are 0. The mask is built
// from iota, the block's offset and arith.select.
tile.kernel @causal_mma_f16(%A: memref<?x?xf16> {tile.dims = ["M", "K"]},
                            %B: memref<?x?xf16> {tile.dims = ["N", "K"]},
                            %C: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %Av = tile.partition %A tile [16, 8] pad(zero) : memref<?x?xf16> -> !tile.part<16x8xf16, pad = zero>
  %Bv = tile.partition %B tile [16, 8] pad(zero) : memref<?x?xf16> -> !tile.part<16x8xf16, pad = zero>
  %Cv = tile.partition %C tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<16x8xf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Av[%m, %k] : !tile.part<16x8xf16, pad = zero> -> tensor<16x8xf16>
    %w = tile.load %Bv[%n, %k] : !tile.part<16x8xf16, pad = zero> -> tensor<16x8xf16>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  %row0 = arith.muli %m, %c16 : index
  %col0 = arith.muli %n, %c16 : index
  %rows = tile.iota dim 0 : tensor<16x16xindex>
  %cols = tile.iota dim 1 : tensor<16x16xindex>
  %rb = tile.splat %row0 : index -> tensor<16x16xindex>
  %cb = tile.splat %col0 : index -> tensor<16x16xindex>
  %gr = arith.addi %rows, %rb : tensor<16x16xindex>
  %gc = arith.addi %cols, %cb : tensor<16x16xindex>
  %keep = arith.cmpi sle, %gc, %gr : tensor<16x16xindex>
  %y = arith.select %keep, %acc, %z : tensor<16x16xi1>, tensor<16x16xf32>
  tile.store %y, %Cv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// Split-K: C += A^T @ B, with the K tiles dealt round-robin to S slices of a
// 3-D grid (W only names the grid; the kernel never reads it), each slice
// accumulating its partial product into C with tile.atomic_add.
tile.kernel @splitk_atomic(%A: memref<?x?xf32> {tile.dims = ["K", "M"]},
                           %B: memref<?x?xf32> {tile.dims = ["K", "N"]},
                           %C: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %W: memref<?x?x?xf32> {tile.dims = ["M", "N", "S"]}) {
  %Av = tile.partition %A tile [8, 16] pad(zero) : memref<?x?xf32> -> !tile.part<8x16xf32, pad = zero>
  %Bv = tile.partition %B tile [8, 16] pad(zero) : memref<?x?xf32> -> !tile.part<8x16xf32, pad = zero>
  %Cv = tile.partition %C tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %Wv = tile.partition %W tile [16, 16, 1] : memref<?x?x?xf32> -> !tile.part<16x16x1xf32>
  %m, %n, %s = tile.grid %Wv : !tile.part<16x16x1xf32>
  %nk = tile.num_tiles %Av[0] : !tile.part<8x16xf32, pad = zero>
  %slices = tile.num_tiles %Wv[2] : !tile.part<16x16x1xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %s to %nk step %slices iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Av[%k, %m] : !tile.part<8x16xf32, pad = zero> -> tensor<8x16xf32>
    %w = tile.load %Bv[%k, %n] : !tile.part<8x16xf32, pad = zero> -> tensor<8x16xf32>
    %r = tile.mma %x, %w, %a {transpose_a} : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  tile.atomic_add %acc, %Cv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// Online softmax over rows of any length: a first loop over column tiles
// carries the running max and the running sum of exponentials (rescaled when
// the max grows), a second loop writes exp(x - max) / sum tile by tile.
tile.kernel @online_softmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 16] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4, 16] : memref<?x?xf32> -> !tile.part<4x16xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x16xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x16xf32, pad = neg_inf>
  %m0 = arith.constant dense<0xFF800000> : tensor<4xf32>
  %l0 = arith.constant dense<0.0> : tensor<4xf32>
  %m, %l = scf.for %j = %c0 to %nt step %c1 iter_args(%mi = %m0, %li = %l0)
      -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x16xf32, pad = neg_inf> -> tensor<4x16xf32>
    %tmax = tile.reduce max %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<4xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<4xf32> -> tensor<4x16xf32>
    %d = arith.subf %x, %mb : tensor<4x16xf32>
    %e = math.exp %d : tensor<4x16xf32>
    %s = tile.reduce add %e dim 1 : tensor<4x16xf32> -> tensor<4xf32>
    %shift = arith.subf %mi, %mn : tensor<4xf32>
    %scale = math.exp %shift : tensor<4xf32>
    %ls = arith.mulf %li, %scale : tensor<4xf32>
    %ln = arith.addf %ls, %s : tensor<4xf32>
    scf.yield %mn, %ln : tensor<4xf32>, tensor<4xf32>
  }
  %mb = tile.broadcast %m dims [1] : tensor<4xf32> -> tensor<4x16xf32>
  %lb = tile.broadcast %l dims [1] : tensor<4xf32> -> tensor<4x16xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x16xf32, pad = neg_inf> -> tensor<4x16xf32>
    %d = arith.subf %x, %mb : tensor<4x16xf32>
    %e = math.exp %d : tensor<4x16xf32>
    %y = arith.divf %e, %lb : tensor<4x16xf32>
    tile.store %y, %Yv[%r, %j] : tensor<4x16xf32>, !tile.part<4x16xf32>
  }
  tile.return
}

// Y[i, :] = the max of row i's last column tile, broadcast: the loop yields a
// freshly computed tile every iteration instead of updating its carried one.
tile.kernel @last_tile_max(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "P"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 8] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4, 8] : memref<?x?xf32> -> !tile.part<4x8xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<4x8xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x8xf32, pad = neg_inf>
  %z = arith.constant dense<0.0> : tensor<4x8xf32>
  %last = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %z) -> (tensor<4x8xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x8xf32, pad = neg_inf> -> tensor<4x8xf32>
    %mx = tile.reduce max %x dim 1 : tensor<4x8xf32> -> tensor<4xf32>
    %b = tile.broadcast %mx dims [1] : tensor<4xf32> -> tensor<4x8xf32>
    scf.yield %b : tensor<4x8xf32>
  }
  tile.store %last, %Yv[%r, %c0] : tensor<4x8xf32>, !tile.part<4x8xf32>
  tile.return
}

// bf16: C = A @ B^T with bf16 operands accumulated in f32, and
// D = bf16(C) * s computed in bf16 (each result rounded to nearest even).
tile.kernel @bf16_mma(%A: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                      %B: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                      %s: bf16,
                      %C: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %D: memref<?x?xbf16> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [8, 8] pad(zero) : memref<?x?xbf16> -> !tile.part<8x8xbf16, pad = zero>
  %Bv = tile.partition %B tile [8, 8] pad(zero) : memref<?x?xbf16> -> !tile.part<8x8xbf16, pad = zero>
  %Cv = tile.partition %C tile [8, 8] : memref<?x?xf32> -> !tile.part<8x8xf32>
  %Dv = tile.partition %D tile [8, 8] : memref<?x?xbf16> -> !tile.part<8x8xbf16>
  %m, %n = tile.grid %Cv : !tile.part<8x8xf32>
  %nk = tile.num_tiles %Av[1] : !tile.part<8x8xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<8x8xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<8x8xf32>) {
    %x = tile.load %Av[%m, %k] : !tile.part<8x8xbf16, pad = zero> -> tensor<8x8xbf16>
    %w = tile.load %Bv[%n, %k] : !tile.part<8x8xbf16, pad = zero> -> tensor<8x8xbf16>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<8x8xbf16>, tensor<8x8xbf16> -> tensor<8x8xf32>
    scf.yield %r : tensor<8x8xf32>
  }
  tile.store %acc, %Cv[%m, %n] : tensor<8x8xf32>, !tile.part<8x8xf32>
  %h = arith.truncf %acc : tensor<8x8xf32> to tensor<8x8xbf16>
  %st = tile.splat %s : bf16 -> tensor<8x8xbf16>
  %d = arith.mulf %h, %st : tensor<8x8xbf16>
  tile.store %d, %Dv[%m, %n] : tensor<8x8xbf16>, !tile.part<8x8xbf16>
  tile.return
}
