// y[i] = sum_j x[i, j] for few long rows: the kernel of tasks/row_sum (each
// block owns BR rows and walks their column tiles, accumulating elementwise
// and reducing once at the end; pad(zero) is neutral for the sum). The
// default schedule splits the rows across CTAs with
// transform.tile.split_reduction (docs/rewrites.md).
tile.kernel @row_sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]})
    params {BR = 4, BN = 1024, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %s = arith.addf %a, %x : tensor<4x1024xf32>
    scf.yield %s : tensor<4x1024xf32>
  }
  %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  tile.launch @row_sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
  return
}
