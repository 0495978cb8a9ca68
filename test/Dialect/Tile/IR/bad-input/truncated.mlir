// A file cut off in the middle of a kernel: an error with a location, exit 1.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: truncated.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// CHECK: exit code 1
tile.kernel @cut(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64x
