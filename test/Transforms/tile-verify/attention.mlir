// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C9,C10"

// Attention (online softmax, two tile.mma per key tile) under C9 and C10.
// The running max rescales the output accumulator (exp(old max - new max)):
// a max in an mma's accumulator is not a second sum of the same key tiles,
// so C9 checks it on its own chain and the kernel proves. Keys past S are
// -inf before the max and explicit zeros in the probabilities, so V's zero
// pad meets a zero in every product (C10).

tile.kernel @attention(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %K: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %O: memref<?x?xf32> {tile.dims = ["S", "D"]})
    requires ["D <= 32"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Kv = tile.partition %K tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Vv = tile.partition %V tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Ov = tile.partition %O tile [16, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<16x32xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %s = tile.extent %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %bn = tile.tile_size %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %ninf2d = arith.constant dense<0xFF800000> : tensor<16x16xf32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %zs = arith.constant dense<0.0> : tensor<16x16xf32>
  %zo = arith.constant dense<0.0> : tensor<16x32xf32>
  %ciota = tile.iota dim 1 : tensor<16x16xindex>
  %s2d = tile.splat %s : index -> tensor<16x16xindex>
  %q = tile.load %Qv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %o, %mx, %l = scf.for %j = %c0 to %nk step %c1 iter_args(%oi = %zo, %mi = %ninf, %li = %zero)
      -> (tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %sc = tile.mma %q, %k, %zs {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
    %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
    %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
    %sm = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %p = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
    %ts = tile.reduce add %p dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %shift = arith.subf %mi, %mn : tensor<16xf32>
    %alpha = math.exp %shift : tensor<16xf32>
    %ls = arith.mulf %li, %alpha : tensor<16xf32>
    %ln = arith.addf %ls, %ts : tensor<16xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x32xf32>
    %os = arith.mulf %oi, %ab : tensor<16x32xf32>
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %on = tile.mma %p, %v, %os : tensor<16x16xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    scf.yield %on, %mn, %ln : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x32xf32>
  %y = arith.divf %o, %lb : tensor<16x32xf32>
  tile.store %y, %Ov[%m, %c0] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}

// -----

// Without the zeroing select the probabilities past S are exp(-inf - max),
// which the lattice cannot tell from nan: V's zero pad times them is not
// provably zero.

tile.kernel @attention_unmasked_probabilities(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %K: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %O: memref<?x?xf32> {tile.dims = ["S", "D"]})
    requires ["D <= 32"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Kv = tile.partition %K tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Vv = tile.partition %V tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Ov = tile.partition %O tile [16, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<16x32xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %s = tile.extent %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %bn = tile.tile_size %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %ninf2d = arith.constant dense<0xFF800000> : tensor<16x16xf32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %zs = arith.constant dense<0.0> : tensor<16x16xf32>
  %zo = arith.constant dense<0.0> : tensor<16x32xf32>
  %ciota = tile.iota dim 1 : tensor<16x16xindex>
  %s2d = tile.splat %s : index -> tensor<16x16xindex>
  %q = tile.load %Qv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %o, %mx, %l = scf.for %j = %c0 to %nk step %c1 iter_args(%oi = %zo, %mi = %ninf, %li = %zero)
      -> (tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %sc = tile.mma %q, %k, %zs {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
    %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
    %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
    %sm = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %p = arith.addf %pe, %zs : tensor<16x16xf32>
    %ts = tile.reduce add %p dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %shift = arith.subf %mi, %mn : tensor<16xf32>
    %alpha = math.exp %shift : tensor<16xf32>
    %ls = arith.mulf %li, %alpha : tensor<16xf32>
    %ln = arith.addf %ls, %ts : tensor<16xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x32xf32>
    %os = arith.mulf %oi, %ab : tensor<16x32xf32>
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{with pad(zero) along dim 0, which hold zero there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S); a product with them is zero or nan, not zero: use pad(zero) for both operands, or set the other operand's lanes there to zero with arith.select}}
    %on = tile.mma %p, %v, %os : tensor<16x16xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    scf.yield %on, %mn, %ln : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x32xf32>
  %y = arith.divf %o, %lb : tensor<16x32xf32>
  tile.store %y, %Ov[%m, %c0] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}

// -----

// A row sum over one K tile only, fed to an mma as an operand: the product
// reaches Y, so the partial sum is a reduction C9 checks (it once counted
// as dead, since only accumulators were followed).
tile.kernel @partial_sum_into_operand(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                                      %W: memref<?x?xf32> {tile.dims = ["N", "M2"]},
                                      %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["M2 == 16"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  // expected-error @below {{never reduces k tile 1 (elements [32, 33) of K = 33)}}
  %r = tile.reduce add %x dim 1 : tensor<16x32xf32> -> tensor<16xf32>
  %a = tile.broadcast %r dims [1] : tensor<16xf32> -> tensor<16x16xf32>
  %w = tile.load %Wv[%n, %c0] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %p = tile.mma %a, %w, %z {transpose_b} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.store %p, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// -----

// Causal attention that stops after the diagonal: query block m reads key
// tiles j < ceildiv((m + 1) * 16, 16) only. Every reduction over the keys
// masks the tiles it skips to its identity on every lane (the max sees -inf,
// the sum and the product zeros), so C9 proves them covered.
tile.kernel @causal_attention(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %K: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %O: memref<?x?xf32> {tile.dims = ["S", "D"]})
    requires ["D <= 32"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Kv = tile.partition %K tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Vv = tile.partition %V tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Ov = tile.partition %O tile [16, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<16x32xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %s = tile.extent %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %bn = tile.tile_size %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %ninf2d = arith.constant dense<0xFF800000> : tensor<16x16xf32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %zs = arith.constant dense<0.0> : tensor<16x16xf32>
  %zo = arith.constant dense<0.0> : tensor<16x32xf32>
  %ciota = tile.iota dim 1 : tensor<16x16xindex>
  %bm = tile.tile_size %Qv[0] : !tile.part<16x32xf32, pad = zero>
  %m0 = arith.muli %m, %bm : index
  %rbase = tile.splat %m0 : index -> tensor<16x16xindex>
  %riota = tile.iota dim 0 : tensor<16x16xindex>
  %rows = arith.addi %rbase, %riota : tensor<16x16xindex>
  %s2d = tile.splat %s : index -> tensor<16x16xindex>
  %q = tile.load %Qv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %m1 = arith.addi %m, %c1 : index
  %hi = arith.muli %m1, %bm : index
  %diag = arith.ceildivsi %hi, %bn : index
  %nkc = arith.minsi %nk, %diag : index
  %o, %mx, %l = scf.for %j = %c0 to %nkc step %c1 iter_args(%oi = %zo, %mi = %ninf, %li = %zero)
      -> (tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %sc = tile.mma %q, %k, %zs {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
    %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
    %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
    %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
    %sin = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    %sm = arith.select %causal, %sin, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %pin = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
    %p = arith.select %causal, %pin, %zs : tensor<16x16xi1>, tensor<16x16xf32>
    %ts = tile.reduce add %p dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %shift = arith.subf %mi, %mn : tensor<16xf32>
    %alpha = math.exp %shift : tensor<16xf32>
    %ls = arith.mulf %li, %alpha : tensor<16xf32>
    %ln = arith.addf %ls, %ts : tensor<16xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x32xf32>
    %os = arith.mulf %oi, %ab : tensor<16x32xf32>
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %on = tile.mma %p, %v, %os : tensor<16x16xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    scf.yield %on, %mn, %ln : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x32xf32>
  %y = arith.divf %o, %lb : tensor<16x32xf32>
  tile.store %y, %Ov[%m, %c0] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}


// -----

// The same loop one tile short: the diagonal tile holds unmasked keys (key
// 16 m against query 16 m), so each reduction over the keys misses it.
tile.kernel @causal_skips_diagonal(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %K: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %O: memref<?x?xf32> {tile.dims = ["S", "D"]})
    requires ["D <= 32"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Kv = tile.partition %K tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Vv = tile.partition %V tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Ov = tile.partition %O tile [16, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<16x32xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %s = tile.extent %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %bn = tile.tile_size %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %ninf2d = arith.constant dense<0xFF800000> : tensor<16x16xf32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %zs = arith.constant dense<0.0> : tensor<16x16xf32>
  %zo = arith.constant dense<0.0> : tensor<16x32xf32>
  %ciota = tile.iota dim 1 : tensor<16x16xindex>
  %bm = tile.tile_size %Qv[0] : !tile.part<16x32xf32, pad = zero>
  %m0 = arith.muli %m, %bm : index
  %rbase = tile.splat %m0 : index -> tensor<16x16xindex>
  %riota = tile.iota dim 0 : tensor<16x16xindex>
  %rows = arith.addi %rbase, %riota : tensor<16x16xindex>
  %s2d = tile.splat %s : index -> tensor<16x16xindex>
  %q = tile.load %Qv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %hi = arith.muli %m, %bm : index
  %diag = arith.ceildivsi %hi, %bn : index
  %nkc = arith.minsi %nk, %diag : index
  %o, %mx, %l = scf.for %j = %c0 to %nkc step %c1 iter_args(%oi = %zo, %mi = %ninf, %li = %zero)
      -> (tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %sc = tile.mma %q, %k, %zs {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
    %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
    %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
    %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
    %sin = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    %sm = arith.select %causal, %sin, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    // expected-error @below {{never reduces k tile 0 (elements [0, 1) of S = 1) for block (0) (S = 1, D = 1)}}
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %pin = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
    %p = arith.select %causal, %pin, %zs : tensor<16x16xi1>, tensor<16x16xf32>
    // expected-error @below {{never reduces k tile 0 (elements [0, 1) of S = 1) for block (0) (S = 1, D = 1)}}
    %ts = tile.reduce add %p dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %shift = arith.subf %mi, %mn : tensor<16xf32>
    %alpha = math.exp %shift : tensor<16xf32>
    %ls = arith.mulf %li, %alpha : tensor<16xf32>
    %ln = arith.addf %ls, %ts : tensor<16xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x32xf32>
    %os = arith.mulf %oi, %ab : tensor<16x32xf32>
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{never reduces k tile 0 (elements [0, 1) of S = 1) for block (0) (S = 1, D = 1)}}
    %on = tile.mma %p, %v, %os : tensor<16x16xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    scf.yield %on, %mn, %ln : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x32xf32>
  %y = arith.divf %o, %lb : tensor<16x32xf32>
  tile.store %y, %Ov[%m, %c0] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}


// -----

// Stopping after the diagonal while the probabilities are masked only past
// S: the product's operand is not the identity on the skipped tiles, so
// C9 cannot drop them (the max and the sum still can).
tile.kernel @causal_unmasked_product(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %K: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %V: memref<?x?xf32> {tile.dims = ["S", "D"]},
                 %O: memref<?x?xf32> {tile.dims = ["S", "D"]})
    requires ["D <= 32"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Kv = tile.partition %K tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Vv = tile.partition %V tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Ov = tile.partition %O tile [16, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m = tile.grid %Ov dims [0] : !tile.part<16x32xf32>
  %nk = tile.num_tiles %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %s = tile.extent %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %bn = tile.tile_size %Kv[0] : !tile.part<16x32xf32, pad = zero>
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %ninf2d = arith.constant dense<0xFF800000> : tensor<16x16xf32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %zs = arith.constant dense<0.0> : tensor<16x16xf32>
  %zo = arith.constant dense<0.0> : tensor<16x32xf32>
  %ciota = tile.iota dim 1 : tensor<16x16xindex>
  %bm = tile.tile_size %Qv[0] : !tile.part<16x32xf32, pad = zero>
  %m0 = arith.muli %m, %bm : index
  %rbase = tile.splat %m0 : index -> tensor<16x16xindex>
  %riota = tile.iota dim 0 : tensor<16x16xindex>
  %rows = arith.addi %rbase, %riota : tensor<16x16xindex>
  %s2d = tile.splat %s : index -> tensor<16x16xindex>
  %q = tile.load %Qv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %m1 = arith.addi %m, %c1 : index
  %hi = arith.muli %m1, %bm : index
  %diag = arith.ceildivsi %hi, %bn : index
  %nkc = arith.minsi %nk, %diag : index
  %o, %mx, %l = scf.for %j = %c0 to %nkc step %c1 iter_args(%oi = %zo, %mi = %ninf, %li = %zero)
      -> (tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %sc = tile.mma %q, %k, %zs {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
    %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
    %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
    %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
    %sin = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    %sm = arith.select %causal, %sin, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %p = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    %ts = tile.reduce add %p dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %shift = arith.subf %mi, %mn : tensor<16xf32>
    %alpha = math.exp %shift : tensor<16xf32>
    %ls = arith.mulf %li, %alpha : tensor<16xf32>
    %ln = arith.addf %ls, %ts : tensor<16xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x32xf32>
    %os = arith.mulf %oi, %ab : tensor<16x32xf32>
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    %on = tile.mma %p, %v, %os : tensor<16x16xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    scf.yield %on, %mn, %ln : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x32xf32>
  %y = arith.divf %o, %lb : tensor<16x32xf32>
  tile.store %y, %Ov[%m, %c0] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}


// -----

// Masks exempt only the tiles an iteration would read: a loop over every
// other tile, masked past N, never reads the odd tiles at all, so they stay
// missing however the mask reads.
tile.kernel @masked_but_strided(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %half = arith.ceildivsi %nt, %c2 : index
  %n = tile.extent %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %n2d = tile.splat %n : index -> tensor<4x16xindex>
  %ciota = tile.iota dim 1 : tensor<4x16xindex>
  %zeros = arith.constant dense<0.0> : tensor<4x16xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %acc = scf.for %j = %c0 to %half step %c1 iter_args(%a = %zero) -> (tensor<4xf32>) {
    %jj = arith.muli %j, %c2 : index
    %x = tile.load %Xv[%r, %jj] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
    %j0 = arith.muli %jj, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<4x16xindex>
    %cols = arith.addi %cbase, %ciota : tensor<4x16xindex>
    %inb = arith.cmpi ult, %cols, %n2d : tensor<4x16xindex>
    %xm = arith.select %inb, %x, %zeros : tensor<4x16xi1>, tensor<4x16xf32>
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of N = 17)}}
    %s = tile.reduce add %xm dim 1 : tensor<4x16xf32> -> tensor<4xf32>
    %an = arith.addf %a, %s : tensor<4xf32>
    scf.yield %an : tensor<4xf32>
  }
  tile.store %acc, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
