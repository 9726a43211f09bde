"""Read back the diagnostics sheet and the environment notes of two spreadsheets written by the tally
command: `tally compare tests/data/diag/defects.csv -f xlsx` (DIAG) and `tally compare
tests/data/diag/env-base.json tests/data/diag/env-new.json -f xlsx` (ENV). The expected figures
are recomputed here from the input samples with the textbook formulas (Mann-Kendall with its
continuity correction, Pettitt's K and its approximate p) and SciPy's Welch test, not with
tally."""
import csv
import math
import statistics
import sys

import openpyxl
from scipy import stats

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def close(a, b, rel=1e-9):
    return isinstance(a, (int, float)) and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


diag_path, env_path, defects_csv = sys.argv[1:4]
samples = {}
with open(defects_csv, newline="") as f:
    for rec in csv.DictReader(f):
        samples.setdefault((rec["case"], rec["config"]), []).append(float(rec["value"]))


def mann_kendall_p(x):
    """Two-sided p of the Mann-Kendall S with the continuity correction (Kendall 1975): S over
    all pairs i < j of sign(x_j - x_i); Var S = n (n-1) (2n+5) / 18 (the samples have no ties:
    checked below); z = (S - sign S) / sqrt(Var S)."""
    n = len(x)
    assert len(set(x)) == n
    s = sum((x[j] > x[i]) - (x[j] < x[i]) for i in range(n) for j in range(i + 1, n))
    var = n * (n - 1) * (2 * n + 5) / 18.0
    z = (s - (s > 0) + (s < 0)) / math.sqrt(var)
    return 2 * stats.norm.sf(abs(z))


def pettitt(x):
    """Pettitt (1979): U_t = sum_{i<=t} sum_{j>t} sign(x_j - x_i), K = max |U_t| at t*, and
    p = 2 exp(-6 K^2 / (n^3 + n^2)), capped at 1."""
    n = len(x)
    best, at = -1, 0
    for t in range(1, n):
        u = sum((x[j] > x[i]) - (x[j] < x[i]) for i in range(t) for j in range(t, n))
        if abs(u) > best:
            best, at = abs(u), t
    return at, min(1.0, 2 * math.exp(-6.0 * best * best / (n ** 3 + n ** 2)))


wb = openpyxl.load_workbook(diag_path)
check(wb.sheetnames == ["loop", "diagnostics", "samples", "notes", "metadata"],
      "DIAG sheets: %r" % wb.sheetnames)
ws = wb["diagnostics"]
head = [c.value for c in ws[1]]
check(head[:7] == ["benchmark", "case", "configuration", "runs", "checks run", "checks fired",
                   "findings"], "header %r" % head)
col = {name: k for k, name in enumerate(head)}
rows = {}
for rec in ws.iter_rows(min_row=2, values_only=True):
    if rec[0] == "loop":
        rows[(rec[1], rec[2])] = rec
# A row per case and configuration: 6 cases of 30 runs on each side.
check(len(rows) == 12, "rows: %d" % len(rows))
for (case, config), rec in sorted(rows.items()):
    x = samples[(case, config)]
    check(rec[col["runs"]] == len(x), "%s/%s runs" % (case, config))
    check(close(rec[col["trend p"]], mann_kendall_p(x), 1e-9),
          "%s/%s trend p %r, expected %r" % (case, config, rec[col["trend p"]], mann_kendall_p(x)))
    at, p = pettitt(x)
    check(rec[col["step after run"]] == at and close(rec[col["step p"]], p, 1e-9),
          "%s/%s step %r %r, expected %r %r" % (case, config, rec[col["step after run"]],
                                                rec[col["step p"]], at, p))
    fired = rec[col["checks fired"]] or ""
    # A check is listed as fired exactly when its p is below the report's alpha, 0.01.
    check(("trend" in fired.split(", ")) == (rec[col["trend p"]] < 0.01),
          "%s/%s trend fired %r" % (case, config, fired))
    check(("step" in fired.split(", ")) == (rec[col["step p"]] < 0.01),
          "%s/%s step fired %r" % (case, config, fired))
    check((rec[col["findings"]] is None) == (fired == ""), "%s/%s findings" % (case, config))
    if fired:
        check(ws.cell(row=list(rows).index((case, config)) + 2,
                      column=col["checks fired"] + 1).fill.fgColor.rgb.endswith("FFEB9C"),
              "%s/%s highlighted" % (case, config))
# The baseline side of every case is clean: nothing fires there.
check(all(rows[(c, "base")][col["checks fired"]] is None for c, _ in rows), "base fired")
# The trend case has the injected drift: Mann-Kendall fires and the findings say so.
check(rows[("trend", "new")][col["findings"]].startswith("trend +3.8 % first to last"),
      "trend findings %r" % (rows[("trend", "new")][col["findings"]],))

# Outlier influence: with every sample kept the Welch test does not reach alpha 0.05; without
# the samples the MAD rule flags (|x - median| / (1.4826 MAD) > 3.5) on both sides, it does,
# and the new side is slower (lower is better): a regression.
def mad_keep(x):
    med = statistics.median(x)
    mad = 1.4826 * statistics.median([abs(v - med) for v in x])
    return [v for v in x if abs(v - med) / mad <= 3.5]


base, new = samples[("outliers", "base")], samples[("outliers", "new")]
check(stats.ttest_ind(base, new, equal_var=False).pvalue >= 0.05, "all runs: p >= alpha")
kb, kn = mad_keep(base), mad_keep(new)
check(stats.ttest_ind(kb, kn, equal_var=False).pvalue < 0.05 and
      sum(kn) / len(kn) > sum(kb) / len(kb), "without outliers: a regression")
rec = rows[("outliers", "new")]
check(rec[col["verdict without outliers"]] == "regression", "outliers verdict %r" % (rec,))
check("outliers" in rec[col["checks fired"]], "outliers fired")
left_out = (len(base) - len(kb)) + (len(new) - len(kn))
check(("without its outliers (%d, both sides)" % left_out) in rec[col["findings"]],
      "outliers left out: %d in %r" % (left_out, rec[col["findings"]]))
legend = [r[0] for r in ws.iter_rows(values_only=True) if r[0] and r[0].startswith("trend:")]
check(len(legend) == 1 and "Mann-Kendall" in legend[0], "legend %r" % legend)

wb = openpyxl.load_workbook(env_path)
check(wb.sheetnames == ["hackbench-process-pipes", "samples", "notes", "metadata"],
      "ENV sheets: %r" % wb.sheetnames)
got = [r[0] for r in wb["notes"].iter_rows(min_row=2, values_only=True)]
# tests/data/diag/env-base.json records governor performance and boost off, env-new.json
# powersave and on; their other keys agree. Runs of the same fixture have no diagnostics
# sheet: 3 runs a side are fewer than the checks need.
# The notes open with how the rows paired: the one case in both files, by hand.
check(got[0] == "pairing: new against base: 1 compared, 0 missing in new, 0 new in new",
      "pairing note %r" % got)
check(len(got) == 4 and got[1].startswith("environment: the configurations were measured "
                                          "differently"), "environment note %r" % got)
check(got[2:] == ["  governor: base performance; new powersave", "  boost: base off; new on"],
      "environment keys %r" % got)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
