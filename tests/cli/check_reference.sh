#!/bin/sh
# The posts of the product brief, reproduced from the command line byte for byte
# (tests/data/reference/, copied verbatim from the LKML posts; README.md there says how):
# - compare-mmtests: the bundled hackbench example with --only-statistic gives the header and
#   the Amean rows, values, percentages and significance marks;
# - the AMD layout: the hackbench, stream-10, stream-100 and schbench blocks, with the posts'
#   first-column labels, unit texts and case names from --case-label, --units-text and
#   --case-strip;
# - the pct layout: the rows of the workqueue post's tbench table (its header was aligned by
#   hand: "cpu" one column off, so only the rows are compared).
set -u
tally="$1"; src="$2"
cd "$src" || exit 2
passed=0; failed=0
check() {
    if diff -u "$1" -; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
"$tally" compare --style mmtests --only-statistic docs/examples/hackbench-process-pipes.csv |
    check tests/data/reference/lkml-2021-hackbench-amean.txt
"$tally" compare --style normalized --case-strip -workers --expect-diff kernel \
    --case-label stream-10=Test --case-label stream-100=Test --case-label 'schbench=#workers' \
    --units-text 'hackbench=time in seconds' --units-text 'stream-10=Bandwidth, MB/s' \
    --units-text 'stream-100=Bandwidth, MB/s' \
    --units-text 'schbench=99th percentile latency in us' tests/data/reference/amd-eevdf.json |
    check tests/data/reference/lkml-2024-eevdf-normalized.txt
"$tally" compare --style pct --case-label Clients tests/data/reference/workqueue-tbench.json |
    tail -n +3 | check tests/data/reference/lkml-2023-workqueue-tbench-rows.txt
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
