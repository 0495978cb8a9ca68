// tile-assign-layouts reads the knobs that decide layouts and rejects the
// values the lowering cannot build, naming the knob.
// RUN: kbench-opt %s --split-input-file --tile-assign-layouts --verify-diagnostics

// expected-error @+1 {{'tile.kernel' op cannot be lowered by tile-to-gpu: num_warps = 12 is not a power of two from 1 to 32 (the SIMT lowering splits tiles over warps in powers of two, and a CTA has at most 1024 threads)}}
tile.kernel @warps(%X: memref<?xf32> {tile.dims = ["N"]}, %Y: memref<?xf32> {tile.dims = ["N"]}) params {num_warps = 12} {
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %x = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  tile.store %x, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op cannot be lowered by tile-to-gpu: vector_width = 3 is not a power of two from 1 to 16 (one access moves at most 16 bytes, so also vector_width x element bytes <= 16)}}
tile.kernel @width(%X: memref<?xf32> {tile.dims = ["N"]}, %Y: memref<?xf32> {tile.dims = ["N"]}) params {vector_width = 3} {
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %x = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  tile.store %x, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}


// -----

tile.kernel @while(%X: memref<?xf32> {tile.dims = ["N"]}, %Y: memref<?xf32> {tile.dims = ["N"]}) params {num_warps = 1} {
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %x = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  %true = arith.constant true
  // expected-error @+1 {{'scf.while' op carries tiles through block arguments, which tile-to-gpu does not support; loop with scf.for (tiles as iter_args) and branch with scf.if}}
  %r = scf.while (%a = %x) : (tensor<64xf32>) -> tensor<64xf32> {
    scf.condition(%true) %a : tensor<64xf32>
  } do {
  ^bb0(%b: tensor<64xf32>):
    %c = arith.negf %b : tensor<64xf32>
    scf.yield %c : tensor<64xf32>
  }
  tile.store %r, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
