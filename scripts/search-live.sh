#!/usr/bin/env bash
#===- scripts/search-live.sh - Live search rounds of every memory-bound task ===#
#
#   scripts/search-live.sh step LIVE_DIR [--from DIR]     CPU machine (MLIR)
#   scripts/search-live.sh measure LIVE_DIR [OUT_DIR]     GPU machine (no MLIR)
#   scripts/search-live.sh setup LIVE_DIR [OUT_DIR]       GPU machine: measure's
#                                                         first half alone
#   scripts/search-live.sh bundles LIVE_DIR BUNDLES_DIR   CPU machine: exports
#                                                         and defaults to evaluate
#   scripts/search-live.sh pack LIVE_DIR PACK_DIR         CPU machine: only what
#                                                         measure needs
#
# Drives `kbench search` for several tasks at once through the round trip of
# docs/search.md ("Compile here, measure there"), so that each round of all
# tasks costs the GPU machine one command:
#
#   step     for every task: copies the reports that came back (--from DIR,
#            the OUT_DIR of `measure`, laid out DIR/<task>/<round>/out/, or
#            the reports.tar.gz that `measure` writes there, which is read
#            when DIR holds it and no round folders) into
#            its round folders, then starts or resumes its search, which
#            compiles the next round into LIVE_DIR/<task>/rounds/<round>/
#            (exit 3) or finishes (the budget is spent and the best elites
#            re-measured with the full protocol; exit 0). Writes
#            LIVE_DIR/pending.txt ("<task> <round folder>" per waiting task)
#            and prints the command to run on the GPU machine, or "all done".
#   measure  on the GPU machine: builds kbench-run (scripts/gpu-build-runner.sh,
#            kept in build-gpu/ between calls), measures the ceilings once
#            (build-gpu/calibration.json) and builds the torch.compile
#            packages of the tasks' tune shapes once (build-aoti/), keeps the
#            baselines' screening timings in build-gpu/baseline-timings.json
#            (KBENCH_BASELINE_TIMINGS: another file), then runs
#            scripts/search-round.sh on every folder of pending.txt, one task
#            after the other, and copies each out/ to OUT_DIR/<task>/<round>/out
#            (OUT_DIR defaults to $OUT, else LIVE_DIR/measured), and the same
#            tree as one file, OUT_DIR/reports.tar.gz, for transports that
#            bring back only a few levels of folders.
#   setup    the runner, the ceilings and the packages without any round: a
#            first call on a fresh machine, so that no `measure` pays the
#            build and inductor's cold start (minutes) inside its time limit.
#   bundles  CPU machine: compiles, per task, what the searches found beside
#            the task's default into BUNDLES_DIR for scripts/gpu-eval.sh (the
#            full protocol, side by side): <task>-dispatch from the dispatch
#            export, <task>-best from best.mlir (each when it exists) and
#            <task> from the task's own default.
#   pack     CPU machine: copies what `measure` reads (settings, pending.txt
#            and the pending round folders) into PACK_DIR, replacing it. LIVE_DIR
#            grows by every round's bundles and archive; carrying PACK_DIR to
#            the GPU machine instead keeps each round's transfer at the size of
#            one round (a few MB). `measure PACK_DIR` lays its reports out as
#            `measure LIVE_DIR` would, so `step LIVE_DIR --from` takes them.
#
# The first `step` fixes the settings in LIVE_DIR/settings (later steps read
# them): KBENCH_LIVE_TASKS (default "gelu_bias layernorm row_softmax
# row_sum"), KBENCH_LIVE_BUDGET (128), KBENCH_LIVE_ROUND_SIZE (16),
# KBENCH_LIVE_SEED (1), KBENCH_LIVE_START (naive), KBENCH_LIVE_SCORE (multi),
# KBENCH_LIVE_TARGET (sm_90a; host for tests). `measure` uses $KBENCH_RUN
# instead of building when it is set, and skips the ceilings with
# KBENCH_LIVE_CALIBRATE=0 and the torch.compile packages with
# KBENCH_COMPILED_BASELINES=0.
# Each task's archive is LIVE_DIR/<task>/search.db, its best schedule
# LIVE_DIR/<task>/best.mlir, its dispatch export (sm_90a, once a candidate
# was timed; docs/search.md, "Exporting a dispatch") LIVE_DIR/<task>/dispatch/, its last output LIVE_DIR/<task>/step.json and
# step.log. `step` needs build/bin/kbench; `measure` needs torch, nvcc and
# build-deps/ (scripts/gpu-eval.sh --prepare). Exit status: 0 done or a round
# is ready, 1 a search or a round failed, 2 bad usage.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: scripts/search-live.sh step LIVE_DIR [--from DIR] | measure LIVE_DIR [OUT_DIR] | setup LIVE_DIR [OUT_DIR] | bundles LIVE_DIR BUNDLES_DIR | pack LIVE_DIR PACK_DIR" >&2
  exit 2
}
[ $# -ge 2 ] || usage
mode=$1 live=$2
shift 2

step() {
  local from=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --from) [ $# -ge 2 ] || usage; from=$2; shift 2 ;;
      *) usage ;;
    esac
  done
  mkdir -p "$live" && live=$(cd "$live" && pwd)
  if [ ! -f "$live/settings" ]; then
    cat >"$live/settings" <<EOF
tasks="${KBENCH_LIVE_TASKS:-gelu_bias layernorm row_softmax row_sum}"
budget=${KBENCH_LIVE_BUDGET:-128}
round_size=${KBENCH_LIVE_ROUND_SIZE:-16}
seed=${KBENCH_LIVE_SEED:-1}
start=${KBENCH_LIVE_START:-naive}
score=${KBENCH_LIVE_SCORE:-multi}
target=${KBENCH_LIVE_TARGET:-sm_90a}
EOF
  fi
  # shellcheck source=/dev/null
  . "$live/settings"
  local kbench=${KBENCH:-$root/build/bin/kbench}
  [ -x "$kbench" ] || { echo "search-live: no $kbench (scripts/build.sh kbench)" >&2; exit 2; }
  # A folder whose round reports did not come back (a transport that drops
  # deep folders) but that holds measure's archive: read the archive.
  if [ -n "$from" ] && [ -d "$from" ] && [ -f "$from/reports.tar.gz" ] \
     && ! compgen -G "$from/*/*/out" >/dev/null; then
    from=$from/reports.tar.gz
  fi
  if [ -n "$from" ] && [ -f "$from" ]; then
    # measure's reports.tar.gz: unpack it beside the live folder's rounds.
    local unpacked="$live/from-archive"
    rm -rf "$unpacked" && mkdir -p "$unpacked"
    tar xzf "$from" -C "$unpacked" 2>/dev/null \
      || { echo "search-live: --from $from is neither a folder nor a reports.tar.gz of measure" >&2; exit 2; }
    from=$unpacked
  fi
  if [ -n "$from" ]; then
    [ -d "$from" ] || { echo "search-live: --from $from is no folder" >&2; exit 2; }
    local copied=0
    for out in "$from"/*/*/out; do
      [ -d "$out" ] || continue
      local round task
      round=$(basename "$(dirname "$out")")
      task=$(basename "$(dirname "$(dirname "$out")")")
      [ -d "$live/$task/rounds/$round" ] || { echo "search-live: $out belongs to no round of $live" >&2; exit 1; }
      rm -rf "$live/$task/rounds/$round/out"
      cp -r "$out" "$live/$task/rounds/$round/out"
      copied=$((copied + 1))
    done
    echo "search-live: ingested $copied round(s) from $from"
  fi
  : >"$live/pending.txt.partial"
  local failed=0 task
  for task in $tasks; do
    mkdir -p "$live/$task"
    local args=("$root/tasks/$task" --target "$target" --start "$start" --score "$score"
                --budget "$budget" --round-size "$round_size" --seed "$seed"
                --archive "$live/$task/search.db" --rounds-dir "$live/$task/rounds"
                --export "$live/$task/best.mlir" --json)
    [ -f "$live/$task/search.db" ] && args+=(--resume)
    # A host search times nothing, so only GPU searches export a dispatch.
    [ "$target" = host ] || args+=(--export-dispatch "$live/$task/dispatch")
    "$kbench" search "${args[@]}" >"$live/$task/step.json" 2>"$live/$task/step.log"
    local rc=$?
    case $rc in
      0) echo "search-live: $task done: $(python3 -c 'import json, sys; b = json.load(open(sys.argv[1])).get("best", {}); print(b.get("name"), b.get("knobs"), "full-protocol fitness", b.get("full_fitness"))' "$live/$task/step.json")" ;;
      3) local folder
         folder=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pending"])' "$live/$task/step.json")
         echo "$task ${folder#"$live"/}" >>"$live/pending.txt.partial"
         echo "search-live: $task waits for ${folder#"$live"/} ($(tail -1 "$live/$task/step.log" | cut -c1-80)...)" ;;
      *) echo "search-live: $task: kbench search exited $rc:" >&2; tail -5 "$live/$task/step.log" >&2; failed=1 ;;
    esac
  done
  mv "$live/pending.txt.partial" "$live/pending.txt"
  if [ -s "$live/pending.txt" ]; then
    echo "search-live: on the GPU machine, from the repository root:"
    echo "  scripts/search-live.sh measure ${live#"$root"/} \"\$OUT\""
  elif [ $failed = 0 ]; then
    echo "search-live: all done"
  fi
  return $failed
}

