#!/usr/bin/env bash
#===- scripts/build.sh - Configure (once) and build kbench ---------------===#
# Usage: scripts/build.sh [ninja targets...]   (BUILD_DIR overrides ./build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  mkdir -p "$build"
  # ccache (optional, not installed by setup.sh) makes rebuilds in several
  # worktrees of one machine cheap; CCACHE_BASEDIR keeps its keys path-free.
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${launcher[@]+"${launcher[@]}"} >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"; exit 1; }
fi
ninja -C "$build" -j"$(nproc)" "$@"
