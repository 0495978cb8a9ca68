#!/usr/bin/env bash
#===- scripts/pg-cluster.sh - A throwaway PostgreSQL server ---------------===#
#
# Usage: scripts/pg-cluster.sh start|stop|restart DIR
#        scripts/pg-cluster.sh run COMMAND [ARGS...]
#
# start: creates a cluster in DIR (Debian's postgresql package: initdb,
# pg_ctl), listening on a Unix socket in DIR only (no TCP), trusting local
# connections, and writes DIR/env: the PGHOST, PGPORT, PGUSER and PGDATABASE
# that kbench search --archive postgresql:NAME and kbench-worker read.
# `. DIR/env` in a shell. stop: stops it (fast mode); restart: stops and
# starts it (the restart the queue tests survive). run: a server in a new
# folder under /tmp for the length of COMMAND, which finds the variables
# above and KBENCH_PG_DIR in its environment; the server is stopped and the
# folder removed however COMMAND ends, and its exit status is run's. The tests and
# scripts/queue-bench.sh use it; a real deployment uses a managed server
# (docs/search.md, "Search across machines").
#
# PostgreSQL refuses to run as root: as root, the server runs as the
# `postgres` user the package created, and DIR is handed to it.
# fsync is off (KBENCH_PG_FSYNC=on to turn it on): these clusters hold test
# data that dies with them.
set -euo pipefail
action=${1:-}
if [ "$action" = run ]; then
  shift
  if [ $# -eq 0 ]; then
    echo "usage: $0 run COMMAND [ARGS...]" >&2
    exit 2
  fi
  # /tmp: the socket's path must stay under the kernel's 107 characters.
  dir=$(mktemp -d /tmp/kbench-pg.XXXXXX)
  cleanup() {
    "$0" stop "$dir" 2>/dev/null || true
    rm -rf "$dir"
  }
  trap cleanup EXIT
  "$0" start "$dir"
  # shellcheck disable=SC1091
  . "$dir/env"
  export KBENCH_PG_DIR=$dir
  status=0
  "$@" || status=$?
  exit $status
fi
dir=${2:-}
if [ -z "$action" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop|restart DIR, or $0 run COMMAND [ARGS...]" >&2
  exit 2
fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "$0: no PostgreSQL server (install Debian's postgresql: scripts/setup.sh)" >&2
  exit 1
fi
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
user=$(if [ "$(id -u)" = 0 ]; then echo postgres; else id -un; fi)
port=5432

case "$action" in
start)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_owner "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust -E UTF8 \
      --no-locale > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  fi
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -p $port -c fsync=${KBENCH_PG_FSYNC:-off}" \
    start > /dev/null || { cat "$dir/server.log" >&2; exit 1; }
  printf 'export PGHOST=%q PGPORT=%s PGUSER=%s PGDATABASE=postgres\n' \
    "$dir" "$port" "$user" > "$dir/env"
  ;;
stop)
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop > /dev/null
  ;;
restart)
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 restart > /dev/null
  ;;
*)
  echo "$0: unknown action '$action' (start, stop or restart)" >&2
  exit 2
  ;;
esac
