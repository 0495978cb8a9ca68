// Column argmax: y[j] = the first i with x[i, j] = max_i x[i, j] (torch's
// rule for ties; NaN ranks above every number), any M, as int64. Each block
// owns BN columns and walks their row tiles in order, as row_argmax walks
// column tiles: per tile, the column max (tile.reduce max over dim 0), then
// the smallest global row holding it (tile.reduce min over the row indices
// of the matching elements; every other element, and every row past M,
// offers M). The running pair (max, index) takes a tile's pair only when
// the tile's max is strictly larger (or the first NaN), so the earliest
// row wins a tie. pad(neg_inf) keeps the rows past M out of the max; the
// index a row past M offers is masked with tile.iota and arith.select, the
// form tile-verify's pad check (C10) reads. Row indices are i32, widened
// once per column; the `requires` fact keeps M in range.
tile.kernel @col_argmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?xi64> {tile.dims = ["N"]})
    params {BR = 64, BN = 32, num_warps = 4} requires ["M <= 2147483647"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [BN] : memref<?xi64> -> !tile.part<32xi64>
  %c = tile.grid %Yv : !tile.part<32xi64>
  %mt = tile.num_tiles %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %br = tile.tile_size %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %m = tile.extent %Xv[0] : !tile.part<64x32xf32, pad = neg_inf>
  %m32 = arith.index_cast %m : index to i32
  %m2d = tile.splat %m32 : i32 -> tensor<64x32xi32>
  %riota = tile.iota dim 0 : tensor<64x32xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<32xf32>
  %first = arith.constant dense<0> : tensor<32xi32>
  %best, %at = scf.for %i = %c0 to %mt step %c1 iter_args(%mi = %ninf, %ii = %first)
      -> (tensor<32xf32>, tensor<32xi32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<64x32xf32, pad = neg_inf> -> tensor<64x32xf32>
    %tmax = tile.reduce max %x dim 0 : tensor<64x32xf32> -> tensor<32xf32>
    %tmaxb = tile.broadcast %tmax dims [0] : tensor<32xf32> -> tensor<64x32xf32>
    %i0 = arith.muli %i, %br : index
    %i032 = arith.index_cast %i0 : index to i32
    %rbase = tile.splat %i032 : i32 -> tensor<64x32xi32>
    %rows = arith.addi %rbase, %riota : tensor<64x32xi32>
    %equal = arith.cmpf oeq, %x, %tmaxb : tensor<64x32xf32>
    %isnan = arith.cmpf uno, %x, %x : tensor<64x32xf32>
    %match = arith.ori %equal, %isnan : tensor<64x32xi1>
    %offer = arith.select %match, %rows, %m2d : tensor<64x32xi1>, tensor<64x32xi32>
    %inb = arith.cmpi ult, %rows, %m2d : tensor<64x32xi32>
    %offer_in = arith.select %inb, %offer, %m2d : tensor<64x32xi1>, tensor<64x32xi32>
    %tidx = tile.reduce min %offer_in dim 0 : tensor<64x32xi32> -> tensor<32xi32>
    %larger = arith.cmpf ogt, %tmax, %mi : tensor<32xf32>
    %tnan = arith.cmpf uno, %tmax, %tmax : tensor<32xf32>
    %mnum = arith.cmpf ord, %mi, %mi : tensor<32xf32>
    %nan_first = arith.andi %tnan, %mnum : tensor<32xi1>
    %take = arith.ori %larger, %nan_first : tensor<32xi1>
    %mn = arith.maximumf %mi, %tmax : tensor<32xf32>
    %in = arith.select %take, %tidx, %ii : tensor<32xi1>, tensor<32xi32>
    scf.yield %mn, %in : tensor<32xf32>, tensor<32xi32>
  }
  %y = arith.extsi %at : tensor<32xi32> to tensor<32xi64>
  tile.store %y, %Yv[%c] : tensor<32xi64>, !tile.part<32xi64>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?xi64>) {
  tile.launch @col_argmax(%x, %y) : (memref<?x?xf32>, memref<?xi64>) -> ()
  return
}
