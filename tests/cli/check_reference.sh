#!/bin/sh
# The posts of the product brief, reproduced from the command line byte for byte
# (tests/data/reference/, copied verbatim from the LKML posts; README.md there says how):
# - compare-mmtests: the bundled hackbench example with --only-statistic gives the header and
#   the Amean rows, values, percentages and significance marks;
# - the AMD layout: the six blocks of the post (hackbench, tbench, stream-10, stream-100,
#   netperf, schbench) with the posts' first-column labels, unit texts, case names and case
#   column widths from --case-label, --units-text, --case-strip and --case-width; the author's
#   annotation (a tab and '*' after the 64-clients row, the footnote paragraph under the
#   netperf table) is taken out of the post before comparing, as no data gives it;
# - the pct layout: the workqueue post's tbench table; its header has "cpu" one column right
#   of where its cell puts the title (typed by hand), so that one space is moved back in the
#   post's copy before comparing (README.md); and its netperf table, with a blank first-column
#   label, case names ending in ':' (--case-format), the case column, the gap after it and the
#   titles' indent in their cells set (--case-width, --case-gap, --title-indent).
# Each is run twice: as is, and with --width as wide as the post's widest line (a terminal
# that just holds it), which must change nothing.
set -u
tally="$1"; src="$2"
cd "$src" || exit 2
ref=tests/data/reference
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# Each output goes to a file first: the counters must not live in a pipeline's subshell
# (an earlier version counted there and so could never fail).
passed=0; failed=0
check() {
    if diff -u "$1" "$tmp/out"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
# The columns of a file's widest line.
widest() {
    awk '{ if (length($0) > w) w = length($0) } END { print w }' "$1"
}
for width in "" "--width=$(widest $ref/lkml-2021-hackbench-amean.txt)"; do
    "$tally" compare --style mmtests --only-statistic $width \
        docs/examples/hackbench-process-pipes.csv > "$tmp/out"
    check $ref/lkml-2021-hackbench-amean.txt
done
tab=$(printf '\t')
sed -e "s/${tab}\\*\$//" -e '/^\* This seems/,/^$/d' $ref/lkml-2024-eevdf-normalized.txt \
    > "$tmp/amd.txt"
for width in "" "--width=$(widest "$tmp/amd.txt")"; do
    "$tally" compare --style normalized --expect-diff kernel $width \
        --case-strip schbench=-workers --case-strip tbench=-clients \
        --case-label tbench=Clients --case-label stream-10=Test --case-label stream-100=Test \
        --case-label netperf=Clients --case-label 'schbench=#workers' \
        --case-width tbench=5 --case-width netperf=10 \
        --units-text 'hackbench=time in seconds' --units-text tbench=throughput \
        --units-text 'stream-10=Bandwidth, MB/s' --units-text 'stream-100=Bandwidth, MB/s' \
        --units-text netperf=Througput \
        --units-text 'schbench=99th percentile latency in us' $ref/amd-eevdf.json > "$tmp/out"
    check "$tmp/amd.txt"
done
sed '1s/base                     cpu                    cache/base                    cpu                     cache/' \
    $ref/lkml-2023-workqueue-tbench.txt > "$tmp/wq.txt"
cmp -s "$tmp/wq.txt" $ref/lkml-2023-workqueue-tbench.txt && { echo "the header edit did nothing"; exit 1; }
for width in "" "--width=$(widest "$tmp/wq.txt")"; do
    "$tally" compare --style pct --case-label Clients $width $ref/workqueue-tbench.json > "$tmp/all"
    tail -n +2 "$tmp/all" > "$tmp/out"
    check "$tmp/wq.txt"
done
wq=$ref/lkml-2023-workqueue-netperf.txt
for width in "" "--width=$(widest $wq)"; do
    "$tally" compare --style pct --case-label '' --case-format '{}:' --case-width 11 \
        --case-gap 6 --title-indent 7 $width $ref/workqueue-netperf.json > "$tmp/all"
    tail -n +2 "$tmp/all" > "$tmp/out"
    check $wq
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
