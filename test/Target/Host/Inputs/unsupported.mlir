// A kernel with a GPU-only op: the host target refuses it (errors.test).
tile.kernel @barrier(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %i = tile.grid %Xv : !tile.part<8xf32>
  gpu.barrier
  tile.return
}
