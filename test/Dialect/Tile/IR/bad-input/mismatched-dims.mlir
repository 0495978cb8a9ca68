// Two arguments name the same dim with different static extents.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: mismatched-dims.mlir:[[@LINE+2]]:1: error: 'tile.kernel' op dim "N" is 4 in argument #0 but 5 in argument #1
// CHECK: exit code 1
tile.kernel @k(%X: memref<4xf32> {tile.dims = ["N"]}, %Y: memref<5xf32> {tile.dims = ["N"]}) {
  tile.return
}
