// RUN: not kbench-opt %s --tile-verify="timeout-ms=0" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIME
// RUN: not kbench-opt %s --tile-verify="max-query-size=10" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIZE
// RUN: not kbench-opt %s --tile-verify="max-steps=2000" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STEPS
// RUN: kbench-opt %s --tile-verify="diagnostics-json=-" -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=COUNT
// RUN: not kbench-opt %s --tile-verify="checks=C1,C4" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHECKS
// RUN: not kbench-opt %s \
// RUN:   --tile-verify="diagnostics-json=%t.missing/dir/report.json" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE

// Budgets: a check that runs out of steps, of time or builds too large a
// query stops with unsupported(budget), unsupported(timeout) or
// unsupported(size), naming the check, never with a pass.

// TIME: error: [C1] timeout: stopped after 0 queries (1 steps): the check exceeded its time limit of 0 ms (raise it with timeout-ms=N)
// TIME: error: [C2] timeout: stopped after 0 queries
// TIME: error: [C3] timeout: stopped after 0 queries
// A kernel without reductions gives C9 nothing to run out of time on.
// TIME-NOT: [C9]
// TIME: error: [C10] timeout: stopped after 0 queries
// TIME: error: [C11] timeout: stopped after 0 queries

// Steps are deterministic: a query costs 2000 plus its matrix size, so a
// budget of 2000 stops every check at its first query.
// STEPS: error: [C1] budget: stopped after 0 queries: the check used up its step budget of 2000 steps (raise it with max-steps=N)
// STEPS: error: [C2] budget: stopped after 0 queries
// STEPS: error: [C3] budget: stopped after 0 queries
// STEPS: error: [C10] budget: stopped after 0 queries
// STEPS: error: [C11] budget: stopped after 0 queries

// Every check reports the steps it took, the same on every machine.
// COUNT: "C1": {
// COUNT-NEXT: "queries": 4,
// COUNT-NEXT: "status": "proved",
// COUNT-NEXT: "steps": 8186,

// SIZE: error: [C1] size: a query has {{[0-9]+}} variables and constraints, more than the size limit of 10 (raise it with max-query-size=N)

// CHECKS: error: tile-verify: unknown check 'C4' in checks=...; the checks are C1, C2, C3, C9, C10, C11, C12, C13 and C14

// FILE: error: tile-verify: cannot write diagnostics-json={{.*}}report.json:

tile.kernel @copy(%X: memref<?xf32> {tile.dims = ["N"]},
                  %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [128] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
  %Yv = tile.partition %Y tile [128] : memref<?xf32> -> !tile.part<128xf32>
  %i = tile.grid %Yv : !tile.part<128xf32>
  %x = tile.load %Xv[%i] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  tile.store %x, %Yv[%i] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}
