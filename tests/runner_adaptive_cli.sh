#!/bin/sh
# `tally run` adaptive runs with the exec workload on synthetic noise of known size
# (tests/adaptive_noise.sh: normal, mean 100, SD 2, seeded per case), through the run driver.
# Usage: runner_adaptive_cli.sh DRIVER TMPDIR SRCDIR
#
# 1. --until-precision 1 at CV 2 %, a look after every run from the 5th: the predicted stop is
#    n* = min { n : t_{0.975,n-1} * 2 / sqrt(n) <= 1 } = 18, from R:
#      Rscript -e 'n<-2; while(qt(0.975,n-1)*2/sqrt(n) > 1) n<-n+1; n'    # 18
#    The run stops when the sample SD s_n satisfies t s_n / sqrt(n) <= 1, so at about
#    n* (s_n / sigma)^2: early when s_n comes out small, and a stop at the first looks is not
#    rare. The distribution of the stop, from an R simulation of this rule (20,000 cases):
#      set.seed(1); st <- replicate(20000, { x <- rnorm(60, 100, 2)
#        for (n in 5:60) if (qt(0.975, n-1) * sd(x[1:n]) / sqrt(n) / mean(x[1:n]) <= 0.01) break
#        n }); mean(st); quantile(st, c(.01, .05, .95, .99)); mean(st > 36)
#      16.4   5 6 26 29   0
#    and the median of 12 such stops lies in [9, 22.5] in 99.9 % of draws. Tolerance: every
#    case stops within [5, 36] (36 = 2 n*), the median of the 12 cases within [10, 22], the
#    mean within [12, 20] (n* = 18 less the early-stopping bias: 16.4; the seeded simulation
#    in test_runner_adaptive measures 16.3).
# 2. --against an A/A baseline (20 runs per case, another stream of the same noise), --mde 1,
#    at most 30 runs: of 20 A/A cases none is significant (the rule's A/A rate is <= alpha =
#    5 %, 1.75 % in the simulation of test_runner_adaptive; the run is seeded, so the exact
#    outcome is checked), and the 4 cases with a true change of 5 % (2.5 SD) stop as
#    significant before the most runs.
set -u
drv=$1
tmp=$2/runner_adaptive_cli
noise=$3/adaptive_noise.sh
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
fail=0
seq_list() { # seq_list PREFIX N: PREFIX1,PREFIX2,...,PREFIXN
    i=1; out=""
    while [ "$i" -le "$2" ]; do out="$out${out:+,}$1$i"; i=$((i + 1)); done
    echo "$out"
}
meta() { # meta FILE KEY: the values of a case metadata key, one per line
    grep -o "\"$2\": \"[^\"]*\"" "$1" | sed 's/.*: "//; s/"$//'
}

# 1. Precision.
"$drv" run --until-precision 1 --min-runs 5 --look-every 1 --max-runs 60 --warmup 0 \
    --metric 'v=([0-9.]+)' --sweep "$(seq_list p 12)" -o "$tmp/prec.json" -- \
    "$noise" "$tmp/st" '{}' 0 100 2 2>"$tmp/err"
got=$?
[ "$got" = 0 ] || { echo "FAILED: precision run: exit $got"; cat "$tmp/err"; fail=1; }
[ "$(meta "$tmp/prec.json" adaptive.stop | sort -u)" = precision ] ||
    { echo "FAILED: not every case stopped on precision"; meta "$tmp/prec.json" adaptive.stop; fail=1; }
# Runs per case, from the stop lines of the journal.
grep -o '"stop":{[^}]*' "$tmp/prec.json.journal" | sed 's/.*"runs":\([0-9]*\).*/\1/' | sort -n >"$tmp/runs"
[ "$(wc -l <"$tmp/runs")" -eq 12 ] || { echo "FAILED: 12 stop lines expected"; fail=1; }
echo "precision stops (n* = 18):" $(cat "$tmp/runs")
lo=$(head -1 "$tmp/runs"); hi=$(tail -1 "$tmp/runs")
[ "$lo" -ge 5 ] && [ "$hi" -le 36 ] || { echo "FAILED: a stop outside [5, 36]: $lo..$hi"; fail=1; }
med=$(sed -n 6p "$tmp/runs"); med2=$(sed -n 7p "$tmp/runs")
[ $((med + med2)) -ge 20 ] && [ $((med + med2)) -le 44 ] ||
    { echo "FAILED: median stop $med/$med2 outside [10, 22]"; fail=1; }
sum=$(awk '{ s += $1 } END { print s }' "$tmp/runs")
[ "$sum" -ge 144 ] && [ "$sum" -le 240 ] || { echo "FAILED: mean stop $sum/12 outside [12, 20]"; fail=1; }
grep -q "^tally run: wrote .*prec.json: 12 cases x $lo-$hi runs, 0 failed, [0-9]* s; stopped: 12 precision; [0-9]* looks$" "$tmp/err" ||
    { echo "FAILED: summary line"; cat "$tmp/err"; fail=1; }
