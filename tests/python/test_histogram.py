"""Histogram runs from Python: Case.append_histogram / Case.histograms, native JSON, the summary
of a (values, counts) pair, and HdrHistogram logs with their load options."""
import os

import pytest

import tally

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "fuzz", "corpora", "hdrlog")


def test_append_and_round_trip():
    r = tally.Results()
    case = r.add("base").add_benchmark("latency", "us", "lower").add_case("all", [])
    case.append_histogram([1.0, 2.0, 5.0, 10.0], [3, 1, 2, 4], resolution=0.5)
    (values, counts, resolution), = case.histograms
    assert list(values) == [1.0, 2.0, 5.0, 10.0]
    assert [int(c) for c in counts] == [3, 1, 2, 4]
    assert resolution == 0.5
    back = tally.loads(r.to_json(), name="h.json")
    assert back["base"].benchmarks[0].cases[0].histograms[0][2] == 0.5
    with pytest.raises(tally.TallyError):
        case.append([1.0])          # a case holds one kind of run
    with pytest.raises(ValueError):
        case.append_histogram([1.0, 2.0], [1])
    with pytest.raises(TypeError):
        case.append_histogram([1.0], [1.5])


def test_summary_of_values_and_counts():
    # numpy: x = numpy.repeat([1., 2., 5., 10.], [3, 1, 2, 4]); x.mean() 5.5,
    # x.std(ddof=1) 4.143267631552018, numpy.median(x) 5.0, numpy.percentile(x, 90) 10.0
    s = tally.summary(([1.0, 2.0, 5.0, 10.0], [3, 1, 2, 4]), percentiles=(90,))
    assert s.n == 10
    assert s.amean == pytest.approx(5.5, rel=1e-15)
    assert s.stddev == pytest.approx(4.143267631552018, rel=1e-14)
    assert s.median == 5.0
    assert s.percentiles[90] == 10.0
    # a tuple of two numbers is still two samples
    assert tally.summary((1.0, 3.0)).n == 2


def test_hdrlog_options():
    path = os.path.join(DATA, "v2_tags.hlog")
    r = tally.load(path, unit="us")
    assert r[0].benchmarks[0].unit == "us"
    case = r[0].benchmarks[0].cases[0]
    assert case.name == "all" and len(case.histograms) == 1
    assert case.summary(run=0).max == 2049   # highest equivalent value of index 2048
    assert any("HdrHistogram log" in n for n in r.notes)
    with pytest.raises(tally.TallyError):
        tally.load(path, time_start=5000, time_end=6000)   # no interval kept
    r = tally.load(path, interval_runs=True)
    assert len(r[0].benchmarks[0].cases[0].histograms) == 1
