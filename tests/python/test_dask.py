"""tally.dask on a LocalCluster of 2 worker processes and on the threaded scheduler.

The corpus: 200 files (native JSON, written by tally.Results.save in a temporary directory that is
removed afterwards), alternately of configuration "base" and "new", each holding every case of
10 benchmarks (both directions, integer data with ties, huge outliers, a benchmark whose
preferred statistic is the median). The regular suite uses 50 cases and 2 x 10^5
samples; the `python_dask_large` test (TALLY_LARGE_TESTS=1 ctest -L large) sets
TALLY_DASK_SAMPLES=10000000 and 10^3 cases.

The reference is tally.Report on the same samples gathered on one machine (tally.dask.to_results,
omit_samples=True): order statistics must agree bit for bit, moments to 1e-12 relative (the bound
of docs/statistics.md, "Partitioned samples"), p-values (a t tail of those moments) to 1e-9
relative; the text layouts and Markdown print rounded values and must agree byte for byte.
"""

import json
import math
import os
import re
import shutil
import signal
import tempfile
import threading

import numpy as np
import pytest

import tally

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
import tally.dask  # noqa: E402  (after the skip)

FILES = 200
LARGE = os.environ.get("TALLY_DASK_SAMPLES") is not None
if LARGE and os.environ.get("TALLY_LARGE_TESTS") != "1":
    pytest.skip("the large tally.dask test runs with TALLY_LARGE_TESTS=1", allow_module_level=True)
# The regular suite: 200 files, 50 cases, 2 * 10^5 samples; the large test: 10^3 cases.
BENCHMARKS, CASES = (10, 100) if LARGE else (10, 5)
SAMPLES = int(os.environ.get("TALLY_DASK_SAMPLES", "200000"))
PER_CASE = SAMPLES // (FILES * BENCHMARKS * CASES)

# Fields of a summary that are order statistics or counts: equal bit for bit.
EXACT = {"n", "min", "max", "median", "median_ci", "median_ci_low", "median_ci_high",
         "median_ci_level", "outliers_mad", "outliers_tukey", "defined"}
P_VALUES = {"p_value", "p_adjusted"}
# Found by a root search stopping at a relative step of 1e-12 (libstat/stats/power.c): inputs
# that differ in the last bits (sums merged in another order) move the root by a few 1e-12.
SOLVED = {"mde_pct"}
LOOSE = P_VALUES | SOLVED


def write_corpus(directory, files=FILES, per_case=PER_CASE, seed=20):
    rng = np.random.default_rng(seed)
    for f in range(files):
        label = "base" if f % 2 == 0 else "new"
        results = tally.Results()
        rs = results.add(label, {"host": "box", "batch": str(f)})
        for b in range(BENCHMARKS):
            higher = b % 2 == 1
            bench = rs.add_benchmark(f"bench{b}", "MB/s" if higher else "s",
                                     "higher" if higher else "lower")
            if b == 4:
                bench.statistic = "median"
            for c in range(CASES):
                centre = (1 + c) * (1000.0 if higher else 0.01) * (1.01 if label == "new" else 1)
                x = centre * np.exp(0.2 * rng.standard_normal(per_case))
                if b == 2:
                    x = np.floor(x * 100)  # integers: ties
                if b == 3 and c % 10 == 0 and f % 7 == 0:
                    x[0] = 1e12  # huge outliers squeeze the rest into one bucket
                bench.add_case(f"case{c}", x)
        results.save(os.path.join(directory, f"run{f:03d}.json"))


@pytest.fixture(scope="module")
def corpus():
    directory = tempfile.mkdtemp(prefix="tally-dask-")
    try:
        write_corpus(directory)
        yield directory
    finally:
        shutil.rmtree(directory)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


@pytest.fixture(scope="module")
def reference(corpus, client):
    results = tally.dask.to_results(tally.dask.read(os.path.join(corpus, "*.json")))
    assert sum(len(c) for rs in results for b in rs for c in b) == SAMPLES
    return tally.Report(results, omit_samples=True)


@pytest.fixture(scope="module")
def distributed_report(corpus, client):
    return tally.dask.report(os.path.join(corpus, "*.json"))


def close(a, b, rel):
    return a == b or (math.isfinite(a) and abs(a - b) <= rel * abs(a))


DIAGNOSTICS = "\ndiagnostics: runs that may not be trusted"


def without_diagnostics(text):
    """The run-order and shape diagnostics need every sample in run order: a report of
    partitioned samples has none (docs/python.md, "Scaling out"); the rest must be the same."""
    return text.split(DIAGNOSTICS)[0].rstrip("\n")


