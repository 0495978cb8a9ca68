// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C9,C10"

// Masks on the boundary tiles only: causal attention whose key tiles are
// masked inside an scf.if taken where the tile reaches past S or crosses the
// diagonal (j * 16 + 16 > min(S, 16 m + 1)); the other branch yields the
// scores and probabilities unmasked. C10 drops, from what a branch yields,
// the pad of loads that read no partial tile where the branch is taken (the
// else branch never sees keys past S); C9 counts the key tiles the loop
// skips as masked when, for each case of the if's condition, the branch
// taken there masks every lane. Proved.

tile.kernel @causal_masks_boundary_tiles(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
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
    %jend = arith.addi %j0, %bn : index
    %ragged = arith.cmpi ugt, %jend, %s : index
    %mrow1 = arith.addi %m0, %c1 : index
    %crosses = arith.cmpi ugt, %jend, %mrow1 : index
    %masks = arith.ori %ragged, %crosses : i1
    %sm = scf.if %masks -> (tensor<16x16xf32>) {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %sin = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      %masked = arith.select %causal, %sin, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %masked : tensor<16x16xf32>
    } else {
      scf.yield %sc : tensor<16x16xf32>
    }
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %p = scf.if %masks -> (tensor<16x16xf32>) {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %pin = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      %zeroed = arith.select %causal, %pin, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %zeroed : tensor<16x16xf32>
    } else {
      scf.yield %pe : tensor<16x16xf32>
    }
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

// Only a bounds test, and one tile late (j * 16 > S instead of j * 16 + 16 >
// S): the partial last key tile takes the unmasked branch, and its pad
// reaches the reductions (C10); the tiles past the diagonal that the loop
// skips are not masked either (C9).

tile.kernel @bounds_mask_only_and_late(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
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
    %jend = arith.addi %j0, %bn : index
    %ragged = arith.cmpi ugt, %j0, %s : index
    %masks = arith.ori %ragged, %ragged : i1
    %sm = scf.if %masks -> (tensor<16x16xf32>) {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %sin = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      %masked = arith.select %causal, %sin, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %masked : tensor<16x16xf32>
    } else {
      scf.yield %sc : tensor<16x16xf32>
    }
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold zero there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %p = scf.if %masks -> (tensor<16x16xf32>) {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %pin = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      %zeroed = arith.select %causal, %pin, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %zeroed : tensor<16x16xf32>
    } else {
      scf.yield %pe : tensor<16x16xf32>
    }
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold +inf or finite values there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    %ts = tile.reduce add %p dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %shift = arith.subf %mi, %mn : tensor<16xf32>
    %alpha = math.exp %shift : tensor<16xf32>
    %ls = arith.mulf %li, %alpha : tensor<16xf32>
    %ln = arith.addf %ls, %ts : tensor<16xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x32xf32>
    %os = arith.mulf %oi, %ab : tensor<16x32xf32>
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold +inf or finite values there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold zero there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    %on = tile.mma %p, %v, %os : tensor<16x16xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    scf.yield %on, %mn, %ln : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x32xf32>
  %y = arith.divf %o, %lb : tensor<16x32xf32>
  tile.store %y, %Ov[%m, %c0] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}

// -----

// The loop one tile short of the diagonal: the skipped diagonal tile takes
// the masking branch but holds unmasked keys (key 16 m against query 16 m),
// so each reduction over the keys misses it (C9).

tile.kernel @guarded_causal_skips_diagonal(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
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
  %diag1 = arith.subi %diag, %c1 : index
  %nkc = arith.minsi %nk, %diag1 : index
  %o, %mx, %l = scf.for %j = %c0 to %nkc step %c1 iter_args(%oi = %zo, %mi = %ninf, %li = %zero)
      -> (tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>) {
    %k = tile.load %Kv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %sc = tile.mma %q, %k, %zs {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    %j0 = arith.muli %j, %bn : index
    %jend = arith.addi %j0, %bn : index
    %ragged = arith.cmpi ugt, %jend, %s : index
    %mrow1 = arith.addi %m0, %c1 : index
    %crosses = arith.cmpi ugt, %jend, %mrow1 : index
    %masks = arith.ori %ragged, %crosses : i1
    %sm = scf.if %masks -> (tensor<16x16xf32>) {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %sin = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      %masked = arith.select %causal, %sin, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %masked : tensor<16x16xf32>
    } else {
      scf.yield %sc : tensor<16x16xf32>
    }
    // expected-error @below {{never reduces k tile 0 (elements [0, 1) of S = 1) for block (0) (S = 1, D = 1)}}
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %p = scf.if %masks -> (tensor<16x16xf32>) {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %pin = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      %zeroed = arith.select %causal, %pin, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %zeroed : tensor<16x16xf32>
    } else {
      scf.yield %pe : tensor<16x16xf32>
    }
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

// The branches swapped: the tiles past the diagonal that the loop skips
// would take the unmasked branch, so they are not masked (C9), and the
// partial last tile's pad reaches the reductions (C10).

tile.kernel @guarded_causal_mask_in_wrong_branch(%Q: memref<?x?xf32> {tile.dims = ["S", "D"]},
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
    %jend = arith.addi %j0, %bn : index
    %ragged = arith.cmpi ugt, %jend, %s : index
    %mrow1 = arith.addi %m0, %c1 : index
    %crosses = arith.cmpi ugt, %jend, %mrow1 : index
    %masks = arith.ori %ragged, %crosses : i1
    %sm = scf.if %masks -> (tensor<16x16xf32>) {
      scf.yield %sc : tensor<16x16xf32>
    } else {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %sin = arith.select %inb, %sc, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      %masked = arith.select %causal, %sin, %ninf2d : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %masked : tensor<16x16xf32>
    }
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold zero there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    %tmax = tile.reduce max %sm dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<16xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<16xf32> -> tensor<16x16xf32>
    %dd = arith.subf %sm, %mb : tensor<16x16xf32>
    %pe = math.exp %dd : tensor<16x16xf32>
    %p = scf.if %masks -> (tensor<16x16xf32>) {
      scf.yield %pe : tensor<16x16xf32>
    } else {
      %cbase = tile.splat %j0 : index -> tensor<16x16xindex>
      %cols = arith.addi %cbase, %ciota : tensor<16x16xindex>
      %inb = arith.cmpi ult, %cols, %s2d : tensor<16x16xindex>
      %causal = arith.cmpi ule, %cols, %rows : tensor<16x16xindex>
      %pin = arith.select %inb, %pe, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      %zeroed = arith.select %causal, %pin, %zs : tensor<16x16xi1>, tensor<16x16xf32>
      scf.yield %zeroed : tensor<16x16xf32>
    }
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold +inf or finite values there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    %ts = tile.reduce add %p dim 1 : tensor<16x16xf32> -> tensor<16xf32>
    %shift = arith.subf %mi, %mn : tensor<16xf32>
    %alpha = math.exp %shift : tensor<16xf32>
    %ls = arith.mulf %li, %alpha : tensor<16xf32>
    %ln = arith.addf %ls, %ts : tensor<16xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<16xf32> -> tensor<16x32xf32>
    %os = arith.mulf %oi, %ab : tensor<16x32xf32>
    %v = tile.load %Vv[%j, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{never reduces k tile 1 (elements [16, 17) of S = 17) for block (0) (S = 17, D = 1)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold +inf or finite values there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    // expected-error @below {{with pad(zero) along dim 0, which hold zero there (for S = 1, D = 1, block (0), iv0 = 0 reads element (1, 0) past S)}}
    %on = tile.mma %p, %v, %os : tensor<16x16xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    scf.yield %on, %mn, %ln : tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<16xf32> -> tensor<16x32xf32>
  %y = arith.divf %o, %lb : tensor<16x32xf32>
  tile.store %y, %Ov[%m, %c0] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}
