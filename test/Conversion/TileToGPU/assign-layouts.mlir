// RUN: kbench-opt %s --split-input-file --tile-assign-layouts | FileCheck %s
// A second run leaves annotated kernels alone (no new conversions).
// RUN: kbench-opt %s --split-input-file --tile-assign-layouts --tile-assign-layouts | FileCheck %s
// tile-to-gpu lowers the explicit conversion through shared memory.
// RUN: kbench-opt %s --split-input-file --tile-assign-layouts --tile-to-gpu | FileCheck %s --check-prefix=GPU

// Default blocked layout: vector_width 4 along N, 32 lanes along N, warps
// along rows; the bias row takes the tile's layout minus the row dim (the 4
// warps hold replicas), and the splat constant joins the elementwise class.
// CHECK: #[[TILE:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 4], lanes = [1, 32], lane_strides = [32, 1], warps = [4, 1], warp_strides = [1, 4], num_warps = 4>
// CHECK: #[[ROW:blocked[0-9]*]] = #tile.blocked<per_thread = [4], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [4], num_warps = 4>
// CHECK-LABEL: tile.kernel @blocked
// CHECK: tile.load {{.*}} -> tensor<4x256xf32, #[[TILE]]>
// CHECK: tile.load {{.*}} -> tensor<256xf32, #[[ROW]]>
// CHECK: tile.broadcast {{.*}} : tensor<256xf32, #[[ROW]]> -> tensor<4x256xf32, #[[TILE]]>
// CHECK: arith.constant dense<2.000000e+00> : tensor<4x256xf32, #[[TILE]]>
// CHECK: arith.mulf {{.*}} : tensor<4x256xf32, #[[TILE]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store
tile.kernel @blocked(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %B: memref<?xf32> {tile.dims = ["N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4, vector_width = 4} {
  %Xv = tile.partition %X tile [4, 256] pad(zero) : memref<?x?xf32> -> !tile.part<4x256xf32, pad = zero>
  %Bv = tile.partition %B tile [256] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 256] : memref<?x?xf32> -> !tile.part<4x256xf32>
  %m, %n = tile.grid %Yv : !tile.part<4x256xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<4x256xf32, pad = zero> -> tensor<4x256xf32>
  %b1 = tile.load %Bv[%n] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  %b = tile.broadcast %b1 dims [0] : tensor<256xf32> -> tensor<4x256xf32>
  %two = arith.constant dense<2.0> : tensor<4x256xf32>
  %xb = arith.addf %x, %b : tensor<4x256xf32>
  %y = arith.mulf %xb, %two : tensor<4x256xf32>
  tile.store %y, %Yv[%m, %n] : tensor<4x256xf32>, !tile.part<4x256xf32>
  tile.return
}

// -----

// A column sum on one warp: 8 lanes along N, 4 along M; the result keeps the
// N lanes (the M lanes become replicas) and broadcasts back with no
// conversion.
// CHECK: #[[TILE:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 1], lanes = [4, 8], lane_strides = [8, 1], warps = [1, 1], warp_strides = [1, 1], num_warps = 1>
// CHECK: #[[COLS:blocked[0-9]*]] = #tile.blocked<per_thread = [1], lanes = [8], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>
// CHECK-LABEL: tile.kernel @reduce
// CHECK: tile.reduce add {{.*}} : tensor<16x8xf32, #[[TILE]]> -> tensor<8xf32, #[[COLS]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.broadcast {{.*}} : tensor<8xf32, #[[COLS]]> -> tensor<16x8xf32, #[[TILE]]>
tile.kernel @reduce(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 1} {
  %Xv = tile.partition %X tile [16, 8] pad(zero) : memref<?x?xf32> -> !tile.part<16x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [16, 8] : memref<?x?xf32> -> !tile.part<16x8xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x8xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<16x8xf32, pad = zero> -> tensor<16x8xf32>
  %s = tile.reduce add %x dim 0 : tensor<16x8xf32> -> tensor<8xf32>
  %sb = tile.broadcast %s dims [0] : tensor<8xf32> -> tensor<16x8xf32>
  %y = arith.divf %x, %sb : tensor<16x8xf32>
  tile.store %y, %Yv[%m, %n] : tensor<16x8xf32>, !tile.part<16x8xf32>
  tile.return
}

// -----

// Two reductions of one tile feed one add: the class takes the first
// reduction's layout and the second result is converted right after it
// was produced; its broadcast uses the converted value.
// CHECK: #[[TILE:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 1], lanes = [1, 32], lane_strides = [32, 1], warps = [1, 1], warp_strides = [1, 1], num_warps = 1>
// CHECK: #[[COLS:blocked[0-9]*]] = #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>
// CHECK: #[[ROWS:blocked[0-9]*]] = #tile.blocked<per_thread = [1], lanes = [1], lane_strides = [32], warps = [1], warp_strides = [1], num_warps = 1>
// CHECK-LABEL: tile.kernel @conflict
// CHECK: %[[COL:.*]] = tile.reduce add %{{.*}} dim 0 : tensor<32x32xf32, #[[TILE]]> -> tensor<32xf32, #[[COLS]]>
// CHECK: %[[ROW:.*]] = tile.reduce add %{{.*}} dim 1 : tensor<32x32xf32, #[[TILE]]> -> tensor<32xf32, #[[ROWS]]>
// CHECK: %[[CONV:.*]] = tile.convert_layout %[[ROW]] : tensor<32xf32, #[[ROWS]]> -> tensor<32xf32, #[[COLS]]>
// CHECK: arith.addf %[[COL]], %[[CONV]] : tensor<32xf32, #[[COLS]]>
// CHECK: tile.broadcast %[[CONV]] dims [0]
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store
tile.kernel @conflict(%X: memref<?x?xf32> {tile.dims = ["N", "N"]},
                      %Y: memref<?x?xf32> {tile.dims = ["N", "N"]})
    params {num_warps = 1} {
  %Xv = tile.partition %X tile [32, 32] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [32, 32] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m, %n = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  %cols = tile.reduce add %x dim 0 : tensor<32x32xf32> -> tensor<32xf32>
  %rows = tile.reduce add %x dim 1 : tensor<32x32xf32> -> tensor<32xf32>
  %sum = arith.addf %cols, %rows : tensor<32xf32>
  %b = tile.broadcast %rows dims [0] : tensor<32xf32> -> tensor<32x32xf32>
  %y = arith.addf %x, %b : tensor<32x32xf32>
  tile.store %y, %Yv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}

// -----

// The accumulator of an mma in a K loop: the micro-tile layout on the zero
// init, the iter_arg, the loop result and the store; operands stay blocked.
// CHECK: #[[ACC:blocked[0-9]*]] = #tile.blocked<per_thread = [4, 4], lanes = [4, 8], lane_strides = [8, 1], warps = [4, 1], warp_strides = [1, 4], num_warps = 4>
// CHECK: #[[A:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 4], lanes = [16, 2], lane_strides = [2, 1], warps = [4, 1], warp_strides = [1, 4], num_warps = 4>
// CHECK: #[[B:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 4], lanes = [2, 16], lane_strides = [16, 1], warps = [4, 1], warp_strides = [1, 4], num_warps = 4>
// CHECK-LABEL: tile.kernel @loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[ACC]]>
// CHECK: scf.for {{.*}} iter_args(%[[C:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #[[ACC]]>)
// CHECK: tile.mma %{{.*}}, %{{.*}}, %[[C]] : tensor<64x8xf32, #[[A]]>, tensor<8x64xf32, #[[B]]> -> tensor<64x64xf32, #[[ACC]]>
// CHECK: scf.yield %{{.*}} : tensor<64x64xf32, #[[ACC]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store
tile.kernel @loop(%A: memref<?x?xf32> {tile.dims = ["M", "K"]},
                  %B: memref<?x?xf32> {tile.dims = ["K", "N"]},
                  %C: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {num_warps = 4, vector_width = 4} {
  %Av = tile.partition %A tile [64, 8] pad(zero) : memref<?x?xf32> -> !tile.part<64x8xf32, pad = zero>
  %Bv = tile.partition %B tile [8, 64] pad(zero) : memref<?x?xf32> -> !tile.part<8x64xf32, pad = zero>
  %Cv = tile.partition %C tile [64, 64] : memref<?x?xf32> -> !tile.part<64x64xf32>
  %m, %n = tile.grid %Cv : !tile.part<64x64xf32>
  %kt = tile.num_tiles %Av[1] : !tile.part<64x8xf32, pad = zero>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32>) {
    %a = tile.load %Av[%m, %k] : !tile.part<64x8xf32, pad = zero> -> tensor<64x8xf32>
    %b = tile.load %Bv[%k, %n] : !tile.part<8x64xf32, pad = zero> -> tensor<8x64xf32>
    %d = tile.mma %a, %b, %c : tensor<64x8xf32>, tensor<8x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %acc, %Cv[%m, %n] : tensor<64x64xf32>, !tile.part<64x64xf32>
  tile.return
}

// -----

// A use that disagrees: a row sum (rows on the warp's replicas) broadcast
// along dim 0 needs the tile's column layout, so the conversion goes right
// before the broadcast.
// CHECK: #[[TILE:blocked[0-9]*]] = #tile.blocked<per_thread = [1, 1], lanes = [1, 32], lane_strides = [32, 1], warps = [1, 1], warp_strides = [1, 1], num_warps = 1>
// CHECK: #[[ROWS:blocked[0-9]*]] = #tile.blocked<per_thread = [1], lanes = [1], lane_strides = [32], warps = [1], warp_strides = [1], num_warps = 1>
// CHECK: #[[COLS:blocked[0-9]*]] = #tile.blocked<per_thread = [1], lanes = [32], lane_strides = [1], warps = [1], warp_strides = [1], num_warps = 1>
// CHECK-LABEL: tile.kernel @use_conflict
// CHECK: %[[ROW:.*]] = tile.reduce add %{{.*}} dim 1 : tensor<32x32xf32, #[[TILE]]> -> tensor<32xf32, #[[ROWS]]>
// CHECK-NEXT: %[[CONV:.*]] = tile.convert_layout %[[ROW]] : tensor<32xf32, #[[ROWS]]> -> tensor<32xf32, #[[COLS]]>
// CHECK-NEXT: tile.broadcast %[[CONV]] dims [0] : tensor<32xf32, #[[COLS]]> -> tensor<32x32xf32, #[[TILE]]>

// The conversion: each thread writes its row sums to shared memory, a
// barrier, then each lane reads its column.
// GPU-LABEL: gpu.func @use_conflict
// GPU-SAME: workgroup(
// GPU: gpu.subgroup_reduce
// GPU: memref.store %{{.*}}, %[[BUF:.*]][%{{.*}}] : memref<32xf32, #gpu.address_space<workgroup>>
// GPU: gpu.barrier
// GPU: memref.load %[[BUF]]
tile.kernel @use_conflict(%X: memref<?x?xf32> {tile.dims = ["N", "N"]},
                          %Y: memref<?x?xf32> {tile.dims = ["N", "N"]})
    params {num_warps = 1} {
  %Xv = tile.partition %X tile [32, 32] pad(zero) : memref<?x?xf32> -> !tile.part<32x32xf32, pad = zero>
  %Yv = tile.partition %Y tile [32, 32] : memref<?x?xf32> -> !tile.part<32x32xf32>
  %m, %n = tile.grid %Yv : !tile.part<32x32xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<32x32xf32, pad = zero> -> tensor<32x32xf32>
  %rows = tile.reduce add %x dim 1 : tensor<32x32xf32> -> tensor<32xf32>
  %b = tile.broadcast %rows dims [0] : tensor<32xf32> -> tensor<32x32xf32>
  %y = arith.addf %x, %b : tensor<32x32xf32>
  tile.store %y, %Yv[%m, %n] : tensor<32x32xf32>, !tile.part<32x32xf32>
  tile.return
}
