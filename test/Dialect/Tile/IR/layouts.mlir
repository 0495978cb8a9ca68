// Round trip of the layout encodings and tile.convert_layout (custom form,
// and generic form back to custom form).
// RUN: kbench-opt %s | kbench-opt | FileCheck %s
// RUN: kbench-opt %s --mlir-print-op-generic | kbench-opt | FileCheck %s

// CHECK-DAG: #[[A:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 4], lanes = [4, 8], lane_strides = [8, 1], warps = [2, 1], warp_strides = [1, 2], num_warps = 2>
// CHECK-DAG: #[[B:blocked[0-9]*]] = #tile.blocked<per_thread = [2, 1], lanes = [8, 4], lane_strides = [1, 8], warps = [1, 2], warp_strides = [2, 1], num_warps = 2>
// CHECK-DAG: #[[S0:shared[0-9]*]] = #tile.shared<order = [0, 1], pad = 4>
// CHECK-DAG: #[[S1:shared[0-9]*]] = #tile.shared<order = [1, 0], vec = 4, per_phase = 2, max_phase = 8>
// CHECK-LABEL: func.func @convert
// CHECK: tile.convert_layout %{{.*}} : tensor<16x32xf32, #[[A]]> -> tensor<16x32xf32, #[[B]]>
func.func @convert(%x: tensor<16x32xf32, #tile.blocked<per_thread = [1, 4], lanes = [4, 8], lane_strides = [8, 1], warps = [2, 1], warp_strides = [1, 2], num_warps = 2>>) {
  %y = tile.convert_layout %x : tensor<16x32xf32, #tile.blocked<per_thread = [1, 4], lanes = [4, 8], lane_strides = [8, 1], warps = [2, 1], warp_strides = [1, 2], num_warps = 2>> -> tensor<16x32xf32, #tile.blocked<per_thread = [2, 1], lanes = [8, 4], lane_strides = [1, 8], warps = [1, 2], warp_strides = [2, 1], num_warps = 2>>
  return
}

// Parameters at their defaults (no padding, no swizzle) are not printed.
// CHECK-LABEL: func.func @shared
// CHECK-SAME: attributes {a = #[[S0]], b = #[[S1]]}
func.func @shared() attributes {a = #tile.shared<order = [0, 1], pad = 4>, b = #tile.shared<order = [1, 0], vec = 4, per_phase = 2, max_phase = 8>} {
  return
}
