// RUN: kbench-opt %s --split-input-file --tile-to-host --verify-diagnostics

// Ops outside tile, arith, math, scf and tensor have no host lowering.

tile.kernel @foreign_op(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %i = tile.grid %Xv : !tile.part<8xf32>
  %x = tile.load %Xv[%i] : !tile.part<8xf32> -> tensor<8xf32>
  %cst = arith.constant 0.0 : f32
  // expected-error @+1 {{'vector.transfer_read' op cannot be lowered by tile-to-host: a kernel body may only hold tile, arith, math, scf and tensor ops}}
  %v = vector.transfer_read %x[%i], %cst {in_bounds = [true]} : tensor<8xf32>, vector<8xf32>
  tile.return
}

// -----

// A view chosen at run time: the host lowering resolves every access to its
// partition statically.

tile.kernel @view_through_scf(%X: memref<?xf32> {tile.dims = ["N"]},
                              %Y: memref<?xf32> {tile.dims = ["N"]},
                              %c: i1) {
  %Xv = tile.partition %X tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %Yv = tile.partition %Y tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %i = tile.grid %Yv : !tile.part<8xf32>
  %v = scf.if %c -> (!tile.part<8xf32>) {
    // expected-error @+1 {{'scf.yield' op cannot be lowered by tile-to-host: it uses a tile view, which may only be used by tile.load, tile.gather, tile.store, tile.atomic_add, tile.num_tiles, tile.extent, tile.tile_size and tile.grid; use the tile.partition result directly instead of passing it through scf.yield}}
    scf.yield %Xv : !tile.part<8xf32>
  } else {
    // expected-error @+1 {{'scf.yield' op cannot be lowered by tile-to-host: it uses a tile view}}
    scf.yield %Yv : !tile.part<8xf32>
  }
  %x = tile.load %v[%i] : !tile.part<8xf32> -> tensor<8xf32>
  tile.store %x, %Yv[%i] : tensor<8xf32>, !tile.part<8xf32>
  tile.return
}

// -----

// An element type the kernel ABI (docs/bundle.md) has no dtype for.

// expected-error @+1 {{'tile.kernel' op argument #0 has element type 'i16', which the kernel ABI cannot pass (docs/bundle.md dtypes: f32, f16, bf16, f64, i8, i32, i64, i1); convert it inside the kernel}}
tile.kernel @no_dtype(%X: memref<?xi16> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [8] : memref<?xi16> -> !tile.part<8xi16>
  %i = tile.grid %Xv : !tile.part<8xi16>
  tile.return
}

// -----

// kernel.so calls libm and the allocator; a kernel may not take their names.

// expected-error @+1 {{'tile.kernel' op is named 'expf', a C library function that kernel.so calls or may call; the host target cannot export a kernel under that name; rename it}}
tile.kernel @expf(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %i = tile.grid %Xv : !tile.part<8xf32>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op is named 'free', a C library function}}
tile.kernel @free(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %i = tile.grid %Xv : !tile.part<8xf32>
  tile.return
}
