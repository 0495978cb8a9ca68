// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// The same kernel with 4 stages: one wgmma group stays in flight.
// RUN: sed 's/tile.pipeline_stages = 3/tile.pipeline_stages = 4/' %s | kbench-opt --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.4.ptx -o /dev/null
// RUN: FileCheck %s --check-prefix=STAGES4 < %t.4.ptx
// RUN: %if ptxas %{ sed 's/tile.pipeline_stages = 3/tile.pipeline_stages = 4/' %s | kbench-opt --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.4.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// A 128x128x64 bf16 tile on two warpgroups (8 warps), impl = wgmma, 3
// cp.async stages: convert-nvvm-to-llvm turns nvvm.wgmma.mma_async into the
// PTX instruction with both operands from shared-memory descriptors, K-major
// (no transpose: the last two immediates 0), accumulating (predicate p set).
// Each step is four m64n128k16 instructions per warpgroup. ptxas accepts it
// for sm_90a without spills and without serializing the wgmma instructions
// (which kbench reports as an error), also with a group left in flight
// (4 stages), and without full waits of its own (C7517: none injected).

// CHECK: .visible .entry matmul_bf16(
// CHECK: .maxntid 256, 1, 1
// CHECK: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.wait_group 2;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK-NEXT: bar.sync 0;
// PTXAS: remark: ptxas sm_90a: kernel 'matmul_bf16' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, {{.*}}, 0 wgmma waits injected by ptxas
// STAGES4: wgmma.commit_group.sync.aligned;
// STAGES4-NEXT: wgmma.wait_group.sync.aligned 1;
// STAGES4: cp.async.wait_group 1;
// STAGES4-NOT: wgmma.mma_async
// STAGES4: wgmma.wait_group.sync.aligned 0;
// STAGES4-NOT: wgmma.mma_async
// STAGES4: cp.async.wait_group 0;
tile.kernel @matmul_bf16(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                         %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 128, BK = 64, num_warps = 8, vector_width = 4, group_m = 8} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<128x128xf32>
  %m, %n = tile.grid %Yv : !tile.part<128x128xf32>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x64xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x128xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<128x64xbf16, pad = zero> -> tensor<128x64xbf16>
    %r = tile.mma %x, %w, %a impl(wgmma) {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
    scf.yield %r : tensor<128x128xf32>
  } {tile.pipeline_stages = 3}
  tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
