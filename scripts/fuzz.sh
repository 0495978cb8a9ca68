#!/usr/bin/env bash
#===- scripts/fuzz.sh - Build and run kbench's libFuzzer targets ----------===#
#
# Usage: scripts/fuzz.sh [--time SECONDS] [--build-only | --no-build] [--seed]
#                        [--minimize] [TARGET...]
#
# Builds build-fuzz/ (FUZZ_BUILD_DIR overrides) with clang-22,
# -fsanitize=fuzzer,address and KBENCH_FUZZ=ON, then runs each TARGET (all by
# default: tile-ir transform tile-verify lowering task-json manifest
# mcp-request space dispatch) for
# SECONDS (default 300), one after the other, under nice -n 19. Each target
# fuzzes a working corpus in build-fuzz/corpus/<target>, started from the
# committed corpus tools/kbench-fuzz/corpus/<target>; crashes, timeouts and
# leaks land in build-fuzz/artifacts/<target>/, logs in build-fuzz/logs/.
# allow_user_poisoning=0: LLVM headers compiled with ASan poison allocator
# memory that the uninstrumented libMLIR.so then reads (false use-after-poison).
#
#   --no-build  run the binaries already in build-fuzz/
#   --seed      first add seeds from tasks/ and test/ to the working corpora
#   --minimize  afterwards merge each working corpus into a minimal one and
#               write it over the committed corpus (libFuzzer -merge=1)
#
# docs/robustness.md says what each target checks and what was found.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
all=(tile-ir transform tile-verify lowering task-json manifest mcp-request space dispatch)

seconds=300 build_only=0 no_build=0 seed=0 minimize=0 targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --no-build) no_build=1; shift ;;
    --seed) seed=1; shift ;;
    --minimize) minimize=1; shift ;;
    -h|--help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target $t (${all[*]})" >&2; exit 2; }
done

command -v clang++-22 >/dev/null || {
  echo "fuzz.sh: clang++-22 not found; scripts/setup.sh installs clang-22 and libclang-rt-22-dev" >&2
  exit 1; }

if [ ! -f "$build/build.ninja" ]; then
  mkdir -p "$build"
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # fuzzer-no-link: coverage counters in every kbench library; the
  # libFuzzer runtime itself is linked only into the kbench-fuzz-* binaries.
  flags="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer -gline-tables-only"
  # -O1: the usual optimization for fuzzing, and half the compile time of -O3.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address" \
    -DKBENCH_FUZZ=ON -DKBENCH_BUILD_RUNNER=OFF ${launcher[@]+"${launcher[@]}"} \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
fi
[ "$no_build" -eq 1 ] || nice -n 19 ninja -C "$build" -j2 "${targets[@]/#/kbench-fuzz-}"
[ "$build_only" -eq 0 ] || exit 0

