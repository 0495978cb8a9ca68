#!/usr/bin/env bash
#===- build-tasks.sh - A host kernel.so for every task -------------------===#
#
# Usage: build-tasks.sh TASKS_DIR OUT_DIR. Builds OUT_DIR/<task>.so from each
# TASKS_DIR/<task>/kernel.mlir with kbench-host-build and checks that it
# exports one entry point per tile.kernel; prints "<task>: kernel.so exports
# <kernels>" per task, exits non-zero at the first failure.
set -euo pipefail
for dir in "$1"/*/; do
  task=$(basename "$dir")
  [ -f "$dir/kernel.mlir" ] || continue
  so="$2/$task.so"
  kbench-host-build "$dir/kernel.mlir" -o "$so"
  kernels=$(sed -n 's/^ *tile\.kernel @\([A-Za-z0-9_]*\).*/\1/p' "$dir/kernel.mlir")
  for kernel in $kernels; do
    if ! llvm-nm -D --defined-only "$so" | grep -q " T $kernel\$"; then
      echo "$task: kernel.so does not export $kernel"
      exit 1
    fi
  done
  echo "$task: kernel.so exports" $kernels
done
