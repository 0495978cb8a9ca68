// Every verifier message of #tile.blocked, #tile.shared and
// tile.convert_layout.
// RUN: kbench-opt %s -split-input-file -verify-diagnostics

func.func @bad_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.convert_layout' op changes only the layout encoding: the result must have the input's shape and element type, got 'tensor<16x32xf32>' -> 'tensor<32x16xf32>'}}
  %y = tile.convert_layout %x : tensor<16x32xf32> -> tensor<32x16xf32>
  return
}

// -----

// expected-error @+1 {{#tile.blocked needs one entry per dim in per_thread, lanes, lane_strides, warps and warp_strides}}
func.func @ranks(%x: tensor<16x32xf32, #tile.blocked<per_thread = [1, 4], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked num_warps = 3 must be a power of two from 1 to 32}}
func.func @warps(%x: tensor<32xf32, #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 3>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked dim 0: every count and stride must be a power of two, got 3}}
func.func @counts(%x: tensor<32xf32, #tile.blocked<per_thread = [3], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked dim 0 uses lane or warp ids past 32 lanes or 1 warps}}
func.func @lanes(%x: tensor<64xf32, #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [2], warps = [1], warp_strides = [1], num_warps = 1>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked dim 1 shares lane or warp id bits with another dim}}
func.func @overlap(%x: tensor<8x8xf32, #tile.blocked<per_thread = [1, 1], lanes = [4, 8], lane_strides = [1, 1], warps = [1, 1], warp_strides = [1, 1], num_warps = 1>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked has 1 dims but the tensor has rank 2}}
func.func @tensor_rank(%x: tensor<16x32xf32, #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked: tile dim 0 of size 16 is not a multiple of per_thread * lanes * warps = 32}}
func.func @too_small(%x: tensor<16xf32, #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>>) {
  return
}

// -----

// expected-error @+1 {{#tile.shared order must be a permutation of the dims 0..1}}
func.func @order() attributes {enc = #tile.shared<order = [0, 0]>} {
  return
}

// -----

// expected-error @+1 {{#tile.shared needs pad >= 0 and vec, per_phase, max_phase powers of two}}
func.func @swizzle() attributes {enc = #tile.shared<order = [1, 0], vec = 3>} {
  return
}
