#!/bin/sh
# adaptive_noise.sh STATE CASE STREAM MEAN SD: print "v=X", the next value of a seeded normal
# stream (one per call: a counter in STATE.CASE.STREAM), for the exec-workload tests of adaptive
# runs (tests/runner_cli.sh). The same numbers with any awk: a Park-Miller generator
# (x = 16807 x mod 2^31 - 1, exact in doubles) seeded from CASE's digits and STREAM, Box-Muller.
# A case named shiftN has its mean raised by SHIFT percent (environment; default 0).
LC_ALL=C
export LC_ALL
state=$1 case=$2 stream=$3 mean=$4 sd=$5
f="$state.$case.$stream"
i=$(cat "$f" 2>/dev/null || echo 0)
echo $((i + 1)) >"$f"
awk -v c="$case" -v s="$stream" -v i="$i" -v mu="$mean" -v sd="$sd" -v shift="${SHIFT:-0}" 'BEGIN {
    digits = c; gsub(/[^0-9]/, "", digits)
    x = (digits + 1) * 7919 + s * 104729 + 1
    m = 2147483647
    for (k = 0; k < 5; k++) x = (16807 * x) % m
    for (k = 0; k <= i; k++) {
        x = (16807 * x) % m; u = x / m
        x = (16807 * x) % m; v = x / m
    }
    if (c ~ /^shift/) mu = mu * (1 + shift / 100)
    printf "v=%.6f\n", mu + sd * sqrt(-2 * log(u)) * cos(6.283185307179586 * v)
}'