grep -q '"adaptive": "until precision ±1 % (95 % interval); looks after 5 runs, then every 1, at most 60"' "$tmp/prec.json" ||
    { echo "FAILED: adaptive metadata"; fail=1; }

# 1b. Interleaved: run 1 of every case, then run 2, ...; a case that stops drops out of the
#     rotation (no run of it after its stop line), the others go on alternating.
"$drv" run --interleave --until-precision 1 --look-every 1 --max-runs 60 --warmup 1 \
    --metric 'v=([0-9.]+)' --sweep p1,p2,p3 -o "$tmp/inter.json" -- \
    "$noise" "$tmp/st" '{}' 3 100 2 2>"$tmp/err" || { echo "FAILED: interleaved run"; cat "$tmp/err"; fail=1; }
awk -F'"case_index":' 'NR > 1 { split($2, a, /[,}]/); c = a[1]
        if ($0 ~ /"stop"/) { stopped[c] = 1; stops++ }
        else if (stopped[c]) bad = 1 }
    END { exit !(stops == 3 && !bad) }' "$tmp/inter.json.journal" ||
    { echo "FAILED: interleaved stops"; cat "$tmp/inter.json.journal"; fail=1; }
[ "$(grep -o '"case_index":[0-9]*,"slot":[0-9]*' "$tmp/inter.json.journal" | head -6 | sed 's/.*"case_index":\([0-9]*\),"slot":\([0-9]*\)/\1\2/' | tr '\n' ' ')" = "00 10 20 01 11 21 " ] ||
    { echo "FAILED: interleaved order"; fail=1; }

# 2. Against an A/A baseline, and a real change.
cases="$(seq_list a 20),$(seq_list shift 4)"
"$drv" run --runs 20 --warmup 0 --metric 'v=([0-9.]+)' --sweep "$cases" -o "$tmp/base.json" -- \
    "$noise" "$tmp/st" '{}' 1 100 2 2>"$tmp/err" || { echo "FAILED: baseline run"; cat "$tmp/err"; fail=1; }
SHIFT=5 "$drv" run --against "$tmp/base.json" --mde 1 --max-runs 30 --warmup 0 \
    --metric 'v=([0-9.]+)' --sweep "$cases" -o "$tmp/new.json" -- \
    "$noise" "$tmp/st" '{}' 2 100 2 2>"$tmp/err"
got=$?
[ "$got" = 0 ] || { echo "FAILED: against run: exit $got"; cat "$tmp/err"; fail=1; }
grep -o '"stop":{[^}]*' "$tmp/new.json.journal" >"$tmp/stops"
aa_sig=$(grep -c '"case_index":[0-9]*,"reason":"significant"' "$tmp/stops" | head -1)
# case_index 20..23 are the shifted cases
shift_sig=$(grep -cE '"case_index":2[0-3],"reason":"significant"' "$tmp/stops")
shift_early=$(grep -E '"case_index":2[0-3],"reason":"significant"' "$tmp/stops" | grep -vc '"runs":30,')
echo "against: $aa_sig significant of 24 (4 real changes), real changes found: $shift_sig, before 30 runs: $shift_early"
[ $((aa_sig - shift_sig)) -le 0 ] || { echo "FAILED: A/A false positives"; cat "$tmp/stops"; fail=1; }
[ "$shift_sig" = 4 ] && [ "$shift_early" = 4 ] || { echo "FAILED: real changes"; cat "$tmp/stops"; fail=1; }
grep -q '; stopped: .*max-runs (still inconclusive or imprecise)' "$tmp/err" ||
    { echo "FAILED: summary of inconclusive cases"; cat "$tmp/err"; fail=1; }

# 3. Usage errors exit 2 before anything runs.
expect2() { # expect2 WHAT MESSAGE ARGS...
    what=$1 msg=$2; shift 2
    "$drv" run "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
    [ "$got" = 2 ] && grep -qF -- "$msg" "$tmp/err" ||
        { echo "FAILED: $what: exit $got"; cat "$tmp/err"; fail=1; }
}
expect2 "against without mde" "--against needs --mde PCT" --against "$tmp/base.json" -o "$tmp/x.json" -- true
expect2 "missing baseline case" "the baseline has no benchmark" --against "$tmp/base.json" --mde 1 --sweep zz \
    --metric 'v=([0-9.]+)' -o "$tmp/x.json" -- "$noise" "$tmp/st" '{}' 3 100 2
[ -e "$tmp/x.json" ] && { echo "FAILED: output written on a usage error"; fail=1; }

[ $fail = 0 ] && echo "runner adaptive CLI: all passed"
exit $fail
