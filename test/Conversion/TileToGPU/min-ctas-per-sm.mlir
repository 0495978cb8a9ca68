// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s
// RUN: kbench-opt %s --tile-to-gpu "--kbench-gpu-to-ptx=ptx-file=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// min_ctas_per_sm (transform.tile.min_ctas_per_sm) above 1 becomes the
// gpu.func's nvvm.minctasm, which the NVPTX backend writes as
// .minnctapersm beside the block size (.maxntid): ptxas then keeps the
// registers per thread low enough for that many CTAs per SM. At 1, the
// default, the kernel carries nothing (tools/kbench/compile-min-ctas.test
// shows the registers ptxas gives matmul_residual either way).

// CHECK-LABEL: gpu.func @two_per_sm(
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-LABEL: gpu.func @default_occupancy(
// CHECK-NOT: nvvm.minctasm
// CHECK: gpu.return

// PTX-LABEL: .entry two_per_sm(
// PTX: .maxntid 128, 1, 1
// PTX-NEXT: .minnctapersm 2
// PTX-LABEL: .entry default_occupancy(
// PTX-NOT: .minnctapersm
tile.kernel @two_per_sm(%X: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 512, num_warps = 4, min_ctas_per_sm = 2} {
  %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<512xf32>
  %i = tile.grid %Yv : !tile.part<512xf32>
  %x = tile.load %Xv[%i] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %y = arith.addf %x, %x : tensor<512xf32>
  tile.store %y, %Yv[%i] : tensor<512xf32>, !tile.part<512xf32>
  tile.return
}

tile.kernel @default_occupancy(%X: memref<?xf32> {tile.dims = ["N"]},
                               %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 512, num_warps = 4} {
  %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<512xf32>
  %i = tile.grid %Yv : !tile.part<512xf32>
  %x = tile.load %Xv[%i] : !tile.part<512xf32, pad = zero> -> tensor<512xf32>
  %y = arith.addf %x, %x : tensor<512xf32>
  tile.store %y, %Yv[%i] : tensor<512xf32>, !tile.part<512xf32>
  tile.return
}
