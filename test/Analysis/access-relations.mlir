// RUN: kbench-opt %s --tile-print-access-relations -o /dev/null | FileCheck %s

// The access-relation builder: symbols, facts, block coordinates, scopes and
// every access with its tile coordinates and relation A_s : I -> X.

// CHECK-LABEL: kernel @gemm
// CHECK-NEXT:    symbols: M K N in [1, 2147483647]
// CHECK-NEXT:    fact: (K - 1) >= 0
// CHECK-NEXT:    fact: (K % 8) == 0
// CHECK-NEXT:    dropped fact: "max(M, N) <= 4096": min/max is a disjunction
// CHECK-NEXT:    dropped fact: "K != 7": != is a disjunction
// CHECK-NEXT:    block0 in [0, ceildiv(M, 64))
// CHECK-NEXT:    block1 in [0, ceildiv(N, 64))
// CHECK-NEXT:    scope 0 (parent -1): iv0 in [0, ceildiv(K, 32)) step 1
// CHECK-NEXT:    tile.load at {{.*}}: X[M, K] tile 64x32 pad zero scope 0 at (block0, iv0)
// CHECK-NEXT:      relation: (block0, block1, iv0, e0, e1) -> (M, K) symbols (M, K, N), 4 locals, 3 equalities, 25 inequalities
// CHECK-NEXT:    tile.load at {{.*}}: W[K, N] tile 32x64 pad zero scope 0 at (iv0, block1)
// CHECK-NEXT:      relation: (block0, block1, iv0, e0, e1) -> (K, N) symbols (M, K, N), 4 locals, 3 equalities, 25 inequalities
// CHECK-NEXT:    tile.store at {{.*}}: Y[M, N] tile 64x64 pad none scope -1 at (block0, block1)
// CHECK-NEXT:      relation: (block0, block1, e0, e1) -> (M, N) symbols (M, K, N), 3 locals, 3 equalities, 21 inequalities
tile.kernel @gemm(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                  %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 64} requires ["K >= 1", "K % 8 == 0", "max(M, N) <= 4096", "K != 7"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, 32] pad(zero) : memref<?x?xf32> -> !tile.part<64x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 64] pad(zero) : memref<?x?xf32> -> !tile.part<32x64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Yv : !tile.part<64x64xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xf32, pad = zero> -> tensor<64x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x64xf32, pad = zero> -> tensor<32x64xf32>
    %r = tile.mma %x, %w, %a : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// Index arithmetic: sums, constant products, floor/ceil division and
// remainder by constants, index casts, affine.apply, tile.extent; nested loops
// with steps; guards.

// CHECK-LABEL: kernel @arithmetic
// CHECK-NEXT:    symbols: N in [1, 2147483647]
// CHECK-NEXT:    block0 in [0, ceildiv(N, 16))
// CHECK-NEXT:    scope 0 (parent -1): iv0 in [1, (ceildiv(N, 16) - 1)) step 2
// CHECK-NEXT:    scope 1 (parent 0): iv1 in [1, iv0) step 1
// CHECK-NEXT:    scope 2 (parent 1): then branch of scf.if at {{.*}}: ((N - (iv1 - 1)) - 1) >= 0
// CHECK-NEXT:    scope 3 (parent 1): else branch of scf.if at {{.*}}: ((iv1 - N) - 1) >= 0
// CHECK-NEXT:    tile.load at {{.*}}: X[N] tile 16 pad zero scope 2 at ((block0 * 3 + (iv1 - 1)))
// CHECK-NEXT:      relation: (block0, iv0, iv1, e0) -> (N) symbols (N), 2 locals, 2 equalities, 15 inequalities
// CHECK-NEXT:    tile.load at {{.*}}: X[N] tile 16 pad zero scope 2 at (floordiv(block0, 4))
// CHECK-NEXT:      relation: (block0, iv0, iv1, e0) -> (N) symbols (N), 3 locals, 2 equalities, 17 inequalities
// CHECK-NEXT:    tile.load at {{.*}}: X[N] tile 16 pad zero scope 2 at (ceildiv(iv0, 2))
// CHECK-NEXT:      relation:
// CHECK-NEXT:    tile.load at {{.*}}: X[N] tile 16 pad zero scope 2 at (((iv1 - 1) % 3))
// CHECK-NEXT:      relation:
// CHECK-NEXT:    tile.load at {{.*}}: X[N] tile 16 pad zero scope 2 at ((block0 * 2 + 1))
// CHECK-NEXT:      relation:
// CHECK-NEXT:    tile.load at {{.*}}: X[N] tile 16 pad zero scope 3 at ((N - (iv1 - 1)))
// CHECK-NEXT:      relation:
// CHECK-NEXT:    tile.store at {{.*}}: Y[N] tile 16 pad none scope -1 at (block0)
// CHECK-NEXT:      relation: (block0, e0) -> (N) symbols (N), 1 locals, 1 equalities, 8 inequalities
tile.kernel @arithmetic(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %nt = tile.num_tiles %Yv[0] : !tile.part<16xf32>
  %n = tile.extent %Yv[0] : !tile.part<16xf32>
  %ub = arith.subi %nt, %c1 : index
  scf.for %a = %c1 to %ub step %c2 {
    scf.for %b = %c1 to %a step %c1 {
      %b0 = arith.subi %b, %c1 : index
      %in = arith.cmpi slt, %b0, %n : index
      scf.if %in {
        %i3 = arith.muli %i, %c3 : index
        %s = arith.addi %i3, %b0 : index
        %x0 = tile.load %Xv[%s] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
        %q = arith.floordivsi %i, %c4 : index
        %x1 = tile.load %Xv[%q] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
        %cd = arith.ceildivsi %a, %c2 : index
        %x2 = tile.load %Xv[%cd] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
        %r = arith.remui %b0, %c3 : index
        %r64 = arith.index_cast %r : index to i64
        %ri = arith.index_cast %r64 : i64 to index
        %x3 = tile.load %Xv[%ri] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
        %ap = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%i)
        %x4 = tile.load %Xv[%ap] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
      } else {
        %d = arith.subi %n, %b0 : index
        %x5 = tile.load %Xv[%d] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
      }
    }
  }
  %z = arith.constant dense<0.0> : tensor<16xf32>
  tile.store %z, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}

// Unsupported accesses keep the reason, naming the op that leaves the
// fragment.

// CHECK-LABEL: kernel @outside
// CHECK:         tile.load at {{.*}}: unsupported: tile coordinate 0 is computed by arith.muli at {{.*}}, a product of two values that are not constants
// CHECK-NEXT:    tile.load at {{.*}}: unsupported: tile coordinate 0 is the kernel's scalar argument #2, a run-time value the verifier cannot bound
// CHECK-NEXT:    tile.load at {{.*}}: unsupported: tile coordinate 0 is computed by arith.fptoui at {{.*}}, which the verifier does not model
// CHECK-NEXT:    tile.store
tile.kernel @outside(%X: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?xf32> {tile.dims = ["N"]}, %s: index, %f: i32) {
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %sq = arith.muli %i, %i : index
  %x0 = tile.load %Xv[%sq] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  %x1 = tile.load %Xv[%s] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  %c = arith.bitcast %f : i32 to f32
  %fi = arith.fptoui %c : f32 to i32
  %ci = arith.index_castui %fi : i32 to index
  %x2 = tile.load %Xv[%ci] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  tile.store %x0, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
