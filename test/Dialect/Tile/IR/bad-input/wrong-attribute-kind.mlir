// `requires` must be a list of strings.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: wrong-attribute-kind.mlir:[[@LINE+2]]:1: error: 'tile.kernel' op attribute 'requires' failed to satisfy constraint: string array attribute
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) requires [8] {
  tile.return
}
