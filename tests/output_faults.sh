#!/bin/sh
# Output files under faults, end to end: output_faults.sh TALLY WORK_DIR
# - a full temporary directory and a full output directory, each a 64 KiB tmpfs mounted in a
#   private mount namespace (unshare -m: nothing outside this test sees the mounts); needs root,
#   skipped (exit 77) otherwise;
# - too few file descriptors for the spreadsheet's temporary files (ulimit -n);
# - a stale temporary file of a killed write beside the output.
# A failed write exits 2 with the reason, leaves the old file as it was and no temporary file.
set -u
tally="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"
failed=0
fail() { echo "FAILED: $*"; failed=1; }

# Two configurations of 12000 samples: the samples sheet alone is several times 64 KiB of XML.
awk 'BEGIN { print "benchmark,case,config,value,unit,better";
             for (i = 0; i < 12000; i++) {
                 printf "lat,a,base,%.6f,s,lower\n", 1 + (i % 97) / 1000;
                 printf "lat,a,new,%.6f,s,lower\n", 1.01 + (i % 89) / 1000 } }' >"$work/big.csv"

leftovers() { find "$1" -name '*.tmp*' | head -n 3; }

# The workbook is complete: every part inflates and checks (Python's zipfile), and it holds
# the samples sheet with the last sample.
complete() {
    /usr/bin/python3 - "$1" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    names = z.namelist()
    assert "xl/workbook.xml" in names, names
    sheets = [z.read(n) for n in names if n.startswith("xl/worksheets/sheet")]
    assert any(b"12001" in s for s in sheets), "the last sample row is missing"
EOF
}

if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    # 1. A full TMPDIR: the spreadsheet's temporary files live beside the output, so the write
    #    succeeds with a complete workbook (before, exit 0 and 0-byte XML parts).
    mkdir -p "$work/out" "$work/tmp"
    unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" && TMPDIR="$1" exec "$2" compare --format xlsx -o "$3" "$4"' \
        sh "$work/tmp" "$tally" "$work/out/r.xlsx" "$work/big.csv" 2>"$work/err1"
    rc=$?
    [ $rc = 0 ] || fail "full TMPDIR: exit $rc: $(cat "$work/err1")"
    complete "$work/out/r.xlsx" || fail "full TMPDIR: the workbook is incomplete"

    # 2. A full output directory: exit 2 with the reason, the old file untouched, no temporary
    #    file left.
    mkdir -p "$work/full"
    unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" && echo old >"$1/r.xlsx" &&
        TMPDIR="$1" "$2" compare --format xlsx -o "$1/r.xlsx" "$3"; rc=$?
        cat "$1/r.xlsx" >"$4/old-after"; find "$1" -name "*.tmp*" >"$4/left"; exit $rc' \
        sh "$work/full" "$tally" "$work/big.csv" "$work" 2>"$work/err2"
    rc=$?
    [ $rc = 2 ] || fail "full output directory: exit $rc, expected 2: $(cat "$work/err2")"
    grep -q "r.xlsx" "$work/err2" || fail "full output directory: no file named: $(cat "$work/err2")"
    [ "$(cat "$work/old-after")" = old ] || fail "full output directory: the old file changed"
    [ -s "$work/left" ] && fail "full output directory: left $(cat "$work/left")"

    # 3. The same for text output (a few KiB fit, 200 KiB of JSON do not).
    unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" && echo old >"$1/r.json" &&
        "$2" compare --format json -o "$1/r.json" "$3"; rc=$?
        cat "$1/r.json" >"$4/old-json"; find "$1" -name "*.tmp*" >"$4/left-json"; exit $rc' \
        sh "$work/full" "$tally" "$work/big.csv" "$work" 2>"$work/err3"
    rc=$?
    [ $rc = 2 ] || fail "full output directory, JSON: exit $rc, expected 2"
    grep -q "No space left on device" "$work/err3" || fail "JSON: $(cat "$work/err3")"
    [ "$(cat "$work/old-json")" = old ] || fail "full output directory, JSON: the old file changed"
    [ -s "$work/left-json" ] && fail "full output directory, JSON: left $(cat "$work/left-json")"
else
    echo "output_faults: not root or no mount namespaces: the full-tmpfs cases are skipped"
    skipped=1
fi

# 4. Too few file descriptors for the temporary files of 40 worksheets: the reason, never
#    "out of memory". 40 benchmarks of one case each.
awk 'BEGIN { print "benchmark,case,config,value,unit,better";
             for (b = 0; b < 40; b++) for (i = 0; i < 3; i++) {
                 printf "b%d,a,base,%d,s,lower\n", b, 1 + i; printf "b%d,a,new,%d,s,lower\n", b, 2 + i } }' \
    >"$work/many.csv"
(ulimit -n 24 && exec "$tally" compare --format xlsx -o "$work/fd.xlsx" "$work/many.csv") \
    2>"$work/err4"
rc=$?
[ $rc = 2 ] || fail "ulimit -n 24: exit $rc, expected 2: $(cat "$work/err4")"
grep -q "out of memory" "$work/err4" && fail "ulimit -n 24: $(cat "$work/err4")"
grep -q "Too many open files" "$work/err4" || fail "ulimit -n 24: $(cat "$work/err4")"
[ -e "$work/fd.xlsx" ] && fail "ulimit -n 24: a file was written"
[ -n "$(leftovers "$work")" ] && fail "ulimit -n 24: left $(leftovers "$work")"

# 5. A temporary file a killed write left beside the output (its process is gone) does
#    not block the next write, which removes it.
dead=$(sh -c 'echo $$')
stale="$work/k.json.tmp.$dead.0123456789ab"
echo partial >"$stale"
"$tally" compare --format json -o "$work/k.json" "$work/many.csv" || fail "write after a kill"
[ -e "$stale" ] && fail "the stale temporary file was left"

[ $failed = 0 ] && echo "output_faults: all passed"
[ $failed = 0 ] && [ "${skipped:-0}" = 1 ] && exit 77
exit $failed
