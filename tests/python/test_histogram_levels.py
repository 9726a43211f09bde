"""Reports on histogram runs from Python: the per-run level (each run's statistic, then the row's
statistic over runs) and the pooled level (every request, with the cluster bootstrap over runs).
Expected values from R or by hand, named next to each."""
import json
import os

import pytest

import tally

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "histruns")


def two_runs():
    r = tally.Results()
    case = r.add("base").add_benchmark("latency", "us", "lower").add_case("all", [])
    case.append_histogram([1.0, 2.0, 5.0, 10.0], [3, 1, 2, 4])
    case.append_histogram([2.0, 3.0, 4.0], [2, 2, 1])
    return r


def test_per_run_then_median():
    # R: x1 <- rep(c(1,2,5,10), c(3,1,2,4)); x2 <- rep(c(2,3,4), c(2,2,1))
    #    median(c(quantile(x1, 0.9, type=7), quantile(x2, 0.9, type=7)))  ->  6.8
    rep = tally.Report(two_runs(), per_run="p90", statistic="median", summaries_only=True)
    cell = rep.rows[0].cells[0]
    assert cell.value == pytest.approx(6.8, rel=1e-14)
    assert cell.summary.n == 2
    assert "each run's p90" in rep.text()


def test_pooled_percentile_by_hand():
    # The 15 requests pooled: 1 1 1 2 2 2 3 3 4 5 5 10 10 10 10; type 7 p75: h = 14 * 0.75 =
    # 10.5, between x[10] = 5 and x[11] = 10 (0-based): 7.5.
    rep = tally.Report(two_runs(), statistic="p75", summaries_only=True)
    cell = rep.rows[0].cells[0]
    assert cell.value == 7.5
    assert cell.summary.n == 15
    text = rep.text()
    # Two runs: no cluster bootstrap, and no request-level interval pretending independence.
    assert "too few for a cluster bootstrap" in text
    doc = json.loads(rep.to_json())
    assert doc["options"]["per_run"] is None and doc["options"]["seed"] == 1
    cells = doc["rows"][0]["cells"]
    assert cells[0]["percentile_ci"] is None and cells[0]["level"] == "pooled"
    assert cells[0]["histogram_runs"] == 2


def test_pooled_compare_uses_the_runs():
    rep = tally.Report(tally.load([os.path.join(DATA, "base.json"),
                                   os.path.join(DATA, "new.json")]), statistic="p99")
    get = [row for row in rep.rows if row.case == "get"][0]
    cmp = get.cells[1].comparison
    assert cmp.test == "cluster-bootstrap"
    assert cmp.interval_method == "cluster-bootstrap" and cmp.ratio_interval is not None
    lo, hi = cmp.ratio_interval
    assert lo < cmp.ratio < hi
    # The test inverts the interval: significant exactly when it excludes 1.
    assert (cmp.p_value < 0.05) == (not lo <= 1 <= hi)
    put = [row for row in rep.rows if row.case == "put"][0]
    assert put.cells[1].verdict == "insufficient"
    again = tally.Report(tally.load([os.path.join(DATA, "base.json"),
                                     os.path.join(DATA, "new.json")]), statistic="p99",
                         independent_requests=True)
    put = [row for row in again.rows if row.case == "put"][0]
    assert put.cells[1].comparison.test == "price-bonett"
    assert '"level": "pooled"' in rep.to_json()
    assert rep.to_markdown() and rep.to_csv() and rep.to_html()
    # The spectrum of pooled cells is drawn from their merged buckets (pooled_histogram in
    # the JSON): at p = 99 % (x = 2, the 17th point) each line is the cell's own pooled p99,
    # computed by the report through the same weighted percentiles; no band, since the requests
    # of a run are not independent draws.
    import matplotlib
    matplotlib.use("Agg")
    get = [row for row in rep.rows if row.case == "get"][0]
    ax = rep.plot("spectrum", case="get")
    assert [line.get_ydata()[16] for line in ax.lines[:2]] == \
        [get.cells[0].value, get.cells[1].value]
    assert not ax.collections
    banded = again.plot("spectrum", case="get")
    assert banded.collections   # --independent-requests: order-statistic bands
