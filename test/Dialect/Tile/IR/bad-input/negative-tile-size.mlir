// A negative tile size in the op.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: negative-tile-size.mlir:[[@LINE+3]]:9: error: 'tile.partition' op tile size -8 along dim 0 must be positive
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [-8] : memref<?xf32> -> !tile.part<8xf32>
  tile.return
}
