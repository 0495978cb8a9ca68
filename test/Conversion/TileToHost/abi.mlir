// RUN: kbench-opt %s --split-input-file --tile-to-host | FileCheck %s

// The C entry point of docs/bundle.md. params[i] points at argument i in
// getKernelABI order: memrefs and scalars as declared (X, scale, count, flag,
// Y), then one int64 per dim in order of first appearance (M, N). Memrefs are
// dense row-major over their named dims. The grid runs z outermost, x
// innermost, and tile.grid result i is the block id along axis i: here the
// grid spans only dim 1 of %Yv, so result 0 (the x block id) is the column
// tile coordinate.

tile.kernel @abi(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}, %scale: f32,
                 %count: index, %flag: i1,
                 %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 8] pad(zero) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [4, 8] : memref<?x?xf32> -> !tile.part<4x8xf32>
  %col = tile.grid %Yv dims [1] : !tile.part<4x8xf32>
  %x = tile.load %Xv[%count, %col] : !tile.part<4x8xf32, pad = zero> -> tensor<4x8xf32>
  %s = tile.splat %scale : f32 -> tensor<4x8xf32>
  %y = scf.if %flag -> (tensor<4x8xf32>) {
    %p = arith.mulf %x, %s : tensor<4x8xf32>
    scf.yield %p : tensor<4x8xf32>
  } else {
    scf.yield %x : tensor<4x8xf32>
  }
  tile.store %y, %Yv[%count, %col] : tensor<4x8xf32>, !tile.part<4x8xf32>
  tile.return
}

// Host-level code is not part of kernel.so: the runner reads the launch
// sequence from the manifest.
func.func @main(%x: memref<?x?xf32>, %s: f32, %c: index, %f: i1,
                %y: memref<?x?xf32>) {
  tile.launch @abi(%x, %s, %c, %f, %y)
      : (memref<?x?xf32>, f32, index, i1, memref<?x?xf32>) -> ()
  return
}

// CHECK-NOT: func.func @main
// CHECK-LABEL: func.func @abi(
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[GX:[a-z0-9]+]]: i64, %[[GY:[a-z0-9]+]]: i64, %[[GZ:[a-z0-9]+]]: i64)
// X: a pointer to the data pointer.
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[P]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[XDATA:.*]] = llvm.load %[[A0]] : !llvm.ptr -> !llvm.ptr
// scale: a pointer to a float.
// CHECK: %[[S1:.*]] = llvm.getelementptr %[[P]][1]
// CHECK: %[[A1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[SCALE:.*]] = llvm.load %[[A1]] : !llvm.ptr -> f32
// count: index travels as int64.
// CHECK: %[[S2:.*]] = llvm.getelementptr %[[P]][2]
// CHECK: %[[A2:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[COUNT64:.*]] = llvm.load %[[A2]] : !llvm.ptr -> i64
// CHECK: %[[COUNT:.*]] = arith.index_cast %[[COUNT64]] : i64 to index
// flag: i1 travels as one byte.
// CHECK: %[[S3:.*]] = llvm.getelementptr %[[P]][3]
// CHECK: %[[A3:.*]] = llvm.load %[[S3]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[BYTE:.*]] = llvm.load %[[A3]] : !llvm.ptr -> i8
// CHECK: %[[FLAG:.*]] = arith.cmpi ne, %[[BYTE]], %{{.*}} : i8
// Y, then the dims M and N.
// CHECK: llvm.getelementptr %[[P]][4]
// CHECK: %[[S5:.*]] = llvm.getelementptr %[[P]][5]
// CHECK: %[[A5:.*]] = llvm.load %[[S5]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[M:.*]] = llvm.load %[[A5]] : !llvm.ptr -> i64
// CHECK: %[[S6:.*]] = llvm.getelementptr %[[P]][6]
// CHECK: %[[A6:.*]] = llvm.load %[[S6]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[N:.*]] = llvm.load %[[A6]] : !llvm.ptr -> i64
// X's descriptor: sizes (M, N), strides (N, 1), offset 0.
// CHECK: %[[D0:.*]] = llvm.insertvalue %[[XDATA]], %{{.*}}[0]
// CHECK: %[[D1:.*]] = llvm.insertvalue %[[XDATA]], %[[D0]][1]
// CHECK: %[[D2:.*]] = llvm.insertvalue %{{.*}}, %[[D1]][2]
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[D3:.*]] = llvm.insertvalue %[[N]], %[[D2]][3, 1]
// CHECK: %[[D4:.*]] = llvm.insertvalue %[[ONE]], %[[D3]][4, 1]
// CHECK: %[[STRIDE0:.*]] = llvm.mul %[[ONE]], %[[N]] : i64
// CHECK: %[[D5:.*]] = llvm.insertvalue %[[M]], %[[D4]][3, 0]
// CHECK: %[[D6:.*]] = llvm.insertvalue %[[STRIDE0]], %[[D5]][4, 0]
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %[[D6]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf32>
// CHECK: %[[Y:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x?xf32>
// The grid.
// CHECK: %[[EX:.*]] = arith.index_cast %[[GX]] : i64 to index
// CHECK: %[[EY:.*]] = arith.index_cast %[[GY]] : i64 to index
// CHECK: %[[EZ:.*]] = arith.index_cast %[[GZ]] : i64 to index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[EZ]] step
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[EY]] step
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to %[[EX]] step
// The load's row coordinate is the scalar, its column the x block id.
// CHECK: memref.dim %[[X]], %{{.*}}
// CHECK: arith.muli %[[COUNT]], %{{.*}} : index
// CHECK: memref.dim %[[X]], %{{.*}}
// CHECK: arith.muli %[[BX]], %{{.*}} : index
// CHECK: linalg.fill ins(%[[SCALE]] : f32)
// CHECK: scf.if %[[FLAG]] -> (tensor<4x8xf32>)
// CHECK: memref.subview %[[Y]]
// CHECK: return
// CHECK-NOT: tile.
// CHECK-NOT: func.func

// -----

// A static extent is built into the descriptor as a constant; its dim param
// (R, params[1]) is still passed in ABI order.

tile.kernel @static_extent(%X: memref<16x?xf32> {tile.dims = ["R", "N"]}) {
  %Xv = tile.partition %X tile [16, 8] : memref<16x?xf32> -> !tile.part<16x8xf32>
  %i, %j = tile.grid %Xv : !tile.part<16x8xf32>
  tile.return
}

// CHECK-LABEL: func.func @static_extent(
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr
// CHECK: llvm.getelementptr %[[P]][1]
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: llvm.getelementptr %[[P]][2]
// CHECK: %[[N:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.insertvalue %[[N]], %{{.*}}[3, 1]
// CHECK: llvm.insertvalue %[[ONE]], %{{.*}}[4, 1]
// CHECK: %[[S0:.*]] = llvm.mul %[[ONE]], %[[N]] : i64
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: llvm.insertvalue %[[SIXTEEN]], %{{.*}}[3, 0]
// CHECK: llvm.insertvalue %[[S0]], %{{.*}}[4, 0]
// CHECK: builtin.unrealized_conversion_cast %{{.*}} to memref<16x?xf32>
