// Cross-entropy with integer class targets (language-model training's loss),
// one pass per row:
//   loss[i] = lse(x[i, :]) - x[i, t[i]]
// The pass carries the online max and sum of exp of the row and the target's
// logit, picked without a data-dependent load: per column tile, the element
// whose global column equals t[i] (every other element offers 0) summed over
// the tile. The targets are read as a BR tile once per row block and compared
// in i32 (the `requires` fact keeps N, and so every target, in range), which
// keeps 64-bit arithmetic off the per-element path. pad(neg_inf) keeps the
// overhanging columns out of the max and the sum of exp; the pick is masked
// with tile.iota and arith.select as well, the form tile-verify's pad check
// (C10) reads, so a padded -inf is never summed.
tile.kernel @cross_entropy(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %T: memref<?xi64> {tile.dims = ["M"]},
                           %L: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 1024, num_warps = 4} requires ["N <= 2147483647"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Tv = tile.partition %T tile [BR] pad(zero) : memref<?xi64> -> !tile.part<4xi64, pad = zero>
  %Lv = tile.partition %L tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Lv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
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
  %mx, %lx, %px = scf.for %j = %c0 to %nt step %c1
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
  %loglx = math.log %lx : tensor<4xf32>
  %lse = arith.addf %mx, %loglx : tensor<4xf32>
  %loss = arith.subf %lse, %px : tensor<4xf32>
  tile.store %loss, %Lv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %t: memref<?xi64>, %loss: memref<?xf32>) {
  tile.launch @cross_entropy(%x, %t, %loss)
      : (memref<?x?xf32>, memref<?xi64>, memref<?xf32>) -> ()
  return
}
