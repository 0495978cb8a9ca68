// RUN: kbench-opt %s --transform-interpreter --split-input-file | FileCheck %s

// transform.tile.single_pass versions a two-pass row kernel on "the row is
// one tile": the then branch runs both passes once at j = 0 and loads the
// tile once; the else branch keeps the loops.

// CHECK-LABEL: tile.kernel @softmax
// CHECK:       %[[NT:.*]] = tile.num_tiles %[[XV:.*]][1]
// CHECK:       %[[N:.*]] = tile.extent %[[XV]][1]
// CHECK:       %[[BN:.*]] = tile.tile_size %[[XV]][1]
// CHECK:       %[[FITS:.*]] = arith.cmpi ule, %[[N]], %[[BN]] : index
// CHECK:       scf.if %[[FITS]] {
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[X:.*]] = tile.load %[[XV]][%{{.*}}, %[[Z]]]
// CHECK-NOT:     tile.load
// CHECK-NOT:     scf.for
// CHECK:         tile.reduce max %[[X]]
// CHECK:         tile.reduce add
// CHECK:         arith.subf %[[X]]
// CHECK:         tile.store {{.*}}[%{{.*}}, %[[Z]]]
// CHECK-NEXT:  } else {
// CHECK:         scf.for {{.*}} to %[[NT]]
// CHECK:           tile.load
// CHECK:         scf.for {{.*}} to %[[NT]]
// CHECK:           tile.load
// CHECK:           tile.store
// CHECK:       } {tile.single_pass}
// CHECK-NEXT:  }
module attributes {transform.with_named_sequence} {
  tile.kernel @softmax(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                       %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(neg_inf) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = neg_inf>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = neg_inf>
    %ninf = arith.constant dense<0xFF800000> : tensor<2xf32>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %m, %l = scf.for %j = %c0 to %nt step %c1 iter_args(%mi = %ninf, %li = %zero)
        -> (tensor<2xf32>, tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = neg_inf> -> tensor<2x256xf32>
      %tmax = tile.reduce max %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %mn = arith.maximumf %mi, %tmax : tensor<2xf32>
      %mb = tile.broadcast %mn dims [1] : tensor<2xf32> -> tensor<2x256xf32>
      %d = arith.subf %x, %mb : tensor<2x256xf32>
      %e = math.exp %d : tensor<2x256xf32>
      %ts = tile.reduce add %e dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %shift = arith.subf %mi, %mn : tensor<2xf32>
      %scale = math.exp %shift : tensor<2xf32>
      %ls = arith.mulf %li, %scale : tensor<2xf32>
      %ln = arith.addf %ls, %ts : tensor<2xf32>
      scf.yield %mn, %ln : tensor<2xf32>, tensor<2xf32>
    }
    %mb = tile.broadcast %m dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    %lb = tile.broadcast %l dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = neg_inf> -> tensor<2x256xf32>
      %d = arith.subf %x, %mb : tensor<2x256xf32>
      %e = math.exp %d : tensor<2x256xf32>
      %y = arith.divf %e, %lb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A param value works like an integer; 0 leaves the kernel as it is, so a
// space can flip the rewrite with transform.tune.knob options = [0, 1]. A
// later set_params retiles both branches (and rechecks the held tiles).

// CHECK-LABEL: tile.kernel @off
// CHECK:       scf.for
// CHECK-NOT:   scf.if
// CHECK-LABEL: tile.kernel @on
// CHECK-SAME:  params {BN = 512, BR = 4, num_warps = 4}
// CHECK:       scf.if
// CHECK:         tile.load {{.*}} -> tensor<4x512xf32>
// CHECK:         tile.reduce add {{.*}} : tensor<4x512xf32> -> tensor<4xf32>
// CHECK:       } else {
// CHECK:         scf.for
// CHECK:           tile.load {{.*}} -> tensor<4x512xf32>
// CHECK:       } {tile.single_pass}
module attributes {transform.with_named_sequence} {
  tile.kernel @off(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                   %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  tile.kernel @on(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
      params {BR = 2, BN = 256, num_warps = 4} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> !tile.part<2x256xf32, pad = zero>
    %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> !tile.part<2x256xf32>
    %r = tile.grid %Yv dims [0] : !tile.part<2x256xf32>
    %nt = tile.num_tiles %Xv[1] : !tile.part<2x256xf32, pad = zero>
    %zero = arith.constant dense<0.0> : tensor<2xf32>
    %s = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<2xf32>) {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %t = tile.reduce add %x dim 1 : tensor<2x256xf32> -> tensor<2xf32>
      %n = arith.addf %a, %t : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    %sb = tile.broadcast %s dims [1] : tensor<2xf32> -> tensor<2x256xf32>
    scf.for %j = %c0 to %nt step %c1 {
      %x = tile.load %Xv[%r, %j] : !tile.part<2x256xf32, pad = zero> -> tensor<2x256xf32>
      %y = arith.subf %x, %sb : tensor<2x256xf32>
      tile.store %y, %Yv[%r, %j] : tensor<2x256xf32>, !tile.part<2x256xf32>
    }
    tile.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %off = transform.structured.match ops{["tile.kernel"]} attributes{sym_name = "off"} in %root : (!transform.any_op) -> !transform.any_op
    %on = transform.structured.match ops{["tile.kernel"]} attributes{sym_name = "on"} in %root : (!transform.any_op) -> !transform.any_op
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.tile.single_pass %off %zero : !transform.any_op
    transform.tile.single_pass %on %one : !transform.any_op
    transform.tile.set_params %on {BR = 4, BN = 512} : !transform.any_op
    transform.yield
  }
}
