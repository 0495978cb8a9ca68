#!/usr/bin/env bash
#===- scripts/search-round.sh - Evaluate one round of kbench search ------===#
#
#   scripts/search-round.sh ROUND_DIR
#
# The "measure there" half of the round trip (docs/search.md): ROUND_DIR is a
# folder that `kbench search --rounds-dir DIR` wrote (bundles/<id>/, task/,
# batch.json), carried to a machine that has kbench-run (and a GPU for
# sm_90a), no MLIR needed. Writes ROUND_DIR/out/<id>/report.json per bundle
# and, last, ROUND_DIR/out/batch.jsonl (one line per bundle: id, status,
# exit), whose presence tells the search that the round is complete.
#
# Uses `kbench-run --batch` when the runner has it, else one kbench-run per
# bundle. The runner: $KBENCH_RUN, else build-gpu/bin/kbench-run (what
# scripts/gpu-eval.sh builds), else build/bin/kbench-run. It is also the
# --evaluator-cmd of a search that evaluates on this machine:
#   kbench search TASK --rounds-dir DIR --evaluator-cmd scripts/search-round.sh
# Environment: KBENCH_CALIBRATION (kbench-run --calibration FILE, for % of
# floor), KBENCH_COMPILED_BASELINES (--compiled-baselines DIR: the
# torch.compile packages of scripts/gpu-aoti-package.py), KBENCH_RUN_TIMEOUT
# (--timeout), KBENCH_BASELINE_TIMINGS (--baseline-timings FILE: the
# screening baselines' timings kept from one round to the next on this GPU).
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 1 ] || [ ! -f "$1/batch.json" ]; then
  echo "usage: scripts/search-round.sh ROUND_DIR (a folder with batch.json)" >&2
  exit 2
fi
round=$(cd "$1" && pwd)
run=${KBENCH_RUN:-}
for candidate in "$root/build-gpu/bin/kbench-run" "$root/build/bin/kbench-run"; do
  [ -n "$run" ] || { [ -x "$candidate" ] && run=$candidate; }
done
[ -x "$run" ] || { echo "search-round: no kbench-run (set KBENCH_RUN or run scripts/gpu-eval.sh once)" >&2; exit 2; }

# The paths in batch.json are the compiling machine's: rebase them here.
python3 - "$round" <<'PY' || exit 2
import json, os, sys
round_dir = sys.argv[1]
batch = json.load(open(os.path.join(round_dir, "batch.json")))
batch["task_dir"] = os.path.join(round_dir, "task")
for b in batch["bundles"]:
    b["dir"] = os.path.join(round_dir, "bundles", b["id"])
json.dump(batch, open(os.path.join(round_dir, "batch.local.json"), "w"), indent=2)
PY
out="$round/out"
rm -rf "$out" && mkdir -p "$out"

common=()
[ -n "${KBENCH_CALIBRATION:-}" ] && common+=(--calibration "$KBENCH_CALIBRATION")
[ -n "${KBENCH_RUN_TIMEOUT:-}" ] && common+=(--timeout "$KBENCH_RUN_TIMEOUT")
if "$run" --help 2>&1 | grep -q -- '--batch'; then
  [ -n "${KBENCH_COMPILED_BASELINES:-}" ] && common+=(--compiled-baselines "$KBENCH_COMPILED_BASELINES")
  if [ -n "${KBENCH_BASELINE_TIMINGS:-}" ] && "$run" --help 2>&1 | grep -q -- '--baseline-timings'; then
    common+=(--baseline-timings "$KBENCH_BASELINE_TIMINGS")
  fi
  "$run" --batch "$round/batch.local.json" -o "$out" ${common[@]+"${common[@]}"}
  exit $?
fi

# No batch mode: one process per bundle, batch.jsonl written at the end.
read -r target timing < <(python3 -c 'import json, sys; b = json.load(open(sys.argv[1])); print(b.get("target", "sm_90a"), b.get("timing", "full"))' "$round/batch.local.json")
flags=(--target "$target")
case "$timing" in
  none) flags+=(--no-timing) ;;
  screen) flags+=(--shapes check,tune --seeds 1) ;;
esac
flags+=(${common[@]+"${common[@]}"})
lines="$out/batch.jsonl.partial"
: >"$lines"
for bundle in "$round"/bundles/*/; do
  id=$(basename "$bundle")
  "$run" "$round/task" "$bundle" "${flags[@]}" -o "$out/$id" >"$out/$id.log" 2>&1
  rc=$?
  status=error
  [ -f "$out/$id/report.json" ] && status=ok
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && status=timeout
  echo "{\"id\": \"$id\", \"status\": \"$status\", \"exit\": $rc}" >>"$lines"
  echo "search-round: $id exit $rc ($status)"
done
mv "$lines" "$out/batch.jsonl"
