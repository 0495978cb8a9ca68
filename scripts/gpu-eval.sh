#!/usr/bin/env bash
#===- scripts/gpu-eval.sh - Evaluate compiled bundles on a GPU machine ---===#
#
#   scripts/gpu-eval.sh --prepare            on the CPU machine, once: copies the
#                                            nlohmann/json headers and cuda.h into
#                                            build-deps/ (carry that folder along)
#   scripts/gpu-eval.sh BUNDLES_DIR OUT_DIR  on the GPU machine
#
# On the GPU machine it builds kbench-run alone (KBENCH_RUNNER_ONLY, no MLIR)
# against the torch found there while scripts/gpu-aoti-package.py builds the
# torch.compile baselines of the bundles' tasks (AOTInductor packages, reused
# from the cache folder when present; all in one process, so only the first
# pays inductor's cold start), measures the ceilings (--calibrate), then
# evaluates every bundle folder under BUNDLES_DIR (each one's manifest.json names
# its task; tasks come from tasks/) twice:
#   1. the full protocol: check, tune and heldout shapes, 3 seeds, 5
#      distributions, then timing against torch eager and torch.compile
#      -> OUT_DIR/<bundle>/;
#   2. the check shapes alone without timing, the "device time to evaluate one
#      candidate" figure -> OUT_DIR/<bundle>/checks-only/.
# and writes OUT_DIR/summary.json, OUT_DIR/summary.md and
# OUT_DIR/results-fragment.json (scripts/results.py merge adds it to
# docs/results.json). Exit status: 0 when every bundle passed, 1 when one
# failed, 2 when the build or a run could not be judged, 3 when every bundle
# evaluated passed but KBENCH_STOP_AFTER left some for a resumed run. A
# torch.compile package that could not be built does not fail the run: the reports say
# "missing" for its shapes. About 5 minutes for the current tasks with a cold
# package cache (docs/runner.md, "Baselines").
#
# Environment: BUILD_DIR (default build-gpu), KBENCH_DEPS (default build-deps),
# KBENCH_EVAL_SHAPES (shape sets of run 1, default all; "tune" for a schedule
# sweep, which then skips run 2), KBENCH_L2_FLUSH (kbench-run --l2-flush),
# KBENCH_AOTI_CACHE (package folder, default build-aoti), KBENCH_AOTI_TIMEOUT
# (seconds for the packaging, default 300), KBENCH_AOTI_JOBS (packages built
# at once, default 4: each worker pays inductor's cold start of about a minute
# once, then about 6 s a package), KBENCH_COMPILED_BASELINES=0 (no
# torch.compile), KBENCH_CHECKS_ONLY=0 (no run 2: a suite run that needs
# only the full protocol), KBENCH_RESULTS_TITLE (the run's title in
# docs/results.json).
#
# A run cut short keeps what it finished: KBENCH_STOP_AFTER=S starts no
# bundle once S seconds have passed since the script started (exit 3: not
# every bundle was evaluated; when a bundle also failed the status stays 1,
# so OUT_DIR/incomplete, written when the run stops early and removed when
# a run gets through every bundle, is what says more are left), and
# KBENCH_RESUME=1 continues in the same
# OUT_DIR, skipping the bundles that finished there (their wall.json is
# written last) and reusing its calibration, so one suite can be evaluated
# over several sessions and still be one run in docs/results.json.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${KBENCH_DEPS:-$root/build-deps}

if [ "${1:-}" = "--prepare" ]; then
  mkdir -p "$deps/include"
  cp -r /usr/include/nlohmann "$deps/include/" || { echo "gpu-eval: no /usr/include/nlohmann (apt install nlohmann-json3-dev)"; exit 2; }
  if [ -f /usr/local/cuda/include/cuda.h ]; then
    cp /usr/local/cuda/include/cuda.h "$deps/include/"
  fi
  echo "gpu-eval: prepared $deps (carry it to the GPU machine with the bundles)"
  exit 0
fi