measure() {
  local rounds=$1
  shift
  local out=${1:-${OUT:-$live/measured}}
  [ -f "$live/pending.txt" ] || { echo "search-live: no $live/pending.txt (run step first)" >&2; exit 2; }
  live=$(cd "$live" && pwd)
  mkdir -p "$out" && out=$(cd "$out" && pwd)
  local build=${BUILD_DIR:-$root/build-gpu} aoti=${KBENCH_AOTI_CACHE:-$root/build-aoti}
  local log="$out/measure.log" t0
  t0=$(date +%s)
  : >"$log"
  local run=${KBENCH_RUN:-}
  if [ -z "$run" ]; then
    run=$(BUILD_DIR="$build" "$root/scripts/gpu-build-runner.sh" "$log") \
      || { tail -20 "$log" >&2; echo "search-live: the runner did not build (log: $log)" >&2; exit 1; }
  fi
  mkdir -p "$build"
  echo "search-live: kbench-run ready after $(( $(date +%s) - t0 )) s"
  local calibration=()
  if [ "${KBENCH_LIVE_CALIBRATE:-1}" != 0 ]; then
    if [ ! -f "$build/calibration.json" ]; then
      mkdir -p "$build"
      "$run" --calibrate -o "$build" >>"$log" 2>&1 || { echo "search-live: calibration failed (log: $log)" >&2; exit 1; }
    fi
    cp "$build/calibration.json" "$out/"
    calibration=(KBENCH_CALIBRATION="$build/calibration.json")
  fi
  local tasks
  tasks=$(cut -d' ' -f1 "$live/pending.txt" | paste -sd, -)
  if [ "${KBENCH_COMPILED_BASELINES:-1}" != 0 ]; then
    # A package already in the cache is reused: only the first call pays.
    timeout "${KBENCH_AOTI_TIMEOUT:-300}" python3 "$root/scripts/gpu-aoti-package.py" \
      -o "$aoti" --tasks "$tasks" --sets tune >"$out/aoti-package.log" 2>&1 \
      || echo "search-live: some torch.compile packages are missing (see aoti-package.log)"
    export KBENCH_COMPILED_BASELINES=$aoti
  else
    unset KBENCH_COMPILED_BASELINES
  fi
  echo "search-live: baselines ready after $(( $(date +%s) - t0 )) s"
  [ "$rounds" = rounds ] || return 0
  local failed=0 task folder
  while read -r task folder; do
    local round=$live/$folder t1
    t1=$(date +%s)
    # The baselines' screening timings stay on this machine between calls,
    # like the ceilings: a round reuses what this GPU measured for its task.
    env KBENCH_RUN="$run" ${calibration[@]+"${calibration[@]}"} \
      KBENCH_BASELINE_TIMINGS="${KBENCH_BASELINE_TIMINGS:-$build/baseline-timings.json}" \
      "$root/scripts/search-round.sh" "$round" >"$round.log" 2>&1
    local rc=$?
    if [ -f "$round/out/batch.jsonl" ]; then
      mkdir -p "$out/$task/$(basename "$round")"
      cp -r "$round/out" "$out/$task/$(basename "$round")/"
      cp "$round.log" "$out/$task/$(basename "$round")/"
      echo "search-live: $task $(basename "$round"): $(wc -l <"$round/out/batch.jsonl") bundles in $(( $(date +%s) - t1 )) s (exit $rc)"
    else
      echo "search-live: $task $(basename "$round") left no out/batch.jsonl (exit $rc):" >&2
      tail -5 "$round.log" >&2
      failed=1
    fi
  done <"$live/pending.txt"
  # One file with every report of this call, relative to OUT_DIR: each
  # <task>/<round>/out, the search rounds (round-*) and the full-protocol
  # confirmations of the elites (confirm-*) alike.
  (cd "$out" && find . -mindepth 3 -maxdepth 3 -type d -name out -print | sed 's|^\./||' \
     | tar czf reports.tar.gz -T -) || failed=1
  echo "search-live: reports in $out (and $out/reports.tar.gz) after $(( $(date +%s) - t0 )) s"
  return $failed
}

