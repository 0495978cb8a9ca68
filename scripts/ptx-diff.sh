#!/usr/bin/env bash
#===- scripts/ptx-diff.sh - Check that a compiler change keeps the PTX ----===#
#
# Compiles every task of tasks/ with its default schedule (`kbench compile`)
# and every input of test/Conversion/TileToGPU and test/Target/GPU (each
# `// -----` chunk through `kbench-opt --tile-to-gpu --kbench-gpu-to-ptx`) and
# writes the PTX (or, for inputs that are expected to fail, the diagnostics)
# under DIR. A refactoring of the GPU lowering must leave all of it unchanged.
#
#   scripts/ptx-diff.sh --save DIR   build the reference (run on the old compiler)
#   scripts/ptx-diff.sh DIR          compile again and diff against DIR
#
# Exit status 0 when every file is identical. BUILD_DIR overrides ./build;
# KBENCH_PTXAS / /usr/local/cuda/bin/ptxas is used by `kbench compile`.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
save=0
if [ "${1:-}" = "--save" ]; then save=1; shift; fi
if [ $# -ne 1 ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,15p' "$0" | sed 's/^#//'; exit 2
fi
ref=$1
if [ $save = 1 ]; then out=$ref; rm -rf "$out"; else out=$(mktemp -d); fi
mkdir -p "$out/tasks" "$out/tests"

for task in "$root"/tasks/*/; do
  t=$(basename "$task")
  if "$build/bin/kbench" compile "$task" -o "$out/tasks/$t.bundle" --no-cache \
       >"$out/tasks/$t.log" 2>&1; then
    cp "$out/tasks/$t.bundle/kernel.ptx" "$out/tasks/$t.ptx"
  else
    echo "FAILED: kbench compile tasks/$t" >"$out/tasks/$t.ptx"
    cat "$out/tasks/$t.log" >>"$out/tasks/$t.ptx"
  fi
  rm -rf "$out/tasks/$t.bundle" "$out/tasks/$t.log"
done

for f in "$root"/test/Conversion/TileToGPU/*.mlir "$root"/test/Target/GPU/*.mlir; do
  name=$(basename "$(dirname "$f")")-$(basename "$f" .mlir)
  # One file per `// -----` chunk, as --split-input-file would see them.
  awk -v dir="$out/tests" -v name="$name" '
    BEGIN { n = 0; file = dir "/" name "." n ".mlir" }
    /^\/\/ -----/ { close(file); n++; file = dir "/" name "." n ".mlir"; next }
    { print > file }' "$f"
  for chunk in "$out/tests/$name".*.mlir; do
    base=${chunk%.mlir}
    if ! "$build/bin/kbench-opt" "$chunk" --tile-to-gpu \
         --kbench-gpu-to-ptx="ptx-file=$base.ptx" -o /dev/null 2>"$base.err"; then
      # Expected failures (error tests, chunks that are not tile kernels):
      # keep the error lines, without the temporary file name (not the
      # notes: "see current operation" prints the IR of the moment).
      grep -a "error:" "$base.err" | sed "s|$chunk|INPUT|g" >"$base.ptx" || true
    fi
    rm -f "$chunk" "$base.err"
  done
done

if [ $save = 1 ]; then
  echo "saved $(find "$out" -name '*.ptx' | wc -l) files under $out"
  exit 0
fi
status=0
n=0
for f in $(cd "$ref" && find . -name '*.ptx' | sort); do
  n=$((n + 1))
  if ! cmp -s "$ref/$f" "$out/$f"; then
    echo "DIFFERS: $f"; diff "$ref/$f" "$out/$f" | head -20 || true; status=1
  fi
done
# Inputs added since the reference have nothing to compare with.
for f in $(cd "$out" && find . -name '*.ptx' | sort); do
  [ -e "$ref/$f" ] || echo "new (no reference): $f"
done
if [ $status = 0 ]; then echo "identical: $n PTX files"; rm -rf "$out"; else echo "new output kept under $out"; fi
exit $status
