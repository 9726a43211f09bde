#!/bin/sh
# The command's outputs and inputs, end to end: io_cli.sh TALLY DATA_DIR WORK_DIR
# Device nodes are only ever reached through descriptors (3>/dev/full) or links of our own, so
# a faulty build can only replace files of WORK_DIR. Every command runs under `timeout`.
set -u
tally="$1"; data="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
json="$data/json/example.json"
failed=0
fail() { echo "FAILED: $*"; failed=1; }
run() { timeout 20 "$tally" "$@"; }

# -o '' names the problem and the way out.
run summary "$json" -o '' 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "-o '': exit $rc, expected 2"
grep -q "the output path is empty: give a file name" "$work/err" || fail "-o '': $(cat "$work/err")"

# A full device behind a descriptor: exit 2 and the reason.
run summary "$json" -o /dev/fd/3 3>/dev/full 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "-o /dev/full: exit $rc, expected 2"
grep -q "No space left on device" "$work/err" || fail "-o /dev/full: $(cat "$work/err")"
run import "$json" -o /dev/fd/3 3>/dev/full 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "import -o /dev/full: exit $rc, expected 2"

# validate and calibrate print with printf: a full standard output is exit 2 and the reason.
run validate "$data/hyperfine/basic.json" >/dev/full 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "validate >/dev/full: exit $rc, expected 2"
grep -q "cannot write to standard output: No space left on device" "$work/err" ||
    fail "validate >/dev/full: $(cat "$work/err")"
run calibrate "$data/diag/defects.csv" >/dev/full 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "calibrate >/dev/full: exit $rc, expected 2"
grep -q "cannot write to standard output: No space left on device" "$work/err" ||
    fail "calibrate >/dev/full: $(cat "$work/err")"

# Standard output into a pipe, named as /dev/fd/1 (/dev/stdout is the same, but a faulty build
# running as root would replace the system's link), in text and XLSX.
out=$(run summary "$json" -o /dev/fd/1 | head -c 9)
[ "$out" = "hackbench" ] || fail "-o /dev/fd/1 gave '$out'"
size=$(run summary "$json" -f xlsx -o /dev/fd/1 | wc -c)
[ "$size" -gt 1000 ] || fail "-f xlsx -o /dev/fd/1 gave $size bytes"

# After the rename, the directory (opened before it, so that running out of memory cannot fail
# a write that already replaced the file) is synced, so the new name survives a crash.
if command -v strace >/dev/null 2>&1; then
    strace -f -e trace=rename,renameat,renameat2,fsync,openat -o "$work/trace" \
        "$tally" summary "$json" -o "$work/synced.txt" || fail "summary -o under strace"
    awk -v dir="$work" '
        /openat/ && index($0, "\"" dir "\"") && /O_DIRECTORY/ {
            match($0, /= [0-9]+/); fd = substr($0, RSTART + 2, RLENGTH - 2) }
        /rename/ && /synced.txt"/ { renamed = 1 }
        renamed && fd != "" && $0 ~ ("fsync\\(" fd "\\) += 0") { ok = 1 }
        END { exit ok ? 0 : 1 }' "$work/trace" || fail "no fsync of $work after the rename"
else
    echo "strace not installed: directory fsync not checked"
fi

# Standard input ('-') goes through the library's reader: its limit and its error. The limit is
# lowered to 1000000 bytes with TALLY_INPUT_MAX (docs/formats.md) so that the test takes no time;
# the real 1 GiB is the same code (1.2 GB through a pipe: exit 2, about a minute on 2 cores).
limited() { TALLY_INPUT_MAX=1000000 timeout 20 "$tally" "$@"; }
limited summary - </dev/zero 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "summary - </dev/zero: exit $rc, expected 2"
grep -q "^tally: stdin: larger than 1000000 bytes" "$work/err" || fail "/dev/zero: $(cat "$work/err")"
# "1.5\n" is 4 bytes: 250000 lines are exactly 1000000 bytes (accepted), one byte more is not.
yes 1.5 | head -c 1000000 | limited summary - >/dev/null 2>"$work/err" ||
    fail "1000000 bytes on '-': $(cat "$work/err")"
yes 1.5 | head -c 1000001 | limited summary - >/dev/null 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "1000001 bytes on '-': exit $rc, expected 2"
grep -q "larger than 1000000 bytes" "$work/err" || fail "1000001 bytes: $(cat "$work/err")"
yes 1.5 | head -c 1200000 | limited compare base=- "$data/plain/$(ls "$data/plain" | head -n 1)" \
    >/dev/null 2>"$work/err"; rc=$?
[ $rc = 2 ] || fail "compare base=- of 1200000 bytes: exit $rc, expected 2"
# The variable lowers the limit, never raises it; anything but digits leaves it.
yes 1.5 | head -c 1200000 | TALLY_INPUT_MAX=99999999999999 run summary - >/dev/null ||
    fail "TALLY_INPUT_MAX above 1 GiB"
yes 1.5 | head -c 1200000 | TALLY_INPUT_MAX=lots run summary - >/dev/null ||
    fail "TALLY_INPUT_MAX=lots"

[ $failed = 0 ] && echo "io_cli: all passed"
exit $failed
