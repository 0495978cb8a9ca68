// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu "--kbench-gpu-to-ptx=ptx-file=%t.ptx cubin-file=%t.cubin" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTX < %t.ptx %}

// A tile.store marked tile.staged_epilogue (transform.tile.stage_epilogue):
// relu(acc + bias) cast to bf16, over a 64x64 mma_sync accumulator on 4
// warps. The bias (64 floats) and the accumulator go to shared memory once
// (the accumulator's 2-float fragment runs into rows of 64 + 8 floats), then
// one rolled loop of 4 row blocks of 16 rows: each thread reads 8 floats of
// one row and the 8 bias values of its columns, evaluates the chain on them
// once and stores one 16-byte run of bf16 through the tile.store lowering
// (the fast path when the sub-tile is inside the memref and N % 8 == 0,
// masked runs otherwise). The chain's code is emitted once, not per
// accumulator.

// CHECK-LABEL: gpu.func @linear
// CHECK-DAG: %[[BIAS:.*]] = memref.view %{{.*}} to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[BUF:.*]] = memref.view %{{.*}} to memref<4608xf32, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-COUNT-4: vector.store %{{.*}}, %[[BIAS]][%{{.*}}] {alignment = 8 : i64}
// CHECK-COUNT-16: vector.store %{{.*}}, %[[BUF]][%{{.*}}] {alignment = 8 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for %[[IT:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[ACC:.*]] = vector.load %[[BUF]][%{{.*}}] {alignment = 16 : i64} : memref<4608xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: %[[B:.*]] = vector.load %[[BIAS]][%{{.*}}] {alignment = 16 : i64} : memref<64xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[B]] : vector<8xf32>
// CHECK: %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<8xf32>
// CHECK: %[[Y:.*]] = arith.truncf %[[R]] : vector<8xf32> to vector<8xbf16>
// CHECK: vector.store %[[Y]], %{{.*}} {alignment = 16 : i64} : memref<?x?xbf16, #gpu.address_space<global>>, vector<8xbf16>
// CHECK: vector.maskedstore
// CHECK: }
// CHECK-NOT: arith.truncf
// CHECK: gpu.return
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'linear' uses {{[0-9]+}} registers, 0 bytes spill stores
// PTX-LABEL: .entry linear(
// PTX: st.shared.v2.b32
// PTX: bar.sync
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32
tile.kernel @linear(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                    %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                    %B: memref<?xf32> {tile.dims = ["N"]},
                    %Y: memref<?x?xbf16> {tile.dims = ["M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<64x32xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xbf16> -> !tile.part<64x64xbf16>
  %m, %n = tile.grid %Yv : !tile.part<64x64xbf16>
  %nk = tile.num_tiles %Xv[1] : !tile.part<64x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<64x32xbf16, pad = zero> -> tensor<64x32xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  } {tile.pipeline_stages = 2}
  %b = tile.load %Bv[%n] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  %bb = tile.broadcast %b dims [0] : tensor<64xf32> -> tensor<64x64xf32>
  %s = arith.addf %acc, %bb : tensor<64x64xf32>
  %relu = arith.maximumf %s, %z : tensor<64x64xf32>
  %y = arith.truncf %relu : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %y, %Yv[%m, %n] {tile.staged_epilogue} : tensor<64x64xbf16>, !tile.part<64x64xbf16>
  tile.return
}

// 3 cp.async stages of 128x96 and 256x96 bf16 tiles (216 KB) leave about
// 9 KB beside them, too little for even 16-column phases of the 128x256 f32
// accumulator; the stage buffers, free once the loop's copies are waited
// for, hold all of it (128 rows of 256 + 8 floats) from their first byte:
// one phase, after a barrier that ends every warp's last reads of them.
// CHECK-LABEL: gpu.func @too_big
// CHECK: memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<36864xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[REUSED:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<33792xf32, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: vector.store %{{.*}}, %[[REUSED]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 {
// CHECK: vector.load %[[REUSED]]
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'too_big' uses {{[0-9]+}} registers, 0 bytes spill stores
tile.kernel @too_big(%X: memref<?x?xbf16> {tile.dims = ["M", "K"]},
                    %W: memref<?x?xbf16> {tile.dims = ["N", "K"]},
                    %B: memref<?xf32> {tile.dims = ["N"]},
                    %Y: memref<?x?xbf16> {tile.dims = ["M", "N"]})
    params {BM = 128, BN = 256, BK = 96, num_warps = 8} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BM, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<128x96xbf16, pad = zero>
  %Wv = tile.partition %W tile [BN, BK] pad(zero) : memref<?x?xbf16> -> !tile.part<256x96xbf16, pad = zero>
  %Bv = tile.partition %B tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xbf16> -> !tile.part<128x256xbf16>
  %m, %n = tile.grid %Yv : !tile.part<128x256xbf16>
  %nk = tile.num_tiles %Xv[1] : !tile.part<128x96xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<128x256xf32>) {
    %x = tile.load %Xv[%m, %k] : !tile.part<128x96xbf16, pad = zero> -> tensor<128x96xbf16>
    %w = tile.load %Wv[%n, %k] : !tile.part<256x96xbf16, pad = zero> -> tensor<256x96xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<128x96xbf16>, tensor<256x96xbf16> -> tensor<128x256xf32>
    scf.yield %r : tensor<128x256xf32>
  } {tile.pipeline_stages = 3}
  %b = tile.load %Bv[%n] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %bb = tile.broadcast %b dims [0] : tensor<256xf32> -> tensor<128x256xf32>
  %s = arith.addf %acc, %bb : tensor<128x256xf32>
  %relu = arith.maximumf %s, %z : tensor<128x256xf32>
  %y = arith.truncf %relu : tensor<128x256xf32> to tensor<128x256xbf16>
  tile.store %y, %Yv[%m, %n] {tile.staged_epilogue} : tensor<128x256xbf16>, !tile.part<128x256xbf16>
  tile.return
}


