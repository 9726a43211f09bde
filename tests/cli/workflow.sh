#!/bin/sh
# The data-safety workflow of `tally run`, step by step, as golden files: each step's stdout,
# stderr and exit status are compared with tests/cli/workflow/STEP.{stdout,stderr,status}
# (the scratch directory shown as @OUT@, process ids as PID). Between steps the script checks
# that the data survives: a killed sweep's journal is summarised and finished, a rerun without
# --resume leaves the journal byte-identical, -o on an input leaves the input byte-identical,
# a planted link's target is never touched.
# Usage: workflow.sh TALLY SOURCE_DIR OUT_DIR; TALLY_UPDATE_GOLDEN=1 rewrites the golden files.
set -u
tally="$1"; src="$2"; out="$3"
gold="$src/tests/cli/workflow"
host=$(uname -n); kernel=$(uname -r); boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo none)
rm -rf "$out"; mkdir -p "$out"
cd "$out" || exit 2
export LC_ALL=C PATH=/usr/bin:/bin
fail=0; steps=0

step() { # step NAME ARG...: run tally, compare with the golden files
    name=$1; shift
    steps=$((steps + 1))
    "$tally" "$@" > "$name.stdout.raw" 2> "$name.stderr.raw"
    echo $? > "$name.status"
    for kind in stdout stderr; do
        sed -e "s|$out|@OUT@|g" -e "s|$tally|tally|g" -e 's/process [0-9][0-9]*/process PID/g' \
            -e 's/, [0-9][0-9]* s$/, N s/' -e "s/host $host,/host HOST,/g" \
            -e "s/kernel $kernel,/kernel KERNEL,/g" -e "s/boot $boot /boot BOOT /g" \
            -e '/^Killed$/d' "$name.$kind.raw" > "$name.$kind"
    done
    for kind in status stdout stderr; do
        if [ "${TALLY_UPDATE_GOLDEN:-0}" = 1 ]; then
            cp "$name.$kind" "$gold/$name.$kind"
        elif ! diff -u "$gold/$name.$kind" "$name.$kind"; then
            echo "FAILED: step $name: $kind differs"; fail=1
        fi
    done
}
check() { # check MESSAGE COMMAND...: a data-survival condition
    what=$1; shift
    if ! "$@"; then echo "FAILED: $what"; fail=1; fi
}
same() { cmp -s "$1" "$2"; }

# A counter gives each run a known value (1, 2, 3, ...); the 4th run kills tally outright
# (SIGKILL: no handler, as a crash or the OOM killer), after 3 runs are in the journal. A run's
# parent is the runner's supervising process; tally is its parent.
cat > count.sh <<'SH'
n=$(cat counter 2>/dev/null || echo 0); n=$((n + 1)); echo $n > counter
[ "$n" = "$KILL_AT" ] && kill -KILL "$(sed 's/.*) //' /proc/$PPID/stat | cut -d' ' -f2)"
echo "v=$n"
SH
run_args="run --runs 3 --warmup 1 --sweep 1,2 --metric v=([0-9]+) --unit ops -o sweep.json -- sh count.sh {}"
KILL_AT=4; export KILL_AT
# shellcheck disable=SC2086
step 01-killed $run_args
check "no result set from a killed sweep" test ! -e sweep.json
cp sweep.json.journal journal.before
step 02-summary-from-journal summary sweep.json.journal
step 03-rerun-refused $run_args
check "the journal survives a rerun without --resume" same journal.before sweep.json.journal
cp sweep.json.journal finish.json.journal
step 04-finish-partial run --finish -o finish.json
step 05-summary-partial summary finish.json
KILL_AT=0
step 06-resume-mismatch run --runs 4 --warmup 1 --sweep 1,2 --metric 'v=([0-9]+)' --unit ops -o sweep.json --resume -- sh count.sh {}
check "the journal survives a refused resume" same journal.before sweep.json.journal
step 07-resume run --resume --runs 3 --warmup 1 --sweep 1,2 --metric 'v=([0-9]+)' --unit ops -o sweep.json -- sh count.sh {}
step 08-summary-finished summary sweep.json
cp sweep.json sweep.before
# shellcheck disable=SC2086
step 09-output-exists $run_args
check "an existing result set survives" same sweep.before sweep.json
step 10-report-onto-input compare base=finish.json new=sweep.json -o sweep.json
check "-o on an input leaves the input byte-identical" same sweep.before sweep.json
step 11-import-onto-input import sweep.json -o sweep.json
check "import -o on its input leaves it byte-identical" same sweep.before sweep.json
step 11b-import-onto-result import finish.json -o sweep.json
check "import -o onto an existing result set leaves it byte-identical" same sweep.before sweep.json

