// RUN: kbench-opt %s --tile-mutate=list-sites -o /dev/null | FileCheck %s
// RUN: kbench-opt %s --tile-mutate=list-sites | FileCheck %s --check-prefix=SAME

// Sites are numbered per family in walk order; each lists its variants.

// CHECK:      F1:0 variants=5 tile.load at {{.*}}list-sites.mlir:[[#L:]]:10: tile coordinate 0 [+1|-1|*2|0|other coordinate]
// CHECK-NEXT: F1:1 variants=5 tile.load at {{.*}}:[[#L]]:10: tile coordinate 1 [+1|-1|*2|0|other coordinate]
// CHECK-NEXT: F1:2 variants=5 tile.load at {{.*}}:[[#L+1]]:10: tile coordinate 0 [+1|-1|*2|0|other coordinate]
// CHECK-NEXT: F1:3 variants=5 tile.load at {{.*}}:[[#L+1]]:10: tile coordinate 1 [+1|-1|*2|0|other coordinate]
// CHECK-NEXT: F1:4 variants=5 tile.atomic_add at {{.*}}:[[#L+7]]:3: tile coordinate 0 [+1|-1|*2|0|other coordinate]
// CHECK-NEXT: F1:5 variants=5 tile.atomic_add at {{.*}}:[[#L+7]]:3: tile coordinate 1 [+1|-1|*2|0|other coordinate]
// CHECK-NEXT: F2:0 variants=1 tile.kernel at {{.*}}: requires K % 32 == 0 [drop]
// CHECK-NEXT: F2:1 variants=1 tile.partition at {{.*}}: pad [none]
// CHECK-NEXT: F2:2 variants=1 tile.partition at {{.*}}: pad [none]
// CHECK-NEXT: F2:3 variants=2 tile.grid at {{.*}}: grid view [coarser view along grid axis 0|coarser view along grid axis 1]
// CHECK-NEXT: F2:4 variants=3 scf.for at {{.*}}: bounds [ub-1|ub+1|lb+1]
// CHECK-NEXT: F4:0 variants=4 tile.mma at {{.*}} [a's k tile +1|b's k tile +1|double accumulate|reset accumulator]
// CHECK-NEXT: F4:1 variants=1 scf.for at {{.*}}: step [*2]
// CHECK-NEXT: F4:2 variants=1 scf.for at {{.*}}: iter_arg 0 [reset each iteration]
// CHECK-NEXT: F4:3 variants=1 tile.atomic_add at {{.*}} [store]
// CHECK-NEXT: F5:0 variants=1 arith.constant at {{.*}} [scale]
// CHECK-NEXT: F5:1 variants=2 arith.maximumf at {{.*}} [swap op|drop (use lhs)]
// CHECK-NEXT: F5:2 variants=1 math.exp at {{.*}} [drop]
// CHECK-NEXT: F6:0 variants=2 tile.load at {{.*}} [round via f16|round via bf16]
// CHECK-NEXT: F6:1 variants=2 tile.load at {{.*}} [round via f16|round via bf16]
// CHECK-NEXT: F6:2 variants=2 tile.mma at {{.*}} [round via f16|round via bf16]
// CHECK-NEXT: F6:3 variants=2 arith.maximumf at {{.*}} [round via f16|round via bf16]
// CHECK-NEXT: F6:4 variants=2 math.exp at {{.*}} [round via f16|round via bf16]
// CHECK-NEXT: F7:0 variants=3 tile.load at {{.*}}: tile coordinate 0 [+1-1|*3 floordivsi 3|*3 divui 3]
// CHECK-NEXT: F7:1 variants=3 tile.load at {{.*}}: tile coordinate 1 [+1-1|*3 floordivsi 3|*3 divui 3]
// CHECK-NEXT: F7:2 variants=3 tile.load at {{.*}}: tile coordinate 0 [+1-1|*3 floordivsi 3|*3 divui 3]
// CHECK-NEXT: F7:3 variants=3 tile.load at {{.*}}: tile coordinate 1 [+1-1|*3 floordivsi 3|*3 divui 3]
// CHECK-NEXT: F7:4 variants=1 tile.load at {{.*}} [move up]
// CHECK-NEXT: F7:5 variants=1 scf.for at {{.*}}: iteration order [reverse]
// CHECK-NEXT: F7:6 variants=1 arith.maximumf at {{.*}} [commute operands]
// CHECK-NEXT: F7:7 variants=3 tile.atomic_add at {{.*}}: tile coordinate 0 [+1-1|*3 floordivsi 3|*3 divui 3]
// CHECK-NEXT: F7:8 variants=3 tile.atomic_add at {{.*}}: tile coordinate 1 [+1-1|*3 floordivsi 3|*3 divui 3]
// CHECK-NOT:  F

// The module itself is left unchanged.
// SAME: tile.kernel @k

tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
               %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["K % 32 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %w = tile.load %Wv[%n, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %r = tile.mma %x, %w, %a {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    scf.yield %r : tensor<16x16xf32>
  }
  %y = arith.maximumf %acc, %z : tensor<16x16xf32>
  %e = math.exp %y : tensor<16x16xf32>
  tile.atomic_add %e, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
