#!/usr/bin/env python3
#===- scripts/gen-chain-kernel.py - A tile kernel with a long op chain ----===#
#
# Writes a kernel y = x (+ 0 ... + 0) whose value or index goes through a chain
# of OPS ops, each using the previous one: the input that finds recursion over
# use-def chains (the analyses must walk 100k-op chains without growing the
# stack) and the size axis of the lowering-time measurement in
# docs/robustness.md.
#
#   gen-chain-kernel.py --ops N [--kind value|index|reduce|guard]
#
#   value:  %v<k> = arith.addf %v<k-1>, %zero on the loaded tile (the pad and
#           alignment dataflow, the lowerings' elementwise code);
#   index:  %i<k> = arith.addi/subi %i<k-1>, %c1 on the row block index
#           (tile-verify's index expressions), then one load at the result;
#   reduce: y = row sums of x, with N/2 ops before the reduction (traced
#           backward by C9) and N/2 after it (traced forward);
#   guard:  the load and store under an scf.if whose condition is a chain of
#           N arith.andi (tile-verify's guard constraints).
#
# The kernel is correct for any N: tile-verify proves it.
#===----------------------------------------------------------------------===#
import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description="A tile kernel with a long op chain.")
    parser.add_argument("--ops", type=int, required=True, help="ops in the chain")
    parser.add_argument("--kind", choices=["value", "index", "reduce", "guard"], default="value")
    args = parser.parse_args()
    if args.ops < 0:
        parser.error("--ops must be >= 0")

    if args.kind == "reduce":
        write_reduce(sys.stdout, args.ops)
    else:
        write_elementwise(sys.stdout, args.ops, args.kind)


HOST = """
func.func @main(%x: memref<?x?xf32>, %y: {y}) {{
  tile.launch @chain(%x, %y) : (memref<?x?xf32>, {y}) -> ()
  return
}}
"""


def write_elementwise(out, ops, kind):
    part_x = "!tile.part<4x32xf32, pad = zero>"
    part_y = "!tile.part<4x32xf32>"
    tensor = "tensor<4x32xf32>"
    out.write(f"""// {ops}-op {kind} chain (scripts/gen-chain-kernel.py)
tile.kernel @chain(%X: memref<?x?xf32> {{tile.dims = ["M", "N"]}},
                   %Y: memref<?x?xf32> {{tile.dims = ["M", "N"]}})
    params {{BR = 4, BN = 32, num_warps = 4}} {{
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> {part_x}
  %Yv = tile.partition %Y tile [BR, BN] : memref<?x?xf32> -> {part_y}
  %r, %c = tile.grid %Yv : {part_y}
""")
    row = "%r"
    indent = "  "
    if kind == "index":
        out.write("  %c1 = arith.constant 1 : index\n")
        for k in range(ops):
            op = "arith.addi" if k % 2 == 0 else "arith.subi"
            out.write(f"  %i{k} = {op} {row}, %c1 : index\n")
            row = f"%i{k}"
        # An odd chain ends one above %r: step back so the load stays in bounds.
        if ops % 2 == 1:
            out.write(f"  %ifix = arith.subi {row}, %c1 : index\n")
            row = "%ifix"
    if kind == "guard":
        out.write(f"  %nt = tile.num_tiles %Yv[0] : {part_y}\n")
        out.write("  %in = arith.cmpi slt, %r, %nt : index\n")
        cond = "%in"
        for k in range(ops):
            out.write(f"  %a{k} = arith.andi {cond}, %in : i1\n")
            cond = f"%a{k}"
        out.write(f"  scf.if {cond} {{\n")
        indent = "    "
    out.write(f"{indent}%x = tile.load %Xv[{row}, %c] : {part_x} -> {tensor}\n")
    value = "%x"
    if kind == "value":
        out.write(f"  %zero = arith.constant dense<0.0> : {tensor}\n")
        for k in range(ops):
            out.write(f"  %v{k} = arith.addf {value}, %zero : {tensor}\n")
            value = f"%v{k}"
    out.write(f"{indent}tile.store {value}, %Yv[%r, %c] : {tensor}, {part_y}\n")
    if kind == "guard":
        out.write("  }\n")
    out.write("  tile.return\n}\n")
    out.write(HOST.format(y="memref<?x?xf32>"))


def write_reduce(out, ops):
    part_x = "!tile.part<4x32xf32, pad = zero>"
    part_y = "!tile.part<4xf32>"
    tile, row = "tensor<4x32xf32>", "tensor<4xf32>"
    out.write(f"""// {ops}-op reduce chain (scripts/gen-chain-kernel.py)
tile.kernel @chain(%X: memref<?x?xf32> {{tile.dims = ["M", "N"]}},
                   %Y: memref<?xf32> {{tile.dims = ["M"]}})
    params {{BR = 4, BN = 32, num_warps = 4}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = tile.partition %X tile [BR, BN] pad(zero) : memref<?x?xf32> -> {part_x}
  %Yv = tile.partition %Y tile [BR] : memref<?xf32> -> {part_y}
  %r = tile.grid %Yv : {part_y}
  %nt = tile.num_tiles %Xv[1] : {part_x}
  %zero = arith.constant dense<0.0> : {tile}
  %acc = scf.for %j = %c0 to %nt step %c1 iter_args(%a = %zero) -> ({tile}) {{
    %x = tile.load %Xv[%r, %j] : {part_x} -> {tile}
""")
    value = "%x"
    for k in range(ops // 2):
        out.write(f"    %b{k} = arith.addf {value}, %zero : {tile}\n")
        value = f"%b{k}"
    out.write(f"""    %s = arith.addf %a, {value} : {tile}
    scf.yield %s : {tile}
  }}
  %y = tile.reduce add %acc dim 1 : {tile} -> {row}
  %rzero = arith.constant dense<0.0> : {row}
""")
    value = "%y"
    for k in range(ops - ops // 2):
        out.write(f"  %f{k} = arith.addf {value}, %rzero : {row}\n")
        value = f"%f{k}"
    out.write(f"  tile.store {value}, %Yv[%r] : {row}, {part_y}\n  tile.return\n}}\n")
    out.write(HOST.format(y="memref<?xf32>"))


if __name__ == "__main__":
    main()
