#!/usr/bin/python3
"""Side-by-side benchmark of tally against its peers, in one run, on the same generated data.

Contenders alternate within every repetition (tally, then the peer, then tally...) so machine
drift hits both alike; each figure is the median over the repetitions; ratios are peer / tally
(above 1: tally is faster). Run from the repository root after building:

    /usr/bin/python3 bench/run.py --build build            # the full set (several minutes)
    /usr/bin/python3 bench/run.py --build build --quick    # small sizes, a smoke run
    /usr/bin/python3 bench/run.py --build build --scaling  # cost against n, 10^3 .. 10^8

Peers: numpy (summary), scipy (Welch, Mann-Whitney), pandas.read_csv and json.load (ingest),
ministat and a numpy/scipy script (end-to-end compare), all Debian packages.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd
import scipy.stats

HERE = os.path.dirname(os.path.abspath(__file__))


def run_child(argv):
    """Run a process; return (wall seconds including start-up, its stdout)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise RuntimeError("%s failed (%d): %s" % (" ".join(argv), proc.returncode, err.decode()))
    return wall, out.decode()


def run_child_rss(argv):
    """Run a process; return (wall seconds, its own peak RSS in KiB from wait4; RUSAGE_CHILDREN
    would give the maximum over all children instead)."""
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError("%s failed" % " ".join(argv))
    return wall, ru.ru_maxrss


