#!/usr/bin/python3
"""The Python peers of tally's end-to-end commands, as a user would write them with numpy/scipy.

    peer_compare.py plain A.txt B.txt     compare two files of numbers (like `tally compare`)
    peer_compare.py csv A.csv B.csv       compare two long-form CSV files case by case
    peer_compare.py summary X.f64         the full summary of raw float64 values
"""
import sys

import numpy as np
import scipy.stats


def describe(x):
    n = x.size
    mean = x.mean()
    sd = x.std(ddof=1)
    return (n, x.min(), x.max(), mean, n / np.sum(1.0 / x), np.exp(np.mean(np.log(x))),
            np.percentile(x, [50, 90, 99]), sd, 100 * sd / mean)


def compare(a, b):
    sa, sb = describe(a), describe(b)
    t = scipy.stats.ttest_ind(a, b, equal_var=False)
    pct = (1 - sb[3] / sa[3]) * 100
    return sa, sb, t.pvalue, pct


def main():
    kind = sys.argv[1]
    if kind == "plain":
        a, b = np.loadtxt(sys.argv[2]), np.loadtxt(sys.argv[3])
        sa, sb, p, pct = compare(a, b)
        print("mean %.6g -> %.6g  %+.2f%%  p=%.3g" % (sa[3], sb[3], pct, p))
    elif kind == "csv":
        import csv
        sides = []
        for path in sys.argv[2:4]:
            rows = {}
            with open(path) as f:
                for row in csv.DictReader(f):
                    rows.setdefault(row["case"], []).append(float(row["value"]))
            sides.append(rows)
        for case, base in sides[0].items():
            sa, sb, p, pct = compare(np.array(base), np.array(sides[1][case]))
            print("%-12s %.4f %.4f %+.2f%% p=%.3g" % (case, sa[3], sb[3], pct, p))
    elif kind == "summary":
        describe(np.fromfile(sys.argv[2]))
    else:
        sys.exit("usage: peer_compare.py plain|csv|summary FILES")


if __name__ == "__main__":
    main()
