"""close() of a Results or a Report while other threads are inside calls on it (or on views
taken from it): every call either completes or raises ValueError ("closed"), and none reads
freed memory. The library releases the GIL inside each call, so without the binding's count of
calls in flight close() would free the C object under a running call (a heap-use-after-free
under ASan in the JSON writer and the plot code, a segfault in a release build).

.ci/test runs this file 20 times against an ASan build of libtally (stage pyasan);
TALLY_RACE_TRIALS sets the trials of one run (default 3)."""

import os
import random
import threading
import time

import pytest

import tally

from conftest import results_of

TRIALS = int(os.environ.get("TALLY_RACE_TRIALS", "3"))
THREADS = 4


def make_results(seed):
    rng = random.Random(seed)
    configs = {}
    for label in ("base", "new", "other"):
        configs[label] = {f"case{k}": [rng.gauss(10 + k, 1) for _ in range(1500)]
                          for k in range(6)}
    return results_of(configs)


def views(results):
    """Every sample of every view, through the views (ResultSet, Benchmark, Case)."""
    total = 0
    for rs in results:
        for bench in rs:
            for case in bench:
                total += len(case.samples) + len(case.name) + len(bench.unit) + len(rs.label)
    return total


RESULTS_USES = [
    lambda r: r.to_json(),
    lambda r: r.labels,
    lambda r: r.cases,
    lambda r: r.samples("new", "bench", "case3"),
    lambda r: views(r),
    lambda r: r.validate(),
    lambda r: tally.Report(r).worst_regression,
    lambda r: repr(r),
]

REPORT_USES = [
    lambda p: p.to_json(),
    lambda p: p.to_html(),
    lambda p: p.text(),
    lambda p: p.to_markdown(),
    lambda p: p.to_csv(),
    lambda p: p.rows,
    lambda p: p.geomean("new"),
    lambda p: p.environment_differences,
    lambda p: repr(p),
]


def hammer(obj, uses, seed, errors, started):
    rng = random.Random(seed)
    started.release()
    while True:
        try:
            rng.choice(uses)(obj)
        except ValueError as exc:
            if "closed" in str(exc):
                return
            errors.append(exc)
            return
        except Exception as exc:  # anything else is a failure of the test
            errors.append(exc)
            return


def race(obj, uses, seed):
    errors = []
    started = threading.Semaphore(0)
    threads = [threading.Thread(target=hammer, args=(obj, uses, seed * 31 + t, errors, started))
               for t in range(THREADS)]
    for t in threads:
        t.start()
    for _ in threads:
        started.acquire()
    # Close at a moment that lands inside some call: the calls take 0.1 to 20 ms.
    time.sleep(random.Random(seed).uniform(0.0, 0.03))
    obj.close()
    for t in threads:
        t.join(timeout=120)
        assert not t.is_alive(), "a call did not return after close()"
    assert errors == []
    with pytest.raises(ValueError, match="closed"):
        uses[0](obj)


@pytest.mark.parametrize("trial", range(TRIALS))
def test_close_results_during_calls(trial):
    race(make_results(trial), RESULTS_USES, trial)


@pytest.mark.parametrize("trial", range(TRIALS))
def test_close_report_during_calls(trial):
    results = make_results(trial)
    report = tally.Report(results)
    results.close()  # the report copied what it shows
    race(report, REPORT_USES, trial)


def test_close_view_during_calls():
    results = make_results(7)
    case = results["new"]["bench"]["case2"]
    race(results, [lambda r: case.samples, lambda r: case.summary(), lambda r: len(case)], 7)


def test_close_inside_a_call_refused():
    """close() from inside a call on the same object would wait for itself: refused."""
    results = make_results(3)
    seen = []

    class Sneaky:
        def __init__(self, target):
            self.target = target

        def __fspath__(self):  # called by Results.load while the call is in flight
            try:
                self.target.close()
            except RuntimeError as exc:
                seen.append(str(exc))
            return "/nonexistent/tally-close-race"

    with pytest.raises(tally.TallyError):
        results.load(Sneaky(results))
    assert seen and "from inside a call" in seen[0]
    assert len(results) == 3  # still open
    results.close()
