// The few-rows variant of batchnorm_train (schedules/dispatch.json: at most 256
// rows): the whole computation in one kernel, one CTA per column block. A
// few hundred rows give kernel.mlir's split moments kernel little to split,
// and it would still pay a zeroing kernel, atomics and a second, elementwise
// launch. Each pass re-reads x from L1 or L2 (256 rows of 32 columns are
// 32 KB).
//
// Batch norm in training mode over x [M, N]: each column (channel) is
// normalized with its own mean and biased variance over the M rows, then
// scaled by w and shifted by b (eps = 1e-5). A reduction along axis 0: each
// block owns BN columns and walks the row tiles three times (mean, variance,
// normalize), accumulating elementwise and reducing dim 0 once per pass.
// pad(zero) keeps the sum exact; the variance masks rows past M with a
// tile.iota of dim 0, since padded zeros are not neutral for (x - mean)^2.
tile.kernel @batchnorm_train(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                             %W: memref<?xf32> {tile.dims = ["N"]},
                             %B: memref<?xf32> {tile.dims = ["N"]},
                             %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 16, BN = 256, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<16x256xf32, pad = zero>
  %Wv = tile.partition %W tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<16x256xf32>
  %c = tile.grid %Yv dims [1] : !tile.part<16x256xf32>
  %mt = tile.num_tiles %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m = tile.extent %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m_i64 = arith.index_cast %m : index to i64
  %m_f32 = arith.sitofp %m_i64 : i64 to f32
  %m_t = tile.splat %m_f32 : f32 -> tensor<256xf32>
  %zero = arith.constant dense<0.0> : tensor<16x256xf32>

  // Pass 1: column means.
  %sum2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %s = arith.addf %a, %x : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  %sum = tile.reduce add %sum2d dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  %mean = arith.divf %sum, %m_t : tensor<256xf32>
  %mean2d = tile.broadcast %mean dims [0] : tensor<256xf32> -> tensor<16x256xf32>

  // Pass 2: biased variance over the rows inside M.
  %rows = tile.iota dim 0 : tensor<16x256xindex>
  %br = tile.tile_size %Xv[0] : !tile.part<16x256xf32, pad = zero>
  %m2d = tile.splat %m : index -> tensor<16x256xindex>
  %sq2d = scf.for %i = %c0 to %mt step %c1 iter_args(%a = %zero) -> (tensor<16x256xf32>) {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %d = arith.subf %x, %mean2d : tensor<16x256xf32>
    %d2 = arith.mulf %d, %d : tensor<16x256xf32>
    %i0 = arith.muli %i, %br : index
    %base = tile.splat %i0 : index -> tensor<16x256xindex>
    %row = arith.addi %base, %rows : tensor<16x256xindex>
    %inb = arith.cmpi ult, %row, %m2d : tensor<16x256xindex>
    %masked = arith.select %inb, %d2, %zero : tensor<16x256xi1>, tensor<16x256xf32>
    %s = arith.addf %a, %masked : tensor<16x256xf32>
    scf.yield %s : tensor<16x256xf32>
  }
  %sq = tile.reduce add %sq2d dim 0 : tensor<16x256xf32> -> tensor<256xf32>
  %var = arith.divf %sq, %m_t : tensor<256xf32>
  %eps = arith.constant dense<1.0e-5> : tensor<256xf32>
  %vare = arith.addf %var, %eps : tensor<256xf32>
  %rstd = math.rsqrt %vare : tensor<256xf32>
  %w1 = tile.load %Wv[%c] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %b1 = tile.load %Bv[%c] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %rstd2d = tile.broadcast %rstd dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %w = tile.broadcast %w1 dims [0] : tensor<256xf32> -> tensor<16x256xf32>
  %b = tile.broadcast %b1 dims [0] : tensor<256xf32> -> tensor<16x256xf32>

  // Pass 3: normalize, scale, shift, store.
  scf.for %i = %c0 to %mt step %c1 {
    %x = tile.load %Xv[%i, %c] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
    %d = arith.subf %x, %mean2d : tensor<16x256xf32>
    %xn = arith.mulf %d, %rstd2d : tensor<16x256xf32>
    %xw = arith.mulf %xn, %w : tensor<16x256xf32>
    %y = arith.addf %xw, %b : tensor<16x256xf32>
    tile.store %y, %Yv[%i, %c] : tensor<16x256xf32>, !tile.part<16x256xf32>
  }
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %w: memref<?xf32>, %b: memref<?xf32>,
                %y: memref<?x?xf32>) {
  tile.launch @batchnorm_train(%x, %w, %b, %y)
      : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  return
}
