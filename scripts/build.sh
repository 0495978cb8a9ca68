#!/usr/bin/env bash
#===- scripts/build.sh - Configure (once) and build kbench ---------------===#
# Usage: scripts/build.sh [ninja targets...]   (BUILD_DIR overrides ./build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"; exit 1; }
fi
ninja -C "$build" -j"$(nproc)" "$@"
