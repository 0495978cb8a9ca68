// RUN: kbench-opt %s --split-input-file --tile-to-host | FileCheck %s

// tile.broadcast is linalg.broadcast: `dims` lists the new result dims.

tile.kernel @broadcast(%X: memref<?xf32> {tile.dims = ["N"]},
                       %Y: memref<?x?x?xf32> {tile.dims = ["A", "N", "B"]}) {
  %Xv = tile.partition %X tile [8] pad(zero) : memref<?xf32> -> !tile.part<8xf32, pad = zero>
  %Yv = tile.partition %Y tile [2, 8, 4] : memref<?x?x?xf32> -> !tile.part<2x8x4xf32>
  %a, %n, %b = tile.grid %Yv : !tile.part<2x8x4xf32>
  %x = tile.load %Xv[%n] : !tile.part<8xf32, pad = zero> -> tensor<8xf32>
  %y = tile.broadcast %x dims [2, 0] : tensor<8xf32> -> tensor<2x8x4xf32>
  tile.store %y, %Yv[%a, %n, %b] : tensor<2x8x4xf32>, !tile.part<2x8x4xf32>
  tile.return
}

// CHECK-LABEL: func.func @broadcast(
// CHECK: %[[X:.*]] = bufferization.to_tensor %{{.*}} : memref<8xf32> to tensor<8xf32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x8x4xf32>
// CHECK: %[[Y:.*]] = linalg.broadcast ins(%[[X]] : tensor<8xf32>) outs(%[[INIT]] : tensor<2x8x4xf32>) dimensions = [0, 2]
// CHECK: bufferization.to_buffer %[[Y]]

// -----

// tile.reduce is linalg.reduce from the kind's identity, combining
// acc = acc <op> element in order along the dim. add starts from -0.0 (the
// exact identity), max/min from -inf/+inf and propagate NaN; integers
// compare signed.

tile.kernel @reduce(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %I: memref<?x?xi32> {tile.dims = ["M", "N"]},
                    %Y: memref<?xf32> {tile.dims = ["M"]},
                    %J: memref<?xi32> {tile.dims = ["M"]}) {
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Iv = tile.partition %I tile [4, 16] pad(zero) : memref<?x?xi32> -> !tile.part<4x16xi32, pad = zero>
  %Yv = tile.partition %Y tile [4] : memref<?xf32> -> !tile.part<4xf32>
  %Jv = tile.partition %J tile [4] : memref<?xi32> -> !tile.part<4xi32>
  %i = tile.grid %Yv : !tile.part<4xf32>
  %c0 = arith.constant 0 : index
  %x = tile.load %Xv[%i, %c0] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
  %sum = tile.reduce add %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  %max = tile.reduce max %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  %min = tile.reduce min %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  %mul = tile.reduce mul %x dim 1 : tensor<4x16xf32> -> tensor<4xf32>
  %s0 = arith.addf %sum, %max : tensor<4xf32>
  %s1 = arith.addf %s0, %min : tensor<4xf32>
  %s2 = arith.addf %s1, %mul : tensor<4xf32>
  tile.store %s2, %Yv[%i] : tensor<4xf32>, !tile.part<4xf32>
  %n = tile.load %Iv[%i, %c0] : !tile.part<4x16xi32, pad = zero> -> tensor<4x16xi32>
  %isum = tile.reduce add %n dim 1 : tensor<4x16xi32> -> tensor<4xi32>
  %imax = tile.reduce max %n dim 1 : tensor<4x16xi32> -> tensor<4xi32>
  %imin = tile.reduce min %n dim 1 : tensor<4x16xi32> -> tensor<4xi32>
  %imul = tile.reduce mul %n dim 1 : tensor<4x16xi32> -> tensor<4xi32>
  %t0 = arith.addi %isum, %imax : tensor<4xi32>
  %t1 = arith.addi %t0, %imin : tensor<4xi32>
  %t2 = arith.addi %t1, %imul : tensor<4xi32>
  tile.store %t2, %Jv[%i] : tensor<4xi32>, !tile.part<4xi32>
  tile.return
}

