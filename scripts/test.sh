#!/usr/bin/env bash
#===- scripts/test.sh - Install what is missing, build, run every test ---===#
#
# The README's test command. Runs the whole lit suite (which includes the
# GoogleTest unit tests) and ends with one line "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

"$root/scripts/setup.sh" || exit 1
"$root/scripts/build.sh" all || { echo "0 passed, 1 failed"; exit 1; }

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit prints "  Passed: N", "  Failed: N", "  Unsupported: N", ... in its summary.
# The labels are padded to one width when some are longer ("Passed  : 9").
count() { awk -v key="$1" '$1 == key && ($2 == ":" || $2 ~ /^:/) { v = $2 == ":" ? $3 : substr($2, 2); n = v } $1 == key":" { n = $2 } END { print n + 0 }' "$log"; }
passed=$(count Passed)
failed=$(( $(count Failed) + $(count Unresolved) + $(count Timed) + $(count XPASS) ))
skipped=$(count Unsupported)
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1   # lit failed without a test verdict (e.g. a configuration error)
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
