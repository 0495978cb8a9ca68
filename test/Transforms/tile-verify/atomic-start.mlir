// RUN: kbench-opt %s -split-input-file -verify-diagnostics --tile-verify="checks=C14"
// RUN: not kbench-opt %s -split-input-file --tile-verify="checks=C14" 2>&1 | FileCheck %s

// C14: a tile.atomic_add accumulates into memory that must hold zero before
// the kernel runs. The host entry is walked back from each launch of the
// kernel to the last launch that stores into the same memory, which must
// store a zero constant and nothing else; launches that only add atomically
// are passed over.

// CHECK: [C14] not_zeroed: tile.atomic_add adds into argument #1 'Y' of @sum, which @main's tile.launch at {{.*}} binds to memory that no earlier launch stores zeros over
// CHECK: [C14] not_zeroed: {{.*}} binds to memory that @ones (launched at {{.*}}) last stored into with values other than a zero constant
// CHECK: [C14] not_zeroed: {{.*}} binds to memory that no launch before it stores zeros over (it is created at {{.*}})

// The sum's output is zeroed by the launch before it: proved. A second
// kernel adding into the same output after the first accumulates into the
// same sum and needs no zeroing of its own.
module {
  tile.kernel @zero(%Y: memref<?xf32> {tile.dims = ["M"]}) params {BZ = 64, num_warps = 1} {
    %Yv = tile.partition %Y tile [BZ] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv : !tile.part<64xf32>
    %z = arith.constant dense<0.0> : tensor<64xf32>
    tile.store %z, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }
  tile.kernel @sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]}) params {BM = 4, BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<4xf32>
    %r, %c = tile.grid %Xv dims [0, 1] : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%r, %c] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    tile.atomic_add %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  tile.kernel @more(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]}) params {BM = 4, BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<4xf32>
    %r, %c = tile.grid %Xv dims [0, 1] : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%r, %c] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    tile.atomic_add %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @zero(%y) : (memref<?xf32>) -> ()
    tile.launch @sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    tile.launch @more(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }
}

// -----

// No zeroing launch: the sum adds into whatever the output held.
module {
  tile.kernel @sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]}) params {BM = 4, BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<4xf32>
    %r, %c = tile.grid %Xv dims [0, 1] : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%r, %c] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    // expected-error @below {{binds to memory that no earlier launch stores zeros over; an atomic sum must start at zero: launch a kernel that stores zeros over it first (transform.tile.split_reduction adds one, @<name>_zero)}}
    tile.atomic_add %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }
}

// -----

// A launch that stores other values into the output after it was zeroed.
module {
  tile.kernel @zero(%Y: memref<?xf32> {tile.dims = ["M"]}) params {BZ = 64, num_warps = 1} {
    %Yv = tile.partition %Y tile [BZ] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv : !tile.part<64xf32>
    %z = arith.constant dense<0.0> : tensor<64xf32>
    tile.store %z, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }
  tile.kernel @ones(%Y: memref<?xf32> {tile.dims = ["M"]}) params {BZ = 64, num_warps = 1} {
    %Yv = tile.partition %Y tile [BZ] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv : !tile.part<64xf32>
    %z = arith.constant dense<1.0> : tensor<64xf32>
    tile.store %z, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }
  tile.kernel @sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]}) params {BM = 4, BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<4xf32>
    %r, %c = tile.grid %Xv dims [0, 1] : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%r, %c] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    // expected-error @below {{last stored into with values other than a zero constant; an atomic sum must start at zero}}
    tile.atomic_add %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    tile.launch @zero(%y) : (memref<?xf32>) -> ()
    tile.launch @ones(%y) : (memref<?xf32>) -> ()
    tile.launch @sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }
}

// -----

// A temporary that no launch zeroes before the sum adds into it.
module {
  tile.kernel @sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]}) params {BM = 4, BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<4xf32>
    %r, %c = tile.grid %Xv dims [0, 1] : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%r, %c] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    // expected-error @below {{binds to memory that no launch before it stores zeros over (it is created at}}
    tile.atomic_add %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %m = memref.dim %y, %c0 : memref<?xf32>
    %t = memref.alloc(%m) : memref<?xf32>
    tile.launch @sum(%x, %t) : (memref<?x?xf32>, memref<?xf32>) -> ()
    memref.dealloc %t : memref<?xf32>
    return
  }
}

// -----

// A launch inside a loop of the entry: the order is not followed.
module {
  tile.kernel @zero(%Y: memref<?xf32> {tile.dims = ["M"]}) params {BZ = 64, num_warps = 1} {
    %Yv = tile.partition %Y tile [BZ] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv : !tile.part<64xf32>
    %z = arith.constant dense<0.0> : tensor<64xf32>
    tile.store %z, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }
  tile.kernel @sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]}) params {BM = 4, BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<4xf32>
    %r, %c = tile.grid %Xv dims [0, 1] : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%r, %c] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    tile.atomic_add %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    tile.launch @zero(%y) : (memref<?xf32>) -> ()
    scf.for %i = %c0 to %c2 step %c1 {
      // expected-error @below {{unsupported: this tile.launch of @sum is inside a loop or branch of @main; C14 follows the launches of its body in order}}
      tile.launch @sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    }
    return
  }
}

// -----

// A launch on the same memory inside a branch, between the zeroing and the
// sum: whether it runs is not known, so the order is not followed.
module {
  tile.kernel @zero(%Y: memref<?xf32> {tile.dims = ["M"]}) params {BZ = 64, num_warps = 1} {
    %Yv = tile.partition %Y tile [BZ] : memref<?xf32> -> !tile.part<64xf32>
    %b = tile.grid %Yv : !tile.part<64xf32>
    %z = arith.constant dense<0.0> : tensor<64xf32>
    tile.store %z, %Yv[%b] : tensor<64xf32>, !tile.part<64xf32>
    tile.return
  }
  tile.kernel @sum(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                 %Y: memref<?xf32> {tile.dims = ["M"]}) params {BM = 4, BN = 64, num_warps = 1} {
    %c0 = arith.constant 0 : index
    %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
    %Yv = tile.partition %Y tile [BM] : memref<?xf32> -> !tile.part<4xf32>
    %r, %c = tile.grid %Xv dims [0, 1] : !tile.part<4x64xf32, pad = zero>
    %x = tile.load %Xv[%r, %c] : !tile.part<4x64xf32, pad = zero> -> tensor<4x64xf32>
    %s = tile.reduce add %x dim 1 : tensor<4x64xf32> -> tensor<4xf32>
    // expected-error @below {{unsupported: @main launches a kernel on this memory inside the scf.if at}}
    tile.atomic_add %s, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
    tile.return
  }
  func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>, %again: i1) {
    tile.launch @zero(%y) : (memref<?xf32>) -> ()
    scf.if %again {
      // expected-error @below {{unsupported: this tile.launch of @sum is inside a loop or branch of @main}}
      tile.launch @sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    }
    tile.launch @sum(%x, %y) : (memref<?x?xf32>, memref<?xf32>) -> ()
    return
  }
}
