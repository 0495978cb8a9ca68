#!/usr/bin/env bash
#===- scripts/gpu-ncu.sh - Nsight Compute counters of bundles on the GPU --===#
#
#   scripts/gpu-ncu.sh BUNDLES_DIR OUT_DIR     on the GPU machine, after
#                                              scripts/gpu-eval.sh built kbench-run
#
# Runs every bundle under BUNDLES_DIR once at its task's tune shapes (1 seed,
# randn, no timing) under ncu and writes OUT_DIR/<bundle>.csv with, per kernel
# launch (the candidate's and the torch reference's alike): duration, DRAM
# throughput as % of peak, DRAM bytes read and written, achieved occupancy,
# registers, grid and block size. docs/results.md quotes them to explain
# where a kernel stands against the copy floor.
#
# Environment: BUILD_DIR (default build-gpu).
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 2 ]; then
  echo "usage: scripts/gpu-ncu.sh BUNDLES_DIR OUT_DIR" >&2
  exit 2
fi
run=${BUILD_DIR:-$root/build-gpu}/bin/kbench-run
[ -x "$run" ] || { echo "gpu-ncu: no $run; run scripts/gpu-eval.sh first" >&2; exit 2; }
command -v ncu >/dev/null || { echo "gpu-ncu: ncu is not on PATH" >&2; exit 2; }
mkdir -p "$2"
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
metrics+=,launch__grid_size,launch__block_size,launch__occupancy_limit_registers
status=0
for manifest in "$1"/*/manifest.json; do
  dir=$(dirname "$manifest")
  name=$(basename "$dir")
  task=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["task"])' "$manifest")
  ncu --target-processes all --csv --metrics "$metrics" \
    "$run" --target sm_90a --shapes tune --seeds 1 --distributions randn --no-timing \
    "$root/tasks/$task" "$dir" >"$2/$name.csv" 2>"$2/$name.log" || status=1
  echo "gpu-ncu: $name: $(grep -c '"gpu__time_duration.sum"' "$2/$name.csv") kernel launches"
done
exit "$status"
