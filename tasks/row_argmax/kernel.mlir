// Row argmax: y[i] = the first j with x[i, j] = max_j x[i, j] (torch.argmax's
// rule for ties), over rows of any length, as int64. No index-valued
// reduction is needed: per column tile, the tile's max (tile.reduce max),
// then the smallest global column holding it (tile.reduce min over the
// column indices of the matching elements; every other element, and every
// column past N, offers N). The running pair (max, index) takes a tile's
// pair only when the tile's max is strictly larger, so an earlier tile wins
// a tie across tiles too. NaN ranks above every number, as in torch: a NaN
// element matches a NaN max, and a NaN tile max replaces any number.
// pad(neg_inf) keeps the overhanging columns out of the max; the index
// offered by a column past N is masked with tile.iota and arith.select, the
// form tile-verify's pad check (C10) reads. Column indices are i32 (the
// `requires` fact keeps N in range) and widened once per row: with 64-bit
// index arithmetic on every element the kernel ran at 0.52-0.61x of this
// form's speed on the H200 machine (2026-12-03).
tile.kernel @row_argmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?xi64> {tile.dims = ["M"]})
    params {BR = 4, BN = 1024, num_warps = 4} requires ["N <= 2147483647"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BR] : memref<?xi64> -> !tile.part<4xi64>
  %r = tile.grid %Yv : !tile.part<4xi64>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = neg_inf>
  %n32 = arith.index_cast %n : index to i32
  %n2d = tile.splat %n32 : i32 -> tensor<4x1024xi32>
  %ciota = tile.iota dim 1 : tensor<4x1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %first = arith.constant dense<0> : tensor<4xi32>
  %m, %idx = scf.for %j = %c0 to %nt step %c1 iter_args(%mi = %ninf, %ii = %first)
      -> (tensor<4xf32>, tensor<4xi32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %tmax = tile.reduce max %x dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
    %tmaxb = tile.broadcast %tmax dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %j032 = arith.index_cast %j0 : index to i32
    %cbase = tile.splat %j032 : i32 -> tensor<4x1024xi32>
    %cols = arith.addi %cbase, %ciota : tensor<4x1024xi32>
    %equal = arith.cmpf oeq, %x, %tmaxb : tensor<4x1024xf32>
    %isnan = arith.cmpf uno, %x, %x : tensor<4x1024xf32>
    %match = arith.ori %equal, %isnan : tensor<4x1024xi1>
    %offer = arith.select %match, %cols, %n2d : tensor<4x1024xi1>, tensor<4x1024xi32>
    %inb = arith.cmpi ult, %cols, %n2d : tensor<4x1024xi32>
    %offer_in = arith.select %inb, %offer, %n2d : tensor<4x1024xi1>, tensor<4x1024xi32>
    %tidx = tile.reduce min %offer_in dim 1 : tensor<4x1024xi32> -> tensor<4xi32>
    %larger = arith.cmpf ogt, %tmax, %mi : tensor<4xf32>
    %tnan = arith.cmpf uno, %tmax, %tmax : tensor<4xf32>
    %mnum = arith.cmpf ord, %mi, %mi : tensor<4xf32>
    %nan_first = arith.andi %tnan, %mnum : tensor<4xi1>
    %take = arith.ori %larger, %nan_first : tensor<4xi1>
    %mn = arith.maximumf %mi, %tmax : tensor<4xf32>
    %in = arith.select %take, %tidx, %ii : tensor<4xi1>, tensor<4xi32>
    scf.yield %mn, %in : tensor<4xf32>, tensor<4xi32>
  }
  %y = arith.extsi %idx : tensor<4xi32> to tensor<4xi64>
  tile.store %y, %Yv[%r] : tensor<4xi64>, !tile.part<4xi64>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?xi64>) {
  tile.launch @row_argmax(%x, %y) : (memref<?x?xf32>, memref<?xi64>) -> ()
  return
}