bundles() {
  local out=$1
  [ -f "$live/settings" ] || { echo "search-live: no $live/settings (run step first)" >&2; exit 2; }
  # shellcheck source=/dev/null
  . "$live/settings"
  local kbench=${KBENCH:-$root/build/bin/kbench}
  [ -x "$kbench" ] || { echo "search-live: no $kbench (scripts/build.sh kbench)" >&2; exit 2; }
  mkdir -p "$out" && out=$(cd "$out" && pwd)
  local failed=0 count=0 task name what
  for task in $tasks; do
    for name in "$task-dispatch" "$task-best" "$task"; do
      case $name in
        *-dispatch) [ -f "$live/$task/dispatch/dispatch.json" ] || continue
                    what=(--dispatch "$live/$task/dispatch/dispatch.json") ;;
        *-best) [ -f "$live/$task/best.mlir" ] || continue
                what=(--schedule "$live/$task/best.mlir") ;;
        *) what=() ;;
      esac
      rm -rf "${out:?}/$name"
      if "$kbench" compile "$root/tasks/$task" ${what[@]+"${what[@]}"} --target "$target" \
           -o "$out/$name" >"$out/$name.log" 2>&1; then
        count=$((count + 1))
      else
        echo "search-live: $name did not compile:" >&2
        tail -5 "$out/$name.log" >&2
        failed=1
      fi
    done
  done
  echo "search-live: $count bundles in $out; on the GPU machine, from the repository root:"
  echo "  scripts/gpu-eval.sh ${out#"$root"/} \"\$OUT/eval\""
  return $failed
}

