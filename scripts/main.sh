#!/usr/bin/env bash
#===- scripts/main.sh - The main job: install, build, evaluate a task ----===#
#
# Compiles a task with its default schedule, proves it safe (tile-verify),
# lowers it, and checks it against PyTorch with kbench-run: `kbench eval`.
# Without a GPU it evaluates the host target and says so.
# Usage: scripts/main.sh [TASK_DIR] (default tasks/linear_bias_relu).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
task=${1:-$root/tasks/linear_bias_relu}

"$root/scripts/setup.sh"
"$root/scripts/build.sh" kbench kbench-run

echo "== kbench eval $task"
"$build/bin/kbench" eval "$task" -o "$build/eval/$(basename "$task")"
