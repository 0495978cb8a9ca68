#!/usr/bin/env bash
#===- scripts/gpu-batch-bench.sh - Throughput of kbench-run --batch on a GPU ===#
#
#   scripts/gpu-batch-bench.sh BUNDLES_DIR OUT_DIR [K]
#
# On the GPU machine: builds kbench-run (scripts/gpu-build-runner.sh), then
# for every task with sm_90a bundles under BUNDLES_DIR (*/manifest.json)
# evaluates a batch of K candidates (default 24; the task's bundles repeated
# under ids <bundle>.<i> when it has fewer) the way a search does: checks at
# the check shapes (3 seeds, 5 distributions), timing at the tune shape.
#   none    checks only
#   screen  the screening protocol (docs/runner.md, "Batches")
#   full    the full timing protocol
#   single  the first 6 candidates, one kbench-run process each (screen), as
#           a search without batches would pay
#   pair    two screen batches of K/2 at once, sharing the GPU's timing lock
#   kept    the screen batch again, twice, with --baseline-timings FILE: the
#           first run (kept-first) times the baselines and writes FILE, the
#           second (kept) reads them from it, as a search's later rounds on
#           the same GPU do
# and writes OUT_DIR/summary.json: wall seconds and candidates/s per mode,
# and the screening error: per bundle, the median over its repeats of the
# screen and of the full candidate median at the tune shape, and their
# relative difference. Reports: OUT_DIR/<task>/<mode>/<id>/report.json.
# With KBENCH_ANTIHACK_BUNDLES (the build-antihack/ of scripts/gpu-antihack.sh
# --prepare) and a gelu_bias bundle under BUNDLES_DIR, it also runs one batch
# of good, fault, good, hang, good, zeros, good (timing screen, --timeout 10):
# the good ones must stay ok (summary.json "isolation").
# Environment: KBENCH_BENCH_TASKS (comma list: only these tasks), BUILD_DIR;
# KBENCH_RUN (a built kbench-run: no build) and KBENCH_BENCH_TARGET (default
# sm_90a; host runs the same steps on the CPU machine, untimed) try the
# script without a GPU.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 2 ]; then
  echo "usage: scripts/gpu-batch-bench.sh BUNDLES_DIR OUT_DIR [K]" >&2
  exit 2
fi
bundles=$(cd "$1" && pwd) || { echo "gpu-batch-bench: no bundle folder $1" >&2; exit 2; }
mkdir -p "$2" && out=$(cd "$2" && pwd)
k=${3:-24}
log="$out/gpu-batch-bench.log"
: >"$log"
say() { echo "gpu-batch-bench: $*" | tee -a "$log"; }

target=${KBENCH_BENCH_TARGET:-sm_90a}
start=$(date +%s)
if [ -n "${KBENCH_RUN:-}" ]; then
  run=$KBENCH_RUN
else
  run=$("$root/scripts/gpu-build-runner.sh" "$log") || exit 2
  say "kbench-run built in $(( $(date +%s) - start )) s: $run"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
  --format=csv >>"$log" 2>&1 || true

# The lists: one per task and mode, K candidates each.
python3 - "$root" "$bundles" "$out" "$k" "${KBENCH_BENCH_TASKS:-}" "$target" >"$out/tasks.txt" <<'EOF'
import glob, json, os, sys
root, bundles, out, k, only, target = sys.argv[1:7]
k = int(k)
by_task = {}
for m in sorted(glob.glob(os.path.join(bundles, "*", "manifest.json"))):
    man = json.load(open(m))
    if man.get("target") != target:
        continue
    if only and man["task"] not in only.split(","):
        continue
    by_task.setdefault(man["task"], []).append(os.path.dirname(m))