def without_intervals(*docs):
    """JSON reports without the comparisons' intervals: a Mann-Whitney row's (Hodges-Lehmann)
    needs the samples' pairwise differences, which a report from ranks does not have
    (include/tally/report.h)."""
    for doc in docs:
        for row in doc["rows"]:
            for cell in row["cells"]:
                if cell.get("comparison"):
                    for key in ("interval", "log_se", "log_df"):
                        cell["comparison"][key] = None
        if doc.get("worst_regression"):
            doc["worst_regression"]["pct_interval"] = doc["worst_regression"]["confidence"] = None
    return docs


def compare_json(a, b, path=""):
    """Walk two JSON reports: structure, strings and counts equal, floats as the fields allow."""
    key = path.rsplit("/", 1)[-1]
    if key == "diagnostics":
        assert b is None, path
        return
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), path
        for k in a:
            compare_json(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            compare_json(x, y, f"{path}/{i}")
    elif isinstance(a, float) and not isinstance(a, bool) and key not in EXACT and \
            "/pct" in path:
        # A pct-imp is 100 (ratio - 1): near 0 it keeps the ratio's absolute error, not its
        # relative one, so it is compared as the ratio it stands for.
        assert isinstance(b, (int, float)), path
        assert close(1 + a / 100, 1 + float(b) / 100, 1e-12), f"{path}: {a} vs {b}"
    elif isinstance(a, float) and not isinstance(a, bool) and key not in EXACT:
        assert isinstance(b, (int, float)), path
        assert close(a, float(b), 1e-9 if key in LOOSE else 1e-12), f"{path}: {a} vs {b}"
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


def compare_reports(one, dist):
    assert dist.labels == one.labels
    assert len(dist.rows) == len(one.rows) == BENCHMARKS * CASES
    for r1, r2 in zip(one.rows, dist.rows):
        assert (r1.benchmark, r1.case, r1.unit, r1.better, r1.statistic) == \
               (r2.benchmark, r2.case, r2.unit, r2.better, r2.statistic)
        for c1, c2 in zip(r1.cells, r2.cells):
            s1, s2 = c1.summary, c2.summary
            for field in s1.__dataclass_fields__:
                v1, v2 = getattr(s1, field), getattr(s2, field)
                pairs = zip(v1, v2) if isinstance(v1, tuple) and isinstance(v2, tuple) \
                    else [(v1, v2)]
                for x1, x2 in pairs:
                    if field in EXACT or not isinstance(x1, float):
                        assert x1 == x2, (r1.benchmark, r1.case, field, v1, v2)
                    else:
                        assert close(x1, x2, 1e-12), (r1.benchmark, r1.case, field, v1, v2)
            assert close(c1.value, c2.value, 1e-12)
            if c1.comparison is None:
                assert c2.comparison is None
                continue
            k1, k2 = c1.comparison, c2.comparison
            assert (k1.verdict, k1.significant, k1.test) == (k2.verdict, k2.significant, k2.test)
            assert close(k1.ratio, k2.ratio, 1e-12) and close(k1.pct_imp, k2.pct_imp, 1e-9)
            assert close(k1.p_value, k2.p_value, 1e-9)
    for style in ("normalized", "pct"):
        assert unsigned_zeros(dist.text(style=style)) == unsigned_zeros(one.text(style=style)), \
            style
    assert unsigned_zeros(mmtests_comparable(dist.text(style="mmtests"))) == \
        unsigned_zeros(mmtests_comparable(one.text(style="mmtests")))
    assert DIAGNOSTICS not in dist.text()
    assert unsigned_zeros(without_diagnostics(dist.text())) == \
        unsigned_zeros(without_diagnostics(one.text()))
    # Without a length limit: the single-machine report's diagnostics notes (which a report of
    # partitions has none of) would change what a limit leaves out.
    assert unsigned_zeros(without_diagnostics(dist.to_markdown(max_length=-1))) == \
        unsigned_zeros(without_diagnostics(one.to_markdown(max_length=-1)))
    compare_json(json.loads(one.to_json()), json.loads(dist.to_json()))
    csv1, csv2 = one.to_csv().splitlines(), dist.to_csv().splitlines()
    assert len(csv1) == len(csv2) and csv1[0] == csv2[0]
    header = csv1[0].split(",")
    for l1, l2 in zip(csv1[1:], csv2[1:]):
        for name, f1, f2 in zip(header, l1.split(","), l2.split(",")):
            if name.startswith("diag_") or name in {"trend_p", "autocorrelation_p", "warmup_p",
                                                    "step_p", "multimodal_p"}:
                continue  # diagnostics: not computed on partitioned samples
            try:
                x1, x2 = float(f1), float(f2)
            except ValueError:
                assert f1 == f2
                continue
            assert close(x1, x2, 1e-9), (l1, l2)


def test_report_equals_single_machine(reference, distributed_report):
    compare_reports(reference, distributed_report)
    # The geometric mean of gains per benchmark (the rows are in several units: no mean over
    # all of them, docs/statistics.md "Geometric mean of gains").
    for bench in {row.benchmark for row in reference.rows}:
        assert distributed_report.gain("new", bench)["gain"] == pytest.approx(
            reference.gain("new", bench)["gain"], rel=1e-12)
    assert distributed_report.worst_regression == pytest.approx(reference.worst_regression,
                                                                rel=1e-9)


def test_xlsx_equals_single_machine(reference, distributed_report, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    reference.to_xlsx(tmp_path / "one.xlsx")
    distributed_report.to_xlsx(tmp_path / "dist.xlsx")
    one = openpyxl.load_workbook(tmp_path / "one.xlsx")
    dist = openpyxl.load_workbook(tmp_path / "dist.xlsx")
    # The diagnostics sheet needs every sample in run order: partitioned samples have none.
    assert "diagnostics" not in dist.sheetnames
    assert [n for n in one.sheetnames if n != "diagnostics"] == dist.sheetnames
    for name in dist.sheetnames:
        rows1 = list(one[name].iter_rows(values_only=True))
        rows2 = list(dist[name].iter_rows(values_only=True))
        assert len(rows1) == len(rows2), name
        for a, b in zip(rows1, rows2):
            for x, y in zip(a, b):
                if isinstance(x, float):
                    assert close(x, y, 1e-9), (name, a, b)
                else:
                    assert x == y, (name, a, b)


def test_threaded_scheduler(corpus, distributed_report):
    with dask.config.set(scheduler="threads"):
        threaded = tally.dask.report(os.path.join(corpus, "*.json"))
    compare_json(json.loads(distributed_report.to_json()), json.loads(threaded.to_json()))
    assert threaded.text(style="mmtests") == distributed_report.text(style="mmtests")


def test_worker_killed_mid_computation(corpus, client, distributed_report):
    """A worker holding half the parsed files is killed after the accumulators and the first
    selection round: the scheduler recomputes what it held (the nanny restarts it) and the report
    is the same."""
    pids = list(client.run(os.getpid).values())
    killed = []

    def kill(rounds):
        if rounds == 2:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    again = tally.dask.report(os.path.join(corpus, "*.json"), _after_round=kill)
    assert killed
    assert again.to_json() == distributed_report.to_json()
    assert again.text() == distributed_report.text()


def test_frame_and_read(corpus, client, distributed_report):
    frame = tally.dask.read(os.path.join(corpus, "*.json"))
    assert list(frame.columns) == tally.dask.COLUMNS
    assert frame.npartitions == FILES
    head = frame.partitions[0].compute()
    assert len(head) == BENCHMARKS * CASES * PER_CASE
    assert set(head["label"]) == {"base"}
    assert head["run"].max() == PER_CASE - 1
    assert json.loads(head["metadata"].iloc[0])["batch"] == "0"
    from_frame = tally.dask.report(frame)
    compare_json(json.loads(distributed_report.to_json()), json.loads(from_frame.to_json()))


def unsigned_zeros(text):
    """A change of 0 printed as "0.00" or "-0.00": its sign is that of a difference of two
    equal means, which the moments' bound (1e-12 relative) leaves free. The sign becomes a
    blank, so that the columns stay where they were."""
    return re.sub(r"-(0\.0+)(?![0-9])", r" \1", text)


def mmtests_comparable(text):
    """The mmtests text without its best-N rows of higher-is-better benchmarks: those are
    BHmean-N from samples but BAmean-N from partitions, which carry no samples to take the
    harmonic mean of (docs/reports.md, mmtests). Every other line must agree."""
    blocks = []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        higher = any(line.startswith(("Hmean ", "BHmean-")) for line in lines)
        blocks.append("\n".join(line for line in lines
                                if not (higher and line.startswith(("BHmean-", "BAmean-")))))
    return "\n\n".join(blocks)


def test_baseline_and_options(corpus, client, reference):
    flipped = tally.dask.report(os.path.join(corpus, "run00[0-3].json"), baseline="new",
                                test="mmtests-ci", adjust="holm", filter="bench[12]/*")
    results = tally.dask.to_results(tally.dask.read(os.path.join(corpus, "run00[0-3].json")),
                                    baseline="new")
    one = tally.Report(results, test="mmtests-ci", adjust="holm", filter="bench[12]/*",
                       omit_samples=True)
    assert flipped.labels == ["new", "base"]
    assert unsigned_zeros(mmtests_comparable(flipped.text(style="mmtests"))) == \
        unsigned_zeros(mmtests_comparable(one.text(style="mmtests")))
    compare_json(json.loads(one.to_json()), json.loads(flipped.to_json()))
    with pytest.raises(tally.NotFound, match="no configuration labelled 'tip'"):
        tally.dask.report(os.path.join(corpus, "run000.json"), baseline="tip")


def test_mann_whitney_from_pooled_ranks(corpus, client):
    """The Mann-Whitney test of partitioned samples (each case ranked on one worker) gives the
    single-machine report's U and p-values, on the corpus (few ties) and on values rounded to a
    tenth, so that most samples are tied and the tie term matters, spread over 6 files."""
    files = os.path.join(corpus, "run00[0-3].json")
    one = tally.Report(tally.dask.to_results(tally.dask.read(files)), test="mann-whitney",
                       omit_samples=True)
    dist = tally.dask.report(files, test="mann-whitney")
    compare_json(*without_intervals(json.loads(one.to_json()), json.loads(dist.to_json())))
    # The text differs only in the intervals the ranks cannot give (Hodges-Lehmann's).
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory(prefix="tally-dask-mw-") as directory:
        for f in range(6):
            lines = ["benchmark,case,config,value,unit,better"]
            for label, shift in (("base", 0.0), ("new", 0.15)):
                for case in ("c1", "c2"):
                    values = np.round(rng.normal(10 + shift, 0.5, 40), 1)
                    lines += [f"b,{case},{label},{v!r},s,lower" for v in values]
            with open(os.path.join(directory, f"part{f}.csv"), "w") as out:
                out.write("\n".join(lines) + "\n")
        files = os.path.join(directory, "*.csv")
        one = tally.Report(tally.dask.to_results(tally.dask.read(files)), test="mann-whitney",
                           omit_samples=True)
        dist = tally.dask.report(files, test="mann-whitney")
    for r1, r2 in zip(one.rows, dist.rows):
        k1, k2 = r1.cells[1].comparison, r2.cells[1].comparison
        assert k1.test == k2.test == "mann-whitney"
        # Exact sums on both sides: the same bits, not merely close.
        assert (k1.statistic, k1.p_value) == (k2.statistic, k2.p_value), (r1.case, k1, k2)
    # The Hodges-Lehmann interval needs the samples' pairwise differences: a report from ranks
    # has none (include/tally/report.h); everything else is the same.
    compare_json(*without_intervals(json.loads(one.to_json()), json.loads(dist.to_json())))


def test_bad_file_names_file_and_line(client):
    with tempfile.TemporaryDirectory(prefix="tally-dask-bad-") as directory:
        for f in range(FILES):
            lines = ["benchmark,case,config,value,unit,better"]
            lines += [f"b,c{k % 3},{'base' if f % 2 else 'new'},{1 + 0.01 * k},s,lower"
                      for k in range(20)]
            if f == 137:
                lines[12] = "b,c2,base,0.5x,s,lower"
            with open(os.path.join(directory, f"f{f:03d}.csv"), "w") as out:
                out.write("\n".join(lines) + "\n")
        bad = os.path.join(directory, "f137.csv")
        with pytest.raises(tally.ParseError) as info:
            tally.dask.report(os.path.join(directory, "*.csv"))
        err = info.value
        assert err.file == bad and err.line == 13
        assert str(err).startswith(f"{bad}:13:")
        # Raised afresh on the client: no chained scheduler exception.
        assert err.__cause__ is None and err.__suppress_context__
        with pytest.raises(tally.ParseError, match="f137.csv:13:"):
            tally.dask.read(os.path.join(directory, "*.csv")).compute()
        with pytest.raises(FileNotFoundError):
            tally.dask.report(os.path.join(directory, "*.nothing"))


def test_c_calls_release_the_gil():
    """A thread keeps counting while another is inside one long C call: the call does not hold
    the GIL (cffi releases it around every call into libtally)."""
    from tally._native import ffi, lib
    x = np.random.default_rng(1).standard_normal(20_000_000)
    acc = ffi.new("tally_accumulator **")
    assert lib.tally_accumulator_new(acc) == 0
    counter, stop = [0], threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        before = counter[0]
        assert lib.tally_accumulator_add(acc[0], ffi.from_buffer("double[]", x), len(x)) == 0
        during = counter[0] - before
    finally:
        stop.set()
        t.join()
        lib.tally_accumulator_free(acc[0])
    assert during > 1000
