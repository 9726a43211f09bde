#!/bin/sh
# `tally run` through its test driver: exit statuses, files written, stderr quiet when not a
# terminal. Usage: runner_cli.sh DRIVER TMPDIR
set -u
drv=$1
tmp=$2/runner_cli
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
fail=0
expect() { # expect STATUS DESCRIPTION -- ARGS...
    want=$1; what=$2; shift 3
    "$drv" run "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAILED: $what: exit $got, expected $want"; cat "$tmp/err"; fail=1
    fi
}
expect 0 "help" -- --help
grep -q '^Usage: tally run WORKLOAD' "$tmp/out" || { echo "FAILED: help text"; fail=1; }

expect 0 "hackbench sweep" -- hackbench --groups 1,2 --runs 2 --warmup 1 --loops 5 -o "$tmp/hb.json"
[ -s "$tmp/hb.json" ] || { echo "FAILED: no result set written"; fail=1; }
# header + 2 cases x (1 warm-up + 2 runs)
[ "$(wc -l <"$tmp/hb.json.journal")" -eq 7 ] || { echo "FAILED: journal lines"; fail=1; }
# Off a terminal: no progress line, only the one-line summary.
grep -q '^tally run: wrote .*/hb.json: 2 cases x 2 runs, 0 failed, [0-9]* s$' "$tmp/err" &&
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAILED: stderr not just the summary"; cat "$tmp/err"; fail=1; }
expect 0 "resume of a finished sweep" -- hackbench --groups 1,2 --runs 2 --warmup 1 --loops 5 -o "$tmp/hb.json" --resume
[ "$(wc -l <"$tmp/hb.json.journal")" -eq 7 ] || { echo "FAILED: resume reran runs"; fail=1; }

expect 0 "exec metric" -- --runs 2 --warmup 0 --metric 'v=([0-9]+)' --unit ops -o "$tmp/ex.json" -- sh -c 'echo v=42'
expect 1 "failing command" -- --runs 1 --warmup 0 -o "$tmp/fail.json" -- sh -c 'exit 3'
grep -q "1 run failed" "$tmp/err" || { echo "FAILED: failed-run message"; fail=1; }
# Every run failed: the first reason at the end (tally summary of such a file: the CLI case
# summary_all_failed).
grep -q "^tally run: every run failed; the first, of command: run 1: exit status 3$" "$tmp/err" ||
    { echo "FAILED: first failure reason"; cat "$tmp/err"; fail=1; }
# A rate unit without --direction is higher-is-better, as every reader of files takes it.
expect 0 "exec rate" -- --runs 2 --warmup 0 --metric 'v=([0-9]+)' --unit ops/s -o "$tmp/rate.json" -- sh -c 'echo v=42'
grep -q '"better": "higher"' "$tmp/rate.json" || { echo "FAILED: ops/s not higher-is-better"; fail=1; }
expect 0 "exec rate, lower given" -- --runs 2 --warmup 0 --metric 'v=([0-9]+)' --unit ops/s --direction lower -o "$tmp/rate2.json" -- sh -c 'echo v=42'
grep -q '"better": "lower"' "$tmp/rate2.json" || { echo "FAILED: --direction lower not kept"; fail=1; }

expect 0 "compare two commands" -- --runs 2 --warmup 0 --interleave --metric 'v=([0-9]+)' -o "$tmp/cmp.json" --compare 'a=echo v=1' --compare 'b=echo v=2'
# header + 2 configurations x 2 runs, alternating a, b, a, b
[ "$(grep -c '"case_index":0' "$tmp/cmp.json.journal")" -eq 2 ] || { echo "FAILED: compare journal"; fail=1; }
grep -q '"label": "b"' "$tmp/cmp.json" || { echo "FAILED: compare result sets"; fail=1; }
expect 2 "compare with a label" -- --label x -o "$tmp/x.json" --compare 'a=true'
expect 2 "bad compare" -- -o "$tmp/x.json" --compare 'true'

expect 2 "unknown workload" -- nope -o "$tmp/x.json"
expect 2 "no output" -- hackbench
expect 2 "unknown parameter" -- hackbench --bogus 3 -o "$tmp/x.json"
grep -q "unknown parameter 'bogus'" "$tmp/err" || { echo "FAILED: parameter message"; fail=1; }
expect 2 "bad runs" -- hackbench --runs 0 -o "$tmp/x.json"
expect 2 "exec without command" -- exec -o "$tmp/x.json"
[ -e "$tmp/x.json" ] && { echo "FAILED: output written on a usage error"; fail=1; }

# A hang-up (SIGHUP) or SIGQUIT ends the sweep like Ctrl-C (old code: SIGHUP killed tally at
# once, leaving the sleep running): exit 130, the run's processes gone
# (here a background sleep of the run's shell), the resume hint. The run tells through a FIFO
# when it has started, so the signal never comes before it.
alive() { # alive PID: the process exists and is not a zombie
    [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | grep -q '^Z'
}
for sig in HUP QUIT; do
    rm -f "$tmp/started" "$tmp/sleep.pid"; mkfifo "$tmp/started" || exit 1
    # (env: a shell starts background jobs with SIGQUIT ignored, which tally respects)
    env --default-signal=INT,QUIT "$drv" run --runs 1 --warmup 0 -o "$tmp/sig-$sig.json" -- \
        sh -c "sleep 1000 & echo \$! >'$tmp/sleep.pid'; echo go >'$tmp/started'; wait" \
        >"$tmp/out" 2>"$tmp/err" &
    tpid=$!
    timeout 60 sh -c "read line <'$tmp/started'" || { echo "FAILED: SIG$sig: the run never started"; fail=1; }
    kill -s "$sig" "$tpid"
    wait "$tpid"; got=$?
    [ "$got" = 130 ] || { echo "FAILED: SIG$sig: exit $got, expected 130"; cat "$tmp/err"; fail=1; }
    grep -q "interrupted by SIG$sig.*continue with:" "$tmp/err" || { echo "FAILED: SIG$sig message"; cat "$tmp/err"; fail=1; }
    spid=$(cat "$tmp/sleep.pid" 2>/dev/null)
    if [ -n "$spid" ] && alive "$spid"; then
        echo "FAILED: SIG$sig: the run's sleep (pid $spid) survived"; kill -9 "$spid"; fail=1
    fi
done

[ $fail = 0 ] && echo "runner CLI: all passed"
exit $fail
