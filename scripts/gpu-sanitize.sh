#!/usr/bin/env bash
#===- scripts/gpu-sanitize.sh - compute-sanitizer over bundles on the GPU -===#
#
#   scripts/gpu-sanitize.sh BUNDLES_DIR OUT_DIR [TOOL...]   on the GPU machine,
#                                   after scripts/gpu-eval.sh built kbench-run
#
# Oracle G of docs/verification.md: runs every bundle under BUNDLES_DIR at its
# task's check shapes (1 seed, randn and structural, no timing) under
# compute-sanitizer, once per tool (default: memcheck, racecheck, initcheck),
# and writes OUT_DIR/<bundle>.<tool>.log plus OUT_DIR/summary.txt with each
# run's ERROR (RACECHECK) SUMMARY line and kbench-run's verdict. The reference's ATen
# kernels run under the tool too; their reports name ATen symbols.
#
# Environment: BUILD_DIR (default build-gpu).
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 2 ]; then
  echo "usage: scripts/gpu-sanitize.sh BUNDLES_DIR OUT_DIR [TOOL...]" >&2
  exit 2
fi
bundles=$1 out=$2
shift 2
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck initcheck)
run=${BUILD_DIR:-$root/build-gpu}/bin/kbench-run
[ -x "$run" ] || { echo "gpu-sanitize: no $run; run scripts/gpu-eval.sh first" >&2; exit 2; }
command -v compute-sanitizer >/dev/null || { echo "gpu-sanitize: compute-sanitizer is not on PATH" >&2; exit 2; }
mkdir -p "$out"
: >"$out/summary.txt"
status=0
for manifest in "$bundles"/*/manifest.json; do
  dir=$(dirname "$manifest")
  name=$(basename "$dir")
  task=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["task"])' "$manifest")
  for tool in "${tools[@]}"; do
    log="$out/$name.$tool.log"
    compute-sanitizer --tool "$tool" --target-processes all \
      "$run" --target sm_90a --shapes check --seeds 1 --distributions randn,structural \
      --no-timing --timeout 300 "$root/tasks/$task" "$dir" >"$log" 2>&1
    rc=$?
    errors=$(grep -h -E "(ERROR|RACECHECK) SUMMARY" "$log" | tr '\n' ' ')
    verdict=$(grep -h "^verdict:" "$log" | head -1)
    echo "$name $tool: exit $rc; ${errors:-no ERROR SUMMARY line}; $verdict" | tee -a "$out/summary.txt"
    if [ "$rc" -ne 0 ] || grep -q -E "ERROR SUMMARY: [1-9]|\([1-9][0-9]* errors" "$log"; then
      status=1
    fi
  done
done
exit "$status"
