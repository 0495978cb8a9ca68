#!/usr/bin/env bash
#===- scripts/main.sh - The main job: install, build, run a task ---------===#
#
# Today: parse and verify the example task through kbench-opt and print the
# result. Usage: scripts/main.sh [TASK_DIR] (default tasks/linear_bias_relu).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
task=${1:-$root/tasks/linear_bias_relu}

"$root/scripts/setup.sh"
"$root/scripts/build.sh" kbench-opt

echo "== kbench-opt $task/kernel.mlir (parse, verify, canonicalize)"
"$build/bin/kbench-opt" --canonicalize "$task/kernel.mlir"
echo "== $task: the tile IR parses and verifies"
