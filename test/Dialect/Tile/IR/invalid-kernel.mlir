// Every verifier message of tile.kernel and tile.launch.
// RUN: kbench-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a tile.kernel returns nothing; write outputs through tile.store into a memref argument}}
tile.kernel @returns(%X: memref<?xf32> {tile.dims = ["N"]}) -> f32 {
  tile.return
}

// -----

// The generic form bypasses the parser's check.
// expected-error @+1 {{'tile.kernel' op returns nothing; write outputs through tile.store}}
"tile.kernel"() ({
^bb0(%X: memref<?xf32>):
  "tile.return"() : () -> ()
}) {sym_name = "generic_returns", function_type = (memref<?xf32>) -> f32,
    arg_attrs = [{tile.dims = ["N"]}]} : () -> ()

// -----

// expected-error @+1 {{'tile.kernel' op argument #0 has type 'tensor<4xf32>'; kernel arguments are memrefs or integer/float scalars}}
tile.kernel @tensor_arg(%X: tensor<4xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op scalar argument #1 has tile.dims; only memref arguments name dims}}
tile.kernel @scalar_dims(%X: memref<?xf32> {tile.dims = ["N"]}, %s: f32 {tile.dims = ["S"]}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op memref argument #0 has a non-identity layout strided<[?, 1]>; kernel memrefs are dense row-major}}
tile.kernel @strided(%X: memref<?x?xf32, strided<[?, 1]>> {tile.dims = ["M", "N"]}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op memref argument #0 needs tile.dims naming each of its 2 dims, e.g. {tile.dims = ["M", "K"]}}}
tile.kernel @no_dims(%X: memref<?x?xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op tile.partials of argument #0 is 2 : i64; it names the dim of a memref argument that holds partial results, an integer from 0 to its rank - 1}}
tile.kernel @partials_rank(%P: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = 2}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op tile.partials of argument #0 is "P"; it names the dim of a memref argument that holds partial results, an integer from 0 to its rank - 1}}
tile.kernel @partials_name(%P: memref<?x?xf32> {tile.dims = ["P", "N"], tile.partials = "P"}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op tile.partials of argument #0 is 0 : i64; it names the dim of a memref argument that holds partial results, an integer from 0 to its rank - 1}}
tile.kernel @partials_scalar(%s: f32 {tile.partials = 0}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op memref argument #0 has rank 2 but tile.dims names 1 dims}}
tile.kernel @dims_rank(%X: memref<?x?xf32> {tile.dims = ["M"]}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op tile.dims of argument #0 entry 1 is "2N"; dim names are identifiers such as "M"}}
tile.kernel @bad_dim_name(%X: memref<?x?xf32> {tile.dims = ["M", "2N"]}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op tile.dims of argument #0 entry 0 is 4 : i64; dim names are identifiers such as "M"}}
tile.kernel @int_dim_name(%X: memref<?xf32> {tile.dims = [4]}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op dim "D" is 8 in argument #0 but 16 in argument #1; equal dim names must have equal extents}}
tile.kernel @mismatched_dims(%X: memref<?x8xf32> {tile.dims = ["M", "D"]},
                             %Y: memref<?x16xf32> {tile.dims = ["M", "D"]}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op param BM = 0 must be a positive integer}}
tile.kernel @zero_param(%X: memref<?xf32> {tile.dims = ["N"]}) params {BM = 0} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op param BM = "big" must be a positive integer}}
tile.kernel @string_param(%X: memref<?xf32> {tile.dims = ["N"]}) params {BM = "big"} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op param N has the same name as a dim; rename one of them}}
tile.kernel @param_shadows_dim(%X: memref<?xf32> {tile.dims = ["N"]}) params {N = 4} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op requires fact "K % 8" is malformed: column 6: expected a comparison (==, !=, <=, >=, <, >), found end of input}}
tile.kernel @bad_fact(%X: memref<?xf32> {tile.dims = ["K"]}) requires ["K % 8"] {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op requires fact "N <= BN" uses 'BN', which is neither a dim of the arguments nor a param}}
tile.kernel @undefined_symbol(%X: memref<?xf32> {tile.dims = ["N"]}) requires ["N <= BN"] {
  tile.return
}

// -----

tile.kernel @direct_memref_use(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' op uses memref argument #0 of a tile.kernel directly; kernels reach memory only through tile.partition}}
  %v = memref.load %X[%c0] : memref<?xf32>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op has no tile.grid; declare the launch grid with `tile.grid %view`}}
tile.kernel @no_grid(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @two_grids(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  // expected-error @+1 {{'tile.grid' op declares a second launch grid; a kernel has exactly one tile.grid}}
  %j = tile.grid %Xv : !tile.part<64xf32>
  tile.return
}

// -----

tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  tile.return
}

func.func @launch_unknown(%x: memref<?xf32>) {
  // expected-error @+1 {{'tile.launch' op launches 'missing', which is not a tile.kernel in this module}}
  tile.launch @missing(%x) : (memref<?xf32>) -> ()
  return
}

// -----

tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  tile.return
}

func.func @launch_arity(%x: memref<?xf32>) {
  // expected-error @+1 {{'tile.launch' op passes 2 arguments but @k takes 1}}
  tile.launch @k(%x, %x) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

tile.kernel @k(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  tile.return
}

func.func @launch_types(%x: memref<?xf16>) {
  // expected-error @+1 {{'tile.launch' op argument #0 has type 'memref<?xf16>' but @k expects 'memref<?xf32>'}}
  tile.launch @k(%x) : (memref<?xf16>) -> ()
  return
}

// -----

func.func @f() {
  return
}

func.func @launch_func() {
  // expected-error @+1 {{'tile.launch' op launches 'f', which is not a tile.kernel in this module}}
  tile.launch @f() : () -> ()
  return
}

// -----

tile.kernel @launch_in_kernel(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  // expected-error @+1 {{'tile.launch' op is inside a tile.kernel; kernels are launched from host-level code (a func.func)}}
  tile.launch @launch_in_kernel() : () -> ()
  tile.return
}
