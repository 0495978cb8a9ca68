// A use of an SSA value that is never defined.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: undefined-value.mlir:[[@LINE+5]]:22: error: use of undeclared SSA value name
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  %x = tile.load %Xv[%j] : !tile.part<64xf32> -> tensor<64xf32>
  tile.return
}
