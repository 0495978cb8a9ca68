// A load whose result type does not match the view.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: wrong-type.mlir:[[@LINE+5]]:8: error: 'tile.load' op result shape 32 does not match the partition's tile shape 64
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  %x = tile.load %Xv[%i] : !tile.part<64xf32> -> tensor<32xf32>
  tile.return
}
