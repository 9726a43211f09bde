#!/bin/sh
# The store through the command, on the store TALLY_STORE_URL names (tests/store_db.sh makes an
# empty one of either back end): record and query, selections as inputs of the reading
# commands, duplicates, a bad file, 8 concurrent writers x 100 records, SIGKILL mid-record.
#   store_cli.sh TALLY SCRATCH
set -u
tally="$1" scratch="$2"
db="$TALLY_STORE_URL"
example="$(dirname "$0")/../docs/examples/hackbench-process-pipes.csv"
mkdir -p "$scratch"
failures=0
fail() { echo "FAILED: $*" >&2; failures=$((failures + 1)); }
# The number of result sets in the store: the list's lines but its header.
sets() { "$tally" query --db "$db" "$@" | grep -vc '^id  \|^no result set'; }

# 1. Record, duplicate, query, export.
"$tally" record --db "$db" --meta commit=c0ffee01 --meta branch=main --meta machine=ci1 \
    "$example" 2>"$scratch/err" || fail "record"
grep -q ': 3 result sets recorded, 0 already there' "$scratch/err" || fail "record message: $(cat "$scratch/err")"
"$tally" record --db "$db" --meta commit=c0ffee01 --meta branch=main --meta machine=ci1 \
    "$example" 2>"$scratch/err" || fail "record again"
grep -q ': 0 result sets recorded, 3 already there' "$scratch/err" || fail "duplicate not a no-op: $(cat "$scratch/err")"
[ "$(sets)" = 3 ] || fail "3 sets expected, found $(sets)"
# The comparison from the store is the comparison of the file: the same sets in the same order.
"$tally" compare "$example" >"$scratch/from-file.txt" || fail "compare file"
"$tally" compare --db "$db" @commit=c0ffee01 >"$scratch/from-store.txt" || fail "compare store"
cmp -s "$scratch/from-file.txt" "$scratch/from-store.txt" || fail "compare from the store differs"
# Labelled selections; summary and validate read them too.
"$tally" compare --db "$db" base=@label=5.14.0-rc3-vanilla new=@label=5.14.0-rc3-alwayswake-v1r1 \
    >/dev/null || fail "compare labelled selections"
TALLY_DB="$db" "$tally" summary @branch=main,machine=ci1,latest >/dev/null || fail "summary TALLY_DB"
# validate reads a harness's own summary from the cases' metadata, kept by the store.
hyperfine="$(dirname "$0")/data/hyperfine/basic.json"
"$tally" record --db "$db" --meta branch=hf "$hyperfine" 2>/dev/null || fail "record hyperfine"
"$tally" validate "$hyperfine" >"$scratch/validate-file.txt" || fail "validate file"
"$tally" validate --db "$db" @branch=hf >"$scratch/validate-store.txt" || fail "validate store"
cmp -s "$scratch/validate-file.txt" "$scratch/validate-store.txt" || fail "validate from the store differs"
# CSV export reads back as the same samples: compare the CSV with the file.
"$tally" query --db "$db" --commit c0ffee01 --format csv -o "$scratch/export.csv" || fail "csv export"
"$tally" compare "$scratch/export.csv" >"$scratch/from-csv.txt" || fail "compare csv export"
cmp -s "$scratch/from-file.txt" "$scratch/from-csv.txt" || fail "csv export differs"
# -o writes every format atomically: a new file renamed over the old one (another inode), never
# written in place; a write that fails (a full device) is exit 2 and says why.
for format in csv list json; do
    printf 'old\n' >"$scratch/out.$format"
    before="$(stat -c %i "$scratch/out.$format")"
    "$tally" query --db "$db" --commit c0ffee01 --format "$format" -o "$scratch/out.$format" \
        || fail "query -o $format"
    [ "$(stat -c %i "$scratch/out.$format")" != "$before" ] || fail "query -o $format: written in place"
    "$tally" query --db "$db" --commit c0ffee01 --format "$format" | cmp -s - "$scratch/out.$format" \
        || fail "query -o $format: not the output"
    "$tally" query --db "$db" --commit c0ffee01 --format "$format" -o /dev/full 2>"$scratch/err"
    [ $? = 2 ] && grep -q 'No space left on device' "$scratch/err" || fail "query -o /dev/full: $(cat "$scratch/err")"
