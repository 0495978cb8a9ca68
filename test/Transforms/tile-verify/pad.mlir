// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C10"
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C10 diagnostics-json=-" -o /dev/null 2>/dev/null \
// RUN:   | FileCheck %s

// C10: pad values are neutral for every consumer that observes them, and
// otherwise reach only masked lanes of a store.

// pad(zero) feeding a max: the overhanging columns win when the row is
// negative.
tile.kernel @zero_into_max(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                           %Y: memref<?xf32> {tile.dims = ["M"]})
    requires ["N <= 16"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
  // expected-error @below {{reduces (max) lanes of X padded by tile.load at}}
  %m = tile.reduce max %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %m, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "check": "C10",
// CHECK-NEXT:  "consumer": "tile.reduce",
// CHECK-NEXT:  "dim": 1,
// CHECK-NEXT:  "hint": "pad_kind",
// CHECK-NEXT:  "kind": "pad_not_neutral",
// CHECK-NEXT:  "lanes": "zero",
// CHECK-NEXT:  "message": "tile.reduce at {{.*}} reduces (max) lanes of X padded by tile.load at {{.*}} with pad(zero) along dim 1, which hold zero there (for M = 1, N = 1, block (0) reads element (0, 1) past N); max needs -inf there: use pad(neg_inf)",
// CHECK:       "pad": "zero",
// CHECK:       "witness": {
// CHECK-NEXT:    "block": [
// CHECK-NEXT:      0
// CHECK-NEXT:    ],
// CHECK-NEXT:    "dims": {
// CHECK-NEXT:      "M": 1,
// CHECK-NEXT:      "N": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "element": [
// CHECK-NEXT:      0,
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK:       "kernel": "zero_into_max"

// -----

// Softmax with pad(neg_inf): -inf is neutral for max, exp(-inf - m) = 0 for
// the sum, and the padded lanes of the quotient are masked by the store.
tile.kernel @softmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["N <= 16"] {
  %Xv = tile.partition %X tile [4, 16] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = neg_inf>
  %Yv = tile.partition %Y tile [4, 16] : memref<?x?xf32> -> !tile.part<4x16xf32>
  %r, %c = tile.grid %Yv : !tile.part<4x16xf32>
  %x = tile.load %Xv[%r, %c] : !tile.part<4x16xf32, pad = neg_inf> -> tensor<4x16xf32>
  %mx = tile.reduce max %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  %mb = tile.broadcast %mx dims [1] : tensor<4xf32> -> tensor<4x16xf32>
  %d = arith.subf %x, %mb : tensor<4x16xf32>
  %e = math.exp %d : tensor<4x16xf32>
  %s = tile.reduce add %e dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  %sb = tile.broadcast %s dims [1] : tensor<4xf32> -> tensor<4x16xf32>
  %y = arith.divf %e, %sb : tensor<4x16xf32>
  tile.store %y, %Yv[%r, %c] : tensor<4x16xf32>, !tile.part<4x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "C10": {
// CHECK-NEXT:    "queries":
// CHECK-NEXT:    "status": "proved",
// CHECK:       "kernel": "softmax"

// -----

// Reductions that no pad serves: mul (needs one) and min over -inf.
tile.kernel @mul_and_min(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                         %P: memref<?xf32> {tile.dims = ["M"]},
                         %Q: memref<?xf32> {tile.dims = ["M"]})
    requires ["N <= 16"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [4, 16] pad(neg_inf) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = neg_inf>
  %Pv = tile.partition %P tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %Qv = tile.partition %Q tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Pv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %c0] : !tile.part<4x16xf32, pad = neg_inf> -> tensor<4x16xf32>
  // expected-error @below {{mul needs one there, which no pad provides: mask the lanes with arith.select}}
  %p = tile.reduce mul %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  // expected-error @below {{which hold -inf there (for M = 1, N = 1, block (0) reads element (0, 1) past N); min needs +inf there: use pad(pos_inf)}}
  %q = tile.reduce min %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %p, %Pv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.store %q, %Qv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "pad_not_neutral",
// CHECK:       "kind": "pad_not_neutral",
// CHECK:       "kernel": "mul_and_min"

// -----

// An mma needs zero in the padded k lanes: -inf * x is not zero, and the zero
// lanes of w meet the -inf lanes of x (0 * -inf = nan).
tile.kernel @mma_neg_inf(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["K <= 32"] {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16, 32] pad(neg_inf) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = neg_inf>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %c0] : !tile.part<16x32xf32, pad = neg_inf> -> tensor<16x32xf32>
  %w = tile.load %Wv[%c0, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  // expected-error @below {{multiplies and sums lanes of X padded by tile.load at}}
  // expected-error @below {{a product with them is zero or nan, not zero: use pad(zero) for both operands, or set the other operand's lanes there to zero with arith.select}}
  %r = tile.mma %x, %w, %z : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
  tile.store %r, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "message": "tile.mma at {{.*}} multiplies and sums lanes of X padded by tile.load at {{.*}} with pad(neg_inf) along dim 1, which hold -inf there (for M = 1, K = 1, N = 1, block (0, 0) reads element (0, 1) past K); a product with them is -inf or +inf or nan, not zero: use pad(zero) for both operands, or set the other operand's lanes there to zero with arith.select",
// CHECK:       "kernel": "mma_neg_inf"

// -----

// Padded lanes that land on in-bounds elements of the output: the load tiles
// dim N, the store a different dim N2.
tile.kernel @leak(%X: memref<?xf32> {tile.dims = ["N"]},
                  %Y: memref<?xf32> {tile.dims = ["N2"]}) {
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %x = tile.load %Xv[%i] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  %e = math.exp %x : tensor<16xf32>
  // expected-error @below {{writes lanes of X padded by tile.load at}}
  tile.store %e, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "consumer": "tile.store",
// CHECK:       "hint": "pad_kind|index_offset",
// CHECK:       "message": "tile.store at {{.*}} writes lanes of X padded by tile.load at {{.*}} with pad(zero) into in-bounds elements of Y: lane 1 of dim 0 is past N in the load but element 1 < N2 in the store (N = 1, N2 = 2, block (0)); load and store must tile the same dim alike",
// CHECK:       "lane": 1
// CHECK:       "kernel": "leak"

// -----

// Masking the padded columns with iota before a sum (the layer norm variance
// pattern) is proved; a mask that keeps one column too many is not.
tile.kernel @masked_sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                        %Y: memref<?xf32> {tile.dims = ["M"]},
                        %Z: memref<?xf32> {tile.dims = ["M"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %Zv = tile.partition %Z tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %n = tile.extent %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4x16xf32>
  %one = arith.constant dense<1.0> : tensor<4x16xf32>
  %cols = tile.iota dim 1 : tensor<4x16xindex>
  %bn = arith.constant dense<16> : tensor<4x16xindex>
  %n2d = tile.splat %n : index -> tensor<4x16xindex>
  %good, %bad = scf.for %j = %c0 to %nt step %c1
      iter_args(%a = %zero, %b = %zero) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
    %x1 = arith.addf %x, %one : tensor<4x16xf32>
    %j2d = tile.splat %j : index -> tensor<4x16xindex>
    %base = arith.muli %j2d, %bn : tensor<4x16xindex>
    %col = arith.addi %base, %cols : tensor<4x16xindex>
    %in = arith.cmpi ult, %col, %n2d : tensor<4x16xindex>
    %in1 = arith.cmpi ule, %col, %n2d : tensor<4x16xindex>
    %m = arith.select %in, %x1, %zero : tensor<4x16xi1>, tensor<4x16xf32>
    %m1 = arith.select %in1, %x1, %zero : tensor<4x16xi1>, tensor<4x16xf32>
    %s = arith.addf %a, %m : tensor<4x16xf32>
    %s1 = arith.addf %b, %m1 : tensor<4x16xf32>
    scf.yield %s, %s1 : tensor<4x16xf32>, tensor<4x16xf32>
  }
  %y = tile.reduce add %good dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  // expected-error @below {{reduces (add) lanes of X padded by tile.load at}}
  %y1 = tile.reduce add %bad dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.store %y1, %Zv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "lanes": "finite values",
// CHECK:       "op": "loc(\"{{.*}}pad.mlir\":[[#@LINE-7]]:
// CHECK:       "kernel": "masked_sum"

// -----

// Padded lanes cannot be followed through ops C10 does not model.
tile.kernel @unmodelled(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %x = tile.load %Xv[%i] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  // expected-error @below {{cannot follow padded lanes through tensor.extract at}}
  %v = tensor.extract %x[%c0] : tensor<16xf32>
  %t = tile.splat %v : f32 -> tensor<16xf32>
  tile.store %t, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "unsupported",
// CHECK:       "kernel": "unmodelled"

// -----

// A padded load or a store outside the fragment cannot be followed.
tile.kernel @outside(%X: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?xf32> {tile.dims = ["N"]}, %s: index) {
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  // expected-error @below {{cannot track the pad of tile.load at}}
  %a = tile.load %Xv[%s] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  %x = tile.load %Xv[%i] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  // expected-error @below {{masks padded lanes: it is outside the affine fragment}}
  tile.store %x, %Yv[%s] : tensor<16xf32>, !tile.part<16xf32>
  tile.store %a, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:       "kind": "unsupported",
// CHECK:       "kernel": "outside"

// -----

// A tile loaded at iteration j (tile nt-1-j: the partial last tile first) is
// carried to iteration j+1 and masked there with iteration j+1's bound: the
// select's query binds the load to the select's own iteration, which is not
// where the carried lanes were read, so the mask proves nothing and the NaN
// pad reaches the store.
tile.kernel @carried_pad(%X: memref<?xf32> {tile.dims = ["N"]},
                         %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16] pad(nan) : memref<?xf32> -> !tile.part<16xf32, pad = nan>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %nt = tile.num_tiles %Xv[0] : !tile.part<16xf32, pad = nan>
  %s = tile.extent %Xv[0] : !tile.part<16xf32, pad = nan>
  %bn = tile.tile_size %Xv[0] : !tile.part<16xf32, pad = nan>
  %z = arith.constant dense<0.0> : tensor<16xf32>
  %iota = tile.iota dim 0 : tensor<16xindex>
  %s1 = tile.splat %s : index -> tensor<16xindex>
  %last = arith.subi %nt, %c1 : index
  %r:2 = scf.for %j = %c0 to %nt step %c1 iter_args(%prev = %z, %acc = %z) -> (tensor<16xf32>, tensor<16xf32>) {
    %t = arith.subi %last, %j : index
    %x = tile.load %Xv[%t] : !tile.part<16xf32, pad = nan> -> tensor<16xf32>
    %t0 = arith.muli %t, %bn : index
    %b = tile.splat %t0 : index -> tensor<16xindex>
    %cols = arith.addi %b, %iota : tensor<16xindex>
    %inb = arith.cmpi ult, %cols, %s1 : tensor<16xindex>
    %m = arith.select %inb, %prev, %z : tensor<16xi1>, tensor<16xf32>
    %a = arith.addf %acc, %m : tensor<16xf32>
    scf.yield %x, %a : tensor<16xf32>, tensor<16xf32>
  }
  // expected-error @below {{with pad(nan) into in-bounds elements of Y: lane 1 of dim 0 is past N in the load but element 1 < N in the store (N = 17, block (0), iv0 = 0)}}
  tile.store %r#1, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
