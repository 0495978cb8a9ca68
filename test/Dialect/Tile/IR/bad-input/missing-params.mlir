// A tile size names a param the kernel does not declare.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: missing-params.mlir:[[@LINE+3]]:9: error: 'tile.partition' op tile size 'BK' is not a param of the enclosing tile.kernel
// CHECK: exit code 1
tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]}) params {BM = 64} {
  %Xv = tile.partition %X tile [BM, BK] : memref<?x?xf32> -> !tile.part<64x32xf32>
  tile.return
}
