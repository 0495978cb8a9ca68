// Every verifier message of the partition, grid, memory and compute ops.
// RUN: kbench-opt %s -split-input-file -verify-diagnostics

tile.kernel @partition_rank(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  // expected-error @+1 {{'tile.partition' op partitions a rank-2 memref into rank-1 tiles; the ranks must match}}
  %Xv = tile.partition %X tile [64] : memref<?x?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @partition_sizes(%X: memref<?xf32> {tile.dims = ["N"]}) {
  // expected-error @+1 {{'tile.partition' op lists 2 tile sizes for a rank-1 memref}}
  %Xv = tile.partition %X tile [64, 2] : memref<?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @partition_element(%X: memref<?xf16> {tile.dims = ["N"]}) {
  // expected-error @+1 {{'tile.partition' op memref element type 'f16' does not match the partition's element type 'f32'}}
  %Xv = tile.partition %X tile [64] : memref<?xf16> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @partition_pad(%X: memref<?xf32> {tile.dims = ["N"]}) {
  // expected-error @+1 {{'tile.partition' op pad(zero) does not match the result type's pad = none}}
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @partition_param(%X: memref<?xf32> {tile.dims = ["N"]}) params {BM = 64} {
  // expected-error @+1 {{'tile.partition' op tile size 'BN' is not a param of the enclosing tile.kernel; add it to params {...} or write an integer}}
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @partition_size_attr(%X: memref<?xf32> {tile.dims = ["N"]}) {
  // expected-error @+1 {{'tile.partition' op tile size 1.000000e+00 : f32 must be an integer or a param name}}
  %Xv = "tile.partition"(%X) {tile_sizes = [1.0 : f32]} : (memref<?xf32>) -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @partition_negative(%X: memref<?xf32> {tile.dims = ["N"]}) {
  // expected-error @+1 {{'tile.partition' op tile size -64 along dim 0 must be positive}}
  %Xv = tile.partition %X tile [-64] : memref<?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @partition_mismatch(%X: memref<?xf32> {tile.dims = ["N"]}) params {BN = 128} {
  // expected-error @+1 {{'tile.partition' op tile size "BN" = 128 along dim 0 does not match the result type's tile shape 64}}
  %Xv = tile.partition %X tile [BN] : memref<?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

func.func @partition_outside(%X: memref<?xf32>) {
  // expected-error @+1 {{'tile.partition' op source must be a memref argument of the enclosing tile.kernel}}
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  return
}

// -----

tile.kernel @partition_local(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %a = memref.alloca() : memref<64xf32>
  // expected-error @+1 {{'tile.partition' op source must be a memref argument of the enclosing tile.kernel}}
  %Av = tile.partition %a tile [64] : memref<64xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @grid_empty(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  // expected-error @+1 {{'tile.grid' op spans no dims; list at least one}}
  tile.grid %Xv dims [] : !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @grid_range(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  // expected-error @+1 {{'tile.grid' op dim 1 is out of range for a rank-1 partition}}
  %i = tile.grid %Xv dims [1] : !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @grid_twice(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  // expected-error @+1 {{'tile.grid' op lists dim 0 twice}}
  %i, %j = tile.grid %Xv dims [0, 0] : !tile.part<4x64xf32>
  tile.return
}

// -----

tile.kernel @grid_four(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  // expected-error @+1 {{'tile.grid' op spans 4 dims; a CUDA grid has at most 3}}
  %i:4 = tile.grid %Xv dims [0, 1, 0, 1] : !tile.part<4x64xf32>
  tile.return
}

// -----

func.func @grid_outside(%v: !tile.part<64xf32>) {
  // expected-error @+1 {{'tile.grid' op must be inside a tile.kernel}}
  %i = tile.grid %v : !tile.part<64xf32>
  return
}

// -----

tile.kernel @num_tiles_range(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  // expected-error @+1 {{'tile.num_tiles' op dim 2 is out of range for a rank-1 partition}}
  %n = tile.num_tiles %Xv[2] : !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @extent_range(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  // expected-error @+1 {{'tile.extent' op dim 1 is out of range for a rank-1 partition}}
  %n = tile.extent %Xv[1] : !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @tile_size_range(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  // expected-error @+1 {{'tile.tile_size' op dim -1 is out of range for a rank-1 partition}}
  %n = tile.tile_size %Xv[-1] : !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @load_indices(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %i, %j = tile.grid %Xv : !tile.part<4x64xf32>
  // expected-error @+1 {{'tile.load' op takes 1 tile coordinates but the partition has rank 2}}
  %x = tile.load %Xv[%i] : !tile.part<4x64xf32> -> tensor<4x64xf32>
  tile.return
}

// -----

tile.kernel @load_shape(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %i, %j = tile.grid %Xv : !tile.part<4x64xf32>
  // expected-error @+1 {{'tile.load' op result shape 4x32 does not match the partition's tile shape 4x64}}
  %x = tile.load %Xv[%i, %j] : !tile.part<4x64xf32> -> tensor<4x32xf32>
  tile.return
}

// -----

tile.kernel @load_element(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %i, %j = tile.grid %Xv : !tile.part<4x64xf32>
  // expected-error @+1 {{'tile.load' op result element type 'f16' does not match the partition's element type 'f32'}}
  %x = tile.load %Xv[%i, %j] : !tile.part<4x64xf32> -> tensor<4x64xf16>
  tile.return
}

// -----

tile.kernel @store_shape(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %i, %j = tile.grid %Xv : !tile.part<4x64xf32>
  %t = arith.constant dense<0.0> : tensor<64x4xf32>
  // expected-error @+1 {{'tile.store' op stored tile shape 64x4 does not match the partition's tile shape 4x64}}
  tile.store %t, %Xv[%i, %j] : tensor<64x4xf32>, !tile.part<4x64xf32>
  tile.return
}

// -----

tile.kernel @store_indices(%X: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Xv = tile.partition %X tile [4, 64] : memref<?x?xf32> -> !tile.part<4x64xf32>
  %i, %j = tile.grid %Xv : !tile.part<4x64xf32>
  %t = arith.constant dense<0.0> : tensor<4x64xf32>
  // expected-error @+1 {{'tile.store' op takes 3 tile coordinates but the partition has rank 2}}
  tile.store %t, %Xv[%i, %j, %j] : tensor<4x64xf32>, !tile.part<4x64xf32>
  tile.return
}

// -----

tile.kernel @atomic_shape(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  %t = arith.constant dense<0.0> : tensor<32xf32>
  // expected-error @+1 {{'tile.atomic_add' op added tile shape 32 does not match the partition's tile shape 64}}
  tile.atomic_add %t, %Xv[%i] : tensor<32xf32>, !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @atomic_type(%X: memref<?xi8> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xi8> -> !tile.part<64xi8>
  %i = tile.grid %Xv : !tile.part<64xi8>
  %t = arith.constant dense<0> : tensor<64xi8>
  // expected-error @+1 {{'tile.atomic_add' op has no atomic add for element type 'i8'; use f32, f16, bf16, f64, i32 or i64}}
  tile.atomic_add %t, %Xv[%i] : tensor<64xi8>, !tile.part<64xi8>
  tile.return
}

// -----

func.func @broadcast_element(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.broadcast' op changes the element type from 'f32' to 'f16'}}
  %b = tile.broadcast %t dims [0] : tensor<64xf32> -> tensor<4x64xf16>
  return
}

// -----

func.func @broadcast_rank(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.broadcast' op adds 1 dims to a rank-1 tile, which gives rank 2, not 3}}
  %b = tile.broadcast %t dims [0] : tensor<64xf32> -> tensor<4x4x64xf32>
  return
}

// -----

func.func @broadcast_range(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.broadcast' op dim 2 is out of range for the rank-2 result}}
  %b = tile.broadcast %t dims [2] : tensor<64xf32> -> tensor<4x64xf32>
  return
}

// -----

func.func @broadcast_twice(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.broadcast' op lists dim 0 twice}}
  %b = tile.broadcast %t dims [0, 0] : tensor<64xf32> -> tensor<4x4x64xf32>
  return
}

// -----

func.func @broadcast_size(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.broadcast' op result dim 0 is 32 but input dim 0 is 64; dims not listed in `dims` keep their size}}
  %b = tile.broadcast %t dims [1] : tensor<64xf32> -> tensor<32x4xf32>
  return
}

// -----

func.func @reduce_range(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.reduce' op reduces dim 2, which is out of range for a rank-2 tile}}
  %r = tile.reduce add %t dim 2 : tensor<4x64xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_element(%t: tensor<4x64xf16>) {
  // expected-error @+1 {{'tile.reduce' op changes the element type from 'f16' to 'f32'; convert with arith ops before or after the reduction}}
  %r = tile.reduce add %t dim 1 : tensor<4x64xf16> -> tensor<4xf32>
  return
}

// -----

func.func @scan_range(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.scan' op scans dim -1, which is out of range for a rank-2 tile}}
  %r = tile.scan add %t dim -1 : tensor<4x64xf32>
  return
}

// -----

func.func @scan_type(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.scan' op failed to verify that all of {input, result} have same type}}
  %r = "tile.scan"(%t) {kind = 0 : i32, dim = 1 : i64} : (tensor<4x64xf32>) -> tensor<4x64xf16>
  return
}

// -----

func.func @reduce_shape(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.reduce' op result shape 64 should be 4 (the input without dim 1)}}
  %r = tile.reduce max %t dim 1 : tensor<4x64xf32> -> tensor<64xf32>
  return
}

// -----

func.func @mma_rank(%a: tensor<4x8x2xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'tile.mma' op operands must be rank-2 tiles, got ranks 3, 2 and 2}}
  %r = tile.mma %a, %b, %c : tensor<4x8x2xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @mma_k(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op a has K = 32 but b has K = 64 (is b NxK? then add transpose_b)}}
  %r = tile.mma %a, %b, %c : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @mma_acc(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op accumulator is 64x64 but a * b is 64x16}}
  %r = tile.mma %a, %b, %c : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @mma_mixed(%a: tensor<64x32xf16>, %b: tensor<32x64xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op a and b have different element types ('f16' and 'bf16'); convert one with arith ops}}
  %r = tile.mma %a, %b, %c : tensor<64x32xf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @mma_types(%a: tensor<64x32xbf16>, %b: tensor<32x64xbf16>, %c: tensor<64x64xbf16>) {
  // expected-error @+1 {{'tile.mma' op impl = simt has no 'bf16' x 'bf16' -> 'bf16' form; see the type table in the tile.mma documentation}}
  %r = tile.mma %a, %b, %c : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xbf16>
  return
}

// -----

func.func @mma_int_simt(%a: tensor<64x32xi8>, %b: tensor<32x64xi8>, %c: tensor<64x64xi32>) {
  // expected-error @+1 {{'tile.mma' op impl = simt has no 'i8' x 'i8' -> 'i32' form}}
  %r = tile.mma %a, %b, %c : tensor<64x32xi8>, tensor<32x64xi8> -> tensor<64x64xi32>
  return
}

// -----

func.func @mma_wgmma_m(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf32>) {
  // expected-error @+1 {{'tile.mma' op impl = wgmma needs M to be a multiple of 64, got 32}}
  %r = tile.mma %a, %b, %c impl(wgmma) : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
  return
}

// -----

func.func @mma_sync_n(%a: tensor<16x16xf16>, %b: tensor<16x12xf16>, %c: tensor<16x12xf32>) {
  // expected-error @+1 {{'tile.mma' op impl = mma_sync needs N to be a multiple of 8, got 12}}
  %r = tile.mma %a, %b, %c impl(mma_sync) : tensor<16x16xf16>, tensor<16x12xf16> -> tensor<16x12xf32>
  return
}

// -----

func.func @mma_sync_k(%a: tensor<16x8xbf16>, %b: tensor<8x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.mma' op impl = mma_sync with 'bf16' operands needs K to be a multiple of 16, got 8}}
  %r = tile.mma %a, %b, %c impl(mma_sync) : tensor<16x8xbf16>, tensor<8x8xbf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @mma_split_wgmma(%a: tensor<64x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op warp_split(rows) applies to impl = mma_sync only, not impl = wgmma; drop it}}
  %r = tile.mma %a, %b, %c impl(wgmma) warp_split(rows) : tensor<64x16xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @mma_split_simt(%a: tensor<64x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op warp_split(balanced) applies to impl = mma_sync only, not impl = simt; drop it}}
  %r = tile.mma %a, %b, %c warp_split(balanced) : tensor<64x16xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @mma_acc_type(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'tile.mma' op failed to verify that all of {acc, result} have same type}}
  %r = "tile.mma"(%a, %b, %c) : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf16>) -> tensor<16x16xf32>
  return
}

// -----

func.func @transpose_entries(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.transpose' op perm has 3 entries for a rank-2 tile}}
  %r = tile.transpose %t perm [0, 1, 2] : tensor<4x64xf32> -> tensor<64x4xf32>
  return
}

// -----

func.func @transpose_perm(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.transpose' op perm [1, 1] is not a permutation of 0..1}}
  %r = tile.transpose %t perm [1, 1] : tensor<4x64xf32> -> tensor<64x4xf32>
  return
}

// -----

func.func @transpose_type(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.transpose' op result type 'tensor<64x4xf16>' is not a permutation of 'tensor<4x64xf32>'}}
  %r = tile.transpose %t perm [1, 0] : tensor<4x64xf32> -> tensor<64x4xf16>
  return
}

// -----

func.func @transpose_dims(%t: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.transpose' op result dim 0 is 4 but input dim 1 is 64}}
  %r = tile.transpose %t perm [1, 0] : tensor<4x64xf32> -> tensor<4x64xf32>
  return
}

// -----

func.func @expand_range(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op dim 2 is out of range; a unit dim can be inserted at 0..1}}
  %r = tile.expand_dims %t dim 2 : tensor<64xf32> -> tensor<64x1xf32>
  return
}

// -----

func.func @expand_type(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op result type 'tensor<1x64xf32>' should be 'tensor<64x1xf32>'}}
  %r = tile.expand_dims %t dim 1 : tensor<64xf32> -> tensor<1x64xf32>
  return
}

// -----

func.func @squeeze_range(%t: tensor<1x64xf32>) {
  // expected-error @+1 {{'tile.squeeze' op dim 2 is out of range for a rank-2 tile}}
  %r = tile.squeeze %t dim 2 : tensor<1x64xf32> -> tensor<64xf32>
  return
}

// -----

func.func @squeeze_not_unit(%t: tensor<2x64xf32>) {
  // expected-error @+1 {{'tile.squeeze' op dim 0 has size 2; only a unit dim can be dropped}}
  %r = tile.squeeze %t dim 0 : tensor<2x64xf32> -> tensor<64xf32>
  return
}

// -----

func.func @squeeze_type(%t: tensor<1x64xf32>) {
  // expected-error @+1 {{'tile.squeeze' op result type 'tensor<64xf16>' should be 'tensor<64xf32>'}}
  %r = tile.squeeze %t dim 0 : tensor<1x64xf32> -> tensor<64xf16>
  return
}

// -----

func.func @iota_range() {
  // expected-error @+1 {{'tile.iota' op dim 2 is out of range for a rank-2 tile}}
  %r = tile.iota dim 2 : tensor<4x64xi32>
  return
}

// -----

func.func @iota_float() {
  // expected-error @+1 {{'tile.iota' op result #0 must be ranked tensor of integer or index values}}
  %r = tile.iota dim 0 : tensor<64xf32>
  return
}

// -----

func.func @splat_type(%s: f16) {
  // expected-error @+1 {{'tile.splat' op splats a 'f16' into a tile of 'f32'}}
  %r = tile.splat %s : f16 -> tensor<64xf32>
  return
}