if [ $# -ne 2 ]; then
  echo "usage: scripts/gpu-eval.sh BUNDLES_DIR OUT_DIR | --prepare" >&2
  exit 2
fi
bundles=$(cd "$1" && pwd) || { echo "gpu-eval: no bundle folder $1" >&2; exit 2; }
mkdir -p "$2" && out=$(cd "$2" && pwd)
build=${BUILD_DIR:-$root/build-gpu}
aoti_cache=${KBENCH_AOTI_CACHE:-$root/build-aoti}
start=$(date +%s)
log="$out/gpu-eval.log"
resume=${KBENCH_RESUME:-0}
[ "$resume" = 1 ] || : >"$log"
say() { echo "gpu-eval: $*" | tee -a "$log"; }

# --- build ------------------------------------------------------------------
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>>"$log") \
  || { say "python3 cannot import torch; this script needs torch installed"; exit 2; }
torch_version=$(python3 -c 'import torch; print(torch.__version__)')

# --- torch.compile packages (in the background, during the build) ----------
tasks=$(python3 - "$bundles" "$root/tasks" <<'EOF'
import glob, json, os, sys
names = set()
for m in glob.glob(os.path.join(sys.argv[1], "*", "manifest.json")):
    try:
        names.add(json.load(open(m))["task"])
    except (ValueError, KeyError):
        pass
print(",".join(sorted(n for n in names if os.path.isdir(os.path.join(sys.argv[2], n)))))
EOF
)
aoti_pid=""
if [ "${KBENCH_COMPILED_BASELINES:-1}" != 0 ] && [ -n "$tasks" ]; then
  say "building torch.compile packages of $tasks into $aoti_cache (log: $out/aoti-package.log)"
  timeout "${KBENCH_AOTI_TIMEOUT:-300}" python3 "$root/scripts/gpu-aoti-package.py" \
    -o "$aoti_cache" --tasks "$tasks" --jobs "${KBENCH_AOTI_JOBS:-4}" >"$out/aoti-package.log" 2>&1 &
  aoti_pid=$!
  # An early exit (a failed build) must not leave it running; timeout passes
  # the signal on to the packaging process.
  trap '[ -n "$aoti_pid" ] && kill "$aoti_pid" 2>/dev/null' EXIT
fi

say "torch $torch_version from $torch_prefix; building kbench-run in $build"
run=$(BUILD_DIR="$build" KBENCH_DEPS="$deps" "$root/scripts/gpu-build-runner.sh" "$log" 2>>"$log") \
  || { tail -40 "$log"; say "build failed (log: $log)"; exit 2; }
grep -h "retrying without" "$log" || true
built=$(date +%s)
say "built in $((built - start)) s: $("$run" --version)"

# The packages use the GPU while inductor compiles: wait before anything is timed.
compiled=()
if [ -n "$aoti_pid" ]; then
  wait "$aoti_pid"
  aoti_rc=$?
  aoti_pid=""
  tail -1 "$out/aoti-package.log" | tee -a "$log"
  case "$aoti_rc" in
    0) say "torch.compile packages ready after $(( $(date +%s) - start )) s" ;;
    124) say "torch.compile packaging ran out of time (KBENCH_AOTI_TIMEOUT); shapes without a package are reported missing" ;;
    *) say "torch.compile packaging exited $aoti_rc (see $out/aoti-package.log); shapes without a package are reported missing" ;;
  esac
  [ -f "$aoti_cache/index.json" ] && cp "$aoti_cache/index.json" "$out/aoti-index.json"
  compiled=(--compiled-baselines "$aoti_cache")
fi

# --- calibrate --------------------------------------------------------------
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
  --format=csv >>"$log" 2>&1 || true
if [ "$resume" = 1 ] && [ -f "$out/calibration.json" ] && [ -f "$out/machine.json" ]; then
  say "resuming in $out: its calibration and machine record stay"
else
python3 - "$out/machine.json" "$torch_version" "${KBENCH_L2_FLUSH:-read}" "$*" <<'EOF'
import datetime, json, subprocess, sys
path, torch_version, flush, args = sys.argv[1:]
try:
    gpu, driver = subprocess.check_output(
        ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader", "-i", "0"],
        text=True).strip().split(", ")
