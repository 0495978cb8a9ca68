// The residual update of a transformer block with LayerScale (CaiT, DINOv2):
// y = r + g * (x + b), the branch output x [M, N] plus its bias b [N], scaled
// per channel by g [N], added to the residual stream r [M, N].
tile.kernel @residual_layerscale(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                 %R: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                 %B: memref<?xf32> {tile.dims = ["N"]},
                                 %G: memref<?xf32> {tile.dims = ["N"]},
                                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 8, BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Rv = tile.partition %R tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<8x512xf32, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Gv = tile.partition %G tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<8x512xf32>
  %i, %j = tile.grid %Yv : !tile.part<8x512xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %r = tile.load %Rv[%i, %j] : !tile.part<8x512xf32, pad = zero> -> tensor<8x512xf32>
  %b1 = tile.load %Bv[%j] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %b = tile.broadcast %b1 dims [0] : tensor<512xf32> -> tensor<8x512xf32>
  %g1 = tile.load %Gv[%j] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %g = tile.broadcast %g1 dims [0] : tensor<512xf32> -> tensor<8x512xf32>
  %xb = arith.addf %x, %b : tensor<8x512xf32>
  %xg = arith.mulf %xb, %g : tensor<8x512xf32>
  %y = arith.addf %r, %xg : tensor<8x512xf32>
  tile.store %y, %Yv[%i, %j] : tensor<8x512xf32>, !tile.part<8x512xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %r: memref<?x?xf32>, %b: memref<?xf32>,
                %g: memref<?xf32>, %y: memref<?x?xf32>) {
  tile.launch @residual_layerscale(%x, %r, %b, %g, %y)
      : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  return
}
