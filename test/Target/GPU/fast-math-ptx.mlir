// RUN: kbench-opt %s --split-input-file --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s --implicit-check-not=mul.rn.f32 --implicit-check-not=add.rn.f32 --implicit-check-not=ex2.approx.f32 < %t.ptx
// RUN: sed 's/fast_math = 1/fast_math = 0/' %s | kbench-opt --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.off.ptx -o /dev/null
// RUN: FileCheck %s --check-prefix=OFF --implicit-check-not=fma.rn.f32 --implicit-check-not=ex2.approx.ftz < %t.off.ptx

// The fast_math knob in PTX: x * scale - shift is one fma (the contract
// flags let the NVPTX backend fuse it), each exponential one
// ex2.approx.ftz.f32, and no multiply or add keeps the .rn that forbids
// ptxas to contract. Without the knob: mul.rn, add.rn (the subtraction of a
// constant) and the
// denormal-preserving ex2.approx.f32.

// CHECK: .visible .entry softmax_numerator(
// CHECK-COUNT-4: fma.rn.f32
// CHECK-COUNT-4: ex2.approx.ftz.f32

// OFF: .visible .entry softmax_numerator(
// OFF-COUNT-4: mul.rn.f32
// OFF-COUNT-4: add.rn.f32
// OFF-COUNT-4: ex2.approx.f32
tile.kernel @softmax_numerator(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 1, BN = 512, num_warps = 4, vector_width = 4, fast_math = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<1x512xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<1x512xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<1x512xf32, pad = zero>
  %scale = arith.constant dense<1.44269504> : tensor<1x512xf32>
  %shift = arith.constant dense<3.0> : tensor<1x512xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf32, pad = zero> -> tensor<1x512xf32>
    %s = arith.mulf %x, %scale : tensor<1x512xf32>
    %d = arith.subf %s, %shift : tensor<1x512xf32>
    %e = math.exp2 %d : tensor<1x512xf32>
    tile.store %e, %Yv[%r, %j] : tensor<1x512xf32>, !tile.part<1x512xf32>
  }
  tile.return
}
