// Every operator on one kernel; the mutant must still verify (the pass
// manager checks the IR after the pass).
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:0" | FileCheck %s --check-prefix=F1-PLUS
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:1" | FileCheck %s --check-prefix=F1-MINUS
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:2" | FileCheck %s --check-prefix=F1-TIMES
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:3" | FileCheck %s --check-prefix=F1-ZERO
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:4" | FileCheck %s --check-prefix=F1-OTHER
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:9" | FileCheck %s --check-prefix=F1-OTHER
// RUN: kbench-opt %s --tile-mutate="mutation=F2:0:0" | FileCheck %s --check-prefix=F2-REQ
// RUN: kbench-opt %s --tile-mutate="mutation=F2:1:0" | FileCheck %s --check-prefix=F2-PAD
// RUN: kbench-opt %s --tile-mutate="mutation=F2:3:1" | FileCheck %s --check-prefix=F2-GRID
// RUN: kbench-opt %s --tile-mutate="mutation=F2:4:0" | FileCheck %s --check-prefix=F2-UB
// RUN: kbench-opt %s --tile-mutate="mutation=F2:4:2" | FileCheck %s --check-prefix=F2-LB
// RUN: kbench-opt %s --tile-mutate="mutation=F4:0:0" | FileCheck %s --check-prefix=F4-AK
// RUN: kbench-opt %s --tile-mutate="mutation=F4:0:2" | FileCheck %s --check-prefix=F4-TWICE
// RUN: kbench-opt %s --tile-mutate="mutation=F4:0:3" | FileCheck %s --check-prefix=F4-RESET
// RUN: kbench-opt %s --tile-mutate="mutation=F4:1:0" | FileCheck %s --check-prefix=F4-STEP
// RUN: kbench-opt %s --tile-mutate="mutation=F4:2:0" | FileCheck %s --check-prefix=F4-CARRY
// RUN: kbench-opt %s --tile-mutate="mutation=F4:3:0" | FileCheck %s --check-prefix=F4-STORE
// RUN: kbench-opt %s --tile-mutate="mutation=F5:0:0" | FileCheck %s --check-prefix=F5-SCALE
// RUN: kbench-opt %s --tile-mutate="mutation=F5:1:0" | FileCheck %s --check-prefix=F5-SWAP
// RUN: kbench-opt %s --tile-mutate="mutation=F5:1:1" | FileCheck %s --check-prefix=F5-DROP
// RUN: kbench-opt %s --tile-mutate="mutation=F5:2:0" | FileCheck %s --check-prefix=F5-UNARY
// RUN: kbench-opt %s --tile-mutate="mutation=F6:2:1" | FileCheck %s --check-prefix=F6-BF16
// RUN: kbench-opt %s --tile-mutate="mutation=F7:1:1" | FileCheck %s --check-prefix=F7-DIV
// RUN: kbench-opt %s --tile-mutate="mutation=F7:4:0" | FileCheck %s --check-prefix=F7-HOIST
// RUN: kbench-opt %s --tile-mutate="mutation=F7:5:0" | FileCheck %s --check-prefix=F7-REV
// RUN: kbench-opt %s --tile-mutate="mutation=F7:6:0" | FileCheck %s --check-prefix=F7-COMM
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:0" --mlir-print-debuginfo \
// RUN:   | FileCheck %s --check-prefix=LOC
// Deterministic: the same mutation gives the same mutant.
// RUN: kbench-opt %s --tile-mutate="mutation=F4:0:2" -o %t.1
// RUN: kbench-opt %s --tile-mutate="mutation=F4:0:2" -o %t.2
// RUN: diff %t.1 %t.2

tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
               %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 16} requires ["K % 32 == 0"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
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

// F1-PLUS:      %[[G:.*]]:2 = tile.grid
// F1-PLUS:      %[[P:.*]] = arith.addi %[[G]]#0, %{{.*}} : index
// F1-PLUS-NEXT: tile.load %{{.*}}[%[[P]], %{{.*}}]

// F1-MINUS:     %[[P:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// F1-MINUS-NEXT: tile.load %{{.*}}[%[[P]], %{{.*}}]

// F1-TIMES:     %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// F1-TIMES-NEXT: tile.load %{{.*}}[%[[P]], %{{.*}}]

// F1-ZERO:      scf.for %[[K:.*]] = %{{.*}} to
// F1-ZERO-NEXT: %[[Z:.*]] = arith.constant 0 : index
// F1-ZERO-NEXT: tile.load %{{.*}}[%[[Z]], %[[K]]]

// Seeds wrap around the variants: 9 is variant 4 of 5.
// F1-OTHER:     scf.for %[[K:.*]] = %{{.*}} to
// F1-OTHER-NEXT: tile.load %{{.*}}[%[[K]], %[[K]]]

// F2-REQ:       tile.kernel @k
// F2-REQ-NOT:   requires
// F2-REQ-SAME:  {

// F2-PAD:       %[[X:.*]] = tile.partition %arg0 tile [BM, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
// F2-PAD:       tile.load %[[X]][{{.*}}] : !tile.part<16x32xf32> -> tensor<16x32xf32>

// F2-GRID:      %[[G:.*]] = tile.partition %arg2 tile [16, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
// F2-GRID-NEXT: tile.grid %[[G]] : !tile.part<16x32xf32>

// F2-UB:        %[[NK:.*]] = tile.num_tiles
// F2-UB:        %[[UB:.*]] = arith.subi %[[NK]], %{{.*}} : index
// F2-UB:        scf.for %{{.*}} = %{{.*}} to %[[UB]] step

// F2-LB:        %[[LB:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// F2-LB:        scf.for %{{.*}} = %[[LB]] to

// F4-AK:        %[[K1:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// F4-AK-NEXT:   %[[X1:.*]] = tile.load %{{.*}}[%{{.*}}, %[[K1]]]
// F4-AK-NEXT:   %[[R:.*]] = tile.mma %[[X1]], %{{.*}}, %{{.*}} {transpose_b}

// F4-TWICE:     %[[R1:.*]] = tile.mma %[[X:.*]], %[[W:.*]], %{{.*}} {transpose_b}
// F4-TWICE-NEXT: %[[R2:.*]] = tile.mma %[[X]], %[[W]], %[[R1]] {transpose_b}
// F4-TWICE-NEXT: scf.yield %[[R2]]

// F4-RESET:     scf.for
// F4-RESET:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// F4-RESET-NEXT: %{{.*}} = tile.mma %{{.*}}, %{{.*}}, %[[ZERO]] {transpose_b}

// F4-STEP:      %[[S:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// F4-STEP-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[S]]

// F4-CARRY:     %[[Z:.*]] = arith.constant dense<0.000000e+00>
// F4-CARRY:     scf.for
// F4-CARRY:     tile.mma %{{.*}}, %{{.*}}, %[[Z]] {transpose_b}

// F4-STORE:     tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : tensor<16x16xf32>
// F4-STORE-NOT: tile.atomic_add

// F5-SCALE:     arith.constant dense<1.000000e+00> : tensor<16x16xf32>

// F5-SWAP:      arith.minimumf

// F5-DROP:      %[[ACC:.*]] = scf.for
// F5-DROP:      math.exp %[[ACC]]

// F5-UNARY:     %[[Y:.*]] = arith.maximumf
// F5-UNARY-NEXT: tile.atomic_add %[[Y]]

// F6-BF16:      %[[R:.*]] = tile.mma
// F6-BF16-NEXT: %[[T:.*]] = arith.truncf %[[R]] : tensor<16x16xf32> to tensor<16x16xbf16>
// F6-BF16-NEXT: %[[E:.*]] = arith.extf %[[T]] : tensor<16x16xbf16> to tensor<16x16xf32>
// F6-BF16-NEXT: scf.yield %[[E]]

// F7-DIV:       scf.for %[[K:.*]] = %{{.*}} to
// F7-DIV:       %[[T:.*]] = arith.muli %[[K]], %[[C3:.*]] : index
// F7-DIV-NEXT:  %[[D:.*]] = arith.floordivsi %[[T]], %[[C3]] : index
// F7-DIV-NEXT:  tile.load %{{.*}}[%{{.*}}, %[[D]]]

// F7-HOIST:     %[[W:.*]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.part<16x32xf32, pad = zero>
// F7-HOIST-NEXT: %[[X:.*]] = tile.load
// F7-HOIST-NEXT: tile.mma %[[X]], %[[W]]

// F7-REV:       scf.for %[[K:.*]] = %[[LB:.*]] to %[[UB:.*]] step
// F7-REV-NEXT:  %[[S:.*]] = arith.addi %[[LB]], %[[UB]] : index
// F7-REV-NEXT:  arith.constant 1 : index
// F7-REV-NEXT:  %[[L:.*]] = arith.subi %[[S]], %{{.*}} : index
// F7-REV-NEXT:  %[[R:.*]] = arith.subi %[[L]], %[[K]] : index
// F7-REV-NEXT:  tile.load %{{.*}}[%{{.*}}, %[[R]]]

// F7-COMM:      %[[ACC:.*]] = scf.for
// F7-COMM:      arith.maximumf %{{.*}}, %[[ACC]]

// LOC:          tile.load {{.*}} loc(#[[L:loc[0-9]*]])
// LOC:          #[[L]] = loc("kbench.mutant"(