except (OSError, subprocess.CalledProcessError, ValueError):
    gpu, driver = None, None
json.dump({"gpu": gpu, "driver": driver, "torch": torch_version, "l2_flush": flush,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "command": "scripts/gpu-eval.sh " + args}, open(path, "w"), indent=2)
EOF
"$run" --calibrate -o "$out" | tee -a "$log" || { say "calibration failed"; exit 2; }
fi

# --- evaluate ---------------------------------------------------------------
status=0
incomplete=0
for manifest in "$bundles"/*/manifest.json; do
  [ -f "$manifest" ] || { say "no bundle folders (*/manifest.json) under $bundles"; exit 2; }
  dir=$(dirname "$manifest")
  name=$(basename "$dir")
  if [ "$resume" = 1 ] && [ -f "$out/$name/wall.json" ]; then
    say "$name: evaluated before (resume)"; continue
  fi
  if [ -n "${KBENCH_STOP_AFTER:-}" ] && [ $(( $(date +%s) - start )) -ge "$KBENCH_STOP_AFTER" ]; then
    say "stopping before $name: KBENCH_STOP_AFTER=$KBENCH_STOP_AFTER s have passed; run again with KBENCH_RESUME=1 to go on"
    incomplete=1; stopped_before=$name; break
  fi
  task=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["task"])' "$manifest" 2>>"$log")
  if [ -z "$task" ] || [ ! -f "$root/tasks/$task/task.json" ]; then
    say "$name: manifest.json names no task of tasks/ ('$task')"; status=2; continue
  fi
  mkdir -p "$out/$name"
  t0=$(date +%s.%N)
  "$run" --target sm_90a --calibration "$out/calibration.json" \
    ${compiled[@]+"${compiled[@]}"} \
    ${KBENCH_EVAL_SHAPES:+--shapes "$KBENCH_EVAL_SHAPES"} \
    ${KBENCH_L2_FLUSH:+--l2-flush "$KBENCH_L2_FLUSH"} \
    "$root/tasks/$task" "$dir" -o "$out/$name" | tee "$out/$name/table.txt" | tee -a "$log"
  rc=${PIPESTATUS[0]}
  t1=$(date +%s.%N)
  if [ -z "${KBENCH_EVAL_SHAPES:-}" ] && [ "${KBENCH_CHECKS_ONLY:-1}" != 0 ]; then
    "$run" --target sm_90a --shapes check --no-timing "$root/tasks/$task" "$dir" \
      -o "$out/$name/checks-only" >"$out/$name/checks-only.txt" 2>&1
  fi
  t2=$(date +%s.%N)
  python3 - "$out/$name" "$t0" "$t1" "$t2" <<'EOF'
import json, sys
folder, t0, t1, t2 = sys.argv[1], *map(float, sys.argv[2:])
json.dump({"full_run_wall_s": t1 - t0, "checks_only_wall_s": t2 - t1},
          open(folder + "/wall.json", "w"), indent=2)
EOF
  say "$name ($task): exit $rc, $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
  if [ "$rc" -ne 0 ] && [ "$status" -ne 2 ]; then status=$rc; fi
done