// CHECK-LABEL: func.func @reduce(
// CHECK: %[[X:.*]] = bufferization.to_tensor %{{.*}} : memref<4x16xf32> to tensor<4x16xf32>
// CHECK: %[[ADD0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[I0:.*]] = linalg.fill ins(%[[ADD0]] : f32) outs(%[[E0]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.reduce { arith.addf } ins(%[[X]] : tensor<4x16xf32>) outs(%[[I0]] : tensor<4xf32>) dimensions = [1]
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.reduce { arith.maximumf }
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: linalg.reduce { arith.minimumf }
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: linalg.reduce { arith.mulf }
// CHECK: arith.constant 0 : i32
// CHECK: linalg.reduce { arith.addi
// CHECK: arith.constant -2147483648 : i32
// CHECK: linalg.reduce { arith.maxsi }
// CHECK: arith.constant 2147483647 : i32
// CHECK: linalg.reduce { arith.minsi }
// CHECK: arith.constant 1 : i32
// CHECK: linalg.reduce { arith.muli

// -----

// tile.mma is acc + a * b as a linalg.generic over (m, n, k); operands are
// extended to the accumulator type first, so the sum is carried in it.

tile.kernel @mma(%A: memref<?x?xf16> {tile.dims = ["M", "K"]},
                 %B: memref<?x?xf16> {tile.dims = ["K", "N"]},
                 %C: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Av = tile.partition %A tile [16, 8] pad(zero) : memref<?x?xf16> -> !tile.part<16x8xf16, pad = zero>
  %Bv = tile.partition %B tile [8, 32] pad(zero) : memref<?x?xf16> -> !tile.part<8x32xf16, pad = zero>
  %Cv = tile.partition %C tile [16, 32] : memref<?x?xf32> -> !tile.part<16x32xf32>
  %m, %n = tile.grid %Cv : !tile.part<16x32xf32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%m, %c0] : !tile.part<16x8xf16, pad = zero> -> tensor<16x8xf16>
  %b = tile.load %Bv[%c0, %n] : !tile.part<8x32xf16, pad = zero> -> tensor<8x32xf16>
  %acc = arith.constant dense<0.0> : tensor<16x32xf32>
  %r = tile.mma %a, %b, %acc : tensor<16x8xf16>, tensor<8x32xf16> -> tensor<16x32xf32>
  tile.store %r, %Cv[%m, %n] : tensor<16x32xf32>, !tile.part<16x32xf32>
  tile.return
}

// CHECK-DAG: #[[$MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @mma(
// CHECK: %[[A:.*]] = bufferization.to_tensor %{{.*}} : memref<16x8xf16> to tensor<16x8xf16>
// CHECK: %[[B:.*]] = bufferization.to_tensor %{{.*}} : memref<8x32xf16> to tensor<8x32xf16>
// CHECK: linalg.generic {indexing_maps = [#[[$MK]], #[[$KN]], #[[$MN]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<16x8xf16>, tensor<8x32xf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK-NEXT: ^bb0(%[[IA:.*]]: f16, %[[IB:.*]]: f16, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[EA:.*]] = arith.extf %[[IA]] : f16 to f32
// CHECK-NEXT: %[[EB:.*]] = arith.extf %[[IB]] : f16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[EA]], %[[EB]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[OUT]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32

// -----

// transpose_a reads a as KxM, transpose_b reads b as NxK; i8 operands are
// sign-extended into an i32 accumulator. The host ignores impl: every
// implementation means the same acc + a * b.

tile.kernel @mma_transposed(%A: memref<?x?xi8> {tile.dims = ["K", "M"]},
                            %B: memref<?x?xi8> {tile.dims = ["N", "K"]},
                            %C: memref<?x?xi32> {tile.dims = ["M", "N"]}) {
  %Av = tile.partition %A tile [32, 16] pad(zero) : memref<?x?xi8> -> !tile.part<32x16xi8, pad = zero>
  %Bv = tile.partition %B tile [8, 32] pad(zero) : memref<?x?xi8> -> !tile.part<8x32xi8, pad = zero>
  %Cv = tile.partition %C tile [16, 8] : memref<?x?xi32> -> !tile.part<16x8xi32>
  %m, %n = tile.grid %Cv : !tile.part<16x8xi32>
  %c0 = arith.constant 0 : index
  %a = tile.load %Av[%c0, %m] : !tile.part<32x16xi8, pad = zero> -> tensor<32x16xi8>
  %b = tile.load %Bv[%n, %c0] : !tile.part<8x32xi8, pad = zero> -> tensor<8x32xi8>
  %acc = arith.constant dense<0> : tensor<16x8xi32>
  %r = tile.mma %a, %b, %acc {transpose_a, transpose_b, impl = 1 : i32} : tensor<32x16xi8>, tensor<8x32xi8> -> tensor<16x8xi32>
  tile.store %r, %Cv[%m, %n] : tensor<16x8xi32>, !tile.part<16x8xi32>
  tile.return
}