for task, dirs in by_task.items():
    os.makedirs(os.path.join(out, task), exist_ok=True)
    entries = [{"id": "%s.%d" % (os.path.basename(dirs[i % len(dirs)]), i),
                "dir": dirs[i % len(dirs)]} for i in range(k)]
    def write(name, timing, subset):
        json.dump({"task_dir": os.path.join(root, "tasks", task), "timing": timing,
                   "shapes": ["check"], "bundles": subset},
                  open(os.path.join(out, task, name + ".json"), "w"), indent=1)
    for mode in ("none", "screen", "full"):
        write("list-" + mode, mode, entries)
    write("list-pair-a", "screen", entries[: k // 2])
    write("list-pair-b", "screen", entries[k // 2:])
    for i, e in enumerate(entries[:6]):
        write("list-single-%d" % i, "screen", [e])
    print(task)
EOF
tasks=$(cat "$out/tasks.txt")
[ -n "$tasks" ] || { say "no $target bundles under $bundles"; exit 2; }

now() { date +%s.%N; }
record() { # WALLS NAME T0 T1
  python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d[sys.argv[2]]=float(sys.argv[4])-float(sys.argv[3]); json.dump(d,open(p,"w"))' "$@"
}
for task in $tasks; do
  dir="$out/$task"
  walls="$dir/walls.json"
  echo "{}" >"$walls"
  for mode in none screen full; do
    t0=$(now)
    "$run" --target "$target" --batch "$dir/list-$mode.json" -o "$dir/$mode" >"$dir/$mode.txt" 2>&1
    t1=$(now); record "$walls" "$mode" "$t0" "$t1"
    say "$task $mode: $(tail -1 "$dir/$mode.txt")"
  done
  rm -f "$dir/baseline-timings.json"
  for mode in kept-first kept; do
    t0=$(now)
    "$run" --target "$target" --batch "$dir/list-screen.json" -o "$dir/$mode" \
      --baseline-timings "$dir/baseline-timings.json" >"$dir/$mode.txt" 2>&1
    t1=$(now); record "$walls" "$mode" "$t0" "$t1"
    say "$task $mode: $(tail -1 "$dir/$mode.txt")"
  done
  t0=$(now)
  for i in 0 1 2 3 4 5; do
    [ -f "$dir/list-single-$i.json" ] || break
    "$run" --target "$target" --batch "$dir/list-single-$i.json" -o "$dir/single-$i" >>"$log" 2>&1
  done
  t1=$(now); record "$walls" single "$t0" "$t1"
  t0=$(now)
  "$run" --target "$target" --batch "$dir/list-pair-a.json" -o "$dir/pair-a" >"$dir/pair-a.txt" 2>&1 &
  "$run" --target "$target" --batch "$dir/list-pair-b.json" -o "$dir/pair-b" >"$dir/pair-b.txt" 2>&1
  wait
  t1=$(now); record "$walls" pair "$t0" "$t1"
  say "$task: one process each and two batches at once done"
done

antihack=${KBENCH_ANTIHACK_BUNDLES:-}
if [ -n "$antihack" ] && [ -f "$out/gelu_bias/list-none.json" ]; then
  python3 - "$out" "$antihack" <<'EOF'
import json, os, sys
out, antihack = sys.argv[1], os.path.abspath(sys.argv[2])
lst = json.load(open(os.path.join(out, "gelu_bias", "list-none.json")))
good = lst["bundles"][0]["dir"]
order = ["good", "fault", "good", "hang", "good", "zeros", "good"]
lst["bundles"] = [{"id": "%d-%s" % (i, n), "dir": good if n == "good" else os.path.join(antihack, n)}
                  for i, n in enumerate(order)]
lst["timing"] = "screen"
json.dump(lst, open(os.path.join(out, "gelu_bias", "list-isolation.json"), "w"), indent=1)
EOF
  "$run" --target "$target" --timeout 10 --batch "$out/gelu_bias/list-isolation.json" \
    -o "$out/gelu_bias/isolation" >"$out/gelu_bias/isolation.txt" 2>&1
  say "isolation: $(tr '\n' ' ' <"$out/gelu_bias/isolation.txt")"
fi

python3 - "$out" "$k" $tasks <<'EOF'
import glob, json, os, statistics, sys
out, k, tasks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def lines(folder):
    p = os.path.join(folder, "batch.jsonl")
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []

def tune_median(report_path):
    r = json.load(open(report_path))
    for t in r.get("timing", []):
        c = t.get("contestants", {}).get("candidate")
        if c and t["shape_id"]["set"] == "tune":
            return c["median_us"]
    return None

summary = {"k": k, "tasks": {}}
for task in tasks:
    d = os.path.join(out, task)
    walls = json.load(open(os.path.join(d, "walls.json")))
    singles = sorted(glob.glob(os.path.join(d, "single-*")))
    counts = {"none": k, "screen": k, "full": k, "single": len(singles), "pair": k,
              "kept-first": k, "kept": k}
    entry = {"wall_s": walls,
             "candidates_per_s": {m: counts[m] / w for m, w in walls.items() if w > 0},
             "statuses": {}, "screening": {}}
    for mode in ("none", "screen", "full", "kept-first", "kept"):
        st = {}
        for l in lines(os.path.join(d, mode)):
            st[l["status"]] = st.get(l["status"], 0) + 1
        entry["statuses"][mode] = st
    # How many of the kept run's timed shapes took their baselines from the
    # file (0 on the host target, which times nothing).
    reused = 0
    for l in lines(os.path.join(d, "kept")):
        for t in json.load(open(l["report"])).get("timing", []):
            if "kept in the file" in t.get("baseline_timing", {}).get("measured", ""):
                reused += 1
    entry["kept_baselines_reused"] = reused
    per_bundle = {}
    for mode in ("screen", "full"):
        for l in lines(os.path.join(d, mode)):
            med = tune_median(l["report"])
            if med is not None:
                name = l["id"].rsplit(".", 1)[0]
                per_bundle.setdefault(name, {}).setdefault(mode, []).append(med)
    errors = []
    for name, m in sorted(per_bundle.items()):
        if "screen" in m and "full" in m:
            s, f = statistics.median(m["screen"]), statistics.median(m["full"])
            entry["screening"][name] = {
                "screen_median_us": s, "full_median_us": f, "rel_err": (s - f) / f,
                "repeats": len(m["screen"]),
                "screen_spread_rel": (max(m["screen"]) - min(m["screen"])) / s,
                "full_spread_rel": (max(m["full"]) - min(m["full"])) / f}
            errors.append(abs((s - f) / f))
    if errors:
        entry["screening_abs_rel_err"] = {"median": statistics.median(errors), "max": max(errors),
                                          "bundles": len(errors)}
    waits = []
    for half in ("pair-a", "pair-b"):
        for rp in glob.glob(os.path.join(d, half, "*", "report.json")):
            lock = json.load(open(rp)).get("timing_lock")
            if lock:
                waits.append(lock["waited_s"])
    entry["pair_lock_wait_s"] = {"total": sum(waits), "holds": len(waits)}
    summary["tasks"][task] = entry
iso = lines(os.path.join(out, "gelu_bias", "isolation"))
if iso:
    summary["isolation"] = {"lines": iso,
                            "good_all_ok": all(l["status"] == "ok" for l in iso
                                               if l["id"].endswith("-good"))}
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=2)
for task, e in summary["tasks"].items():
    cps = e["candidates_per_s"]
    err = e.get("screening_abs_rel_err", {})
    print("%s: candidates/s none %.2f, screen %.2f, full %.2f, one process each %.2f, "
          "two batches at once %.2f, screen with kept baselines %.2f; screen vs full "
          "|rel err| median %s max %s" % (
              task, cps.get("none", 0), cps.get("screen", 0), cps.get("full", 0),
              cps.get("single", 0), cps.get("pair", 0), cps.get("kept", 0),
              err.get("median"), err.get("max")))
EOF
say "done in $(( $(date +%s) - start )) s; summary in $out/summary.json"