# --- summary ----------------------------------------------------------------
python3 - "$out" "$torch_version" <<'EOF'
import glob, json, os, sys
out, torch_version = sys.argv[1], sys.argv[2]
cal = json.load(open(os.path.join(out, "calibration.json")))
env = cal.get("environment", {})
rows, summary = [], {"calibration": cal, "torch": torch_version, "bundles": {}}
for report_path in sorted(glob.glob(os.path.join(out, "*", "report.json"))):
    name = os.path.basename(os.path.dirname(report_path))
    r = json.load(open(report_path))
    quick_path = os.path.join(out, name, "checks-only", "report.json")
    quick = json.load(open(quick_path)) if os.path.exists(quick_path) else {}
    wall = json.load(open(os.path.join(out, name, "wall.json")))
    s = r.get("summary", {})
    entry = {
        "task": r.get("task", {}).get("name"),
        "verdict": r.get("verdict"),
        "cases": {k: s.get(k) for k in ("cases", "passed", "failed", "skipped")},
        "by_verdict": s.get("by_verdict"),
        "errors": r.get("errors"),
        "first_failure": s.get("first_failure", {}).get("detail"),
        "max_accuracy_ratio": s.get("max_accuracy_ratio"),
        "phases_s": r.get("phases"),
        "checks_only": {"verdict": quick.get("verdict"),
                        "cases": quick.get("summary", {}).get("cases"),
                        "phases_s": quick.get("phases")},
        "wall_s": wall,
        "timing": [],
    }
    for t in r.get("timing", []):
        if not t.get("contestants"):
            continue
        c = t["contestants"]
        entry["timing"].append({
            "shape": t["shape_id"]["shape"],
            "reps": t["reps"],
            "candidate_median_us": c["candidate"]["median_us"],
            "candidate_iqr_us": c["candidate"]["iqr_us"],
            "eager_tf32_off_median_us": c["eager_tf32_off"]["median_us"],
            "eager_tf32_on_median_us": c.get("eager_tf32_on", {}).get("median_us"),
            "torch_compile_median_us": c.get("torch_compile", {}).get("median_us"),
            "speedup": t.get("speedup"),
            "percent_of_floor": t.get("floor", {}).get("percent_of_floor"),
        })
    summary["bundles"][name] = entry
    first = True
    for t in entry["timing"] or [None]:
        sp = (t or {}).get("speedup") or {}
        pf = (t or {}).get("percent_of_floor") or {}
        fmt = lambda v, f: f.format(v) if isinstance(v, (int, float)) else "-"
        rows.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            name if first else "", entry["verdict"] if first else "",
            "{passed}/{cases} ({skipped} skipped)".format(**entry["cases"]) if first else "",
            t["shape"] if t else "-",
            fmt(t and t["candidate_median_us"], "{:.2f}"),
            fmt(t and t["eager_tf32_off_median_us"], "{:.2f}"),
            fmt(sp.get("eager_tf32_off"), "{:.2f}x") + " / " + fmt(sp.get("eager_tf32_on"), "{:.2f}x")
            + " / " + fmt(sp.get("torch_compile"), "{:.2f}x"),
            fmt(pf.get("candidate"), "{:.0f}%") + " (eager " + fmt(pf.get("eager_tf32_off"), "{:.0f}%") + ")",
            fmt((entry["checks_only"]["phases_s"] or {}).get("correctness"), "{:.2f} s") if first else "",
            fmt(wall["full_run_wall_s"], "{:.1f} s") if first else ""))
        first = False
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=2)
gemm = cal.get("gemm", {})
lines = [
    "# kbench-run on {} ({}), torch {}".format(env.get("gpu", "?"), env.get("driver", env.get("cuda_driver_api", "?")), torch_version),
    "",
    "Calibration: copy {:.2f} TB/s; GEMM TFLOP/s {}.".format(
        cal["copy"]["bandwidth_bytes_per_s"] / 1e12,
        ", ".join("{} {:.0f}".format(k, v["flops_per_s"] / 1e12) for k, v in gemm.items())),
    "",
    "| bundle | verdict | checks passed | timed shape | median us | eager TF32 off us | speedup off / on / compile | % of floor | device time, checks only | wall, full run |",
    "|---|---|---|---|---|---|---|---|---|---|",
] + rows
open(os.path.join(out, "summary.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
python3 "$root/scripts/results.py" fragment "$out" --id "$(date -u +%F)-gpu-eval" \
  ${KBENCH_RESULTS_TITLE:+--title "$KBENCH_RESULTS_TITLE"} 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || say "no results fragment (see above)"
if [ "$incomplete" = 1 ]; then
  echo "$stopped_before" >"$out/incomplete"
  [ "$status" -eq 0 ] && status=3
else
  rm -f "$out/incomplete"
fi
say "done in $(( $(date +%s) - start )) s; reports in $out (exit $status); add the run to the docs with: scripts/results.py merge $out/results-fragment.json"
exit "$status"
