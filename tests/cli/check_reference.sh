#!/bin/sh
# The bundled hackbench example, compared in the mmtests style, reproduces the header and the
# Amean rows of the posted table (tests/data/reference/, copied verbatim from the LKML post)
# byte for byte: values, percentages and significance marks.
set -u
tally="$1"; src="$2"
cd "$src" || exit 2
out=$("$tally" compare --style mmtests docs/examples/hackbench-process-pipes.csv) || exit 1
if { printf '%s\n' "$out" | head -n 3; printf '%s\n' "$out" | grep '^Amean'; } |
   diff -u tests/data/reference/lkml-2021-hackbench-amean.txt -; then
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"; exit 1
fi
