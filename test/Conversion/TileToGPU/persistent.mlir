// RUN: kbench-opt %s --tile-to-gpu | FileCheck %s
// RUN: %if ptxas %{ kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// A persistent kernel (tile.persistent, transform.tile.persistent): the
// body from the tile.grid on runs in a loop over tiles t = blockIdx.x,
// blockIdx.x + gridDim.x, ... below the grid's tile count (the product of
// the view's tile counts), ended by a barrier; the grid's coordinates are
// t's, x fastest (the launch's order), not the block ids. The gpu.func
// carries the mark for the backend, which reports it so that the compile
// driver sizes the launch by the SMs (tools/kbench/compile-persistent.test).
// What the lowering hoists into the prologue (the thread's ids, index
// arithmetic, shared addresses) moves into the loop where only the loop
// uses it, and the loop tells LLVM's LICM not to hoist it back: held
// across the loop, every such value would take a register from the tile's
// own work.

// CHECK: #[[NO_LICM:.*]] = #llvm.loop_licm<disable = true>
// CHECK: #[[ANNOTATION:.*]] = #llvm.loop_annotation<licm = #[[NO_LICM]]>

// CHECK-LABEL: gpu.func @scale(
// CHECK-SAME: tile.persistent
// CHECK: %[[TILES_M:.*]] = arith.ceildivui %{{.*}}, %c16 : index
// CHECK: %[[PART:.*]] = arith.muli %c1{{.*}}, %[[TILES_M]] : index
// CHECK: %[[TILES_N:.*]] = arith.ceildivui %{{.*}}, %c256 : index
// CHECK: %[[TILES:.*]] = arith.muli %[[PART]], %[[TILES_N]] : index
// CHECK: %[[FIRST:.*]] = gpu.block_id x
// CHECK: %[[STEP:.*]] = gpu.grid_dim x
// CHECK-NOT: gpu.thread_id
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[TILES]] step %[[STEP]] {
// CHECK: gpu.thread_id x
// CHECK: %[[EXTENT_M:.*]] = arith.ceildivui %{{.*}}, %c16 : index
// CHECK: %[[M:.*]] = arith.remui %[[T]], %[[EXTENT_M]] : index
// CHECK: %[[N:.*]] = arith.divui %[[T]], %[[EXTENT_M]] : index
// CHECK-NOT: gpu.block_id
// CHECK: gpu.barrier
// CHECK-NEXT: } {loop_annotation = #[[ANNOTATION]]}
// CHECK-NEXT: gpu.return
// PTXAS: remark: ptxas sm_90a: kernel 'scale' uses {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
tile.kernel @scale(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4} attributes {tile.persistent} {
  %Xv = tile.partition %X tile [16, 256] pad(zero) : memref<?x?xf32> -> !tile.part<16x256xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 256] : memref<?x?xf32> -> !tile.part<16x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x256xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x256xf32, pad = zero> -> tensor<16x256xf32>
  %two = arith.constant dense<2.0> : tensor<16x256xf32>
  %y = arith.mulf %x, %two : tensor<16x256xf32>
  tile.store %y, %Yv[%m, %n] : tensor<16x256xf32>, !tile.part<16x256xf32>
  tile.return
}
