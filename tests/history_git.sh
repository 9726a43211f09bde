#!/bin/sh
# tally history --git-order and `git bisect run tally compare --bisect` on a real repository in
# a temporary folder (docs/history.md, "Bisect"): 12 commits, each checking in the result of
# its benchmark (5 runs); commit 8 makes it 6 % slower; commit 6's result is garbled, which
# --bisect reports as "cannot judge" (125), so git skips it.
# Usage: history_git.sh TALLY TMPDIR
set -eu
tally="$1"; tmp="$2"
rm -rf "$tmp"
mkdir -p "$tmp/repo"
cd "$tmp/repo"
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp" GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" \
       GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
git init -q -b main .
git config user.email history@example.org
git config user.name history
i=1
while [ $i -le 12 ]; do
    if [ $i -eq 6 ]; then
        printf 'benchmark,case,config,value\nhb,1,this line,is not a number\n' > result.csv
    else
        level=100
        [ $i -ge 8 ] && level=106
        {
            echo "benchmark,case,config,value,unit,better"
            for k in -2 -1 0 1 2; do
                awk -v l=$level -v k=$k -v i=$i \
                    'BEGIN { printf "hb,1,run,%.4f,s,lower\n", l * (1 + 0.002 * k + 0.0003 * (i % 3)) }'
            done
        } > result.csv
    fi
    git add result.csv
    git commit -q -m "commit $i"
    hash=$(git rev-parse HEAD)
    echo "$hash" > "../commit$i"
    [ $i -ne 6 ] && "$tally" import --meta commit="$hash" "c$i=result.csv" -o "../r$i.json"
    i=$((i + 1))
done
git show "$(cat ../commit1):result.csv" > ../good.csv
fail() { echo "FAILED: $*"; echo "0 passed, 1 failed"; exit 1; }

# 1. history in commit order, the files given out of order: one change, at commit 8.
"$tally" history --git-order . --format csv ../r12.json ../r2.json ../r9.json ../r1.json \
    ../r7.json ../r5.json ../r11.json ../r3.json ../r8.json ../r10.json ../r4.json > ../history.csv
lines=$(wc -l < ../history.csv)
[ "$lines" -eq 2 ] || fail "expected one change point, got $((lines - 1)): $(cat ../history.csv)"
grep -q "$(cat ../commit8)" ../history.csv || fail "the change is not at commit 8: $(cat ../history.csv)"
grep -q ",regression" ../history.csv || fail "not a regression: $(cat ../history.csv)"
# The abbreviated hashes a CI log shows match too.
for i in 1 2 3 4 5 7 8 9 10 11 12; do
    "$tally" import --meta commit="$(cut -c1-8 ../commit$i)" "c$i=../r$i.json" -o "../s$i.json" \
        --force
done
"$tally" history --git-order . --fail-on-regression 5 --recent 6 ../s*.json > /dev/null \
    2> ../gate.txt && fail "the gate passed a 6 % regression within the last 6 points"
grep -q "from point 7 ($(cut -c1-8 ../commit8))" ../gate.txt || fail "gate: $(cat ../gate.txt)"

# 2. git bisect run, with no wrapper: tally's exit status is git's answer.
git bisect start HEAD "$(cat ../commit1)" > /dev/null
git bisect run "$tally" compare --bisect 3 good=../good.csv current=result.csv > ../bisect.log 2>&1 ||
    fail "git bisect run failed: $(cat ../bisect.log)"
git bisect reset -q > /dev/null 2>&1 || true
grep -q "result.csv:2:16: expected a number" ../bisect.log ||
    fail "the garbled commit 6 was not tried (and skipped): $(cat ../bisect.log)"
grep -q "^$(cat ../commit8) is the first bad commit" ../bisect.log ||
    fail "bisect did not name commit 8: $(cat ../bisect.log)"
echo "1 passed, 0 failed"
