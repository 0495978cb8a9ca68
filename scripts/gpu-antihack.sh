#!/usr/bin/env bash
#===- scripts/gpu-antihack.sh - Wrong GPU bundles must be rejected --------===#
#
#   scripts/gpu-antihack.sh --prepare       CPU machine: compile the variants of
#                                           test/Runner/GPU/antihack into build-antihack/
#   scripts/gpu-antihack.sh BUNDLES OUT     GPU machine: build kbench-run (as
#                                           gpu-eval.sh does) and run each bundle
#
# Exit 0 when every bundle was rejected with its expected verdict.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/test/Runner/GPU/antihack

if [ "${1:-}" = "--prepare" ]; then
  out=$root/build-antihack
  rm -rf "$out" && mkdir -p "$out"
  for dir in "$src"/*/; do
    [ -f "$dir/kernel.mlir" ] || continue
    "$root/build/bin/kbench" compile "$dir" --no-verify --no-cache -o "$out/$(basename "$dir")" >/dev/null || exit 2
  done
  for dir in "$src"/*/; do
    name=$(basename "$dir")
    if [ -f "$dir/kernel.ptx" ]; then
      # Hand-written PTX with gelu_bias's ABI: reuse a gelu_bias manifest.
      mkdir -p "$out/$name"
      sed 's/"ir_hash": "[^"]*"/"ir_hash": "hand-written PTX"/' "$out/zeros/manifest.json" >"$out/$name/manifest.json"
      cp "$dir/kernel.ptx" "$out/$name/"
      /usr/local/cuda/bin/ptxas -arch=sm_90a "$dir/kernel.ptx" -o "$out/$name/kernel.cubin" || exit 2
    fi
  done
  echo "gpu-antihack: bundles in $out"
  exit 0
fi

[ $# -eq 2 ] || { echo "usage: scripts/gpu-antihack.sh --prepare | BUNDLES OUT" >&2; exit 2; }
bundles=$(cd "$1" && pwd); mkdir -p "$2"; out=$(cd "$2" && pwd)
build=${BUILD_DIR:-$root/build-gpu}
deps=${KBENCH_DEPS:-$root/build-deps}
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)') || exit 2
json_include=""; [ -f /usr/include/nlohmann/json.hpp ] || json_include="$deps/include"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKBENCH_RUNNER_ONLY=ON \
  -DCMAKE_PREFIX_PATH="$torch_prefix" ${json_include:+-DKBENCH_JSON_INCLUDE_DIR=$json_include} \
  >"$out/configure.log" 2>&1 && ninja -C "$build" kbench-run >"$out/build.log" 2>&1 \
  || { echo "gpu-antihack: build failed (see $out)"; exit 2; }

declare -A expected=([zeros]=mismatch [write_input]=input_modified [unwritten]=unwritten
                     [tune_only]=mismatch [skip_last]=unwritten [fault]=crash [hang]=timeout)
status=0
for name in zeros write_input unwritten tune_only skip_last fault hang; do
  task=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['task'])" "$bundles/$name/manifest.json")
  "$build/bin/kbench-run" --target sm_90a --shapes check --no-timing --timeout 10 \
    "$root/tasks/$task" "$bundles/$name" -o "$out/$name" >"$out/$name.txt" 2>&1
  rc=$?
  failures=$(grep -m1 "failures:" "$out/$name.txt" | sed 's/^ *//')
  verdict=$(grep -m1 "^verdict:" "$out/$name.txt")
  if [ $rc -ne 0 ] && grep -q "${expected[$name]}" "$out/$name.txt"; then
    echo "REJECTED $name (exit $rc): $verdict; $failures"
  else
    echo "MISSED   $name (exit $rc, expected ${expected[$name]}): $verdict; $failures"
    status=1
  fi
done
exit $status