# Seeds: what the repository already holds of each input kind. MLIR test
# files are split at their "// -----" markers; task kernels are also given
# with their default schedule applied (the lowering needs params that prove).
seed_target() {
  local t=$1 out=$build/corpus/$1 n=0 f
  mkdir -p "$out"
  split_mlir() {  # file -> one seed per "// -----" chunk
    awk -v out="$out" -v base="$(echo "$1" | tr '/' '_')" '
      /^\/\/ -----/ { n++; next } { print > (out "/seed_" base "_" n) }' "$1"
  }
  case "$t" in
    tile-ir|tile-verify|lowering)
      # Every kernel file of a task (kernel.mlir and a dispatch variant's own,
      # kernel_*.mlir), raw and under each of the task's schedules that
      # applies to it (a schedule written for another kernel file fails and
      # leaves no seed).
      for f in "$root"/tasks/*/kernel*.mlir; do
        local task name sched
        task=$(basename "$(dirname "$f")") name=$(basename "$f" .mlir)
        cp "$f" "$out/seed_task_${task}_$name"
        for sched in "$(dirname "$f")"/schedules/*.mlir; do
          "$root/build/bin/kbench-opt" "$f" \
            --transform-preload-library="transform-library-paths=$sched" \
            --transform-interpreter >"$out/seed_scheduled_${task}_${name}_$(basename "$sched" .mlir)" \
            2>/dev/null || rm -f "$out/seed_scheduled_${task}_${name}_$(basename "$sched" .mlir)"
        done
      done
      if [ "$t" != lowering ]; then
        while IFS= read -r f; do split_mlir "$f"; done < <(cd "$root" &&
          grep -rl "tile.kernel" test --include='*.mlir')
      else
        while IFS= read -r f; do split_mlir "$f"; done < <(cd "$root" &&
          grep -rl "tile.kernel" test/Conversion test/Target --include='*.mlir')
      fi ;;
    transform)
      for f in "$root"/tasks/*/schedules/*.mlir; do
        cp "$f" "$out/seed_$(basename "$(dirname "$(dirname "$f")")")_$(basename "$f")"
      done
      while IFS= read -r f; do split_mlir "$f"; done < <(cd "$root" &&
        grep -rl "transform.named_sequence" test --include='*.mlir') ;;
    space)
      # The spaces tasks ship, the test inputs, and the default space of
      # every task without one (the search derives it from the kernel).
      for f in "$root"/tasks/*/schedules/space.mlir; do
        cp "$f" "$out/seed_$(basename "$(dirname "$(dirname "$f")")")_space"
      done
      for f in "$root"/test/Search/Inputs/*space*.mlir; do cp "$f" "$out/seed_$(basename "$f")"; done
      for f in "$root"/tasks/*/kernel.mlir; do
        local task
        task=$(basename "$(dirname "$f")")
        [ -f "$root/tasks/$task/schedules/space.mlir" ] && continue
        "$root/build/bin/kbench" search "$root/tasks/$task" --print-space \
          >"$out/seed_default_$task" 2>/dev/null || rm -f "$out/seed_default_$task"
      done ;;
    task-json)
      for f in "$root"/tasks/*/task.json; do cp "$f" "$out/seed_$(basename "$(dirname "$f")")"; done
      while IFS= read -r f; do cp "$root/$f" "$out/seed_$(echo "$f" | tr '/' '_')"; done < <(
        cd "$root" && find test -name task.json) ;;
    manifest)
      while IFS= read -r f; do cp "$root/$f" "$out/seed_$(echo "$f" | tr '/' '_')"; done < <(
        cd "$root" && grep -rl '"kbench-bundle/1"' test --include='*.json') ;;
    dispatch)
      for f in "$root"/tasks/*/schedules/dispatch.json; do
        cp "$f" "$out/seed_$(basename "$(dirname "$(dirname "$f")")")"
      done ;;
  esac
  # Drop seeds that are empty or too large for the target's -max_len.
  find "$out" -name 'seed_*' \( -empty -o -size +64k \) -delete
  echo "fuzz.sh: $t: $(ls "$out" | wc -l) inputs in the working corpus"
}

max_len() {
  case "$1" in transform|dispatch) echo 4096 ;; *) echo 8192 ;; esac
}

for t in "${targets[@]}"; do
  committed=$root/tools/kbench-fuzz/corpus/$t
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/logs" "$committed"
  [ "$seed" -eq 0 ] || seed_target "$t"
  log=$build/logs/$t-$(date -u +%Y%m%dT%H%M%S).log
  echo "fuzz.sh: $t for ${seconds}s (log $log)"
  # One process at a time (-jobs/-workers stay 1): the machine is shared.
  ASAN_OPTIONS=allow_user_poisoning=0 nice -n 19 "$build/bin/kbench-fuzz-$t" "$build/corpus/$t" "$committed" \
    -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=60 \
    -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t/" >"$log" 2>&1 || echo "fuzz.sh: $t stopped with a finding; see $log"
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ *DONE' "$log" || true
  if [ "$minimize" -eq 1 ]; then
    fresh=$(mktemp -d)
    nice -n 19 "$build/bin/kbench-fuzz-$t" -merge=1 -max_len="$(max_len "$t")" -timeout=60 \
      "$fresh" "$committed" "$build/corpus/$t" >>"$log" 2>&1
    rm -f "$committed"/*
    cp "$fresh"/* "$committed"/ 2>/dev/null || true
    rm -rf "$fresh"
    echo "fuzz.sh: $t: $(ls "$committed" | wc -l) inputs in the committed corpus"
  fi
done
