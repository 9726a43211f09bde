"""Summary-only cases (docs/formats.md): set and read from Python, compared by Welch's t-test
from (n, mean, SD) as SciPy's ttest_ind_from_stats, and the generic ways in."""

import os

import pytest
from scipy import stats

import tally

from conftest import requires

pytestmark = requires("tally_case_set_summary", "tally_case_summary_result")

DATA = os.path.join(os.path.dirname(__file__), "..", "data")


def _two(base, new):
    r = tally.Results()
    for label, (n, mean, sd) in (("base", base), ("new", new)):
        b = r.add(label).add_benchmark("hf", "s", "lower")
        b.add_summary_case("sleep", n, mean, sd)
    return r


def test_summary_case_round_trip():
    r = _two((10, 0.1052, 0.0031), (12, 0.1091, 0.0042))
    case = r[0]["hf"]["sleep"]
    assert case.summary_only == {"n": 10, "mean": 0.1052, "sd": 0.0031, "interval": None,
                                 "interval_level": None, "sd_derived": False}
    assert len(case) == 0
    with pytest.raises(tally.TallyError):
        case.append([1.0])
    plain = r[0]["hf"].add_case("plain", [1.0, 2.0])
    assert plain.summary_only is None


def test_sd_from_interval():
    r = tally.Results()
    case = r.add("a").add_benchmark("b", "s").add_summary_case("c", 10, 0.105,
                                                               interval=(0.100, 0.110),
                                                               interval_level=0.95)
    # R: (0.110-0.100)/2*sqrt(10)/qt(0.975,9) = 0.0069895180409498096
    assert case.summary_only["sd"] == pytest.approx(0.0069895180409498096, rel=1e-12)
    assert case.summary_only["sd_derived"]


def test_welch_from_stats_matches_scipy():
    r = _two((10, 0.1052, 0.0031), (12, 0.1091, 0.0042))
    rep = tally.Report(r)
    cell = rep.rows[0].cells[1]
    ref = stats.ttest_ind_from_stats(0.1052, 0.0031, 10, 0.1091, 0.0042, 12, equal_var=False)
    assert cell.comparison.p_value == pytest.approx(ref.pvalue, rel=1e-12)
    assert "summary only: hf/sleep in 'base'" in rep.text()


def test_json_paths_and_columns():
    r = tally.load(os.path.join(DATA, "json-path", "pytest_like.json"),
                   samples="$.benchmarks[*].stats.data", case_path="$.benchmarks[*].name")
    assert [c.name for c in r[0]["json"]] == ["test_sort", "test_parse"]
    assert list(r[0]["json"]["test_parse"].samples) == [0.0051, 0.0049, 0.005]
    c = tally.load(os.path.join(DATA, "csv", "columns.csv"),
                   columns="case=name,value=time_ms,config=build", unit="ms")
    assert [rs.label for rs in c] == ["gcc", "clang"]
    assert list(c[0]["values"]["sort"].samples) == [12.5, 12.7]
    h = tally.load(os.path.join(DATA, "hyperfine-csv", "export.csv"), runs=5)
    assert h[0]["hyperfine"]["all"].summary_only["n"] == 5
