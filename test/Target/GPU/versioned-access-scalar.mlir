// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=COUNT < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// scalar_unaligned_rows = 1 (versioned-access.mlir has the default).
// vector_width = 4 on f32 without a fact on N (ragged rows): the row
// alignment is checked once at run time (N % 4 != 0, here `and N, 3`). An
// interior tile takes 16-byte loads and stores when rows are aligned and
// unpredicated scalar ones (no branch between them) when they are not; a
// boundary tile tests each run of 4: wholly inside the row, the plain
// access (16-byte or scalar), else one predicated scalar access per element.
// Two runs per thread, so 2 + 2 vector loads and stores in all.

// CHECK: .visible .entry copy(
// CHECK: ld.param.b64 %[[N:rd[0-9]+]], [copy_param_3];
// CHECK: and.b64 %[[REM:rd[0-9]+]], %[[N]], 3;
// CHECK: setp.ne.b64 %[[UNALIGNED:p[0-9]+]], %[[REM]], 0;
// CHECK: @%[[UNALIGNED]] bra $[[SCALAR:L__BB0_[0-9]+]];
// CHECK: $[[SCALAR]]:
// CHECK-COUNT-8: ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
// CHECK-NEXT: bra.uni
// CHECK: ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: ret;
// COUNT-COUNT-4: ld.global.v4.b32
// COUNT-NOT: ld.global.v4.b32
// COUNT-COUNT-4: st.global.v4.b32
// COUNT-NOT: st.global.v4.b32
// PTXAS: remark: ptxas sm_90a: kernel 'copy' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @copy(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 2, BN = 512, num_warps = 4, scalar_unaligned_rows = 1, vector_width = 4} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<2x512xf32>
  %m, %n = tile.grid %Yv : !tile.part<2x512xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<2x512xf32, pad = zero> -> tensor<2x512xf32>
  tile.store %x, %Yv[%m, %n] : tensor<2x512xf32>, !tile.part<2x512xf32>
  tile.return
}
