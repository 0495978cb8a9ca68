// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU

// A staged epilogue (bias add) written with TMA (tile.tma_store): the
// kernel takes one more tensor map, of Y in unswizzled boxes of 128 rows x
// 32 f32 columns (128 bytes). Each phase's runs go to a shared buffer of
// boxes; then every thread fences its writes for the async proxy, a
// barrier, and thread 0 stores one box per 32 columns of the phase,
// commits and waits until the boxes are read. Rows of Y that are not
// 16-byte aligned take the threads' global stores instead (st.global).
// ptxas accepts it without spills.

// GPU: gpu.func @matmul_bias(
// GPU-SAME: kbench.tma_descriptors = [{box = array<i64: 128, 32>, param = "Y", swizzle = 0 : i64}]

// The 96 KB of the K loop's stage buffers hold a phase of 64 columns (the
// padded accumulators, then two boxes): two phases, each its own store.
// CHECK: .visible .entry matmul_bias(
// CHECK: .param .align 64 .b8 matmul_bias_param_{{[0-9]+}}[128]
// CHECK: st.global.v4.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
// CHECK-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-NEXT: cp.async.bulk.commit_group;
// CHECK-NEXT: cp.async.bulk.wait_group.read 0;
// CHECK: st.global.v4.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-NEXT: cp.async.bulk.commit_group;
// CHECK-NEXT: cp.async.bulk.wait_group.read 0;
// CHECK-NOT: cp.async.bulk.tensor
// PTXAS: remark: ptxas sm_90a: kernel 'matmul_bias' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, {{.*}}, 0 wgmma waits injected by ptxas
tile.kernel @matmul_bias(%X: memref<?x?xbf16> {tile.dims = ["M", "K"], tile.name = "X"},
                         %W: memref<?x?xbf16> {tile.dims = ["N", "K"], tile.name = "W"},
                         %B: memref<?xf32> {tile.dims = ["N"], tile.name = "B"},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"], tile.name = "Y"})
    params {BM = 128, BN = 128, BK = 64, num_warps = 8, vector_width = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x64xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
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
  %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
  %y = arith.addf %acc, %bb : tensor<128x128xf32>
  tile.store %y, %Yv[%m, %n] {tile.staged_epilogue, tile.tma_store} : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
