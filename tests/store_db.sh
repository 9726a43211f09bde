#!/bin/sh
# Run a store test against a new, empty store of one back end:
#   store_db.sh sqlite SCRATCH CMD [ARG...]   TALLY_STORE_URL=SCRATCH/store-PID.db
#   store_db.sh pg SCRATCH CMD [ARG...]       TALLY_STORE_URL=a new database of the server
#                                             TALLY_TEST_PG_URL names, dropped afterwards
# Without TALLY_TEST_PG_URL the pg tests are skipped (exit 77) on a workstation and fail in CI
# (CI set): .ci/test starts a throwaway server (tests/pg_cluster.sh), so a missing URL there is
# a broken setup, never a reason to skip.
set -eu
backend="$1" scratch="$2"
shift 2
mkdir -p "$scratch"
case "$backend" in
sqlite)
    url="$scratch/store-$$.db"
    rm -f "$url" "$url-wal" "$url-shm"
    trap 'rm -f "$url" "$url-wal" "$url-shm"' EXIT
    ;;
pg)
    if [ -z "${TALLY_TEST_PG_URL:-}" ]; then
        if [ -n "${CI:-}" ]; then
            echo "store_db: CI is set but TALLY_TEST_PG_URL is not: the PostgreSQL tests must run" >&2
            exit 1
        fi
        echo "store_db: TALLY_TEST_PG_URL unset: PostgreSQL tests skipped (tests/pg_cluster.sh start)" >&2
        exit 77
    fi
    db="tally_t_$$_$(date +%s)"
    psql "$TALLY_TEST_PG_URL" -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" >/dev/null
    trap 'psql "$TALLY_TEST_PG_URL" -qX -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true' EXIT
    # The same server and options, the new database: replace the URL's path.
    url="$(printf '%s' "$TALLY_TEST_PG_URL" | sed "s#^\(postgres[a-z]*://[^/?]*\)/[^?]*#\1/$db#")"
    ;;
*)
    echo "store_db: unknown back end '$backend' (sqlite, pg)" >&2
    exit 2
    ;;
esac
TALLY_STORE_URL="$url" "$@"