def timed_lines(text):
    """`name seconds` lines of bench_tally into a dict."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                out[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return out


def numpy_summary(x):
    n = x.size
    mn, mx = x.min(), x.max()
    mean = x.mean()
    hmean = n / np.sum(1.0 / x)
    gmean = np.exp(np.mean(np.log(x)))
    med, p90, p99 = np.percentile(x, [50, 90, 99])
    sd = x.std(ddof=1)
    cv = 100.0 * sd / mean
    return n, mn, mx, mean, hmean, gmean, med, p90, p99, sd, cv


class Table:
    def __init__(self):
        self.rows = []

    def add(self, what, tally_s, peer, peer_s, target=None):
        ratio = peer_s / tally_s if tally_s > 0 else float("inf")
        self.rows.append((what, tally_s, peer, peer_s, ratio, target))
        mark = ""
        if target is not None:
            mark = "  (target >= %gx: %s)" % (target, "met" if ratio >= target else "NOT met")
        print("%-44s tally %9.4f s  %-22s %9.4f s  ratio %6.2fx%s"
              % (what, tally_s, peer, peer_s, ratio, mark), flush=True)

    def markdown(self):
        lines = ["| measurement | tally (s) | peer | peer (s) | peer/tally | target |",
                 "| --- | ---: | --- | ---: | ---: | --- |"]
        for what, ts, peer, ps, ratio, target in self.rows:
            t = "" if target is None else (">= %gx %s" % (target, "met" if ratio >= target else "**not met**"))
            lines.append("| %s | %.4f | %s | %.4f | %.2fx | %s |" % (what, ts, peer, ps, ratio, t))
        return "\n".join(lines)


def alternate(reps, contenders):
    """contenders: list of (name, fn returning seconds). Returns name -> median seconds."""
    times = {name: [] for name, _ in contenders}
    for r in range(reps):
        order = contenders if r % 2 == 0 else list(reversed(contenders))
        for name, fn in order:
            times[name].append(fn())
    return {name: statistics.median(v) for name, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="CMake build directory (default: build)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions per measurement (default 5)")
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    ap.add_argument("--scaling", action="store_true", help="only the n = 10^3..10^8 scaling table")
    ap.add_argument("--markdown", help="also write the results as Markdown to this file")
    args = ap.parse_args()

    bench = os.path.join(args.build, "bench", "bench_tally")
    tally = os.path.join(args.build, "tally")
    for path in (bench, tally):
        if not os.access(path, os.X_OK):
            sys.exit("run.py: %s is missing: build first (cmake --build %s)" % (path, args.build))
    bench, tally = os.path.abspath(bench), os.path.abspath(tally)
    tmp = tempfile.mkdtemp(prefix="tally-bench-")
    try:
        if args.scaling:
            scaling(bench, tmp, args)
        else:
            table = Table()
            full(bench, tally, tmp, args, table)
            if args.markdown:
                with open(args.markdown, "w") as f:
                    f.write(table.markdown() + "\n")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def describe_machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    print("machine: %s, %d CPUs; numpy %s, scipy %s, pandas %s, python %s"
          % (cpu, os.cpu_count(), np.__version__, scipy.__version__, pd.__version__,
             sys.version.split()[0]), flush=True)


def full(bench, tally, tmp, args, table):
    describe_machine()
    reps = args.reps
    n_summary = 10**5 if args.quick else 10**7
    n_tests = 10**4 if args.quick else 10**6
    mb = 2 if args.quick else 100
    n_plain = 2 * 10**4 if args.quick else 2 * 10**6

    # 1. Full summary: tally in its own process (start-up excluded) vs numpy in this one.
    data = os.path.join(tmp, "x.f64")
    subprocess.check_call([bench, "gen-doubles", data, str(n_summary), "1"])
    x = np.fromfile(data, dtype=np.float64)
    tally_rss = []

    def tally_summary():
        _, out = run_child([bench, "summary", data])
        for line in out.splitlines():
            if line.startswith("maxrss_kb"):
                tally_rss.append(int(line.split()[1]))
        return timed_lines(out)["summary"]

    def numpy_run():
        t0 = time.perf_counter()
        numpy_summary(x)
        return time.perf_counter() - t0

    m = alternate(reps, [("tally", tally_summary), ("numpy", numpy_run)])
    table.add("summary of %.0e doubles" % n_summary, m["tally"], "numpy", m["numpy"], 2)

    # 2. Welch and Mann-Whitney on two samples.
    a, b = os.path.join(tmp, "a.f64"), os.path.join(tmp, "b.f64")
    subprocess.check_call([bench, "gen-doubles", a, str(n_tests), "2"])
    subprocess.check_call([bench, "gen-doubles", b, str(n_tests), "3"])
    xa, xb = np.fromfile(a), np.fromfile(b)
    welch, mw = {"tally": [], "scipy": []}, {"tally": [], "scipy": []}
    for r in range(reps):
        _, out = run_child([bench, "tests", a, b])
        t = timed_lines(out)
        welch["tally"].append(t["welch"])
        mw["tally"].append(t["mannwhitney"])
        t0 = time.perf_counter()
        scipy.stats.ttest_ind(xa, xb, equal_var=False)
        t1 = time.perf_counter()
        scipy.stats.mannwhitneyu(xa, xb, alternative="two-sided")
        t2 = time.perf_counter()
        welch["scipy"].append(t1 - t0)
        mw["scipy"].append(t2 - t1)
    med = statistics.median
    table.add("Welch t-test, 2 x %.0e" % n_tests, med(welch["tally"]), "scipy", med(welch["scipy"]))
    table.add("Mann-Whitney U, 2 x %.0e" % n_tests, med(mw["tally"]), "scipy", med(mw["scipy"]), 1)

    # 3. Ingest of a numeric CSV and a native JSON file.
    csv, js = os.path.join(tmp, "runs.csv"), os.path.join(tmp, "runs.json")
    subprocess.check_call([bench, "gen-csv", csv, str(mb)])
    subprocess.check_call([bench, "gen-json", js, str(mb)])
    csv_mb, js_mb = os.path.getsize(csv) / 1e6, os.path.getsize(js) / 1e6
    ingest_rss = {}

    def tally_ingest(path):
        def fn():
            _, out = run_child([bench, "ingest", path])
            for line in out.splitlines():
                if line.startswith("maxrss_kb"):
                    ingest_rss[path] = int(line.split()[1])
            return timed_lines(out)["ingest"]
        return fn

    def pandas_csv():
        t0 = time.perf_counter()
        pd.read_csv(csv)
        return time.perf_counter() - t0

    def json_load():
        t0 = time.perf_counter()
        with open(js) as f:
            json.load(f)
        return time.perf_counter() - t0

    m = alternate(reps, [("tally", tally_ingest(csv)), ("pandas", pandas_csv)])
    table.add("ingest %.0f MB CSV (%.0f MB/s)" % (csv_mb, csv_mb / m["tally"]), m["tally"],
              "pandas.read_csv", m["pandas"], 3)
    m = alternate(reps, [("tally", tally_ingest(js)), ("json", json_load)])
    table.add("ingest %.0f MB native JSON (%.0f MB/s)" % (js_mb, js_mb / m["tally"]), m["tally"],
              "json.load", m["json"], 5)

    # 4. End to end: compare two plain files of numbers.
    pa, pb = os.path.join(tmp, "a.txt"), os.path.join(tmp, "b.txt")
    subprocess.check_call([bench, "gen-plain", pa, str(n_plain // 2 if args.quick else n_plain), "4"])
    subprocess.check_call([bench, "gen-plain", pb, str(n_plain // 2 if args.quick else n_plain), "5"])
    script = os.path.join(HERE, "peer_compare.py")
    e2e = {}
    ministat = shutil.which("ministat")
    contenders = [("tally", lambda: run_child([tally, "compare", pa, pb])[0]),
                  ("python", lambda: run_child(["/usr/bin/python3", script, "plain", pa, pb])[0])]
    if ministat:
        contenders.append(("ministat", lambda: run_child([ministat, "-q", pa, pb])[0]))
    e2e = alternate(reps, contenders)
    if ministat:
        table.add("compare 2 x %.0e plain numbers" % n_plain, e2e["tally"], "ministat", e2e["ministat"], 10)
    table.add("compare 2 x %.0e plain numbers" % n_plain, e2e["tally"], "numpy/scipy script", e2e["python"], 6)

    # 5. End to end: compare two small result files (start-up dominated).
    sa, sb = os.path.join(tmp, "small-a.csv"), os.path.join(tmp, "small-b.csv")
    write_small(sa, "base", 0.0)
    write_small(sb, "new", 0.02)
    m = alternate(reps * 4, [("tally", lambda: run_child([tally, "compare", sa, sb])[0]),
                             ("python", lambda: run_child(["/usr/bin/python3", script, "csv", sa, sb])[0])])
    table.add("compare two small CSV files, end to end", m["tally"], "scipy script", m["python"], 20)

    # 6. Peak memory.
    if tally_rss:
        mib = max(tally_rss) / 1024.0
        data_mib = n_summary * 8 / 2**20
        print("peak RSS of the tally summary process: %.1f MiB for %.1f MiB of samples (%.2fx)"
              % (mib, data_mib, mib / data_mib), flush=True)
    for path, kb in ingest_rss.items():
        print("peak RSS ingesting %s (%.0f MB): %.1f MiB" % (os.path.basename(path),
                                                            os.path.getsize(path) / 1e6, kb / 1024.0))
    _, rss_np = run_child_rss(["/usr/bin/python3", os.path.join(HERE, "peer_compare.py"),
                               "summary", data])
    print("peak RSS of a numpy process doing the same summary: %.1f MiB" % (rss_np / 1024.0),
          flush=True)


def write_small(path, label, shift):
    rng = np.random.default_rng(7 if label == "base" else 8)
    with open(path, "w") as f:
        f.write("benchmark,case,config,value,unit,better\n")
        for case in (1, 2, 4, 8, 16):
            for v in rng.normal(1.0 + shift, 0.02, 10) * case:
                f.write("hackbench,%d-groups,%s,%.6f,s,lower\n" % (case, label, v))


def scaling(bench, tmp, args):
    describe_machine()
    print("%-8s %14s %14s %14s %14s" % ("n", "summary s", "ns/sample", "CSV ingest s", "MB/s"))
    for exp in range(3, 9):
        n = 10**exp
        data = os.path.join(tmp, "x.f64")
        subprocess.check_call([bench, "gen-doubles", data, str(n), "1"])
        summ = statistics.median(timed_lines(run_child([bench, "summary", data])[1])["summary"]
                                 for _ in range(3))
        os.unlink(data)
        csv = os.path.join(tmp, "x.csv")
        mb = max(n * 45 / 1e6, 0.001)
        if exp <= 7:
            subprocess.check_call([bench, "gen-csv", csv, "%.6f" % mb])
            size = os.path.getsize(csv) / 1e6
            ing = statistics.median(timed_lines(run_child([bench, "ingest", csv])[1])["ingest"]
                                    for _ in range(3))
            os.unlink(csv)
            print("%-8.0e %14.6f %14.2f %14.6f %14.1f" % (n, summ, summ / n * 1e9, ing, size / ing), flush=True)
        else:
            print("%-8.0e %14.6f %14.2f %14s %14s" % (n, summ, summ / n * 1e9, "-", "-"), flush=True)


if __name__ == "__main__":
    main()
