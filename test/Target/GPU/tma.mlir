// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// The lowered function before the backend: two trailing tensor-map params,
// described for the bundle manifest.
// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU

// A 128x128x64 bf16 tile on one warpgroup, impl = wgmma, 4 stages copied
// with TMA (tile.operand_copies = "tma"): the three tensor maps (A in 8-row
// boxes, A's staged-rows view, B) are byval grid-constant params (.param
// .align 64 .b8 [128]); thread 0 issues, in predicated instructions, one
// arrive.expect_tx of the step's bytes (counted at run time: a tile that
// reaches past M skips the 8-row boxes past M) and the copies: for a full
// tile one 5-D box of A's staged-rows view, else up to 16 8-row boxes, and
// one 2-D box of 128 rows of B; every thread waits on the step's full
// mbarrier; each
// warpgroup's first thread releases the previous step's stage with an
// arrive of no transactions. Where K % 8 != 0 the loop copies with element
// loads and every thread arrives (the mbarrier.arrive without predicate).
// ptxas accepts it without spills, without serializing the wgmma
// instructions (a compile error in kbench) and without adding waits of its
// own: each step waits only for the group before it (wait_group 1), and the
// loop sits in an scf.if whose branch waits for every group after it.

// GPU: gpu.func @matmul_bf16(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) kernel
// GPU-SAME: kbench.tma_descriptor_args = array<i64: 6, 7, 8>
// GPU-SAME: kbench.tma_descriptors = [{box = array<i64: 8, 64>, param = "X", swizzle = 128 : i64}, {box = array<i64: 2, 4, 2, 8, 64>, param = "X", swizzle = 128 : i64, view_shape = ["floordiv(M, 64)", "4", "2", "8", "K"], view_strides = ["64 * K", "8 * K", "32 * K", "K", "1"]}, {box = array<i64: 128, 64>, param = "W", swizzle = 128 : i64}]

// CHECK: .visible .entry matmul_bf16(
// CHECK: .param .align 64 .b8 matmul_bf16_param_6[128],
// CHECK-NEXT: .param .align 64 .b8 matmul_bf16_param_7[128],
// CHECK-NEXT: .param .align 64 .b8 matmul_bf16_param_8[128]
// CHECK: mov.b64 %rd{{[0-9]+}}, matmul_bf16_param_8;
// CHECK-NEXT: cvta.param.u64
// CHECK: mbarrier.init.shared.b64
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: @%p{{[0-9]+}} mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], %r{{[0-9]+}};
// CHECK: @%p{{[0-9]+}} cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {0,0,0,0,%r{{[0-9]+}}} ]
// CHECK-COUNT-17: @%p{{[0-9]+}} cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK-DAG: @%p{{[0-9]+}} mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 0;
// CHECK-DAG: mbarrier.arrive.shared.b64
// PTXAS: remark: ptxas sm_90a: kernel 'matmul_bf16' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, {{.*}}, 0 wgmma waits injected by ptxas
tile.kernel @matmul_bf16(%X: memref<?x?xbf16> {tile.dims = ["M", "K"], tile.name = "X"},
                         %W: memref<?x?xbf16> {tile.dims = ["N", "K"], tile.name = "W"},
                         %Y: memref<?x?xf32> {tile.dims = ["M", "N"], tile.name = "Y"})
    params {BM = 128, BN = 128, BK = 64, num_warps = 4, vector_width = 4, group_m = 8} {
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
  } {tile.pipeline_stages = 4, tile.operand_copies = "tma"}
  tile.store %acc, %Yv[%m, %n] : tensor<128x128xf32>, !tile.part<128x128xf32>
  tile.return
}