// CHECK-DAG: #[[$KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[$NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @mma_transposed(
// CHECK: linalg.generic {indexing_maps = [#[[$KM]], #[[$NK]], #[[$MN]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT: ^bb0(%[[IA:.*]]: i8, %[[IB:.*]]: i8, %[[OUT:.*]]: i32):
// CHECK-NEXT: %[[EA:.*]] = arith.extsi %[[IA]] : i8 to i32
// CHECK-NEXT: %[[EB:.*]] = arith.extsi %[[IB]] : i8 to i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[EA]], %[[EB]] : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[OUT]], %[[P]] : i32

// -----

// tile.transpose is linalg.transpose (result dim i is input dim perm[i]);
// tile.expand_dims a tensor.expand_shape that groups the unit dim with its
// neighbour.

tile.kernel @shapes(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                    %Y: memref<?x?xf32> {tile.dims = ["N", "M"]},
                    %Z: memref<?x?x?xf32> {tile.dims = ["M", "U", "N"]},
                    %W: memref<?x?x?xf32> {tile.dims = ["M", "N", "U"]},
                    %V: memref<?xf32> {tile.dims = ["U"]}) {
  %Xv = tile.partition %X tile [4, 8] pad(zero) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [8, 4] : memref<?x?xf32> -> !tile.part<8x4xf32>
  %Zv = tile.partition %Z tile [4, 1, 8] : memref<?x?x?xf32> -> !tile.part<4x1x8xf32>
  %Wv = tile.partition %W tile [4, 8, 1] : memref<?x?x?xf32> -> !tile.part<4x8x1xf32>
  %Vv = tile.partition %V tile [1] : memref<?xf32> -> !tile.part<1xf32>
  %i, %j = tile.grid %Xv : !tile.part<4x8xf32, pad = zero>
  %c0 = arith.constant 0 : index
  %x = tile.load %Xv[%i, %j] : !tile.part<4x8xf32, pad = zero> -> tensor<4x8xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  tile.store %t, %Yv[%j, %i] : tensor<8x4xf32>, !tile.part<8x4xf32>
  %z = tile.expand_dims %x dim 1 : tensor<4x8xf32> -> tensor<4x1x8xf32>
  tile.store %z, %Zv[%i, %c0, %j] : tensor<4x1x8xf32>, !tile.part<4x1x8xf32>
  %w = tile.expand_dims %x dim 2 : tensor<4x8xf32> -> tensor<4x8x1xf32>
  tile.store %w, %Wv[%i, %j, %c0] : tensor<4x8x1xf32>, !tile.part<4x8x1xf32>
  %r = tile.reduce add %t dim 0 : tensor<8x4xf32> -> tensor<4xf32>
  %s = tile.reduce add %r dim 0 : tensor<4xf32> -> tensor<f32>
  %v = tile.expand_dims %s dim 0 : tensor<f32> -> tensor<1xf32>
  tile.atomic_add %v, %Vv[%c0] : tensor<1xf32>, !tile.part<1xf32>
  tile.return
}

// CHECK-LABEL: func.func @shapes(
// CHECK: %[[X:.*]] = bufferization.to_tensor %{{.*}} : memref<4x8xf32> to tensor<4x8xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<4x8xf32>) outs(%[[E]] : tensor<8x4xf32>) permutation = [1, 0]
// CHECK: tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [4, 1, 8] : tensor<4x8xf32> into tensor<4x1x8xf32>
// CHECK: tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [4, 8, 1] : tensor<4x8xf32> into tensor<4x8x1xf32>
// CHECK: %[[S:.*]] = linalg.reduce { arith.addf } ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0]
// CHECK: tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>

// -----

// tile.squeeze is a tensor.collapse_shape that groups the unit dim with its
// neighbour (the inverse of expand_dims).

