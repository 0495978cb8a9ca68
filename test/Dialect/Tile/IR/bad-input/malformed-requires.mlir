// A requires fact that does not parse names the column.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: malformed-requires.mlir:[[@LINE+2]]:1: error: 'tile.kernel' op requires fact "K % 8 = 0" is malformed: column 7: expected a comparison
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["K"]}) requires ["K % 8 = 0"] {
  tile.return
}
