#!/usr/bin/python3
"""The Python peers of tally in the benchmark harness (bench/run.py), written as a user would
write them with numpy, scipy, pandas and the json module.

End-to-end scripts (timed from outside, process start to exit):
    peer_compare.py plain A.txt B.txt     compare two files of numbers (like `tally compare`)
    peer_compare.py csv A.csv B.csv       compare two long-form CSV files case by case

Timed inside the process, start-up and imports excluded (each prints `name WALL CPU` lines in
seconds, then `maxrss_kb N`, like bench_tally):
    peer_compare.py timed-summary X.f64   n, min, max, amean, hmean, gmean, median, p90, p99,
                                          stddev, cv of raw float64 values with numpy
    peer_compare.py timed-tests A.f64 B.f64   scipy Welch t-test and Mann-Whitney U
    peer_compare.py timed-csv PATH        pandas.read_csv
    peer_compare.py timed-json PATH       json.load
    peer_compare.py kernels               numpy's version and BLAS kernel (threadpoolctl)
"""
import resource
import os
import sys
import time


def describe(x):
    import numpy as np
    n = x.size
    mean = x.mean()
    sd = x.std(ddof=1)
    med, p90, p99 = np.percentile(x, [50, 90, 99])
    return (n, x.min(), x.max(), mean, n / np.sum(1.0 / x), np.exp(np.mean(np.log(x))),
            med, p90, p99, sd, 100 * sd / mean)


def compare(a, b):
    import scipy.stats
    sa, sb = describe(a), describe(b)
    t = scipy.stats.ttest_ind(a, b, equal_var=False)
    pct = (1 - sb[3] / sa[3]) * 100
    return sa, sb, t.pvalue, pct


def timed(name, fn, *args, **kwargs):
    w0, c0 = time.perf_counter(), time.process_time()
    result = fn(*args, **kwargs)
    w1, c1 = time.perf_counter(), time.process_time()
    print("%s %.9f %.9f" % (name, w1 - w0, c1 - c0))
    return result


def print_maxrss():
    """Peak RSS of this process image (VmHWM: getrusage would also count the parent's image
    from before exec)."""
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    kb = int(line.split()[1])
    except OSError:
        pass
    print("maxrss_kb %d" % kb)


def kernels():
    import numpy as np
    print("numpy %s" % np.__version__)
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        print("threadpoolctl not installed (Debian: python3-threadpoolctl)")
        return
    import numpy.linalg  # noqa: F401  (loads the BLAS so threadpoolctl can see it)
    pools = threadpool_info()
    if not pools:
        libs = []
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "blas" in path.lower() and path not in libs:
                    libs.append(path)
        print("threadpoolctl finds no OpenBLAS/MKL/BLIS pool: numpy runs its own single-threaded "
              "kernels (BLAS loaded: %s)" % (", ".join(libs) or "none"))
    for info in pools:
        print("%s %s: %s, kernel %s, %s threads" % (info.get("internal_api"), info.get("version"),
                                                  info.get("filepath"), info.get("architecture"),
                                                  info.get("num_threads")))


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else ""
    if kind == "plain":
        import numpy as np
        a, b = np.loadtxt(sys.argv[2]), np.loadtxt(sys.argv[3])
        sa, sb, p, pct = compare(a, b)
        print("mean %.6g -> %.6g  %+.2f%%  p=%.3g" % (sa[3], sb[3], pct, p))
    elif kind == "csv":
        import csv
        import numpy as np
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
    elif kind == "timed-summary":
        import numpy as np
        x = np.fromfile(sys.argv[2])
        x.sum()  # touch every page before the clock starts, as bench_tally does
        s = timed("summary", describe, x)
        print("check %.17g %.17g %.17g %.17g" % (s[3], s[6], s[7], s[8]))
        print_maxrss()
    elif kind == "timed-tests":
        import numpy as np
        import scipy.stats
        a, b = np.fromfile(sys.argv[2]), np.fromfile(sys.argv[3])
        a.sum(), b.sum()  # touch every page before the clock starts, as bench_tally does
        t = timed("welch", scipy.stats.ttest_ind, a, b, equal_var=False)
        u = timed("mannwhitney", scipy.stats.mannwhitneyu, a, b, alternative="two-sided")
        print("check %.17g %.17g %.17g %.17g" % (t.statistic, t.pvalue, u.statistic, u.pvalue))
        print_maxrss()
    elif kind == "timed-csv":
        import pandas as pd
        df = timed("ingest", pd.read_csv, sys.argv[2])
        print("samples %d" % len(df))
        print_maxrss()
    elif kind == "timed-json":
        import json

        def load(path):
            with open(path) as f:
                return json.load(f)
        timed("ingest", load, sys.argv[2])
        print_maxrss()
    elif kind == "csv-groupby":
        # The long-form CSV as pandas users summarise it: read_csv, then one groupby agg.
        import pandas as pd
        df = pd.read_csv(sys.argv[2])
        g = df.groupby(["benchmark", "case", "config"])["value"]
        out = g.agg(["count", "mean", "std", "min", "max", "median"])
        print("groups %d" % len(out))
    elif kind == "hyperfine":
        # hyperfine --export-json: json.load, then numpy per command.
        import json
        import numpy as np
        with open(sys.argv[2]) as f:
            doc = json.load(f)
        for res in doc["results"]:
            x = np.array(res["times"])
            print(res["command"], x.size, x.mean(), x.std(ddof=1), np.median(x))
    elif kind == "gbench":
        # Google Benchmark JSON: json.load, iteration rows grouped by run_name, numpy per group.
        import json
        import numpy as np
        with open(sys.argv[2]) as f:
            doc = json.load(f)
        groups = {}
        for row in doc["benchmarks"]:
            if row.get("run_type", "iteration") == "iteration":
                g = groups.setdefault(row["run_name"], ([], []))
                g[0].append(row["real_time"])
                g[1].append(row["cpu_time"])
        for name, (real, cpu) in groups.items():
            for v in (np.array(real), np.array(cpu)):
                print(name, v.size, v.mean(), v.std(ddof=1), np.median(v))
    elif kind == "timed-dump":
        # json.dump of the samples of a long-form CSV, as lists (read first, not timed).
        import csv
        import json
        lists = {}
        with open(sys.argv[2]) as f:
            for row in csv.DictReader(f):
                lists.setdefault(row["case"] + "/" + row["config"], []).append(float(row["value"]))
        with open(os.devnull, "w") as out:
            timed("write", json.dump, lists, out)
    elif kind == "kernels":
        kernels()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
