// Rotary position embedding, rotate-half form (GPT-NeoX, Llama), with
// per-token tables:
//   y = x * cos + rotate_half(x) * sin,  rotate_half(x) = [-x2, x1]
// over heads of H elements (x1, x2 the two halves). The partner of column c
// (c + H/2 below the middle, c - H/2 above) is read with tile.gather along
// the head dim from a second view of x (tile size 1 there), at an index tile
// computed from tile.iota: data moves between columns on purpose, which a
// load could not express (tile-verify's C11 requires loaded lanes to keep
// their column; a gather's lanes along its gathered dim carry no column).
// A CTA takes BT tokens and BNH heads of one whole head each (`H <= BH`);
// the cos and sin rows of its tokens are loaded once and broadcast over the
// heads. Columns past H read zeros and the store masks them.
tile.kernel @rotary(%X: memref<?x?x?xf32> {tile.dims = ["T", "NH", "H"]},
                    %C: memref<?x?xf32> {tile.dims = ["T", "H"]},
                    %S: memref<?x?xf32> {tile.dims = ["T", "H"]},
                    %Y: memref<?x?x?xf32> {tile.dims = ["T", "NH", "H"]})
    params {BT = 2, BNH = 4, BH = 128, num_warps = 4}
    requires ["H <= BH", "H % 2 == 0"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [BT, BNH, BH] pad(zero) : memref<?x?x?xf32> -> !tile.part<2x4x128xf32, pad = zero>
  %Xg = tile.partition %X tile [BT, BNH, 1] pad(zero) : memref<?x?x?xf32> -> !tile.part<2x4x1xf32, pad = zero>
  %Cv = tile.partition %C tile [BT, BH] pad(zero) : memref<?x?xf32> -> !tile.part<2x128xf32, pad = zero>
  %Sv = tile.partition %S tile [BT, BH] pad(zero) : memref<?x?xf32> -> !tile.part<2x128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BT, BNH, BH] : memref<?x?x?xf32> -> !tile.part<2x4x128xf32>
  %t, %h = tile.grid %Yv dims [0, 1] : !tile.part<2x4x128xf32>
  // The partner column and the sign of rotate_half, per column.
  %n = tile.extent %Xv[2] : !tile.part<2x4x128xf32, pad = zero>
  %c2 = arith.constant 2 : index
  %half = arith.divui %n, %c2 : index
  %half32 = arith.index_cast %half : index to i32
  %halfs = tile.splat %half32 : i32 -> tensor<2x4x128xi32>
  %col = tile.iota dim 2 : tensor<2x4x128xi32>
  %low = arith.cmpi slt, %col, %halfs : tensor<2x4x128xi32>
  %up = arith.addi %col, %halfs : tensor<2x4x128xi32>
  %down = arith.subi %col, %halfs : tensor<2x4x128xi32>
  %partner = arith.select %low, %up, %down : tensor<2x4x128xi1>, tensor<2x4x128xi32>
  %minus = arith.constant dense<-1.0> : tensor<2x4x128xf32>
  %plus = arith.constant dense<1.0> : tensor<2x4x128xf32>
  %sign = arith.select %low, %minus, %plus : tensor<2x4x128xi1>, tensor<2x4x128xf32>
  %x = tile.load %Xv[%t, %h, %c0] : !tile.part<2x4x128xf32, pad = zero> -> tensor<2x4x128xf32>
  %xp = tile.gather %Xg[%t, %h, %c0] dim 2 by %partner
      : !tile.part<2x4x1xf32, pad = zero>, tensor<2x4x128xi32> -> tensor<2x4x128xf32>
  %cos = tile.load %Cv[%t, %c0] : !tile.part<2x128xf32, pad = zero> -> tensor<2x128xf32>
  %sin = tile.load %Sv[%t, %c0] : !tile.part<2x128xf32, pad = zero> -> tensor<2x128xf32>
  %cosb = tile.broadcast %cos dims [1] : tensor<2x128xf32> -> tensor<2x4x128xf32>
  %sinb = tile.broadcast %sin dims [1] : tensor<2x128xf32> -> tensor<2x4x128xf32>
  %a = arith.mulf %x, %cosb : tensor<2x4x128xf32>
  %rot = arith.mulf %sign, %xp : tensor<2x4x128xf32>
  %b = arith.mulf %rot, %sinb : tensor<2x4x128xf32>
  %y = arith.addf %a, %b : tensor<2x4x128xf32>
  tile.store %y, %Yv[%t, %h, %c0] : tensor<2x4x128xf32>, !tile.part<2x4x128xf32>
  tile.return
}

func.func @main(%x: memref<?x?x?xf32>, %cos: memref<?x?xf32>, %sin: memref<?x?xf32>,
                %y: memref<?x?x?xf32>) {
  tile.launch @rotary(%x, %cos, %sin, %y)
      : (memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) -> ()
  return
}
