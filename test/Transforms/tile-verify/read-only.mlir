// C14 is left out: @accumulate's atomic adds start from memory nobody
// zeroed, which is C14's business (atomic-start.mlir), not this file's.
// RUN: kbench-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tile-verify="checks=C1,C2,C3,C9,C10,C11,C12,C13 read-only-inputs=1 remarks" -o /dev/null
// RUN: not kbench-opt %s -split-input-file \
// RUN:   --tile-verify="checks=C1,C2,C3,C9,C10,C11,C12,C13 read-only-inputs=1 diagnostics-json=-" -o /dev/null \
// RUN:   2>/dev/null | FileCheck %s
// Without read-only-inputs C12 does not run: the kernel that stores into its
// input is proved by C1-C11 (what the GPU run found; C13 refutes its read of
// the argument it also writes).
// RUN: kbench-opt %s -split-input-file --tile-verify="checks=C1,C2,C3,C9,C10,C11 diagnostics-json=-" \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: not kbench-opt %s -split-input-file --tile-verify="checks=C12" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEEDS-N
// RUN: not kbench-opt %s -split-input-file --tile-verify="read-only-inputs=-2" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEEDS-N

// C12: no tile.store or tile.atomic_add writes into a kernel argument that the
// host entry binds to a task input (its first read-only-inputs arguments).

// OFF-NOT: "C12"
// OFF-NOT: "violated"
// NEEDS-N: error: tile-verify: C12 needs read-only-inputs=N, the number of task inputs that lead the host entry's arguments

