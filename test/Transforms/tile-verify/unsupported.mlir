// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C1"

// Outside the affine fragment every check says unsupported, naming the op and
// the reason; it never passes.

tile.kernel @step_not_constant(%X: memref<?xf32> {tile.dims = ["N"]},
                               %Y: memref<?xf32> {tile.dims = ["N"]},
                               %s: index) {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %nt = tile.num_tiles %Xv[0] : !tile.part<16xf32, pad = zero>
  scf.for %k = %c0 to %nt step %s {
    // expected-error @below {{is outside the affine fragment: the bounds of scf.for at}}
    %x = tile.load %Xv[%k] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  }
  %z = arith.constant dense<0.0> : tensor<16xf32>
  tile.store %z, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}

// -----

tile.kernel @step_negative(%X: memref<?xf32> {tile.dims = ["N"]},
                           %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %cm1 = arith.constant -1 : index
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  scf.for %k = %c3 to %c0 step %cm1 {
    // expected-error @below {{is not a positive constant}}
    %x = tile.load %Xv[%k] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  }
  %z = arith.constant dense<0.0> : tensor<16xf32>
  tile.store %z, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}

// -----

tile.kernel @inside_while(%X: memref<?xf32> {tile.dims = ["N"]},
                          %Y: memref<?xf32> {tile.dims = ["N"]}, %c: i1) {
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    // expected-error @below {{is outside the affine fragment: it is inside scf.while at}}
    %x = tile.load %Xv[%i] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
    scf.yield
  }
  %z = arith.constant dense<0.0> : tensor<16xf32>
  tile.store %z, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}

// -----

tile.kernel @guards(%X: memref<?xf32> {tile.dims = ["N"]},
                    %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %nt = tile.num_tiles %Xv[0] : !tile.part<16xf32, pad = zero>
  %next = arith.addi %i, %c1 : index
  // A guard in the fragment proves the read of the next tile in bounds.
  %has = arith.cmpi slt, %next, %nt : index
  scf.if %has {
    %x = tile.load %Xv[%next] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  }
  %ne = arith.cmpi ne, %next, %nt : index
  scf.if %ne {
    // expected-error @below {{the condition of scf.if at}}
    %x = tile.load %Xv[%next] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  }
  %z = arith.constant dense<0.0> : tensor<16xf32>
  tile.store %z, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}

// -----

tile.kernel @data_dependent(%X: memref<?xf32> {tile.dims = ["N"]},
                            %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [16] pad(zero) : memref<?xf32> -> !tile.part<16xf32, pad = zero>
  %Yv = tile.partition %Y tile [16] : memref<?xf32> -> !tile.part<16xf32>
  %i = tile.grid %Yv : !tile.part<16xf32>
  %nt = tile.num_tiles %Xv[0] : !tile.part<16xf32, pad = zero>
  %last = scf.for %k = %c0 to %nt step %c1 iter_args(%p = %c0) -> (index) {
    // expected-error @below {{tile coordinate 0 is a loop-carried value (an iter_arg of scf.for at}}
    %x = tile.load %Xv[%p] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
    scf.yield %k : index
  }
  %m = arith.minsi %i, %nt : index
  // expected-error @below {{a choice between values (a disjunction)}}
  %y = tile.load %Xv[%m] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  %q = arith.divui %i, %nt : index
  // expected-error @below {{a division by a value that is not a positive constant}}
  %w = tile.load %Xv[%q] : !tile.part<16xf32, pad = zero> -> tensor<16xf32>
  tile.store %y, %Yv[%i] : tensor<16xf32>, !tile.part<16xf32>
  tile.return
}
