// Row mean of binary cross-entropy with logits, in torch's stable form:
//   l = (1 - t) x + m + log(exp(-m) + exp(-x - m)),  m = max(-x, 0),
// y = sum_j l / N. Padded lanes (x = t = 0) give l = log 2, not zero, so
// the sum masks them with a tile.iota of the columns inside N.
tile.kernel @bce_logits(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %T: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Tv = tile.partition %T tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n = tile.extent %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n_i64 = arith.index_cast %n : index to i64
  %n_f32 = arith.sitofp %n_i64 : i64 to f32
  %n_t = tile.splat %n_f32 : f32 -> tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %one = arith.constant dense<1.0> : tensor<4x1024xf32>
  %cols = tile.iota dim 1 : tensor<4x1024xindex>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %n2d = tile.splat %n : index -> tensor<4x1024xindex>
  %sum2d = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %t = tile.load %Tv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %nx = arith.negf %x : tensor<4x1024xf32>
    %m = arith.maximumf %nx, %zero : tensor<4x1024xf32>
    %omt = arith.subf %one, %t : tensor<4x1024xf32>
    %lin = arith.mulf %omt, %x : tensor<4x1024xf32>
    %l0 = arith.addf %lin, %m : tensor<4x1024xf32>
    %nm = arith.negf %m : tensor<4x1024xf32>
    %e0 = math.exp %nm : tensor<4x1024xf32>
    %nxm = arith.subf %nx, %m : tensor<4x1024xf32>
    %e1 = math.exp %nxm : tensor<4x1024xf32>
    %es = arith.addf %e0, %e1 : tensor<4x1024xf32>
    %lg = math.log %es : tensor<4x1024xf32>
    %l = arith.addf %l0, %lg : tensor<4x1024xf32>
    %j0 = arith.muli %j, %bn : index
    %base = tile.splat %j0 : index -> tensor<4x1024xindex>
    %col = arith.addi %base, %cols : tensor<4x1024xindex>
    %inb = arith.cmpi ult, %col, %n2d : tensor<4x1024xindex>
    %lm = arith.select %inb, %l, %zero : tensor<4x1024xi1>, tensor<4x1024xf32>
    %s = arith.addf %a, %lm : tensor<4x1024xf32>
    scf.yield %s : tensor<4x1024xf32>
  }
  %sum = tile.reduce add %sum2d dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  %y = arith.divf %sum, %n_t : tensor<4xf32>
  tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %t: memref<?x?xf32>, %y: memref<?xf32>) {
  tile.launch @bce_logits(%x, %t, %y) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  return
}
