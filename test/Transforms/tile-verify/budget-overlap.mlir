// The wall-clock backstop is raised out of the way so that the step budget,
// which is deterministic, is what stops the check on any machine. Under
// ASan (scripts/sanitize-tests.sh) the memory cap is left out: ASan reserves
// terabytes of shadow address space.
// RUN: not sh -c '%if !asan %{ ulimit -v 2000000; %} kbench-opt %s --tile-verify="checks=C2 timeout-ms=600000" -o /dev/null' \
// RUN:   2>&1 | FileCheck %s
// RUN: not kbench-opt %s --tile-verify="checks=C2 max-steps=100000000 timeout-ms=300 diagnostics-json=-" \
// RUN:   -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=BACKSTOP

// Two overlapping stores of different tile shapes: the set difference of C2
// (every element written) splits into more pieces with every write. Before
// the step budget, PresburgerSet::subtract grew until the machine ran out of
// memory; now the difference is taken one piece at a time, each charged
// before it is built, and the check stops at its budget (4 million steps by
// default, about a second here) under 2 GB, naming itself.

// CHECK: error: [C2] budget: stopped after {{[0-9]+}} queries: the check used up its step budget of 4000000 steps (raise it with max-steps=N)
// CHECK-NOT: LLVM ERROR

// With the step budget out of the way, the wall-clock backstop stops it.
// BACKSTOP: "kind": "timeout",
// BACKSTOP-NEXT: "message": "stopped after {{[0-9]+}} queries ({{[0-9]+}} steps): the check exceeded its time limit of 300 ms (raise it with timeout-ms=N)",

tile.kernel @overlap(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
                     %Y: memref<?x?xf32> {tile.dims = ["M", "N"]}) {
  %Yv = tile.partition %Y tile [16, 16] : memref<?x?xf32> -> !tile.part<16x16xf32>
  %m, %n = tile.grid %Yv : !tile.part<16x16xf32>
  %Y0 = tile.partition %Y tile [8, 24] : memref<?x?xf32> -> !tile.part<8x24xf32>
  %z0 = arith.constant dense<0.0> : tensor<8x24xf32>
  tile.store %z0, %Y0[%m, %n] : tensor<8x24xf32>, !tile.part<8x24xf32>
  %Y1 = tile.partition %Y tile [24, 8] : memref<?x?xf32> -> !tile.part<24x8xf32>
  %z1 = arith.constant dense<0.0> : tensor<24x8xf32>
  tile.store %z1, %Y1[%m, %n] : tensor<24x8xf32>, !tile.part<24x8xf32>
  tile.return
}