pack() {
  local dest=$1
  [ -f "$live/pending.txt" ] || { echo "search-live: no $live/pending.txt (run step first)" >&2; exit 2; }
  live=$(cd "$live" && pwd)
  rm -rf "$dest" && mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
  [ "$dest" != "$live" ] || { echo "search-live: pack needs a folder other than $live" >&2; exit 2; }
  cp "$live/settings" "$live/pending.txt" "$dest/"
  local task folder count=0
  while read -r task folder; do
    mkdir -p "$dest/$(dirname "$folder")"
    cp -r "$live/$folder" "$dest/$folder"
    rm -rf "$dest/$folder/out"
    count=$((count + 1))
  done <"$live/pending.txt"
  echo "search-live: $count pending round(s) in $dest ($(du -sh "$dest" | cut -f1)); on the GPU machine, from the repository root:"
  echo "  scripts/search-live.sh measure ${dest#"$root"/} \"\$OUT\""
}

case "$mode" in
  step) step "$@" ;;
  pack) [ $# -eq 1 ] || usage; pack "$@" ;;
  measure) [ $# -le 1 ] || usage; measure rounds "$@" ;;
  setup) [ $# -le 1 ] || usage; measure none "$@" ;;
  bundles) [ $# -eq 1 ] || usage; bundles "$@" ;;
  *) usage ;;
esac
