// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C9"

// C9 on split-K (atomic) accumulation and on reduction structures it cannot
// model.

// Split-K over a grid twice too coarse along K: odd k tiles never reach Y.
tile.kernel @split_k_gap(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Xg = tile.partition %X tile [16, 64] pad(zero) : memref<?x?xf32> -> !tile.part<16x64xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %kb = tile.grid %Xg : !tile.part<16x64xf32, pad = zero>
  %k = arith.muli %kb, %c2 : index
  %nn = tile.num_tiles %Wv[0] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  scf.for %n = %c0 to %nn step %c1 {
    %w = tile.load %Wv[%n, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{never reduces k tile 1 (elements [32, 33) of K = 33) for output tile (0, 0) of Y (M = 1, K = 33, N = 1)}}
    %p = tile.mma %x, %w, %z {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    tile.atomic_add %p, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  }
  tile.return
}

// -----

// Split-K over a grid twice too fine: blocks 2j and 2j + 1 both add k tile j.
tile.kernel @split_k_dup(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xf32> {tile.dims = ["N", "K"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Xg = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Wv = tile.partition %W tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %kb = tile.grid %Xg : !tile.part<16x16xf32, pad = zero>
  %k = arith.floordivsi %kb, %c2 : index
  %nn = tile.num_tiles %Wv[0] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  scf.for %n = %c0 to %nn step %c1 {
    %w = tile.load %Wv[%n, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    // expected-error @below {{k tile 0 (elements [0, 17) of K = 17) is reduced twice for output tile (0, 0) of Y (M = 1, K = 17, N = 1): by tile.mma at}}
    %p = tile.mma %x, %w, %z {transpose_b} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x16xf32>
    tile.atomic_add %p, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  }
  tile.return
}

// -----

// Reducing the loop-carried value inside its own loop.
tile.kernel @reduce_carried(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                            %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4x16xf32>
  %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4x16xf32>) {
    // expected-error @below {{it reduces a value carried by scf.for at}}
    %s = tile.reduce add %a dim 1 : tensor<4x16xf32> -> tensor<4xf32>
    tile.store %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    %x = tile.load %Xv[%r, %j] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
    %n = arith.addf %a, %x : tensor<4x16xf32>
    scf.yield %n : tensor<4x16xf32>
  }
  tile.return
}

// -----

// The source of the reduced dim is outside the affine fragment.
tile.kernel @source_unsupported(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                %Y: memref<?xf32> {tile.dims = ["M"]},
                                %j: index) {
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %x = tile.load %Xv[%r, %j] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
  // expected-error @below {{is outside the affine fragment: tile coordinate 1 is the kernel's scalar argument #2}}
  %s = tile.reduce add %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// -----

// One loop result carries the tiles, the other overwrites them: both reach
// the reduction.
tile.kernel @carries_and_overwrites(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                                    %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r = tile.grid %Yv : !tile.part<4xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x16xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<4x16xf32>
  %sum, %last = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero, %l = %zero)
      -> (tensor<4x16xf32>, tensor<4x16xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
    %n = arith.addf %a, %x : tensor<4x16xf32>
    scf.yield %n, %x : tensor<4x16xf32>, tensor<4x16xf32>
  }
  %both = arith.addf %sum, %last : tensor<4x16xf32>
  // expected-error @below {{both carries and overwrites values that reach it}}
  %s = tile.reduce add %both dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  tile.store %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}

// -----

// An inner loop that overwrites the product each iteration sits between the
// mma and the loop that accumulates it.
tile.kernel @overwritten_inside(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                                %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                                %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<16x32xf32, pad = zero>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<16x16xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
    %w = tile.load %Wv[%k, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
    %inner = scf.for %t = %c0 to %c4 step %c1 iter_args(%b = %a) -> (tensor<16x16xf32>) {
      // expected-error @below {{neither accumulates the reduction nor encloses its output}}
      %p = tile.mma %x, %w, %a : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
      scf.yield %p : tensor<16x16xf32>
    }
    scf.yield %inner : tensor<16x16xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// -----

// One accumulator chain whose mmas tile K differently.
tile.kernel @mixed_k_tiles(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                           %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                           %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["K <= 16"] {
  %c0 = arith.constant 0 : index
  %Xa = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wa = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Xb = tile.partition %X tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Wb = tile.partition %W tile [16, 16] pad(zero) : memref<?x?xf32> -> !tile.part<16x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xa[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %w = tile.load %Wa[%c0, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  // expected-error @below {{its operands tile the reduced dim with different tile sizes}}
  %p = tile.mma %x, %w, %z : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
  %x2 = tile.load %Xb[%m, %c0] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %w2 = tile.load %Wb[%c0, %n] : !tile.part<16x16xf32, pad = zero> -> tensor<16x16xf32>
  %q = tile.mma %x2, %w2, %p : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.store %q, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}

// -----

// A product computed once and re-added by every iteration of a loop that
// does not accumulate: the chain spans two loop levels.
tile.kernel @different_loops(%X: memref<?x?xf32> {tile.dims = ["M", "K"]},
                             %W: memref<?x?xf32> {tile.dims = ["K", "N"]},
                             %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    requires ["K <= 32"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %Xv = tile.partition %X tile [16, 32] pad(zero) : memref<?x?xf32> -> !tile.part<16x32xf32, pad = zero>
  %Wv = tile.partition %W tile [32, 16] pad(zero) : memref<?x?xf32> -> !tile.part<32x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %x = tile.load %Xv[%m, %c0] : !tile.part<16x32xf32, pad = zero> -> tensor<16x32xf32>
  %w = tile.load %Wv[%c0, %n] : !tile.part<32x16xf32, pad = zero> -> tensor<32x16xf32>
  // expected-error @below {{the reductions that accumulate into one value are in different loops}}
  %p0 = tile.mma %x, %w, %z : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
  %r = scf.for %t = %c0 to %c4 step %c1 iter_args(%b = %p0) -> (tensor<16x16xf32>) {
    %p1 = tile.mma %x, %w, %p0 : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
    scf.yield %p1 : tensor<16x16xf32>
  }
  tile.store %r, %Yv[%m, %n] : tensor<16x16xf32>, !tile.part<16x16xf32>
  tile.return
}