# Another boot: the journal header's boot id no longer matches this system's.
sed 's/"boot_id":"[^"]*"/"boot_id":"00000000-0000-0000-0000-000000000000"/' journal.before > boot.json.journal
sed 's/"boot_id":"[^"]*"/"boot_id":"00000000-0000-0000-0000-000000000000"/' journal.before > boot.before
step 12-resume-other-boot run --runs 3 --warmup 1 --sweep 1,2 --metric 'v=([0-9]+)' --unit ops -o boot.json --resume -- sh count.sh {}
check "the journal survives a refused resume on another boot" same boot.before boot.json.journal

# A torn line inside the journal (not the last one) is an error at its real line.
{ head -n 3 journal.before; echo '{"case_index":0,"slot":'; tail -n +4 journal.before; } > torn.json.journal
step 13-torn-line summary torn.json.journal
# The same run recorded twice (two writers) is refused, naming the line.
{ cat journal.before; tail -n 1 journal.before; } > dup.json.journal
step 14-duplicate-run run --runs 3 --warmup 1 --sweep 1,2 --metric 'v=([0-9]+)' --unit ops -o dup.json --resume -- sh count.sh {}

# A planted link at the journal's path: refused, the target untouched, also with --force.
echo "precious" > victim
ln -s victim link.json.journal
step 15-planted-link run --runs 1 --warmup 0 -o link.json -- true
check "a planted link's target is untouched" test "$(cat victim)" = precious
step 16-planted-link-force run --runs 1 --warmup 0 -o link.json --force --metric 'v=([0-9]+)' --unit ops -- echo v=7
check "--force removes the link, never its target" test "$(cat victim)" = precious
check "the new journal is a file" test -f link.json.journal -a ! -h link.json.journal

# Sweep values are checked before the first run: nothing runs, nothing is written.
step 17-bad-sweep run hackbench --groups a,b -o bad.json
check "no journal for a refused sweep" test ! -e bad.json.journal

# Two sweeps on one output: the second is refused, naming the first (which holds the lock).
mkfifo started gate
( "$tally" run --runs 1 --warmup 0 -o locked.json --metric 'v=([0-9]+)' --unit ops \
      -- sh -c 'echo go > started; read x < gate; echo v=1' > first.out 2>&1; echo $? > first.status ) &
read x < started
step 18-locked run --runs 1 --warmup 0 -o locked.json --resume --metric 'v=([0-9]+)' --unit ops -- sh -c 'echo v=1'
echo go > gate
wait
check "the first sweep finished" test "$(cat first.status)" = 0

# Merging two workloads' files of one configuration into one result set.
step 19-merge merge --label base sweep.json link.json -o merged.json
step 20-merge-summary summary merged.json
step 21-append run --append --runs 2 --warmup 0 --metric 'v=([0-9]+)' --unit ops -o link.json -- echo v=8
check "the earlier journal is kept on append" test -f link.json.journal.1
step 22-append-mismatch run --append --runs 2 --warmup 0 --metric 'v=([0-9]+)' --unit s -o link.json -- echo v=8

if [ $fail = 0 ]; then echo "$steps steps passed"; else echo "some of $steps steps failed"; fi
exit $fail
