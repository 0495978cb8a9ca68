"""Prints JSON-RPC lines for test/Mcp/admission.test: initialize, then one
verify call per variant of row_sum's kernel or default schedule that the
server must refuse (one admission rule each), ids in order from 2."""
import json
import sys

task_dir = sys.argv[1]
kernel = open(f"{task_dir}/kernel.mlir").read()
schedule = open(f"{task_dir}/schedules/default.mlir").read()

kernels = [
    kernel.replace("func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) {",
                   "func.func @main(%x: memref<?x?xf32>, %y: memref<?xf32>) attributes {llvm.emit_c_interface} {"),
    kernel.replace("func.func @main(%x: memref<?x?xf32>,", "func.func @main(%x: memref<?x?xf32> {llvm.noalias},"),
    kernel.replace("  tile.launch", "  %c = arith.constant 0 : index\n  tile.launch"),
    kernel.replace("  tile.return", "  %e = tensor.empty() : tensor<4xf32>\n  tile.return"),
    kernel.replace("  tile.return", "  \"tile.return\"() {tile.target = @system} : () -> ()"),
    "module attributes {llvm.data_layout = \"\"} {\n" + kernel + "\n}",
    "module {\n  module {\n" + kernel + "\n  }\n}",
]
schedules = [
    schedule.replace("module attributes {transform.with_named_sequence}",
                     "module attributes {transform.with_named_sequence, foo.bar}"),
    schedule.replace("  transform.named_sequence @__transform_main",
                     "  transform.named_sequence private @outside(%a: !transform.any_op {transform.readonly})\n"
                     "  transform.named_sequence @__transform_main"),
    "{" * 60,
]
print(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                             "clientInfo": {"name": "t", "version": "1"}}}))
calls = [{"kernel": k} for k in kernels] + [{"schedule": s} for s in schedules]
for i, arguments in enumerate(calls, start=2):
    print(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                      "params": {"name": "verify", "arguments": {"task": "row_sum", **arguments}}}))
