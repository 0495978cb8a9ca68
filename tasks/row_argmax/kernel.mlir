// Row argmax: y[i] = the first j with x[i, j] = max_j x[i, j] (torch.argmax's
// rule for ties), over rows of any length, as int64. Each lane of the tile
// keeps a running (max, first index) over the column tiles it visits: a step
// only compares and selects, elementwise, and the row is reduced once, after
// the last tile (the max over the lanes, then the smallest index among the
// lanes holding it). Until 2026-12-07 every tile was reduced (its max, then
// the smallest column holding it: two cross-thread reductions a step), which
// kept a warp's next loads waiting behind them; on an H100 machine this form
// took 268.0 against 281.9 us at the tune shape 4096 x 50257 and 27.3 against
// 32.0 at 512 x 32000 (docs/results.md).
// A lane takes a new element when it is larger, when it is the first NaN
// (NaN ranks above every number, as in torch), or when the lane has taken
// nothing yet (its index is still N, so a row of -inf still has an answer).
// Columns are visited in increasing order, so a strictly larger element
// keeps each lane's first occurrence, and the smallest index among the
// lanes holding the maximum is the row's first. The padded columns past N
// are kept out by a select on the column bound (tile.iota, the form
// tile-verify's pad check reads). Column indices are i32 (the `requires`
// fact keeps N in range) and widened once per row: with 64-bit index
// arithmetic on every element the earlier form ran at 0.52-0.61x of its
// 32-bit speed on the H200 machine (2026-12-03).
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
  %ninf = arith.constant dense<0xFF800000> : tensor<4x1024xf32>
  %lm, %li = scf.for %j = %c0 to %nt step %c1 iter_args(%mi = %ninf, %ii = %n2d)
      -> (tensor<4x1024xf32>, tensor<4x1024xi32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = neg_inf> -> tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %j032 = arith.index_cast %j0 : index to i32
    %cbase = tile.splat %j032 : i32 -> tensor<4x1024xi32>
    %cols = arith.addi %cbase, %ciota : tensor<4x1024xi32>
    %larger = arith.cmpf ogt, %x, %mi : tensor<4x1024xf32>
    %xnan = arith.cmpf uno, %x, %x : tensor<4x1024xf32>
    %mnum = arith.cmpf ord, %mi, %mi : tensor<4x1024xf32>
    %nan_first = arith.andi %xnan, %mnum : tensor<4x1024xi1>
    %empty = arith.cmpi eq, %ii, %n2d : tensor<4x1024xi32>
    %better = arith.ori %larger, %nan_first : tensor<4x1024xi1>
    %take = arith.ori %better, %empty : tensor<4x1024xi1>
    %tm = arith.select %take, %x, %mi : tensor<4x1024xi1>, tensor<4x1024xf32>
    %ti = arith.select %take, %cols, %ii : tensor<4x1024xi1>, tensor<4x1024xi32>
    %inb = arith.cmpi ult, %cols, %n2d : tensor<4x1024xi32>
    %nm = arith.select %inb, %tm, %mi : tensor<4x1024xi1>, tensor<4x1024xf32>
    %ni = arith.select %inb, %ti, %ii : tensor<4x1024xi1>, tensor<4x1024xi32>
    scf.yield %nm, %ni : tensor<4x1024xf32>, tensor<4x1024xi32>
  }
  %rmax = tile.reduce max %lm dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %rmaxb = tile.broadcast %rmax dims [1] : tensor<4xf32> -> tensor<4x1024xf32>
  %equal = arith.cmpf oeq, %lm, %rmaxb : tensor<4x1024xf32>
  %lnan = arith.cmpf uno, %lm, %lm : tensor<4x1024xf32>
  %match = arith.ori %equal, %lnan : tensor<4x1024xi1>
  %offer = arith.select %match, %li, %n2d : tensor<4x1024xi1>, tensor<4x1024xi32>
  %idx = tile.reduce min %offer dim 1 : tensor<4x1024xi32> -> tensor<4xi32>
  %y = arith.extsi %idx : tensor<4xi32> to tensor<4xi64>
  tile.store %y, %Yv[%r] : tensor<4xi64>, !tile.part<4xi64>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?xi64>) {
  tile.launch @row_argmax(%x, %y) : (memref<?x?xf32>, memref<?xi64>) -> ()
  return
}
