// `requires` must be a list of strings (they are parsed into #tile.requires
// when the kernel is read).
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: wrong-attribute-kind.mlir:[[@LINE+2]]:64: error: custom op 'tile.kernel' requires facts must be strings, found 8 : i64
// CHECK: exit code 1
tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) requires [8] {
  tile.return
}
