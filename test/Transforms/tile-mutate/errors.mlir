// RUN: not kbench-opt %s --tile-mutate="mutation=F1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADSPEC
// RUN: not kbench-opt %s --tile-mutate="mutation=F3:0:0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADFAMILY
// RUN: not kbench-opt %s --tile-mutate="mutation=F1:7:0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADSITE
// RUN: kbench-opt %s --tile-mutate="mutation=F1:1:3" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EQUIV
// RUN: kbench-opt %s --tile-mutate="mutation=F1:0:0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTEQUIV
// RUN: kbench-opt %s --tile-mutate="mutation=F2:2:1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GRIDEQUIV
// RUN: kbench-opt %s --tile-mutate="mutation=F2:2:0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTEQUIV

// BADSPEC: error: tile-mutate: mutation='F1' must be FAMILY:SITE:SEED with non-negative integers, e.g. F1:0:0
// BADFAMILY: error: tile-mutate: unknown family 'F3'; the families are F1, F2, F4, F5, F6 and F7
// BADSITE: error: tile-mutate: F1 has 4 sites in this module, so site 7 does not exist; list them with list-sites

// With N <= 16 the column tile coordinate is always 0: replacing it by 0
// leaves the access relation unchanged, an equivalent mutant.
// EQUIV: remark: tile-mutate: equivalent mutant: F1:1:3 leaves the access relation of this op unchanged
// NOTEQUIV-NOT: equivalent mutant
// A grid twice as coarse along the columns still launches one column block.
// GRIDEQUIV: remark: tile-mutate: equivalent mutant: F2:2:1 launches the same blocks for every shape

tile.kernel @row(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["N <= 16"] {
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 16] : memref<?x?xf32> -> !tile.part<4x16xf32>
  %r, %c = tile.grid %Yv : !tile.part<4x16xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
  tile.store %x, %Yv[%r, %c] : tensor<4x16xf32>, !tile.part<4x16xf32>
  tile.return
}
