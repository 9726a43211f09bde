#!/usr/bin/python3
"""Side-by-side benchmark of tally against its peers, in one run, on the same generated data.

Every contender runs in its own child process. Within each repetition the contenders alternate
(tally first on even repetitions, last on odd ones) so drift in the machine's load hits all of
them alike; each figure is the median over the repetitions. Ratios are peer / tally: above 1,
tally is faster. Two clocks are kept: CPU time (user + system of the process, or of the timed
region for in-process figures), on which the targets are judged because it does not count the
time a process spends waiting for a core on a shared machine, and wall-clock time.

Run from the repository root after building (cmake --build build):

    /usr/bin/python3 bench/run.py                  # the full set (10 to 20 minutes)
    /usr/bin/python3 bench/run.py --quick          # tiny sizes, one repetition: a smoke run
    /usr/bin/python3 bench/run.py --scaling        # cost against n, 10^3 .. 10^8
    /usr/bin/python3 bench/run.py --numbers        # the number shapes (issue-style user data)

Peers (Debian packages): numpy (summary), scipy (Welch, Mann-Whitney), pandas.read_csv and
json.load (ingest), ministat and a numpy/scipy script (end-to-end compare). The Python peers run
with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from their environment (set on some machines
for old OpenBLAS builds, they slow a current numpy down); nothing else is changed.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"
PEER = os.path.join(HERE, "peer_compare.py")

# The Python peers' environment: OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, together.
PEER_ENV = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}


class Run:
    """One finished child process: wall and CPU seconds, peak RSS, stdout."""

    def __init__(self, wall, cpu, maxrss_kb, out):
        self.wall, self.cpu, self.maxrss_kb, self.out = wall, cpu, maxrss_kb, out
        for line in out.splitlines():  # the child's own report wins (see print_maxrss)
            if line.startswith("maxrss_kb "):
                self.maxrss_kb = int(line.split()[1])

    def timed(self, name):
        """(wall, cpu) of a `name WALL CPU` line the child printed about its own timed region."""
        for line in self.out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == name:
                return float(parts[1]), float(parts[2])
        raise RuntimeError("no '%s' timing in output:\n%s" % (name, self.out))


def spawn(argv, env=None):
    """Run argv to completion; its rusage (wait4) gives its own CPU time and peak RSS."""
    with tempfile.TemporaryFile() as out, open(os.devnull, "wb") as devnull:
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env if env is not None else os.environ,
                             file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                                           (os.POSIX_SPAWN_DUP2, devnull.fileno(), 2)])
        _, status, ru = os.wait4(pid, 0)
        wall = time.perf_counter() - t0
        out.seek(0)
        text = out.read().decode()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: `tally compare` found a significant change, `ministat` too
        raise RuntimeError("%s exited with %d" % (" ".join(argv), code))
    return Run(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, text)


def alternate(reps, contenders):
    """contenders: list of (name, fn returning (wall, cpu)). Returns name -> (median wall,
    median cpu)."""
    walls = {name: [] for name, _ in contenders}
    cpus = {name: [] for name, _ in contenders}
    for r in range(reps):
        for name, fn in (contenders if r % 2 == 0 else list(reversed(contenders))):
            wall, cpu = fn()
            walls[name].append(wall)
            cpus[name].append(cpu)
    return {name: (statistics.median(walls[name]), statistics.median(cpus[name]))
            for name, _ in contenders}


class Table:
    def __init__(self):
        self.rows = []
        self.memory = []

    def add(self, what, tally, peer, peer_t, target=None):
        """tally, peer_t: (wall, cpu) medians. The target is judged on CPU time."""
        ratio_cpu = peer_t[1] / tally[1] if tally[1] > 0 else float("inf")
        ratio_wall = peer_t[0] / tally[0] if tally[0] > 0 else float("inf")
        verdict = "" if target is None else (">= %gx %s" % (target, "met" if ratio_cpu >= target
                                                            else "NOT MET"))
        self.rows.append((what, tally, peer, peer_t, ratio_cpu, ratio_wall, verdict))
        print("%-40s tally %8.4f s  %-19s %8.4f s  cpu ratio %7.2fx  wall ratio %7.2fx  %s"
              % (what, tally[1], peer, peer_t[1], ratio_cpu, ratio_wall, verdict), flush=True)

    def add_memory(self, what, kb, note):
        self.memory.append((what, kb, note))
        print("peak RSS %-44s %8.1f MiB  %s" % (what, kb / 1024.0, note), flush=True)

    def markdown(self):
        lines = ["| measurement | tally CPU s | peer | peer CPU s | ratio (CPU) | ratio (wall) | target |",
                 "| --- | ---: | --- | ---: | ---: | ---: | --- |"]
        for what, tally, peer, peer_t, rc, rw, verdict in self.rows:
            lines.append("| %s | %.4f | %s | %.4f | %.2fx | %.2fx | %s |"
                         % (what, tally[1], peer, peer_t[1], rc, rw, verdict))
        lines += ["", "| process | peak RSS (MiB) | note |", "| --- | ---: | --- |"]
        for what, kb, note in self.memory:
            lines.append("| %s | %.1f | %s |" % (what, kb / 1024.0, note))
        return "\n".join(lines)


def describe_machine(bench):
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    print("machine: %s, %d CPUs, load average %.1f; python %s"
          % (cpu, os.cpu_count(), os.getloadavg()[0], sys.version.split()[0]), flush=True)
    out = spawn([PYTHON, "-c", "import numpy, scipy, pandas; print('numpy %s, scipy %s, pandas %s'"
                 " % (numpy.__version__, scipy.__version__, pandas.__version__))"], PEER_ENV).out
    print("peers: " + out.strip(), flush=True)
    for line in spawn([PYTHON, PEER, "kernels"], PEER_ENV).out.splitlines()[1:]:
        print("numpy BLAS (OPENBLAS_CORETYPE/L2_SIZE unset): " + line, flush=True)


def generate(bench, *args):
    spawn([bench] + [str(a) for a in args])


def in_process(argv, name, env=None, rss=None):
    """A contender timing itself: returns fn -> (wall, cpu) of its `name` line."""
    def fn():
        run = spawn(argv, env)
        if rss is not None:
            rss.append(run.maxrss_kb)
        return run.timed(name)
    return fn


BENCH = None  # bench_tally, set in main()


def end_to_end(argv, env=None, rss=None):
    """A contender timed from outside, process start to exit, by `bench_tally run` (a small
    parent, so the child's peak RSS is its own)."""
    def fn():
        run = spawn([BENCH, "run"] + argv, env)
        if rss is not None:
            rss.append(run.maxrss_kb)
        return run.timed("run")
    return fn


def full(bench, tally, tmp, args):
    describe_machine(bench)
    table = Table()
    quick = args.quick
    reps = 1 if quick and args.reps is None else (args.reps or 5)
    n_summary = 10**5 if quick else 10**7
    n_tests = 10**4 if quick else 10**6
    mb = 1 if quick else 100
    n_plain = 2 * 10**4 if quick else 2 * 10**6
    print("repetitions: %d (medians; contenders alternate)" % reps, flush=True)

    # 1. Full summary, start-up and file reading excluded on both sides.
    data = os.path.join(tmp, "x.f64")
    generate(bench, "gen-doubles", data, n_summary, 1)
    rss_t, rss_n = [], []
    m = alternate(reps, [("tally", in_process([bench, "summary", data], "summary", rss=rss_t)),
                         ("numpy", in_process([PYTHON, PEER, "timed-summary", data], "summary",
                                              PEER_ENV, rss_n))])
    table.add("summary of %.0e doubles" % n_summary, m["tally"], "numpy", m["numpy"], 2)

    # 2. Welch and Mann-Whitney on two samples, in process.
    a, b = os.path.join(tmp, "a.f64"), os.path.join(tmp, "b.f64")
    generate(bench, "gen-doubles", a, n_tests, 2)
    generate(bench, "gen-doubles", b, n_tests, 3)
    runs = {"tally": [], "scipy": []}
    contenders = [("tally", lambda: runs["tally"].append(spawn([bench, "tests", a, b]))),
                  ("scipy", lambda: runs["scipy"].append(spawn([PYTHON, PEER, "timed-tests", a, b],
                                                               PEER_ENV)))]
    for r in range(reps):
        for _, fn in (contenders if r % 2 == 0 else list(reversed(contenders))):
            fn()

    def med(who, name):
        t = [run.timed(name) for run in runs[who]]
        return statistics.median(x[0] for x in t), statistics.median(x[1] for x in t)
    table.add("Welch t-test, 2 x %.0e" % n_tests, med("tally", "welch"), "scipy",
              med("scipy", "welch"))
    table.add("Mann-Whitney U, 2 x %.0e" % n_tests, med("tally", "mannwhitney"), "scipy",
              med("scipy", "mannwhitney"), 1)

    # 3. Ingest of a numeric CSV and a native JSON file, in process.
    csv, js = os.path.join(tmp, "runs.csv"), os.path.join(tmp, "runs.json")
    generate(bench, "gen-csv", csv, mb)
    generate(bench, "gen-json", js, mb)
    csv_mb, js_mb = os.path.getsize(csv) / 1e6, os.path.getsize(js) / 1e6
    rss_csv, rss_json, rss_pd, rss_js = [], [], [], []
    m = alternate(reps, [("tally", in_process([bench, "ingest", csv], "ingest", rss=rss_csv)),
                         ("pandas", in_process([PYTHON, PEER, "timed-csv", csv], "ingest",
                                               PEER_ENV, rss_pd))])
    table.add("ingest %.0f MB CSV (%.0f MB/s CPU)" % (csv_mb, csv_mb / m["tally"][1]), m["tally"],
              "pandas.read_csv", m["pandas"], 3)
    m = alternate(reps, [("tally", in_process([bench, "ingest", js], "ingest", rss=rss_json)),
                         ("json", in_process([PYTHON, PEER, "timed-json", js], "ingest",
                                             PEER_ENV, rss_js))])
    table.add("ingest %.0f MB native JSON (%.0f MB/s CPU)" % (js_mb, js_mb / m["tally"][1]),
              m["tally"], "json.load", m["json"], 5)
    for path in (csv, js):
        os.unlink(path)

    # 3b. Many distinct cases: each row finds its case by name (a hash lookup; a scan per row
    # took 12.5 s for 40,000 cases). Target: 200,000 cases in well under a second.
    n_cases = 10**4 if quick else 2 * 10**5
    cases = os.path.join(tmp, "cases.csv")
    generate(bench, "gen-cases", cases, n_cases)
    m = alternate(reps, [("tally", in_process([bench, "ingest", cases], "ingest")),
                         ("pandas", in_process([PYTHON, PEER, "timed-csv", cases], "ingest",
                                               PEER_ENV))])
    table.add("load %.0e distinct cases x 3 runs (CSV)" % n_cases, m["tally"], "pandas.read_csv",
              m["pandas"])
    print("load of %d distinct cases: %.3f s CPU (target < 1 s: %s)"
          % (n_cases, m["tally"][1], "met" if m["tally"][1] < 1.0 else "NOT MET"), flush=True)
    os.unlink(cases)

    # 4. End to end: compare two plain files of numbers.
    pa, pb = os.path.join(tmp, "a.txt"), os.path.join(tmp, "b.txt")
    generate(bench, "gen-plain", pa, n_plain, 4)
    generate(bench, "gen-plain", pb, n_plain, 5)
    ministat = shutil.which("ministat")
    rss_e2e, rss_py, rss_ms = [], [], []
    contenders = [("tally", end_to_end([tally, "compare", pa, pb], rss=rss_e2e)),
                  ("python", end_to_end([PYTHON, PEER, "plain", pa, pb], PEER_ENV, rss_py))]
    if ministat:
        contenders.append(("ministat", end_to_end([ministat, pa, pb], rss=rss_ms)))
    m = alternate(reps, contenders)
    if ministat:
        table.add("compare 2 x %.0e plain numbers" % n_plain, m["tally"], "ministat",
                  m["ministat"], 10)
    else:
        print("ministat not installed (Debian: ministat): that comparison is skipped")
    table.add("compare 2 x %.0e plain numbers" % n_plain, m["tally"], "numpy/scipy script",
              m["python"], 6)

    # 5. End to end: compare two small result files (start-up dominated).
    sa, sb = os.path.join(tmp, "small-a.csv"), os.path.join(tmp, "small-b.csv")
    write_small(sa, "base", 0, 7)
    write_small(sb, "new", 0.02, 8)
    rss_small = []
    m = alternate(reps if quick else reps * 4,
                  [("tally", end_to_end([tally, "compare", sa, sb], rss=rss_small)),
                   ("python", end_to_end([PYTHON, PEER, "csv", sa, sb], PEER_ENV))])
    table.add("compare two small CSV files, end to end", m["tally"], "scipy script", m["python"], 20)

    # 6. Peak memory (getrusage ru_maxrss of each process).
    samples_mib = n_summary * 8 / 2**20
    kb = max(rss_t)
    ratio = kb / 1024.0 / samples_mib
    table.add_memory("tally summary, %.0e samples" % n_summary, kb,
                     "%.2fx the %.1f MiB of samples (target <= 1.2x: %s)"
                     % (ratio, samples_mib, "met" if ratio <= 1.2 else
                        ("NOT MET" if not quick else "not judged at this size")))
    table.add_memory("numpy summary, %.0e samples" % n_summary, max(rss_n),
                     "%.2fx, includes the interpreter and numpy" % (max(rss_n) / 1024.0 / samples_mib))
    table.add_memory("tally ingest, CSV", max(rss_csv), "%.0f MB file" % csv_mb)
    table.add_memory("pandas.read_csv", max(rss_pd), "")
    table.add_memory("tally ingest, native JSON", max(rss_json), "%.0f MB file" % js_mb)
    table.add_memory("json.load", max(rss_js), "")
    table.add_memory("tally compare, 2 plain files", max(rss_e2e), "")
    if rss_ms:
        table.add_memory("ministat, 2 plain files", max(rss_ms), "")
    table.add_memory("numpy/scipy script, 2 plain files", max(rss_py), "")
    table.add_memory("tally compare, 2 small files", max(rss_small), "")
    return table


SHAPES = os.path.join(HERE, "number_shapes.py")


def shape(*args):
    spawn([PYTHON, SHAPES] + [str(a) for a in args])


def before_build(args):
    """(bench_tally, tally) of the --before build, or None."""
    if not getattr(args, "before", None):
        return None
    b = os.path.abspath(os.path.join(args.before, "bench", "bench_tally"))
    t = os.path.abspath(os.path.join(args.before, "tally"))
    for path in (b, t):
        if not os.access(path, os.X_OK):
            sys.exit("run.py: %s is missing: build the --before tree first" % path)
    return b, t


def timed_with_before(table, reps, what, contenders, before, peer=None, target=None):
    """Alternate `contenders` (tally first, then its peers) plus, when `before` = (name, fn) is
    given, the earlier build; rows: tally against `peer` (a contender's name and label), and
    tally against the earlier build (ratio = the speed-up)."""
    m = alternate(reps, contenders + ([before] if before else []))
    if peer:
        table.add(what, m["tally"], peer[1], m[peer[0]], target)
    if before:
        table.add(what, m["tally"], "tally before", m["before"])
    return m


def numbers(bench, tally, tmp, args):
    """The number shapes of issue-style user data, each against its natural peer, in one run:
    plain files of 17-digit repr, %.17g, 6-decimal, whole and exponent numbers (tally's parse
    in MB/s of CPU time next to `wc -l` on the same file), end-to-end compare vs ministat and a
    numpy/scipy script, long-form CSV vs pandas read_csv + groupby, hyperfine and Google
    Benchmark JSON vs json.load + numpy, the JSON report vs json.dump; and the 10^7-double
    check of tally's parser against glibc's strtod (tests/test_number_conversion)."""
    describe_machine(bench)
    table = Table()
    quick = args.quick
    reps = 1 if quick and args.reps is None else (args.reps or 5)
    n = 2 * 10**4 if quick else 2 * 10**6
    print("repetitions: %d (medians; contenders alternate)" % reps, flush=True)
    wc = shutil.which("wc")
    files = {}
    for name in ("repr", "g17", "dec6", "int", "exp"):
        files[name] = os.path.join(tmp, "%s-a.txt" % name)
        shape("plain", name, files[name], n, 11)
    old = before_build(args)
    mbs = {}
    for name, path in files.items():
        mb = os.path.getsize(path) / 1e6
        m = alternate(reps, [("tally", in_process([bench, "ingest", path], "ingest")),
                             ("wc", end_to_end([wc, "-l", path]))]
                      + ([("before", in_process([old[0], "ingest", path], "ingest"))] if old else []))
        if old:
            table.add("parse %s: earlier build" % name, m["tally"], "tally before", m["before"])
        mbs[name] = mb / m["tally"][1]
        table.add("parse %.0e plain %s (%.1f MB): %.0f MB/s CPU, wc -l %.0f MB/s"
                  % (n, name, mb, mbs[name], mb / m["wc"][1]), m["tally"], "wc -l", m["wc"])
    for name in files:
        print("plain %-5s %7.0f MB/s CPU, %.2fx the time per MB of dec6 (target <= 2x: %s)"
              % (name, mbs[name], mbs["dec6"] / mbs[name],
                 "met" if mbs["dec6"] / mbs[name] <= 2 else "NOT MET"), flush=True)
    print("plain repr parse: %.0f MB/s CPU (target >= 500: %s)"
          % (mbs["repr"], "met" if mbs["repr"] >= 500 else "NOT MET"), flush=True)

    for name in ("repr", "dec6"):
        pa, pb = files[name], os.path.join(tmp, "%s-b.txt" % name)
        shape("plain", name, pb, n, 12)
        ministat = shutil.which("ministat")
        contenders = [("tally", end_to_end([tally, "compare", pa, pb])),
                      ("python", end_to_end([PYTHON, PEER, "plain", pa, pb], PEER_ENV))]
        if ministat:
            contenders.append(("ministat", end_to_end([ministat, "-A", pa, pb])))
        if old:
            contenders.append(("before", end_to_end([old[1], "compare", pa, pb])))
            print("(the earlier build alternates with them)", flush=True)
        m = alternate(reps, contenders)
        if old:
            table.add("compare 2 x %.0e plain %s" % (n, name), m["tally"], "tally before",
                      m["before"])
        if ministat:
            table.add("compare 2 x %.0e plain %s" % (n, name), m["tally"], "ministat -A",
                      m["ministat"], 10 if name == "repr" else None)
        table.add("compare 2 x %.0e plain %s" % (n, name), m["tally"], "numpy/scipy script",
                  m["python"], 8 if name == "repr" else None)
        os.unlink(pb)
    for path in files.values():
        os.unlink(path)

    csv = os.path.join(tmp, "long.csv")
    runs = 100 if quick else 10**4
    shape("csv", csv, 2, 100, runs, 13)
    mb = os.path.getsize(csv) / 1e6
    timed_with_before(table, reps, "summary of a %.0f MB long-form repr CSV" % mb,
                      [("tally", end_to_end([tally, "summary", csv])),
                       ("pandas", end_to_end([PYTHON, PEER, "csv-groupby", csv], PEER_ENV))],
                      ("before", end_to_end([old[1], "summary", csv])) if old else None,
                      ("pandas", "pandas read_csv+groupby"), 4)
    m = alternate(reps, [("tally", in_process([bench, "write-json", csv], "write")),
                         ("json", in_process([PYTHON, PEER, "timed-dump", csv], "write", PEER_ENV))])
    table.add("JSON report of %.0e samples written" % (2 * 100 * runs), m["tally"],
              "json.dump of the lists", m["json"], 5)
    os.unlink(csv)

    hf = os.path.join(tmp, "hyperfine.json")
    shape("hyperfine", hf, 2, n // 2, 14)
    timed_with_before(table, reps, "summary of hyperfine JSON, 2 x %.0e times" % (n // 2),
                      [("tally", end_to_end([tally, "summary", hf])),
                       ("python", end_to_end([PYTHON, PEER, "hyperfine", hf], PEER_ENV))],
                      ("before", end_to_end([old[1], "summary", hf])) if old else None,
                      ("python", "json.load + numpy"), 4)
    os.unlink(hf)
    gb = os.path.join(tmp, "gbench.json")
    shape("gbench", gb, 10, (n // 20) if quick else 10**4, 15)
    timed_with_before(table, reps,
                      "summary of gbench JSON, %.0e iteration rows" % (10 * (10**4 if not quick else n // 20)),
                      [("tally", end_to_end([tally, "summary", gb])),
                       ("python", end_to_end([PYTHON, PEER, "gbench", gb], PEER_ENV))],
                      ("before", end_to_end([old[1], "summary", gb])) if old else None,
                      ("python", "json.load + numpy"))
    os.unlink(gb)

    check = os.path.join(os.path.dirname(bench), "..", "tests", "test_number_conversion")
    ctest = shutil.which("ctest")
    if os.access(check, os.X_OK) and ctest:
        count = 10**5 if quick else 10**7
        # The check reads its CPython-written expected strings from the build tree, which the
        # ctest fixture number_expected writes: running it through ctest makes them first.
        env = dict(os.environ, TALLY_NUMBER_RANDOM=str(count))
        try:  # ctest exits with 8 when the check fails
            r = spawn([ctest, "--test-dir", os.path.dirname(os.path.dirname(check)), "-R",
                       "^test_number_conversion$"], env)
            verdict, cpu = ("bit-identical" if "100% tests passed" in r.out else "MISMATCH"), r.cpu
        except RuntimeError:
            verdict, cpu = "MISMATCH", float("nan")
        print("parser vs glibc strtod on %d random doubles (%%.17g, %%.Nf and shortest): %s, "
              "%.1f s CPU" % (count, verdict, cpu), flush=True)
    return table


def write_small(path, label, shift, seed):
    """Five hackbench-like cases of ten runs each, as a user's result file."""
    import random
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("benchmark,case,config,value,unit,better\n")
        for case in (1, 2, 4, 8, 16):
            for _ in range(10):
                f.write("hackbench,%d-groups,%s,%.6f,s,lower\n"
                        % (case, label, rng.gauss(1.0 + shift, 0.02) * case))


def scaling(bench, tmp, args):
    """Cost against n: the full summary (with p90 and p99) of n doubles, and ingest of a CSV of n rows."""
    describe_machine(bench)
    top = 5 if args.quick else 8
    reps = args.reps or (1 if args.quick else 3)
    print("%-8s %12s %12s %12s %12s %12s %12s" % ("n", "summary s", "ns/sample", "summary MiB",
                                                  "CSV ingest s", "ns/row", "MB/s"), flush=True)
    for exp in range(3, top + 1):
        n = 10**exp
        data = os.path.join(tmp, "x.f64")
        generate(bench, "gen-doubles", data, n, 1)
        runs = [spawn([bench, "summary", data]) for _ in range(reps)]
        summ = statistics.median(r.timed("summary")[1] for r in runs)
        rss = max(r.maxrss_kb for r in runs) / 1024.0
        os.unlink(data)
        ingest = "%12s %12s %12s" % ("-", "-", "-")
        if exp <= 7:  # 10^8 rows would be a 4 GB file
            csv = os.path.join(tmp, "x.csv")
            generate(bench, "gen-csv", csv, "%.6f" % (n * 40 / 1e6))
            size = os.path.getsize(csv) / 1e6
            ing = statistics.median(spawn([bench, "ingest", csv]).timed("ingest")[1]
                                    for _ in range(reps))
            rows = sum(1 for _ in open(csv)) - 1
            os.unlink(csv)
            ingest = "%12.6f %12.1f %12.1f" % (ing, ing / rows * 1e9, size / ing)
        print("%-8.0e %12.6f %12.2f %12.1f %s" % (n, summ, summ / n * 1e9, rss, ingest), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="CMake build directory (default: build)")
    ap.add_argument("--reps", type=int, help="repetitions per measurement (default 5; 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run of a few seconds")
    ap.add_argument("--scaling", action="store_true", help="only the n = 10^3..10^8 scaling table")
    ap.add_argument("--numbers", action="store_true",
                    help="only the number shapes (17-digit, %%.17g, 6-decimal, whole, exponent)")
    ap.add_argument("--before", metavar="DIR",
                    help="with --numbers: also time the build in DIR (an earlier version) in the "
                         "same alternation, and print its time next to this build's")
    ap.add_argument("--markdown", help="also write the results as Markdown to this file")
    args = ap.parse_args()

    global BENCH
    bench = BENCH = os.path.abspath(os.path.join(args.build, "bench", "bench_tally"))
    tally = os.path.abspath(os.path.join(args.build, "tally"))
    for path in (bench, tally):
        if not os.access(path, os.X_OK):
            sys.exit("run.py: %s is missing: build first (cmake --build %s)" % (path, args.build))
    tmp = tempfile.mkdtemp(prefix="tally-bench-")
    try:
        if args.scaling:
            scaling(bench, tmp, args)
        else:
            table = (numbers if args.numbers else full)(bench, tally, tmp, args)
            print("\n" + table.markdown(), flush=True)
            if args.markdown:
                with open(args.markdown, "w") as f:
                    f.write(table.markdown() + "\n")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
