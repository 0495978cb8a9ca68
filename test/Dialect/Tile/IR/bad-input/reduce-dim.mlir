// A reduce dim out of range.
// RUN: sh -c 'kbench-opt %s; echo "exit code $?"' 2>&1 | FileCheck %s
// CHECK: reduce-dim.mlir:[[@LINE+3]]:8: error: 'tile.reduce' op reduces dim -1, which is out of range for a rank-2 tile
// CHECK: exit code 1
func.func @f(%t: tensor<4x64xf32>) {
  %r = tile.reduce add %t dim -1 : tensor<4x64xf32> -> tensor<4xf32>
  return
}
