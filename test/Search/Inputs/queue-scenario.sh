#!/usr/bin/env bash
# A search served by kbench-worker processes through the archive's queue,
# with the failures a fleet of workers meets (test/Search/queue*.test):
#   - a worker that claims a job and hangs is killed -9 holding its claim;
#   - a worker cut off from the database for longer than its lease comes
#     back and submits a result for a job another worker has taken over;
#   - with --restart-db, the PostgreSQL server restarts mid-search.
# The best 2 candidates are re-measured at the end, together in one job
# (one worker, one GPU).
# Then it checks, in the archive, that nothing was lost (every bundle of
# every job has an accepted result, every compiled candidate an evaluation)
# and nothing accepted twice, and prints one summary line per fact.
# Usage: queue-scenario.sh ARCHIVE OUTDIR [--restart-db]
set -euo pipefail
archive=$1
out=$2
restart=${3:-}
src=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$out"

sql() {
  if [[ $archive == postgresql:* ]]; then
    PGOPTIONS="-c search_path=kbench_${archive#postgresql:}" psql -XAtq -c "$1"
  else
    sqlite3 "$archive" "$1"
  fi
}
# wait_for SQL N: until the query's number is >= N (60 s at most).
wait_for() {
  local value=""
  for _ in $(seq 1 600); do
    value=$(sql "$1" 2>/dev/null || true)
    if [ -n "$value" ] && [ "$value" -ge "$2" ]; then return 0; fi
    sleep 0.1
  done
  echo "queue-scenario: timed out waiting for '$1' >= $2 (last: '$value')" >&2
  return 1
}

kbench search "$src/tasks/row_sum" --target host \
  --space "$src/test/Search/Inputs/row_sum-space.mlir" --budget 8 --round-size 2 \
  --seed 5 --fitness model --confirm 2 --archive "$archive" --work-dir "$out/search.d" \
  --queue --queue-wait 120 > "$out/search.out" 2>&1 &
search=$!
# Round 0 is enqueued (the archive exists from then on).
wait_for "SELECT COUNT(*) FROM jobs" 1

kbench-worker --archive "$archive" --lease 1 --testing-stall 600 --name hung \
  --work-dir "$out/hung" > "$out/hung.log" 2>&1 &
hung=$!
wait_for "SELECT COUNT(*) FROM jobs WHERE worker = 'hung'" 1
kill -9 "$hung"
wait "$hung" 2>/dev/null || true
echo "killed -9 a worker holding a claim"

kbench-worker --archive "$archive" --lease 1 --testing-stall 5 --exit-when-idle 5 \
  --name late --work-dir "$out/late" > "$out/late.log" 2>&1 &
late=$!
wait_for "SELECT COUNT(*) FROM jobs WHERE worker = 'late'" 1
kbench-worker --archive "$archive" --lease 1 --workers 2 --exit-when-idle 5 \
  --name steady --work-dir "$out/steady" > "$out/steady.log" 2>&1 &
steady=$!

if [ "$restart" = --restart-db ]; then
  wait_for "SELECT COUNT(*) FROM results WHERE accepted = 1" 3
  "$src/scripts/pg-cluster.sh" restart "$KBENCH_PG_DIR"
  echo "restarted the database after $(sql 'SELECT COUNT(*) FROM results WHERE accepted = 1') accepted results"
fi

status=0
wait "$search" || status=$?
echo "search exit $status"
wait "$late" || echo "worker late failed"
wait "$steady" || echo "worker steady failed"
grep "kbench search: done" "$out/search.out" | sed "s/ (.*//" || echo "the search did not finish: $(tail -3 "$out/search.out")"
echo "unfinished jobs: $(sql "SELECT COUNT(*) FROM jobs WHERE state <> 'done'")"
echo "bundles without an accepted result: $(sql "SELECT COUNT(*) FROM job_bundles b WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.job_id = b.job_id AND r.request_id = b.request_id AND r.accepted = 1)")"
echo "bundles accepted twice: $(sql "SELECT COUNT(*) FROM (SELECT job_id, request_id FROM results WHERE accepted = 1 GROUP BY job_id, request_id HAVING COUNT(*) > 1) twice")"
echo "compiled candidates without an evaluation: $(sql "SELECT COUNT(*) FROM candidates WHERE stage = 'compiled' AND eval_status IS NULL")"
echo "jobs claimed more than once: $(sql "SELECT CASE WHEN MAX(claims) > 1 THEN 'some' ELSE 'none' END FROM jobs")"
echo "elites re-measured in one job: $(sql "SELECT COUNT(DISTINCT j.id) || ' job, ' || COUNT(*) || ' bundles' FROM jobs j JOIN job_bundles b ON b.job_id = j.id WHERE j.round_name LIKE 'confirm-%'")"
echo "superseded results: $(sql "SELECT CASE WHEN COUNT(*) > 0 THEN 'some' ELSE 'none' END FROM results WHERE accepted = 0")"
sql "SELECT id, round, idx, knobs, stage, ir_hash, eval_status, verdict, CAST(ROUND(fitness * 1000000) AS BIGINT) FROM candidates ORDER BY id" > "$out/rows"
