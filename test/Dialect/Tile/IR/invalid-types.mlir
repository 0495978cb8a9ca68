// Parser and verifier messages of !tile.part and of tile-size lists.
// RUN: kbench-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown pad kind 'zeros'; expected none, zero, neg_inf, pos_inf or nan}}
func.func @unknown_pad(%v: !tile.part<64xf32, pad = zeros>) {
  return
}

// -----

// expected-error @+1 {{partition rank must be 1, 2 or 3, got 4}}
func.func @rank4(%v: !tile.part<1x2x3x4xf32>) {
  return
}

// -----

// expected-error @+1 {{tile size 0 must be a positive integer}}
func.func @zero_size(%v: !tile.part<0x4xf32>) {
  return
}

// -----

// expected-error @+1 {{partition element type 'tensor<4xf32>' must be an integer or floating-point type}}
func.func @tensor_element(%v: !tile.part<4xtensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{pad = neg_inf needs a floating-point element type, got 'i32'; use pad = zero or none}}
func.func @int_neg_inf(%v: !tile.part<64xi32, pad = neg_inf>) {
  return
}

// -----

// expected-error @+1 {{pad = nan needs a floating-point element type, got 'i8'; use pad = zero or none}}
func.func @int_nan(%v: !tile.part<64xi8, pad = nan>) {
  return
}

// -----

tile.kernel @tile_size_syntax(%X: memref<?xf32> {tile.dims = ["N"]}) {
  // expected-error @+1 {{expected a tile size: an integer or a param name such as BM}}
  %Xv = tile.partition %X tile ["64"] : memref<?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

// Integer partitions may pad with zero.
func.func @int_zero(%v: !tile.part<64xi32, pad = zero>) {
  return
}
