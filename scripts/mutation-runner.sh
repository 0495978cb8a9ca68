#!/usr/bin/env bash
#===- scripts/mutation-runner.sh - The N oracle of the mutation analysis -===#
#
# Usage: scripts/mutation-runner.sh TASK_DIR KERNEL.mlir
#
# Runs the task's checks (kbench eval: shape sweep with ragged tails, several
# seeds and value distributions, NaN-poisoned outputs) on KERNEL.mlir as
# written (no schedule: the task's default schedule would retile the mutant
# into another program than the one V verified) on the host target, without
# tile-verify, and exits 0 when the runner passes it,
# 1 when it fails it and 2 when there is no verdict (the kernel did not
# compile, the runner broke). For scripts/mutation-analysis.py --runner.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private bundle cache: mutants must not fill the user's.
KBENCH_CACHE_DIR=${KBENCH_CACHE_DIR:-$work/cache} \
  "$build/bin/kbench" eval "$1" --kernel "$2" --schedule none --target host \
  --no-verify --timeout "${KBENCH_MUTANT_TIMEOUT:-60}" -o "$work/out" > "$work/log" 2>&1
if grep -q '^verdict: PASS' "$work/log"; then
  exit 0
elif grep -q '^verdict: FAIL' "$work/log"; then
  exit 1
fi
sed 's/^/mutation-runner: /' "$work/log" >&2
exit 2
