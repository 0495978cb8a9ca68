// tile.gather: the round trip, and every verifier message.
// RUN: kbench-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tile.kernel @round_trip
// CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] dim 0 by %{{.*}} : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
// CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] dim 1 by %{{.*}} : !tile.part<8x1xf32, pad = neg_inf>, tensor<8x3xi64> -> tensor<8x3xf32>
tile.kernel @round_trip(%W: memref<?x?xf32> {tile.dims = ["V", "D"]},
                        %I: memref<?xi32> {tile.dims = ["T"]},
                        %Y: memref<?x?xf32> {tile.dims = ["T", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %Wc = tile.partition %W tile [8, 1] pad(neg_inf) : memref<?x?xf32> -> !tile.part<8x1xf32, pad = neg_inf>
  %Iv = tile.partition %I tile [4] pad(zero) : memref<?xi32> -> !tile.part<4xi32, pad = zero>
  %Yv = tile.partition %Y tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %t, %j = tile.grid %Yv : !tile.part<4x64xf32>
  %ids = tile.load %Iv[%t] : !tile.part<4xi32, pad = zero> -> tensor<4xi32>
  %rows = tile.broadcast %ids dims [1] : tensor<4xi32> -> tensor<4x64xi32>
  %e = tile.gather %Wv[%c0, %j] dim 0 by %rows : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
  %cols = arith.constant dense<2> : tensor<8x3xi64>
  %c = tile.gather %Wc[%t, %c0] dim 1 by %cols : !tile.part<8x1xf32, pad = neg_inf>, tensor<8x3xi64> -> tensor<8x3xf32>
  tile.store %e, %Yv[%t, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}

// -----

tile.kernel @coordinates(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %i = arith.constant dense<0> : tensor<4x64xi32>
  // expected-error @+1 {{'tile.gather' op takes 1 tile coordinates but the partition has rank 2}}
  %e = tile.gather %Wv[%c0] dim 0 by %i : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
  tile.return
}

// -----

tile.kernel @dim_range(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %i = arith.constant dense<0> : tensor<4x64xi32>
  // expected-error @+1 {{'tile.gather' op dim 2 is out of range for the rank-2 partition}}
  %e = tile.gather %Wv[%c0, %c0] dim 2 by %i : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
  tile.return
}

// -----

tile.kernel @tile_size(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [4, 64] pad(zero) : memref<?x?xf32> -> !tile.part<4x64xf32, pad = zero>
  %i = arith.constant dense<0> : tensor<4x64xi32>
  // expected-error @+1 {{'tile.gather' op gathers along dim 0, whose tile size is 4; partition that dim with tile size 1}}
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %i : !tile.part<4x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf32>
  tile.return
}

// -----

tile.kernel @pad_none(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] : memref<?x?xf32> -> !tile.part<1x64xf32>
  %i = arith.constant dense<0> : tensor<4x64xi32>
  // expected-error @+1 {{'tile.gather' op gathers from a pad(none) partition; out-of-range indices read the pad, so give the partition one (zero, neg_inf, pos_inf or nan)}}
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %i : !tile.part<1x64xf32>, tensor<4x64xi32> -> tensor<4x64xf32>
  tile.return
}

// -----

tile.kernel @result_shape(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %i = arith.constant dense<0> : tensor<4x32xi32>
  // expected-error @+1 {{'tile.gather' op result shape 4x32 differs from the partition's tile shape 1x64 along dim 1; only the gathered dim 0 may differ}}
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %i : !tile.part<1x64xf32, pad = zero>, tensor<4x32xi32> -> tensor<4x32xf32>
  tile.return
}

// -----

tile.kernel @result_rank(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %i = arith.constant dense<0> : tensor<64xi32>
  // expected-error @+1 {{'tile.gather' op result has rank 1 but the partition has rank 2}}
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %i : !tile.part<1x64xf32, pad = zero>, tensor<64xi32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @result_element(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %i = arith.constant dense<0> : tensor<4x64xi32>
  // expected-error @+1 {{'tile.gather' op result element type 'f16' does not match the partition's element type 'f32'}}
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %i : !tile.part<1x64xf32, pad = zero>, tensor<4x64xi32> -> tensor<4x64xf16>
  tile.return
}

// -----

tile.kernel @index_shape(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %i = arith.constant dense<0> : tensor<2x64xi32>
  // expected-error @+1 {{'tile.gather' op index tile shape 2x64 does not match the result shape 4x64}}
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %i : !tile.part<1x64xf32, pad = zero>, tensor<2x64xi32> -> tensor<4x64xf32>
  tile.return
}

// -----

tile.kernel @index_element(%W: memref<?x?xf32> {tile.dims = ["V", "D"]}) {
  %c0 = arith.constant 0 : index
  %Wv = tile.partition %W tile [1, 64] pad(zero) : memref<?x?xf32> -> !tile.part<1x64xf32, pad = zero>
  %i = arith.constant dense<0.0> : tensor<4x64xf32>
  // expected-error @+1 {{'tile.gather' op index tile elements are 'f32'; use signless integers (i32 or i64)}}
  %e = tile.gather %Wv[%c0, %c0] dim 0 by %i : !tile.part<1x64xf32, pad = zero>, tensor<4x64xf32> -> tensor<4x64xf32>
  tile.return
}
