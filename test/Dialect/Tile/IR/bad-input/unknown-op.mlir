// An op the tile dialect does not have.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: unknown-op.mlir:8:8: error: custom op 'tile.scatter' is unknown
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  %g = tile.scatter %Xv[%i] : !tile.part<64xf32> -> tensor<64xf32>
  tile.return
}
