#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store tests: Debian's server binaries, a data directory
# and a Unix socket in one temporary directory, no TCP (listen_addresses=''), a database and a
# role for the tests. Used by .ci/test around ctest.
#   eval "$(tests/pg_cluster.sh start)"   prints export lines: TALLY_TEST_PG_URL, TALLY_PG_CLUSTER
#   tests/pg_cluster.sh stop [DIR]        stops the cluster and deletes DIR (default
#                                         $TALLY_PG_CLUSTER)
# As root the server runs as the user postgres (initdb refuses root); otherwise as the caller.
set -euo pipefail

bindir() {
    local d
    d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [[ -n "$d" && -x "$d/initdb" ]] || { echo "pg_cluster: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }
    echo "$d"
}

as_owner() {
    if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
    local bin dir
    bin="$(bindir)"
    dir="$(mktemp -d /tmp/tally-pg.XXXXXX)"
    mkdir -p "$dir/data" "$dir/sock"
    [[ $(id -u) -eq 0 ]] && chown -R postgres: "$dir"
    chmod 700 "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
    # Writes at the speed of memory: a test cluster needs no durability across power loss.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir/sock -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=40" \
        start >/dev/null || { cat "$dir/server.log" >&2; rm -rf "$dir"; exit 1; }
    as_owner "$bin/psql" -h "$dir/sock" -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE tally_test LOGIN CREATEDB" -c "CREATE DATABASE tally_test OWNER tally_test" >/dev/null
    # The socket directory must be reachable by the tests (any user) as well.
    chmod 755 "$dir"
    chmod 777 "$dir/sock"
    echo "export TALLY_PG_CLUSTER='$dir'"
    echo "export TALLY_TEST_PG_URL='postgresql://tally_test@/tally_test?host=$dir/sock'"
}

stop() {
    local dir="${1:-${TALLY_PG_CLUSTER:-}}" bin
    [[ -n "$dir" && -d "$dir" ]] || return 0
    bin="$(bindir)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}

case "${1:-}" in
start) start ;;
stop) stop "${2:-}" ;;
*) echo "usage: $0 start|stop [DIR]" >&2; exit 2 ;;
esac
