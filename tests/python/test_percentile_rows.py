"""Percentiles through the Python package: values with counts, Harrell-Davis, the
order-statistic interval, percentile rows of compare() and Report. Expected values from R (the
script of tests/api/test_quantile.c) or numpy, named next to each."""
import numpy as np
import pytest

import tally

X = [2.1, 3.5, 0.7, 9.4, 4.4, 5.0, 1.2, 8.8, 6.3, 2.9, 7.7, 3.1]


def test_methods_match_r():
    # R: quantile(x, c(0.1, 0.5, 0.9, 0.99), type=7)
    assert tally.percentiles(X, [10, 50, 90, 99]) == pytest.approx([1.29, 3.95, 8.69, 9.334],
                                                                   rel=1e-14)
    # numpy's "linear" is R type 7 too
    assert tally.percentiles(X, 90) == pytest.approx(np.percentile(X, 90), rel=1e-14)
    # R: sapply(p, function(q) hd(x, q)) of test_quantile.c's script
    assert tally.percentiles(X, [10, 90], method="hd") == pytest.approx(
        [1.1537697850200392, 8.8099743012723657], rel=1e-12)


def test_counts_are_the_expanded_sample():
    values, counts = [1, 2, 3, 5, 8], [3, 0, 4, 2, 1]
    expanded = np.repeat(values, counts)
    for method, npm in (("linear", "linear"), ("nearest-rank", "inverted_cdf")):
        got = tally.percentiles(values, [10, 50, 90, 99], method=method, counts=counts)
        # numpy on the expanded sample: "inverted_cdf" is R type 1
        assert got == pytest.approx(np.percentile(expanded, [10, 50, 90, 99], method=npm),
                                    rel=1e-14)
    with pytest.raises(tally.InvalidArgument):
        tally.percentiles([3, 1], 50, counts=[1, 1])  # not ascending
    with pytest.raises(ValueError):
        tally.percentiles([1, 2], 50, counts=[1])


def test_interval():
    y = [((i * 37) % 101) / 7 for i in range(1, 51)]
    # R, ci(y, 0.9, 0.95) of test_quantile.c: [x_(41), x_(50)] at 0.97030828908808842
    lo, hi, level = tally.percentile_interval(y, 90)
    assert (lo, hi) == pytest.approx((83 / 7, 100 / 7), rel=1e-15)
    assert level == pytest.approx(0.97030828908808842, rel=1e-12)
    with pytest.raises(tally.NotEnoughData, match="at least 368"):
        tally.percentile_interval(y, 99)


def test_compare_percentile_row():
    # The R check of tests/api/test_compare_percentile.c: ratio and interval of the p90s.
    y = [((i * 37) % 101) / 7 for i in range(1, 51)]
    z = [1.1 * v + 0.3 for v in y]
    c = tally.compare(y, z, statistic="p90")
    assert c.statistic_name == "p90"
    assert c.ratio == pytest.approx(1.1232558139534887, rel=1e-13)
    assert c.test == "price-bonett"
    assert c.verdict == "inconclusive"


def test_report_percentile_rows(tmp_path):
    csv = tmp_path / "lat.csv"
    rows = ["benchmark,case,config,value,unit,better"]
    for cfg, scale in (("base", 1.0), ("new", 1.5)):
        rows += [f"lat,get,{cfg},{v * scale:.3f},ms,lower" for v in (1, 2, 3, 4, 5, 6, 7, 8)]
    csv.write_text("\n".join(rows) + "\n")
    r = tally.Report(tally.load(str(csv)), statistic="p50", percentile_method="hd")
    row = r.rows[0]
    assert row.statistic == "p50"
    # Harrell-Davis p50 of 1..8 is 4.5 by symmetry (the Beta(4.5, 4.5) weights are symmetric)
    assert row.cells[0].value == pytest.approx(4.5, rel=1e-12)
    assert "p50 by harrell-davis" in r.text()
    with pytest.raises(tally.InvalidArgument):
        tally.Report(tally.load(str(csv)), statistic="p100")


def test_spectrum_plot(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    csv = tmp_path / "lat.csv"
    rows = ["benchmark,case,config,value,unit,better"]
    for cfg, scale in (("base", 1.0), ("new", 1.2)):
        rows += [f"lat,get,{cfg},{scale * (1 + (i * 37) % 101 / 50):.4f},ms,lower"
                 for i in range(1, 51)]
    csv.write_text("\n".join(rows) + "\n")
    r = tally.Report(tally.load(str(csv)), statistic="p90")
    ax = r.plot("spectrum")
    # One line per configuration, to p98 (1 - 1/50): x = log10(50)
    lines = ax.get_lines()
    assert len(lines) == 2
    assert max(lines[0].get_xdata()) == pytest.approx(1.625)  # the last 1/8 step <= log10(50)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["50%", "90%", "99%"]
    ax.figure.savefig(tmp_path / "spectrum.png")


def test_html_spectrum_only_on_percentile_rows(tmp_path):
    csv = tmp_path / "lat.csv"
    rows = ["benchmark,case,config,value,unit,better"]
    for cfg in ("base", "new"):
        rows += [f"lat,get,{cfg},{1 + i / 10:.2f},ms,lower" for i in range(20)]
    csv.write_text("\n".join(rows) + "\n")
    results = tally.load(str(csv))
    page = tally.Report(results, statistic="p90").to_html()
    # one plot per case; its description names the method and the band's level
    assert page.count('class="plot plot-spectrum"') == 1
    assert "Percentile spectrum of lat get by linear" in page
    assert "plot-spectrum" not in tally.Report(results, statistic="median").to_html()