done
ls -a "$scratch" | grep -q '\.tmp\.' && fail "query -o left a temporary file"
# JSON export recorded again: nothing new.
"$tally" query --db "$db" --commit c0ffee01 --format json -o "$scratch/export.json" || fail "json export"
"$tally" record --db "$db" "$scratch/export.json" 2>"$scratch/err" || fail "record export"
grep -q ': 0 result sets recorded, 3 already there' "$scratch/err" || fail "export recorded again: $(cat "$scratch/err")"
# The export into another store (SQLite) keeps the sets' times (their store.time).
rm -f "$scratch/copy.db"
"$tally" record --db "$scratch/copy.db" "$scratch/export.json" 2>/dev/null || fail "record export elsewhere"
"$tally" query --db "$db" --commit c0ffee01 | awk '{print $2}' >"$scratch/times-a"
"$tally" query --db "$scratch/copy.db" | awk '{print $2}' >"$scratch/times-b"
cmp -s "$scratch/times-a" "$scratch/times-b" || fail "times differ after a copy through an export"

# A value with commas (and a quote) is written in double quotes, a quote inside doubled.
"$tally" record --db "$db" --meta 'branch=feat,x"y' --meta commit=c0ffee02 "$scratch/export.json" \
    2>"$scratch/err" || fail "record a branch with commas"
grep -q ': 3 result sets recorded, 0 already there' "$scratch/err" || fail "comma branch: $(cat "$scratch/err")"
[ "$(sets --select 'branch="feat,x""y",label=5.14.0-rc3-vanilla')" = 1 ] \
    || fail "quoted branch with a comma: $(sets --select 'branch="feat,x""y",label=5.14.0-rc3-vanilla')"
"$tally" summary --db "$db" 'x=@"branch=feat,x""y",latest' >/dev/null 2>"$scratch/err" \
    || fail "a whole quoted item in an input selection: $(cat "$scratch/err")"
