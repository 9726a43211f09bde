#!/usr/bin/python3
"""tally.dask against one process and against a plain Dask/pandas groupby, on one generated corpus.

    PYTHONPATH=build/bindings/python /usr/bin/python3 bench/dask_scale.py [--samples 1e8]
        [--files 100] [--cases 10] [--dir /var/tmp/tally-dask-bench] [--keep]

The corpus: `files` native JSON files (written by tally.Results.save) on local disk, alternately
of configuration "base" and "new", each with every one of `cases` cases of one benchmark, the
samples log-normal and rounded to 6 significant digits. Every scenario runs in its own process
(its peak memory is its own) and reads the same files:

  single         one process: tally.load() of every file, the samples appended into one Results,
                 tally.Report (what a user without Dask does; labels repeat across files, so the
                 files cannot be loaded into one list directly)
  tally.dask 1w  tally.dask.report() on a LocalCluster of 1 worker process (1 thread)
  tally.dask 2w  the same with 2 worker processes
  pandas         one process: the files read into one pandas frame (by tally.dask.read's parser),
                 groupby of count, min, max, mean, std, median, quartiles, p99 (the same per-case
                 statistics minus the tests)
  dask 1w / 2w   the same groupby on Dask (agg, then the quantiles by a groupby-apply: the samples
                 of each case are shuffled to one worker, since quantiles do not reduce)

Printed per scenario: wall time, CPU time (the process and its workers), peak resident memory of
the process and of each worker; and the ratios against `single`. The numbers in
docs/performance.md ("Scaling out on Dask") come from one run of this script.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def generate(directory, samples, files, cases):
    import numpy as np
    import tally
    os.makedirs(directory, exist_ok=True)
    per_case = samples // (files * cases)
    rng = np.random.default_rng(8)
    for f in range(files):
        path = os.path.join(directory, f"run{f:04d}.json")
        if os.path.exists(path):
            continue
        label = "base" if f % 2 == 0 else "new"
        results = tally.Results()
        rs = results.add(label, {"host": "bench"})
        bench = rs.add_benchmark("latency", "usec", "lower")
        for c in range(cases):
            x = (100.0 + 10 * c) * (1.01 if label == "new" else 1.0) * \
                np.exp(0.3 * rng.standard_normal(per_case))
            bench.add_case(f"case{c}", np.round(x, 3))
        results.save(path + ".tmp")
        os.rename(path + ".tmp", path)
    return sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.endswith(".json"))


# ---- scenarios (each in its own process) ------------------------------------------------------

def run_single(files):
    import numpy as np
    import tally
    merged = tally.Results()
    sets = {}
    for path in files:
        with tally.load(path) as loaded:
            for rs in loaded:
                target = sets.get(rs.label)
                if target is None:
                    target = sets[rs.label] = merged.add(rs.label, rs.metadata)
                for b in rs:
                    try:
                        tb = target[b.name]
                    except KeyError:
                        tb = target.add_benchmark(b.name, b.unit, b.better)
                    for c in b:
                        try:
                            tb[c.name].append(c.samples)
                        except KeyError:
                            tb.add_case(c.name, c.samples)
    report = tally.Report(merged, omit_samples=True)
    return report.text(style="mmtests"), np


def run_tally_dask(files, workers):
    import tally.dask
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=50) as cluster, Client(cluster) as c:
        watch = Watch(c)
        report = tally.dask.report(files)
        text = report.text(style="mmtests")
        return text, watch.stop()


QUANTILES = [0.25, 0.5, 0.75, 0.99]


def _quantiles(s):
    import pandas
    return pandas.Series(s.quantile(QUANTILES).to_numpy(), index=[str(q) for q in QUANTILES])


def run_pandas(files):
    import pandas
    import tally.dask
    frame = pandas.concat([tally.dask._frame_of_file(f, None, None) for f in files],
                          ignore_index=True)
    g = frame.groupby(["label", "benchmark", "case"], observed=True).value
    stats = g.agg(["count", "min", "max", "mean", "std"])
    q = g.quantile(QUANTILES).unstack()
    return f"{len(stats)} groups; {stats['count'].sum()} samples; {q.shape}", None


def run_dask_groupby(files, workers):
    import pandas
    import tally.dask
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=50) as cluster, Client(cluster) as c:
        watch = Watch(c)
        frame = tally.dask.read(files)[["label", "benchmark", "case", "value"]]
        frame = frame.astype({"label": str, "benchmark": str, "case": str})
        g = frame.groupby(["label", "benchmark", "case"]).value
        stats = g.agg(["count", "min", "max", "mean", "std"]).compute()
        meta = pandas.Series(dtype=float, name="value")
        q = g.apply(lambda s: s.quantile(QUANTILES), meta=meta).compute()
        return f"{len(stats)} groups; {stats['count'].sum()} samples; {len(q)} quantiles", \
            watch.stop()


class Watch:
    """Peak resident memory and CPU time of the cluster's worker processes, polled."""

    def __init__(self, client):
        import psutil
        self.procs = [psutil.Process(pid) for pid in client.run(os.getpid).values()]
        self.cpu0 = [self._cpu(p) for p in self.procs]
        self.peak = [0] * len(self.procs)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.thread.start()

    @staticmethod
    def _cpu(p):
        t = p.cpu_times()
        return t.user + t.system

    def _poll(self):
        while not self.done.is_set():
            for i, p in enumerate(self.procs):
                try:
                    self.peak[i] = max(self.peak[i], p.memory_info().rss)
                except Exception:
                    pass
            self.done.wait(0.1)

    def stop(self):
        self.done.set()
        self.thread.join()
        cpu = [self._cpu(p) - c0 for p, c0 in zip(self.procs, self.cpu0)]
        return {"worker_cpu": sum(cpu), "worker_peak_rss": self.peak}


