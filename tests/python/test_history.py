"""tally.history(): change points over commits (docs/history.md). Expected values are computed
here from the data with numpy/SciPy, following the method as docs/history.md states it."""

import math
import pathlib
import xml.etree.ElementTree as ET

import numpy
import pandas
import pytest
from scipy import stats

import tally

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "history"


def test_change_against_numpy_and_scipy():
    h = tally.history(DATA / "commits.csv")
    changes = h.changes
    assert list(changes["point"]) == [18]
    row = changes.iloc[0]
    assert (row["benchmark"], row["case"], row["commit"], row["verdict"]) == (
        "hackbench", "1-groups", "c18", "regression")
    frame = pandas.read_csv(DATA / "commits.csv")
    one = frame[frame["case"] == "1-groups"]
    before = one[one["config"] < "c18"]["value"].to_numpy()
    after = one[one["config"] >= "c18"]["value"].to_numpy()
    assert row["before"] == pytest.approx(before.mean(), rel=1e-13)
    assert row["after"] == pytest.approx(after.mean(), rel=1e-13)
    assert row["pct_imp"] == pytest.approx((1 - after.mean() / before.mean()) * 100, rel=1e-11)

    # Each level's variance of its mean: the largest of the runs' (s^2 / runs), the points'
    # (the spread of the 4-run means, cluster-robust) and the series' noise floor (1.4826
    # median |relative neighbouring difference| / sqrt 2, times the level, squared / points).
    means = one.groupby("config")["value"].mean().to_numpy()
    rel = numpy.abs(numpy.diff(means)) / ((means[1:] + means[:-1]) / 2)
    noise = 1.4826 * numpy.median(rel) / math.sqrt(2)

    def level(runs, points):
        k, p = len(runs), len(points)
        runs_var = runs.var(ddof=1) / k
        m = runs.mean()
        points_var = p / (p - 1) * ((4 * (points - m)) ** 2).sum() / k ** 2
        floor = (noise * m) ** 2 / p
        points_var = max(points_var, floor)
        return (points_var, p - 1) if points_var > runs_var else (runs_var, k - 1)

    vb, dfb = level(before, means[:17])
    va, dfa = level(after, means[17:])
    t = (after.mean() - before.mean()) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / dfa + vb ** 2 / dfb)
    p = 2 * stats.t.sf(abs(t), df)
    assert row["p_raw"] == pytest.approx(p, rel=1e-6)
    assert row["p_value"] == pytest.approx(min(1.0, p * (30 - 6 + 1)), rel=1e-6)
    q = stats.t.ppf(0.975, dfb)
    assert row["before_low"] == pytest.approx(before.mean() - q * math.sqrt(vb), rel=1e-10)


def test_spike_series_and_trends():
    h = tally.history(DATA / "commits.csv")
    series = {(s["benchmark"], s["case"]): s for s in h.series}
    assert series[("hackbench", "8-groups")]["changes"] == 0
    assert series[("hackbench", "8-groups")]["outliers"] == 1  # the +40 % commit c09
    trends = h.trends
    assert list(trends["case"]) == ["1-groups", "8-groups"]
    assert not trends["drifting"].any()
    assert len(h) == 30 and h.points[17] == ("c18", "c18")


def test_order_by_and_commit_order():
    files = [DATA / f"p{i}.json" for i in (6, 3, 5, 1, 4, 2)]
    by_time = tally.history(files, order_by="time")
    assert [label for label, _ in by_time.points] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert list(by_time.changes["point"]) == [4]
    assert by_time.changes.iloc[0]["better"] == "higher"
    # A commit order given directly, abbreviations of longer hashes.
    order = [f"{i:04x}abcd" + "0" * 32 for i in (1, 2, 3, 4, 5, 6)]
    by_commit = tally.history(files, commits=order)
    assert [c for _, c in by_commit.points] == [f"{i:04x}abcd" for i in range(1, 7)]
    with pytest.raises(tally.TallyError, match="no metadata 'build'"):
        tally.history(files, order_by="build")
    with pytest.raises(tally.TallyError, match="not among the 1 commits"):
        tally.history(files, commits=["ffff"])


def test_gate_and_outputs():
    h = tally.history(DATA / "commits.csv", recent=15)
    assert h.gate(5.0) == (1, pytest.approx(h.changes.iloc[0]["pct_imp"]))
    assert h.gate(5.0, recent=10) == (0, 0.0)
    assert h.gate(7.0) == (0, 0.0)
    md = h.to_markdown()
    assert md.startswith("### Regressions since `c16`")
    assert h.to_csv().splitlines()[1].startswith("hackbench,1-groups,s,lower,18,c18,c18,")
    assert '"tally_history": 1' in h.to_json()
    html = h.to_html()
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html
    svgs = [ET.fromstring(s[s.index("<svg"):s.index("</svg>") + 6])
            for s in html.split("<figure>")[1:]]
    assert len(svgs) == 1  # only the series that changed
    ns = "{http://www.w3.org/2000/svg}"
    points = svgs[0].findall(f".//{ns}circle")
    assert len(points) == 30
    assert points[17].find(f"{ns}title").text.startswith("18 c18: ")
    assert len(svgs[0].findall(f".//{ns}g[@class='cp v-reg']")) == 1
    assert h._repr_html_().startswith('<div class="tally-report">')
    with pytest.raises(ValueError):
        h.render("xlsx")


def test_meta_on_load(tmp_path):
    results = tally.load(DATA / "p1.json", meta={"commit": "0123abcd", "branch": "main"})
    assert results[0].metadata["commit"] == "0123abcd"
    assert results[0].metadata["branch"] == "main"
    results.load(DATA / "p2.json", meta={"commit": "4567"})
    assert results[1].metadata["commit"] == "4567"
    assert results[0].metadata["commit"] == "0123abcd"  # only the new ones are stamped
    results.set_metadata("machine", "ci-7")
    assert [rs.metadata["machine"] for rs in results] == ["ci-7", "ci-7"]


def test_changepoints_closed_and_bad_options():
    h = tally.history(DATA / "commits.csv")
    h.close()
    with pytest.raises(ValueError, match="closed"):
        h.changes
    with pytest.raises(ValueError):
        tally.history(DATA / "commits.csv", min_segment=1)
    with pytest.raises(tally.TallyError):
        tally.history(DATA / "commits.csv", window=2, min_segment=3)
