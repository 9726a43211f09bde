"""Every C object is freed by its Python owner: resident memory stays flat over long loops."""

import gc
import os

import numpy as np
import pytest

import tally

from conftest import requires

PAGE = os.sysconf("SC_PAGE_SIZE")

# Under AddressSanitizer freed memory sits in a quarantine, so resident size says nothing.
pytestmark = pytest.mark.skipif(bool(os.environ.get("TALLY_SANITIZED")),
                                reason="resident memory is meaningless under AddressSanitizer")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def growth(loop, warmup, count):
    """Resident-memory growth of `count` iterations after `warmup` iterations settled."""
    for _ in range(warmup):
        loop()
    gc.collect()
    before = rss_bytes()
    for _ in range(count):
        loop()
    gc.collect()
    return rss_bytes() - before


# A leak of one summary (168 bytes) per call would grow 100k calls by 16 MB; 2 MB of slack
# covers the allocators' noise.
LIMIT = 2 * 1024 * 1024


@requires("tally_summarize", "tally_direction_from_name")
def test_summary_loop_does_not_grow():
    samples = np.linspace(1.0, 2.0, 50)
    assert growth(lambda: tally.summary(samples), 2_000, 100_000) < LIMIT


@requires("tally_compare", "tally_test_from_name", "tally_verdict_name")
def test_compare_loop_does_not_grow():
    base, new = [1.0, 1.1, 0.9, 1.05, 0.95], [1.2, 1.3, 1.1, 1.25, 1.15]
    assert growth(lambda: tally.compare(base, new), 2_000, 100_000) < LIMIT


@requires("tally_summarize", "tally_direction_from_name")
def test_error_loop_does_not_grow():
    def fail():
        with pytest.raises(tally.NotEnoughData):
            tally.summary([])
    assert growth(fail, 5_000, 50_000) < LIMIT


@requires("tally_load_file", "tally_report_new", "tally_report_render", "tally_style_from_name")
def test_load_report_cycles_do_not_grow(csv_file):
    def cycle():
        report = tally.Report(tally.load(csv_file))
        report.text()
        assert len(report.rows) == 2
    # One leaked result list or report (several kB each) per cycle would add tens of MB.
    assert growth(cycle, 500, 10_000) < LIMIT


@requires("tally_direction_from_name")
def test_views_outliving_many_lists_do_not_grow():
    def cycle():
        results = tally.Results()
        case = results.add("a").add_benchmark("b").add_case("c", [1.0, 2.0])
        del results
        assert len(case.samples) == 2
    assert growth(cycle, 5_000, 50_000) < LIMIT
