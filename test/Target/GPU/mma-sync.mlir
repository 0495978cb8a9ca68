// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// The same kernel with a 3-stage cp.async K loop (the tasks' default).
// RUN: sed 's/^  }$/  } {tile.pipeline_stages = 3}/' %s | kbench-opt --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.3.ptx -o /dev/null
// RUN: FileCheck %s --check-prefix=STAGES < %t.3.ptx
// RUN: %if ptxas %{ sed 's/^  }$/  } {tile.pipeline_stages = 3}/' %s | kbench-opt --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.3.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS3 %}

// matmul_bf16's default configuration (tasks/matmul_bf16): 128x128x32 bf16
// tile on 8 warps (2x4 warp grid, 64x32 per warp), impl = mma_sync. Through
// convert-nvgpu-to-nvvm the fragments are ldmatrix.x4 from the swizzled
// shared buffers and each k16 step is 16 mma.sync per warp (two per BK = 32):
// 32 in the K loop. ptxas accepts it for sm_90a without spills.

// CHECK: .visible .entry matmul_bf16(
// CHECK: .maxntid 256, 1, 1
// CHECK: .shared .align 16 .b8 __wg_matmul_bf16_0[16384];
// CHECK: bar.sync 0;
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
// CHECK: bar.sync 0;
// PTXAS: remark: ptxas sm_90a: kernel 'matmul_bf16' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 16384 bytes static shared memory, 1 barriers
// STAGES: .visible .entry matmul_bf16(
// STAGES: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// STAGES: cp.async.commit_group;
// STAGES: cp.async.wait_group 2;
// STAGES: bar.sync 0;
// STAGES: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// STAGES-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// STAGES: cp.async.wait_group 0;
// PTXAS3: remark: ptxas sm_90a: kernel 'matmul_bf16' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @matmul_bf16(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 32, num_warps = 8, vector_width = 4, group_m = 8} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x32xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x32xbf16, pad = zero> -> tensor<128x32xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<128x32xbf16, pad = zero> -> tensor<128x32xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<128x32xbf16>, tensor<128x32xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  }
  tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
