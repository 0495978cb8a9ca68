// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU

// A warp-specialized TMA K loop (tile.warp_specialized, transform.tile.
// warp_specialize): 8 consumer warps and a producer warpgroup, 384 threads
// launched, the kernel's register limit 168 (384 x 168 fits the SM's 64K).
// Every thread initializes nothing but passes the CTA barrier that
// publishes the mbarriers; then the producer warpgroup gives up registers
// (setmaxnreg.dec to 40), its first warp issues the copies of every step
// (expect_tx, the 5-D box of A per warpgroup, B), waiting for the release
// of a stage from the fourth step on, and the warpgroup exits. The
// consumers raise their limit to 232 (what the producer gave up) and run
// the wgmma loop; the staged epilogue after it synchronizes with a named
// barrier of the 256 consumer threads, since the exited producer would
// never arrive at barrier 0. ptxas accepts it without spills.

// GPU: gpu.func @matmul_bias
// GPU-SAME: known_block_size = array<i32: 384, 1, 1>
// GPU-SAME: nvvm.maxnreg = 168 : i32
// GPU: gpu.barrier
// GPU: nvvm.setmaxregister decrease 40
// GPU: scf.for
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global
// GPU: nvvm.exit
// GPU: nvvm.setmaxregister increase 232
// GPU: nvvm.wgmma.mma_async
// GPU: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}

// CHECK: .maxntid 384, 1, 1
// CHECK-NEXT: .maxnreg 168
// CHECK: mbarrier.init.shared.b64
// CHECK: bar.sync 0;
// CHECK-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK-DAG: bar.sync 1, 256;
// CHECK-DAG: cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-DAG: exit;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTXAS: remark: ptxas sm_90a: kernel 'matmul_bias' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, {{.*}}, 0 wgmma waits injected by ptxas
tile.kernel @matmul_bias(%X: memref<?x?xbf16> {tile.dims = ["M", "K"], tile.name = "X"},
                         %W: memref<?x?xbf16> {tile.dims = ["N", "K"], tile.name = "W"},
                         %B: memref<?xf32> {tile.dims = ["N"], tile.name = "B"},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"], tile.name = "Y"})
    params {BM = 128, BN = 128, BK = 64, num_warps = 8, vector_width = 4, group_m = 8}
    attributes {tile.warp_specialized} {
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
  } {tile.pipeline_stages = 3, tile.operand_copies = "tma"}
  %bt = tile.load %Bv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  %bb = tile.broadcast %bt dims [0] : tensor<128xf32> -> tensor<128x128xf32>
  %y = arith.addf %acc, %bb : tensor<128x128xf32>
  tile.store %y, %Yv[%m, %n] {tile.staged_epilogue} : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
