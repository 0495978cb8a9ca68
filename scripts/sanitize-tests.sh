#!/usr/bin/env bash
#===- scripts/sanitize-tests.sh - The test suite under ASan and UBSan -----===#
#
# Usage: scripts/sanitize-tests.sh [--build-only] [lit arguments...]
#        (lit's arguments default to -s)
#
# Builds everything into build-sanitize/ (SANITIZE_BUILD_DIR overrides) with
# -fsanitize=address,undefined, then runs the whole lit suite against that
# build: every tool and unit test the suite runs is instrumented, and any
# report fails its test (UBSan does not recover; ASan stops at the first
# error). Ends with "N passed, N failed" like scripts/test.sh.
#
# Suppressions (scripts/sanitize/lsan.supp) name third-party libraries only:
# the leaks LeakSanitizer reports from Debian's LLVM/MLIR, LibTorch and
# Python, which allocate process-lifetime registries and never free them.
# UBSan needs none: it reports only from instrumented (kbench) code.
# docs/robustness.md says what the first run found.
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SANITIZE_BUILD_DIR:-$root/build-sanitize}
build_only=0
if [ "${1:-}" = --build-only ]; then build_only=1; shift; fi

"$root/scripts/setup.sh" || exit 1
if [ ! -f "$build/build.ninja" ]; then
  mkdir -p "$build"
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # vptr needs RTTI, which LLVM-style libraries are built without; -O1 keeps
  # stacks readable and the build short.
  flags="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g1"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    ${launcher[@]+"${launcher[@]}"} >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"; exit 1; }
fi
ninja -C "$build" -j2 all || { echo "0 passed, 1 failed"; exit 1; }
[ "$build_only" -eq 0 ] || exit 0

supp=$root/scripts/sanitize
# allow_user_poisoning=0: LLVM headers compiled with ASan poison allocator
# memory that the uninstrumented libMLIR.so then reads, a false
# use-after-poison (docs/robustness.md). handle_segv/bus/fpe=0: the runner's
# tests load kernels that fault on purpose and expect the signal, which ASan
# would turn into its own report and exit 1; a real fault in kbench still
# ends the process with the signal, and its test fails.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:allow_user_poisoning=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

log=$(mktemp)
[ $# -gt 0 ] || set -- -s
/usr/lib/llvm-22/bin/lit --param sanitizer=asan "$@" "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The labels are padded to one width when some are longer ("Passed  : 9").
count() { awk -v key="$1" '$1 == key && ($2 == ":" || $2 ~ /^:/) { v = $2 == ":" ? $3 : substr($2, 2); n = v } $1 == key":" { n = $2 } END { print n + 0 }' "$log"; }
passed=$(count Passed)
failed=$(( $(count Failed) + $(count Unresolved) + $(count Timed) + $(count XPASS) ))
skipped=$(count Unsupported)
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
