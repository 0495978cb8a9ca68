//===- Passes.td - kbench's tile-level passes ---------------*- tablegen -*-===//
//
// tile-verify (the static verifier of docs/verification.md) and tile-mutate
// (the fault injector that measures it).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TRANSFORMS_PASSES_TD
#define KBENCH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileVerify : Pass<"tile-verify", "::mlir::ModuleOp"> {
  let summary = "Prove bounds, coverage, write-once, reduction coverage, "
                "pad neutrality, alignment and read-only inputs of every "
                "tile.kernel";
  let description = [{
    Runs the checks of `kbench/Analysis/Verification.h` on every
    `tile.kernel` of the module, for all shapes allowed by the kernel's dims
    (each in [1, 2^31 - 1]) and its `requires` facts:

    | check | property |
    |---|---|
    | C1 | every tile coordinate lies in the view's index space `ceildiv(dim, tile)`; `pad(none)` loads read full tiles |
    | C2 | every element of every output (a memref that is stored to) is written, tails included |
    | C3 | no element is written twice; `tile.atomic_add` is declared accumulation |
    | C9 | every reduction (`tile.mma` over k, `tile.reduce`, loop-carried and atomic accumulation) sees each tile of the reduced dim exactly once, and the operands of `tile.mma` agree on k |
    | C10 | pad values are neutral for every consumer that observes them (zero into mma/add, -inf into max, ...) and otherwise reach only masked lanes of a store |
    | C11 | lanes keep their index along a named dim from load to store (a load of the wrong in-bounds tile) |
    | C12 | with `read-only-inputs=N`: no `tile.store` or `tile.atomic_add` writes into a kernel argument that the host entry (the module's one defined `func.func`) binds to one of its first N arguments, the task inputs |
    | C13 | no `tile.load` reads an element of an output (a memref the kernel writes) before a `tile.store` of the same block wrote it; `tile.atomic_add` is declared accumulation |

    Each violation is an error at the op with a witness: the smallest failing
    shape (found by lexmin with the shape symbols first), then the block, loop
    ivs and element, replayed on the constraint system before it is reported.
    Kernels outside the affine fragment, and checks over their time or size
    budget, get an `unsupported` error naming the op and the reason. The pass
    fails when any kernel is not proved.

    `diagnostics-json=FILE` (`-` for stdout) writes the JSON report of
    docs/verification.md.

    C12 runs only with `read-only-inputs=N` (what `kbench verify` passes from
    task.json). Where it has nothing to check against (no host entry, a kernel
    the entry does not launch, a launch operand that is neither an entry
    argument nor a fresh allocation) its verdict is `not_applicable` with the
    reason in the JSON, and the kernel's status comes from the other checks.
  }];
  let options = [
    Option<"diagnosticsJson", "diagnostics-json", "std::string",
           /*default=*/"\"\"",
           "Write the JSON report to this file ('-': stdout)">,
    ListOption<"checks", "checks", "std::string",
               "Checks to run: C1, C2, C3, C9, C10, C11, C12, C13 (default: "
               "all; C12 needs read-only-inputs)">,
    Option<"readOnlyInputs", "read-only-inputs", "int", /*default=*/"-1",
           "C12: the host entry's first N arguments are read-only task "
           "inputs (default -1: C12 does not run)">,
    Option<"maxSteps", "max-steps", "uint64_t", /*default=*/"4000000",
           "Deterministic work budget per check and kernel, in steps "
           "(docs/verification.md, \"Budgets\")">,
    Option<"timeoutMs", "timeout-ms", "unsigned", /*default=*/"10000",
           "Wall-clock backstop per check and kernel in milliseconds">,
    Option<"maxQuerySize", "max-query-size", "unsigned", /*default=*/"4000",
           "Size limit (variables plus constraints) of one query">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark with every kernel's verdicts">
  ];
}

def TilePrintAccessRelations
    : Pass<"tile-print-access-relations", "::mlir::ModuleOp"> {
  let summary = "Print the affine model tile-verify builds of each kernel";
  let description = [{
    Prints, for every `tile.kernel`, what the access-relation builder
    (`kbench/Analysis/KernelModel.h`) made of it: the shape symbols, the
    linear `requires` facts (and the dropped ones), the block coordinates and
    their bounds, every `scf.for` / `scf.if` scope, and every `tile.load`,
    `tile.store` and `tile.atomic_add` with its tile coordinates and the size
    of its relation `A_s : I -> X`, or the reason it is unsupported. For
    debugging the verifier and for learning what it can see; the module is
    unchanged.
  }];
}

def TileMutate : Pass<"tile-mutate", "::mlir::ModuleOp"> {
  let summary = "Inject one deterministic fault into tile kernels (mutation "
                "analysis)";
  let description = [{
    Applies the mutation `FAMILY:SITE:SEED` to the module, for measuring the
    verifier and the runner (docs/verification.md, "Mutation analysis"):

    | family | operators |
    |---|---|
    | F1 indexing | tile coordinate +1 / -1 / *2 / replaced by another coordinate / 0 |
    | F2 boundary | pad dropped to none, loop bound -1 / +1, loop start +1, grid over a coarser view, requires fact dropped |
    | F4 reduction | k step doubled, one mma operand's k shifted, mma accumulator replaced by zero, a loop-carried accumulator reset each iteration, mma duplicated (double accumulation), atomic_add replaced by store |
    | F5 arithmetic | float op swapped, result replaced by its lhs, math op dropped, reduce kind swapped, float constant scaled |
    | F6 precision | an f32 value rounded through f16 or bf16 |
    | F7 benign | commuted operands, index rewritten to an equal expression, loop reversed, independent ops reordered |

    Sites are numbered per family in walk order over the module; `SEED`
    picks the operator variant at the site (modulo the number of variants).
    `list-sites` prints one line per site,
    `FAMILY:SITE variants=N WHAT [VARIANT|...]`,
    to stdout and leaves the module unchanged. Every op the mutation creates
    or rewrites gets the location `"kbench.mutant"(original)`, so that a
    diagnostic can be traced to the mutation.
  }];
  let options = [
    Option<"mutation", "mutation", "std::string", /*default=*/"\"\"",
           "FAMILY:SITE:SEED, e.g. F1:0:1">,
    Option<"listSites", "list-sites", "bool", /*default=*/"false",
           "Print the mutation sites of every family">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // KBENCH_TRANSFORMS_PASSES_TD