// A batched output: the 2-D chain's tile goes to the store through
// tile.expand_dims dim 0 ([1, BM, BN]); the staged loop stores its runs
// into sub-tiles [1, 16, 64] at the tile's batch index.
// CHECK-LABEL: gpu.func @batched
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?x?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.maskedstore %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: gpu.return
// PTXAS-DAG: remark: ptxas sm_90a: kernel 'batched' uses {{[0-9]+}} registers, 0 bytes spill stores
// PTX-LABEL: .entry batched(
// PTX: st.shared.v2.b32
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32
tile.kernel @batched(%A: memref<?x?x?xbf16> {tile.dims = ["B", "M", "K"]},
                     %W: memref<?x?x?xbf16> {tile.dims = ["B", "N", "K"]},
                     %C: memref<?x?x?xf32> {tile.dims = ["B", "M", "N"]})
    params {num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [1, 64, 32] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [1, 64, 32] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x32xbf16, pad = zero>
  %Cv = tile.partition %C tile [1, 64, 64] : memref<?x?x?xf32> -> !tile.part<1x64x64xf32>
  %b, %m, %n = tile.grid %Cv : !tile.part<1x64x64xf32>
  %nk = tile.num_tiles %Av[2] : !tile.part<1x64x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %a3 = tile.load %Av[%b, %m, %k] : !tile.part<1x64x32xbf16, pad = zero> -> tensor<1x64x32xbf16>
    %w3 = tile.load %Wv[%b, %n, %k] : !tile.part<1x64x32xbf16, pad = zero> -> tensor<1x64x32xbf16>
    %x = tile.squeeze %a3 dim 0 : tensor<1x64x32xbf16> -> tensor<64x32xbf16>
    %w = tile.squeeze %w3 dim 0 : tensor<1x64x32xbf16> -> tensor<64x32xbf16>
    %r = tile.mma %x, %w, %a impl(mma_sync) {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %two = arith.constant dense<2.0> : tensor<64x64xf32>
  %y = arith.mulf %acc, %two : tensor<64x64xf32>
  %y3 = tile.expand_dims %y dim 0 : tensor<64x64xf32> -> tensor<1x64x64xf32>
  tile.store %y3, %Cv[%b, %m, %n] {tile.staged_epilogue} : tensor<1x64x64xf32>, !tile.part<1x64x64xf32>
  tile.return
}