// y = x + 1, also stored back into x.
// expected-remark @below {{@write_input violated, C1 proved, C2 proved, C3 proved, C9 proved, C10 proved, C11 proved, C12 violated, C13 violated}}
tile.kernel @write_input(%X: memref<?xf32> {tile.dims = ["N"]},
                         %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Xo = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  // Storing into X also makes it an output to C13, read before its store.
  // expected-error @below {{[C13] output_read: tile.load at}}
  %x = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %y = arith.addf %x, %one : tensor<64xf32>
  tile.store %y, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  // expected-error-re @below {{[C12] input_write: tile.store writes into argument #0 'X' (dims [N]), which @main binds to task input #0 (entry argument #0) at tile.launch loc({{.*}}); task inputs are read-only: store into an output (or a temporary) instead (hint: store_to_output)}}
  tile.store %y, %Xo[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
func.func @main(%x: memref<?xf32>, %y: memref<?xf32>) {
  tile.launch @write_input(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}
// CHECK-LABEL: "kernels": [
// CHECK:         "C12": {
// CHECK-NEXT:      "queries": 0,
// CHECK-NEXT:      "status": "violated",
// CHECK-NEXT:      "steps": {{[0-9]+}},
// CHECK-NEXT:      "time_ms":
// CHECK:       "diagnostics": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "check": "C12",
// CHECK-NEXT:      "hint": "store_to_output",
// CHECK-NEXT:      "kind": "input_write",
// CHECK-NEXT:      "message": "tile.store writes into argument #0 'X' (dims [N]), which @main binds to task input #0
// CHECK-NEXT:      "op": "loc(
// CHECK-NEXT:      "op_name": "tile.store",
// CHECK-NEXT:      "related": [
// CHECK-NEXT:        "loc(
// CHECK-NEXT:        "loc(
// CHECK-NEXT:      ],
// CHECK-NEXT:      "status": "violated",
// CHECK-NEXT:      "tensor": "X",
// CHECK-NEXT:      "witness": {
// CHECK-NEXT:        "entry_argument": 0,
// CHECK-NEXT:        "kernel_argument": 0
// CHECK-NEXT:      }
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "check": "C13",
// CHECK:       "kernel": "write_input",
// CHECK-NEXT:  "status": "violated",

// -----

// The same kernel storing into its output only: proved.
// expected-remark @below {{@write_output proved, C1 proved, C2 proved, C3 proved, C9 proved, C10 proved, C11 proved, C12 proved}}
tile.kernel @write_output(%X: memref<?xf32> {tile.dims = ["N"]},
                          %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %x = tile.load %Xv[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %y = arith.addf %x, %one : tensor<64xf32>
  tile.store %y, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
func.func @main(%x: memref<?xf32>, %y: memref<?xf32>) {
  tile.launch @write_output(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}
// CHECK-LABEL: "kernels": [
// CHECK:         "C12": {
// CHECK-NEXT:      "queries": 0,
// CHECK-NEXT:      "status": "proved",
// CHECK:       "diagnostics": [],
// CHECK-NEXT:  "kernel": "write_output",
// CHECK-NEXT:  "status": "proved",

// -----

// Every launch counts: the third binds the stored argument to the input x; a
// temporary (memref.alloc) and the output y are writable. The finding names
// the third launch.
// expected-remark @below {{@accumulate violated}}
tile.kernel @accumulate(%A: memref<?xf32> {tile.dims = ["N"]},
                        %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Av = tile.partition %A tile [64] pad(zero) : memref<?xf32> -> !tile.part<64xf32, pad = zero>
  %Yv = tile.partition %Y tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Yv : !tile.part<64xf32>
  %a = tile.load %Av[%i] : !tile.part<64xf32, pad = zero> -> tensor<64xf32>
  // expected-error-re @below {{[C12] input_write: tile.atomic_add writes into argument #1 'Y' (dims [N]), which @main binds to task input #0 (entry argument #0) at tile.launch loc({{.*}}); task inputs are read-only}}
  tile.atomic_add %a, %Yv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
func.func @main(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %t = memref.alloc(%n) : memref<?xf32>
  tile.launch @accumulate(%x, %t) : (memref<?xf32>, memref<?xf32>) -> ()
  tile.launch @accumulate(%t, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  tile.launch @accumulate(%y, %x) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}
// CHECK-LABEL: "kernels": [
// CHECK:         "C12": {
// CHECK-NEXT:      "queries": 0,
// CHECK-NEXT:      "status": "violated",
// CHECK:           "kind": "input_write",
// CHECK-NEXT:      "message": "tile.atomic_add writes into argument #1 'Y' (dims [N]), which @main binds to task input #0 (entry argument #0) at tile.launch loc(\"{{.*}}read-only.mlir\":[[@LINE-8]]:3);

// -----

// No host entry: nothing says which arguments are inputs, so C12 does not
// apply; the kernel's status comes from C1-C11.
// expected-remark @below {{@no_entry proved, C1 proved, C2 proved, C3 proved, C9 proved, C10 proved, C11 proved, C12 not_applicable (the module has 0 defined func.func, not exactly one host entry, so no argument is known to be a task input)}}
tile.kernel @no_entry(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  tile.store %z, %Xv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// CHECK-LABEL: "kernels": [
// CHECK:         "C12": {
// CHECK-NEXT:      "queries": 0,
// CHECK-NEXT:      "reason": "the module has 0 defined func.func, not exactly one host entry, so no argument is known to be a task input",
// CHECK-NEXT:      "status": "not_applicable",
// CHECK:       "diagnostics": [],
// CHECK-NEXT:  "kernel": "no_entry",
// CHECK-NEXT:  "status": "proved",

// -----

// A kernel the entry does not launch, and a launch operand that is neither an
// entry argument nor a fresh allocation (it may alias an input).
// expected-remark @below {{@unlaunched proved, C1 proved, C2 proved, C3 proved, C9 proved, C10 proved, C11 proved, C12 not_applicable (@main does not launch @unlaunched, so no argument is bound to a task input)}}
tile.kernel @unlaunched(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  tile.store %z, %Xv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
// expected-remark-re @below {{@untraced proved, C1 proved, C2 proved, C3 proved, C9 proved, C10 proved, C11 proved, C12 not_applicable (tile.launch at loc({{.*}}) passes argument #0 from 'builtin.unrealized_conversion_cast', neither an entry argument nor a fresh allocation, so it may alias a task input)}}
tile.kernel @untraced(%X: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [64] : memref<?xf32> -> !tile.part<64xf32>
  %i = tile.grid %Xv : !tile.part<64xf32>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  tile.store %z, %Xv[%i] : tensor<64xf32>, !tile.part<64xf32>
  tile.return
}
func.func @main(%x: memref<?xf32>) {
  %c = builtin.unrealized_conversion_cast %x : memref<?xf32> to memref<?xf32>
  tile.launch @untraced(%c) : (memref<?xf32>) -> ()
  return
}
// CHECK-LABEL: "kernels": [
// CHECK:         "C12": {
// CHECK-NEXT:      "queries": 0,
// CHECK-NEXT:      "reason": "@main does not launch @unlaunched, so no argument is bound to a task input",
// CHECK-NEXT:      "status": "not_applicable",
// CHECK:         "C12": {
// CHECK-NEXT:      "queries": 0,
// CHECK-NEXT:      "reason": "tile.launch at loc({{.*}}) passes argument #0 from 'builtin.unrealized_conversion_cast', neither an entry argument nor a fresh allocation, so it may alias a task input",
// CHECK-NEXT:      "status": "not_applicable",