[ "$(sets --branch 'feat,x"y')" = 3 ] || fail "--branch with a comma"
"$tally" summary --db "$db" '@branch="feat,x' 2>"$scratch/err"
[ $? = 2 ] && grep -q "column 8: a quoted value without its closing quote" "$scratch/err" \
    || fail "unterminated quote: $(cat "$scratch/err")"

# history reads its series from the store: six commits recorded one by one (as CI does) give
# the history of the six files.
for i in 1 2 3 4 5 6; do
    "$tally" record --db "$db" --meta branch=hist "$(dirname "$0")/data/history/p$i.json" 2>/dev/null \
        || fail "record history point $i"
done
"$tally" history "$(dirname "$0")"/data/history/p?.json >"$scratch/history-files.txt" || fail "history files"
"$tally" history --db "$db" @branch=hist >"$scratch/history-store.txt" || fail "history store"
cmp -s "$scratch/history-files.txt" "$scratch/history-store.txt" || fail "history from the store differs"
# A run journal (an interrupted sweep) is recorded like any input, and summarised the same.
journal="$(dirname "$0")/cli/data/interrupted.json.journal"
"$tally" record --db "$db" --meta branch=journal "$journal" 2>/dev/null || fail "record a journal"
"$tally" summary "$journal" >"$scratch/journal-file.txt" 2>/dev/null || fail "summary journal"
"$tally" summary --db "$db" @branch=journal >"$scratch/journal-store.txt" 2>/dev/null || fail "summary journal store"
cmp -s "$scratch/journal-file.txt" "$scratch/journal-store.txt" || fail "journal from the store differs: $(diff "$scratch/journal-file.txt" "$scratch/journal-store.txt" | head -5)"

# 2. Errors: nothing matched, a label for several sets, no store, a bad file (exit 2, located,
# nothing recorded).
"$tally" summary --db "$db" @branch=nope 2>"$scratch/err"
[ $? = 2 ] && grep -q 'no result set in .* matches' "$scratch/err" || fail "empty selection: $(cat "$scratch/err")"
"$tally" summary --db "$db" x=@branch=main 2>"$scratch/err"
[ $? = 2 ] && grep -q '3 result sets in .* match, a label names one' "$scratch/err" || fail "label of 3: $(cat "$scratch/err")"
env -u TALLY_DB "$tally" summary @latest 2>"$scratch/err"
[ $? = 2 ] && grep -q 'needs the store' "$scratch/err" || fail "selection without a store"
"$tally" summary --db "$db" @bogus=1 2>"$scratch/err"
[ $? = 2 ] && grep -q "'bogus=1' is not KEY=VALUE" "$scratch/err" || fail "bad selection key"
printf 'benchmark,case,config,value\nb,c,new,1.5\nb,c,new,abc\n' >"$scratch/bad.csv"
printf 'benchmark,case,config,value\nb,c,good,1.5\n' >"$scratch/good.csv"
"$tally" record --db "$db" "$scratch/good.csv" "$scratch/bad.csv" 2>"$scratch/err"
[ $? = 2 ] || fail "bad file: exit status"
grep -q 'bad.csv:3:9: expected a number' "$scratch/err" || fail "bad file: location: $(cat "$scratch/err")"
# 3 + the two configurations of basic.json (its two commands) + the 3 of the comma branch + the 6
# history points + the journal's
[ "$(sets)" = 15 ] || fail "bad file recorded something: $(sets) sets"
"$tally" record --db "$db" --meta nokey "$scratch/good.csv" 2>"$scratch/err"
[ $? = 2 ] && grep -q -- "--meta needs KEY=VALUE" "$scratch/err" || fail "--meta without ="

# 3. Eight writers at once, 100 records each, every record a distinct set: 800 sets, each once.
i=1
while [ $i -le 8 ]; do
    (
        j=1
        while [ $j -le 100 ]; do
            "$tally" record --db "$db" --meta writer=$i --meta n=$j --meta branch=load \
                "$scratch/good.csv" 2>>"$scratch/writer-$i.err" || echo "writer $i record $j failed" >>"$scratch/writer-$i.err"
            j=$((j + 1))
        done
    ) &
    i=$((i + 1))
done
wait
if grep -h 'failed\|tally: ' "$scratch"/writer-*.err | head -n 5 | grep .; then
    fail "a concurrent writer failed"
fi
[ "$(sets --branch load)" = 800 ] || fail "800 sets expected from the writers, found $(sets --branch load)"
"$tally" query --db "$db" --branch load --format json | /usr/bin/python3 -c '
import json, sys, collections
sets = json.load(sys.stdin)["results"]
seen = collections.Counter((s["metadata"]["writer"], s["metadata"]["n"]) for s in sets)
want = {(str(i), str(j)) for i in range(1, 9) for j in range(1, 101)}
assert set(seen) == want and max(seen.values()) == 1, "writers: missing or repeated records"
' || fail "every (writer, record) once"

# 4. SIGKILL during a record of 400 sets: the store then holds all of them or none.
/usr/bin/python3 -c '
import random
random.seed(31)
print("benchmark,case,config,value")
for s in range(400):
    for c in range(5):
        for r in range(20):
            print("big,c%d,set%03d,%.6f" % (c, s, random.uniform(1, 2)))
' >"$scratch/big.csv"
# The kills land at 40 % to 95 % of the time an uninterrupted record of the file takes here
# (reading the file is the first part of it, the transaction the rest).
start=$(date +%s%N)
"$tally" record --db "$db" --meta branch=kill-timing "$scratch/big.csv" 2>/dev/null || fail "record big"
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
none=0 all=0
for pct in 40 55 70 85 95; do
    delay=$(awk "BEGIN { printf \"%.3f\", $took_ms * $pct / 100000 }")
    "$tally" record --db "$db" --meta branch=kill-$delay "$scratch/big.csv" 2>/dev/null &
    pid=$!
    sleep "$delay"
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    n="$(sets --branch kill-$delay)"
    case "$n" in
    0) none=$((none + 1)) ;;
    400) "$tally" query --db "$db" --branch kill-$delay --format csv | grep -c ',big\|^big' >"$scratch/rows"
         [ "$(cat "$scratch/rows")" = 40000 ] || fail "kill after $delay s: 400 sets but $(cat "$scratch/rows") samples"
         all=$((all + 1)) ;;
    *) fail "kill after $delay s: $n of 400 sets in the store" ;;
    esac
done
echo "store_cli: SIGKILL at 40-95 % of a ${took_ms} ms record: $none times nothing stored, $all times all 400 sets"
# The store is still usable after the kills.
"$tally" record --db "$db" --meta branch=after "$scratch/good.csv" 2>/dev/null || fail "record after kills"
[ "$(sets --branch after)" = 1 ] || fail "record after kills: not stored"

[ "$failures" = 0 ] && echo "store_cli: all checks passed"
[ "$failures" = 0 ]