def scenario(name, files):
    import resource
    start = time.monotonic()
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    if name == "single":
        out, extra = run_single(files)[0], None
    elif name.startswith("tally.dask"):
        out, extra = run_tally_dask(files, int(name[-2]))
    elif name == "pandas":
        out, extra = run_pandas(files)
    else:
        out, extra = run_dask_groupby(files, int(name[-2]))
    wall = time.monotonic() - start
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    result = {"name": name, "wall": wall, "cpu": cpu, "peak_rss": r1.ru_maxrss * 1024,
              "digest": out[:2000] if isinstance(out, str) else ""}
    if extra:
        result.update(extra)
        result["cpu"] += extra["worker_cpu"]
    print(json.dumps(result))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=float, default=1e8)
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--cases", type=int, default=10)
    ap.add_argument("--dir", default="/var/tmp/tally-dask-bench")
    ap.add_argument("--keep", action="store_true", help="keep the generated files")
    ap.add_argument("--only", help="comma-separated scenarios")
    ap.add_argument("--scenario", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.scenario:
        files = sorted(os.path.join(args.dir, n) for n in os.listdir(args.dir)
                       if n.endswith(".json"))
        scenario(args.scenario, files)
        return
    t = time.monotonic()
    files = generate(args.dir, int(args.samples), args.files, args.cases)
    size = sum(os.path.getsize(f) for f in files)
    print(f"corpus: {int(args.samples):.3g} samples, {len(files)} files, {args.cases} cases per "
          f"configuration, {size / 1e9:.2f} GB in {args.dir} ({time.monotonic() - t:.0f} s)")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    names = ["single", "tally.dask 1w", "tally.dask 2w", "pandas", "dask 1w", "dask 2w"]
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    results = {}
    for name in names:
        proc = subprocess.run([sys.executable, __file__, "--dir", args.dir, "--scenario", name],
                              capture_output=True, text=True)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
        if proc.returncode != 0 or not lines:
            print(f"{name:14s} failed: {proc.stderr.strip().splitlines()[-1:]}")
            continue
        results[name] = json.loads(lines[-1])
    base = results.get("single")
    print(f"{'scenario':14s} {'wall s':>8s} {'CPU s':>8s} {'peak MB':>8s}  {'per worker MB':14s}"
          f" {'wall/single':>11s}")
    for name, r in results.items():
        workers = " ".join(f"{b / 1e6:.0f}" for b in r.get("worker_peak_rss", [])) or "-"
        ratio = f"{r['wall'] / base['wall']:.2f}" if base else "-"
        print(f"{name:14s} {r['wall']:8.1f} {r['cpu']:8.1f} {r['peak_rss'] / 1e6:8.0f}  "
              f"{workers:14s} {ratio:>11s}")
    tally_outputs = {r["digest"] for n, r in results.items() if n == "single" or
                     n.startswith("tally.dask")}
    print("tally reports identical (mmtests layout):", len(tally_outputs) == 1)
    if not args.keep:
        shutil.rmtree(args.dir)


if __name__ == "__main__":
    main()
