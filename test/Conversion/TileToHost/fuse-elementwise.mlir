// RUN: kbench-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tile-host-fuse-elementwise))" | FileCheck %s

// A run of elementwise ops becomes one generic: the payload holds the scalar
// ops in their order (attributes kept), a scalar operand is used as it is,
// and each result used after the run is an output with a fresh tensor.
// CHECK-LABEL: func.func @run
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x8xi1>
// CHECK: %[[G:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E0]], %[[E1]] : tensor<4x8xf32>, tensor<4x8xi1>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] fastmath<fast> : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[S]], %[[A]] : f32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %arg2, %[[M]], %[[B]] : f32
// CHECK-NEXT: %[[X:.*]] = math.exp %[[SEL]] : f32
// CHECK-NEXT: %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[A]] : f32
// CHECK-NEXT: linalg.yield %[[S]], %[[LT]] : f32, i1
// CHECK: return %[[G]]#0, %[[G]]#1
// CHECK-NOT: arith.addf
func.func @run(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: i1) -> (tensor<4x8xf32>, tensor<4x8xi1>) {
  %0 = arith.addf %a, %b fastmath<fast> : tensor<4x8xf32>
  %1 = arith.mulf %0, %a : tensor<4x8xf32>
  %2 = arith.select %c, %1, %b : tensor<4x8xf32>
  %3 = math.exp %2 : tensor<4x8xf32>
  %4 = arith.cmpf olt, %3, %a : tensor<4x8xf32>
  return %0, %4 : tensor<4x8xf32>, tensor<4x8xi1>
}

// -----

// A shape change or an op that is not elementwise ends a run: three runs,
// three generics, the op between them untouched.
// CHECK-LABEL: func.func @breaks
// CHECK: linalg.generic
// CHECK: arith.addf {{.*}} : f32
// CHECK: tensor.extract_slice
// CHECK: linalg.generic
// CHECK: arith.mulf {{.*}} : f32
// CHECK: linalg.generic
// CHECK: math.exp {{.*}} : f32
// CHECK-NOT: linalg.generic
func.func @breaks(%a: tensor<4x8xf32>, %s: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<4x8xf32>) {
  %0 = arith.addf %a, %a : tensor<4x8xf32>
  %1 = tensor.extract_slice %0[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %2 = arith.mulf %1, %s : tensor<2x8xf32>
  %3 = math.exp %0 : tensor<4x8xf32>
  return %2, %3 : tensor<2x8xf32>, tensor<4x8xf32>
}

// -----

// Inside a loop body too; an op on dynamic shapes is left to
// convert-elementwise-to-linalg.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK: linalg.generic
// CHECK: arith.addf {{.*}} : f32
// CHECK: arith.mulf {{.*}} : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} : tensor<?xf32>
func.func @nested(%a: tensor<8xf32>, %d: tensor<?xf32>, %n: index) -> (tensor<8xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<8xf32> {
    %0 = arith.addf %acc, %a : tensor<8xf32>
    %1 = arith.mulf %0, %0 : tensor<8xf32>
    scf.yield %1 : tensor<8xf32>
  }
  %e = arith.subf %d, %d : tensor<?xf32>
  return %r, %e : tensor<8xf32>, tensor<?xf32>
}
