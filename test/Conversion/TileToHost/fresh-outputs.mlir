// RUN: kbench-opt %s --pass-pipeline="builtin.module(func.func(tile-host-fresh-outputs))" | FileCheck %s

// An elementwise generic that writes over its input (what
// convert-elementwise-to-linalg builds) gets an empty output instead.
// CHECK-LABEL: func.func @chain
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x32xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x32xf32>, tensor<4x32xf32>) outs(%[[E]] : tensor<4x32xf32>)
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x32xf32>, tensor<4x32xf32>) outs(%a : tensor<4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// An output the payload reads (an accumulator) stays.
// CHECK-LABEL: func.func @accumulate
// CHECK-NOT: tensor.empty
// CHECK: outs(%arg1 : tensor<4x32xf32>)
func.func @accumulate(%a: tensor<4x32xf32>, %acc: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x32xf32>) outs(%acc : tensor<4x32xf32>) {
  ^bb0(%x: f32, %out: f32):
    %s = arith.addf %x, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
