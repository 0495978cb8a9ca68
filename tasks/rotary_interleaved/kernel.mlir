// Rotary position embedding, interleaved form (GPT-J, RoFormer, the complex
// multiplication of LLaMA's reference code): the head dim holds pairs
// (x[2i], x[2i+1]), each rotated by its own angle,
//   y[2i]     = x[2i] cos[i] - x[2i+1] sin[i]
//   y[2i + 1] = x[2i + 1] cos[i] + x[2i] sin[i]
// with per-token tables cos, sin [T, H/2] (one angle per pair). Against the
// rotate-half task (tasks/rotary) both partners and tables move: the partner
// of column c is c + 1 for even c and c - 1 for odd c, and column c takes
// angle c / 2, so x's partners and both tables are read with tile.gather
// along their last dim, at index tiles computed from tile.iota. Out-of-range
// positions read zero: the partners of columns past H, and the table columns
// of pairs past H/2, land only in lanes the store masks.
tile.kernel @rotary_interleaved(%X: memref<?x?x?xf32> {tile.dims = ["T", "NH", "H"]},
                                %C: memref<?x?xf32> {tile.dims = ["T", "HP"]},
                                %S: memref<?x?xf32> {tile.dims = ["T", "HP"]},
                                %Y: memref<?x?x?xf32> {tile.dims = ["T", "NH", "H"]})
    params {BT = 1, BNH = 8, BH = 128, num_warps = 4}
    requires ["H <= BH", "H == 2 * HP"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [BT, BNH, BH] pad(zero) : memref<?x?x?xf32> -> !tile.part<1x8x128xf32, pad = zero>
  %Xg = tile.partition %X tile [BT, BNH, 1] pad(zero) : memref<?x?x?xf32> -> !tile.part<1x8x1xf32, pad = zero>
  %Cg = tile.partition %C tile [BT, 1] pad(zero) : memref<?x?xf32> -> !tile.part<1x1xf32, pad = zero>
  %Sg = tile.partition %S tile [BT, 1] pad(zero) : memref<?x?xf32> -> !tile.part<1x1xf32, pad = zero>
  %Yv = tile.partition %Y tile [BT, BNH, BH] : memref<?x?x?xf32> -> !tile.part<1x8x128xf32>
  %t, %h = tile.grid %Yv dims [0, 1] : !tile.part<1x8x128xf32>
  // Per column: the partner, the sign of the partner's term, the pair.
  %one = arith.constant dense<1> : tensor<1x8x128xi32>
  %two = arith.constant dense<2> : tensor<1x8x128xi32>
  %zero = arith.constant dense<0> : tensor<1x8x128xi32>
  %col = tile.iota dim 2 : tensor<1x8x128xi32>
  %parity = arith.remui %col, %two : tensor<1x8x128xi32>
  %even = arith.cmpi eq, %parity, %zero : tensor<1x8x128xi32>
  %up = arith.addi %col, %one : tensor<1x8x128xi32>
  %down = arith.subi %col, %one : tensor<1x8x128xi32>
  %partner = arith.select %even, %up, %down : tensor<1x8x128xi1>, tensor<1x8x128xi32>
  %minus = arith.constant dense<-1.0> : tensor<1x8x128xf32>
  %plus = arith.constant dense<1.0> : tensor<1x8x128xf32>
  %sign = arith.select %even, %minus, %plus : tensor<1x8x128xi1>, tensor<1x8x128xf32>
  %tcol = tile.iota dim 1 : tensor<1x128xi32>
  %ttwo = arith.constant dense<2> : tensor<1x128xi32>
  %pair = arith.divui %tcol, %ttwo : tensor<1x128xi32>
  %x = tile.load %Xv[%t, %h, %c0] : !tile.part<1x8x128xf32, pad = zero> -> tensor<1x8x128xf32>
  %xp = tile.gather %Xg[%t, %h, %c0] dim 2 by %partner
      : !tile.part<1x8x1xf32, pad = zero>, tensor<1x8x128xi32> -> tensor<1x8x128xf32>
  %cos = tile.gather %Cg[%t, %c0] dim 1 by %pair
      : !tile.part<1x1xf32, pad = zero>, tensor<1x128xi32> -> tensor<1x128xf32>
  %sin = tile.gather %Sg[%t, %c0] dim 1 by %pair
      : !tile.part<1x1xf32, pad = zero>, tensor<1x128xi32> -> tensor<1x128xf32>
  %cosb = tile.broadcast %cos dims [1] : tensor<1x128xf32> -> tensor<1x8x128xf32>
  %sinb = tile.broadcast %sin dims [1] : tensor<1x128xf32> -> tensor<1x8x128xf32>
  %a = arith.mulf %x, %cosb : tensor<1x8x128xf32>
  %rot = arith.mulf %sign, %xp : tensor<1x8x128xf32>
  %b = arith.mulf %rot, %sinb : tensor<1x8x128xf32>
  %y = arith.addf %a, %b : tensor<1x8x128xf32>
  tile.store %y, %Yv[%t, %h, %c0] : tensor<1x8x128xf32>, !tile.part<1x8x128xf32>
  tile.return
}

func.func @main(%x: memref<?x?x?xf32>, %cos: memref<?x?xf32>, %sin: memref<?x?xf32>,
                %y: memref<?x?x?xf32>) {
  tile.launch @rotary_interleaved(%x, %cos, %sin, %y)
      : (memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) -> ()
  return
}
