#!/usr/bin/env bash
#===- scripts/setup.sh - Install everything kbench needs on Debian 12 -----===#
#
# Idempotent: packages already present are skipped, so the README's commands can
# call this first on every run. Everything comes from Debian's archive; the CUDA
# toolkit (ptxas) is expected in its standard place (/usr/local/cuda) and is only
# used when present.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  nlohmann-json3-dev libtorch-dev python3-torch googletest libgtest-dev
  libsqlite3-dev sqlite3 libcurl4-openssl-dev
  postgresql libpq-dev
  clang-22 libclang-rt-22-dev
)

# The results charts (docs/results.md) are rendered by vega-lite's vl2svg from
# npm, and test/Mcp drives kbench mcp with the MCP TypeScript SDK from npm, both
# pinned in package-lock.json; Debian's nodejs and npm when there is no npm.
command -v npm >/dev/null || packages+=(nodejs npm)

# npm ci when package-lock.json changed since node_modules was installed.
charts() {
  local root
  root=$(cd "$(dirname "$0")/.." && pwd)
  if [ ! -f "$root/node_modules/.package-lock.json" ] ||
     [ "$root/package-lock.json" -nt "$root/node_modules/.package-lock.json" ]; then
    echo "setup: npm ci (vega, vega-lite, vega-cli for the charts; the MCP SDK for test/Mcp)"
    # --ignore-scripts: SVG needs no canvas, whose native build would fetch binaries.
    (cd "$root" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  charts
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
charts
