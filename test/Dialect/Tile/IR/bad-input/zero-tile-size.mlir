// A zero tile size in the partition type.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: zero-tile-size.mlir:[[@LINE+3]]:{{[0-9]+}}: error: tile size 0 must be a positive integer
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [0] : memref<?xf32> -> !tile.part<0xf32>
  tile.return
}
