// RUN: kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// cache_hints = 1 down to PTX (test/Conversion/TileToGPU/cache-hints.mlir
// has the plan): the first pass's 16-byte loads of x carry an evict_last L2
// policy, the second pass's an evict_first one, and ptxas takes both. The
// store stays a plain st.global.v4.

// CHECK: .visible .entry two_pass(
// CHECK: createpolicy.fractional.L2::evict_last.b64 policy, 1.0;
// CHECK-NEXT: ld.global.L1::evict_last.L2::cache_hint.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], policy;
// CHECK: createpolicy.fractional.L2::evict_first.b64 policy, 1.0;
// CHECK-NEXT: ld.global.L1::evict_first.L2::cache_hint.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}], policy;
// CHECK: st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: ret;
// PTXAS: remark: ptxas sm_90a: kernel 'two_pass' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @two_pass(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                      %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BR = 1, BN = 512, num_warps = 4, vector_width = 4, cache_hints = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<1x512xf32, pad = zero>
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<1x512xf32>
  %r = tile.grid %Yv dims [0] : !tile.part<1x512xf32>
  %nt = tile.num_tiles %Xv[1] : !tile.part<1x512xf32, pad = zero>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %s = scf.for %j = %c0 to %nt step %c1 iter_args(%acc = %zero) -> (tensor<1xf32>) {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf32, pad = zero> -> tensor<1x512xf32>
    %t = tile.reduce add %x dim 1 : tensor<1x512xf32> -> tensor<1xf32>
    %n = arith.addf %acc, %t : tensor<1xf32>
    scf.yield %n : tensor<1xf32>
  }
  %sb = tile.broadcast %s dims [1] : tensor<1xf32> -> tensor<1x512xf32>
  scf.for %j = %c0 to %nt step %c1 {
    %x = tile.load %Xv[%r, %j] : !tile.part<1x512xf32, pad = zero> -> tensor<1x512xf32>
    %y = arith.subf %x, %sb : tensor<1x512xf32>
    tile.store %y, %Yv[%r, %j] : tensor<1x512xf32>, !tile.part<1x512xf32>
  }
  tile.return
}
