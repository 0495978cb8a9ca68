#!/usr/bin/env bash
#===- scripts/queue-bench.sh - The work queue's overhead and scaling ------===#
#
# Usage: scripts/queue-bench.sh OUTDIR [sqlite|postgresql]...
#   (default: both; postgresql starts a throwaway server: scripts/pg-cluster.sh)
#
# Measures, on this machine, the two targets of docs/search.md's "Search
# across machines":
#   1. claim-to-result overhead per candidate: 8 kbench-worker --record-only
#      processes drain one round of 128 real bundles (row_sum's default space,
#      a grid round), three times; each job's claim (with its files) and
#      result commit, from the workers' --stats lines; the median and p90;
#   2. throughput of host-target workers: a round of 24 bundles evaluated by
#      kbench-run on the host, drained by 1 worker and again (the same jobs,
#      reset) by 2; the wall time from the first claim to the last result,
#      by the database's clock.
# Writes OUTDIR/queue-bench.json and prints it. Run it on an otherwise idle
# machine: the numbers are the machine's. KBENCH_PG_FSYNC=on gives the
# PostgreSQL server a durable disk, as a real one has.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${KBENCH_BIN:-$root/build/bin}
out=${1:?usage: $0 OUTDIR [sqlite|postgresql]...}
shift
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(sqlite postgresql)
mkdir -p "$out"
out=$(cd "$out" && pwd)

# bench BACKEND ARCHIVE: both measurements on one archive location.
bench() {
  local backend=$1 archive=$2 dir="$out/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  sql() {
    if [[ $archive == postgresql:* ]]; then
      PGOPTIONS="-c search_path=kbench_${archive#postgresql:}" psql -XAtq -c "$1"
    else
      sqlite3 "$archive" "$1"
    fi
  }
  reset() {
    sql "DELETE FROM results; UPDATE jobs SET state = 'queued', worker = NULL, claim_token = 0, claims = 0, lease_until = NULL, claimed_at = NULL, heartbeat_at = NULL, done_at = NULL" >/dev/null
  }
  # 1. Overhead: one grid round of 128 bundles, 8 record-only workers.
  "$bin/kbench" search "$root/tasks/row_sum" --target host --strategy grid \
    --budget 128 --round-size 128 --fitness model --archive "$archive" \
    --work-dir "$dir/search" --queue --queue-wait 1 > "$dir/enqueue.log" 2>&1 || true
  local jobs
  jobs=$(sql "SELECT COUNT(*) FROM jobs")
  # Three drains of the same 128 jobs: 16 processes on a small machine make
  # one drain's median noisy.
  for rep in 1 2 3; do
    reset
    "$bin/kbench-worker" --archive "$archive" --record-only --workers 8 \
      --exit-when-idle 2 --stats "$dir/overhead$rep.jsonl" --work-dir "$dir/w8" 2> "$dir/w8.log"
  done
  # 2. Throughput: 24 of those bundles evaluated by kbench-run, 1 worker then 2.
  sql "DELETE FROM results; DELETE FROM job_files WHERE job_id > (SELECT MIN(id) + 23 FROM jobs); DELETE FROM job_bundles WHERE job_id > (SELECT MIN(id) + 23 FROM jobs); DELETE FROM jobs WHERE id > (SELECT MIN(id) + 23 FROM jobs)" >/dev/null
  local one two
  for n in 1 2; do
    reset
    "$bin/kbench-worker" --archive "$archive" --workers $n --exit-when-idle 2 \
      --work-dir "$dir/eval$n" --stats "$dir/eval$n.jsonl" 2> "$dir/eval$n.log"
    local wall
    wall=$(sql "SELECT (SELECT MAX(created_at) FROM results WHERE accepted = 1) - MIN(claimed_at) FROM jobs")
    local accepted
    accepted=$(sql "SELECT COUNT(*) FROM results WHERE accepted = 1")
    if [ $n = 1 ]; then one=$wall; else two=$wall; fi
    echo "$backend: $n worker(s): $accepted bundles in $wall s" >&2
  done
  python3 - "$backend" "$dir" "$jobs" "$one" "$two" <<'PY'
import json, statistics, sys
backend, d, jobs, one, two = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
reps = [[json.loads(l) for l in open(f"{d}/overhead{r}.jsonl")] for r in (1, 2, 3)]
lines = [l for rep in reps for l in rep]
over = sorted(l["overhead_ms"] for l in lines)
def p(q): return over[min(len(over) - 1, int(q * len(over)))]
per_drain = [statistics.median(l["overhead_ms"] for l in rep) for rep in reps]
evals = [json.loads(l) for l in open(f"{d}/eval1.jsonl")]
print(json.dumps({
    "backend": backend, "jobs": jobs, "record_only_workers": 8,
    "claim_to_result_ms": {"median": statistics.median(over), "p90": p(0.9), "max": over[-1],
                           "n": len(over), "median_per_drain": per_drain},
    "claim_ms_median": statistics.median(l["claim_ms"] for l in lines),
    "submit_ms_median": statistics.median(l["submit_ms"] for l in lines),
    "host_eval": {"bundles": 24, "one_worker_s": one, "two_workers_s": two,
                  "speedup": one / two,
                  "evaluate_ms_median_one_worker": statistics.median(l["evaluate_ms"] for l in evals)},
}))
PY
}

results=()
for backend in "${backends[@]}"; do
  case "$backend" in
  sqlite) results+=("$(bench sqlite "$out/sqlite.db")") ;;
  postgresql)
    export -f bench
    export bin root out
    results+=("$("$root/scripts/pg-cluster.sh" run bash -c 'bench postgresql postgresql:bench')") ;;
  *) echo "$0: unknown backend '$backend' (sqlite or postgresql)" >&2; exit 2 ;;
  esac
done
python3 -c 'import json,sys,datetime,platform,os
rows=[json.loads(r) for r in sys.argv[1:]]
print(json.dumps({"date": datetime.date.today().isoformat(), "machine": platform.node(),
  "cores": os.cpu_count(), "results": rows}, indent=2))' "${results[@]}" | tee "$out/queue-bench.json"
