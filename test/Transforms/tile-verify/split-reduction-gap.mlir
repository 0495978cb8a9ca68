// RUN: kbench-opt %s -verify-diagnostics --tile-verify="checks=C9"
// XFAIL: *

// A known gap of C9 (docs/verification.md, "Assumptions"): chunks one tile
// short, [c * 8, min(c * 8 + 7, ...)), never reduce k tile 7 of a chunk, yet
// C9 proves the kernel. The have set is right (8 b <= k <= 8 b + 6 with
// b < ceildiv(N, 8192)), but its difference with the need set comes out
// empty: the likely cause is that MLIR 22.1's Presburger subtraction reads
// the pair of bounds as the division b = k floordiv 8 and drops the tighter
// one. This test passes (and so fails as XFAIL) once the gap is closed.

tile.kernel @short(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?xf32> {tile.dims = ["M"]}) {
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [4, 1024] pad(zero) : memref<?x?xf32> -> !tile.part<4x1024xf32, pad = zero>
  %Cv = tile.partition %X tile [4, 8192] pad(zero) : memref<?x?xf32> -> !tile.part<4x8192xf32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %r, %c = tile.grid %Cv : !tile.part<4x8192xf32, pad = zero>
  %bn = tile.tile_size %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %bs = tile.tile_size %Cv[1] : !tile.part<4x8192xf32, pad = zero>
  %per = arith.divui %bs, %bn : index
  %first = arith.muli %c, %per : index
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x1024xf32, pad = zero>
  %per1 = arith.subi %per, %c1 : index
  %end = arith.addi %first, %per1 : index
  %last = arith.minsi %end, %nt : index
  %zero = arith.constant dense<0.0> : tensor<4x1024xf32>
  %acc = scf.for %j = %first to %last step %c1 iter_args(%a = %zero) -> (tensor<4x1024xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<4x1024xf32, pad = zero> -> tensor<4x1024xf32>
    %t = arith.addf %a, %x : tensor<4x1024xf32>
    scf.yield %t : tensor<4x1024xf32>
  }
  // expected-error @below {{never reduces k tile 7 (elements [7168, 7169) of N = 7169) for output tile (0)}}
  %y = tile.reduce add %acc dim 1 : tensor<4x1024xf32> -> tensor<4xf32>
  tile.atomic_add %y, %Yv[%r] : tensor<4xf32>, !tile.part<4xf32>
  tile.return
}