tile.kernel @squeeze(%X: memref<?x?x?xf32> {tile.dims = ["H", "M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %Xv = tile.partition %X tile [1, 4, 8] : memref<?x?x?xf32> -> !tile.part<1x4x8xf32>
  %Yv = tile.partition %Y tile [4, 8] : memref<?x?xf32> -> !tile.part<4x8xf32>
  %i, %j = tile.grid %Yv : !tile.part<4x8xf32>
  %x = tile.load %Xv[%c0, %i, %j] : !tile.part<1x4x8xf32> -> tensor<1x4x8xf32>
  %s = tile.squeeze %x dim 0 : tensor<1x4x8xf32> -> tensor<4x8xf32>
  tile.store %s, %Yv[%i, %j] : tensor<4x8xf32>, !tile.part<4x8xf32>
  tile.return
}

// CHECK-LABEL: func.func @squeeze(
// CHECK: %[[X:.*]] = bufferization.to_tensor %{{.*}} : memref<1x4x8xf32> to tensor<1x4x8xf32>
// CHECK: tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>

// -----

// tile.iota holds the index along its dim; tile.splat is linalg.fill.

tile.kernel @iota_splat(%Y: memref<?x?xi32> {tile.dims = ["M", "N"]},
                        %I: memref<?xi64> {tile.dims = ["M"]}, %s: i32) {
  %Yv = tile.partition %Y tile [4, 8] : memref<?x?xi32> -> !tile.part<4x8xi32>
  %Iv = tile.partition %I tile [4] : memref<?xi64> -> !tile.part<4xi64>
  %i, %j = tile.grid %Yv : !tile.part<4x8xi32>
  %cols = tile.iota dim 1 : tensor<4x8xi32>
  %fill = tile.splat %s : i32 -> tensor<4x8xi32>
  %y = arith.addi %cols, %fill : tensor<4x8xi32>
  tile.store %y, %Yv[%i, %j] : tensor<4x8xi32>, !tile.part<4x8xi32>
  %rows = tile.iota dim 0 : tensor<4xindex>
  %r = arith.index_cast %rows : tensor<4xindex> to tensor<4xi64>
  tile.store %r, %Iv[%i] : tensor<4xi64>, !tile.part<4xi64>
  tile.return
}

// CHECK-LABEL: func.func @iota_splat(
// CHECK: %[[S:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xi32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<4x8xi32>)
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK-NEXT: %[[IDX:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[V:.*]] = arith.index_cast %[[IDX]] : index to i32
// CHECK-NEXT: linalg.yield %[[V]] : i32
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4x8xi32>
// CHECK: linalg.fill ins(%[[S]] : i32) outs(%[[E2]] : tensor<4x8xi32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4xindex>)
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT: linalg.yield %[[ROW]] : index

// -----

// tile.scan is a loop nest over a linalg.copy of the input (the input keeps
// its other readers), the scanned dim innermost and from 1: element j
// becomes combine(element j - 1, element j), in order. Scalar extracts and
// inserts on the carried tensor bufferize in place.

tile.kernel @scan(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                  %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 16] pad(zero) : memref<?x?xf32> -> !tile.part<4x16xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 16] : memref<?x?xf32> -> !tile.part<4x16xf32>
  %i, %j = tile.grid %Yv : !tile.part<4x16xf32>
  %x = tile.load %Xv[%i, %j] : !tile.part<4x16xf32, pad = zero> -> tensor<4x16xf32>
  %s = tile.scan max %x dim 0 : tensor<4x16xf32>
  %y = arith.addf %s, %x : tensor<4x16xf32>
  tile.store %y, %Yv[%i, %j] : tensor<4x16xf32>, !tile.part<4x16xf32>
  tile.return
}

// CHECK-LABEL: func.func @scan(
// CHECK: %[[X:.*]] = bufferization.to_tensor
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[X]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[OUTER:.*]] = scf.for %[[N:.*]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[A:.*]] = %[[COPY]])
// CHECK:   %[[C4:.*]] = arith.constant 4 : index
// CHECK:   %[[INNER:.*]] = scf.for %[[M:.*]] = %[[C1]] to %[[C4]] step %[[C1]] iter_args(%[[B:.*]] = %[[A]])
// CHECK:     %[[PREV:.*]] = arith.subi %[[M]], %[[C1]] : index
// CHECK:     %[[P:.*]] = tensor.extract %[[B]][%[[PREV]], %[[N]]] : tensor<4x16xf32>
// CHECK:     %[[Q:.*]] = tensor.extract %[[B]][%[[M]], %[[N]]] : tensor<4x16xf32>
// CHECK:     %[[R:.*]] = arith.maximumf %[[P]], %[[Q]] : f32
// CHECK:     %[[NEXT:.*]] = tensor.insert %[[R]] into %[[B]][%[[M]], %[[N]]] : tensor<4x16xf32>
// CHECK:     scf.yield %[[NEXT]] : tensor<4x16xf32>
// CHECK:   scf.yield %[[INNER]] : tensor<4x16xf32>
// CHECK: arith.addf %[[OUTER]], %[[X]] : tensor<4x16xf32>
