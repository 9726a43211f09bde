"""Diagnostics and environment warnings from Python: the same fields as the JSON report (the
values themselves are checked against R and by hand in tests/unit/test_diagnose.c)."""

import json

import tally

from conftest import requires


@requires("tally_report_cell_diagnostics")
def test_cell_diagnostics_match_json(source_dir):
    results = tally.load(str(source_dir / "tests/data/diag/defects.csv"))
    report = tally.Report(results)
    doc = json.loads(report.to_json())
    for row, jrow in zip(report.rows, doc["rows"]):
        for cell, jcell in zip(row.cells, jrow["cells"]):
            assert cell.diagnostics == jcell["diagnostics"]
    by_case = {row.case: row.cells[1].diagnostics for row in report.rows}
    assert by_case["warmup"]["flagged"] == ["warm-up"]
    assert by_case["warmup"]["warm-up"]["runs"] == 4
    assert "multimodal" in by_case["bimodal"]["flagged"]
    assert by_case["outliers"]["outliers"] == {"left_out": 2, "verdict_without": "regression"}
    # The clean baseline of every case is flagged by nothing.
    assert all(row.cells[0].diagnostics["flagged"] == [] for row in report.rows)


@requires("tally_report_env_diff_count")
def test_environment_differences(source_dir):
    results = tally.load([str(source_dir / "tests/data/diag/env-base.json"),
                          str(source_dir / "tests/data/diag/env-new.json")])
    report = tally.Report(results)
    assert report.environment_differences == {"governor": ["performance", "powersave"],
                                              "boost": ["off", "on"]}
    quiet = tally.Report(results, expect_diff=["governor", "boost"])
    assert quiet.environment_differences == {}
    globbed = tally.Report(results, expect_diff="gov*")
    assert list(globbed.environment_differences) == ["boost"]


SVG = "{http://www.w3.org/2000/svg}"


def _html(report):
    """The HTML report, parsed strictly as HTML5, and its run-order plots as XML."""
    import re
    import xml.etree.ElementTree as ET

    import html5lib

    html = report.to_html()
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(html)
    svgs = [ET.fromstring(s) for s in re.findall(r"<svg\b.*?</svg>", html, flags=re.S)]
    return html, [s for s in svgs if "plot-runs" in s.get("class").split()]


@requires("tally_report_cell_diagnostics")
def test_html_findings_beside_the_run_order_plot(source_dir):
    import re

    results = tally.load(str(source_dir / "tests/data/diag/defects.csv"))
    html, runs = _html(tally.Report(results))
    # Every case of the fixture has a finding on the new side (the text golden diag_table):
    # each case's fold says so, and its findings follow its run-order plot.
    cases = re.findall(r'<details class="case"[^>]*><summary>(.*?)</summary>(.*?)</details>',
                       html, flags=re.S)
    assert [re.match(r"\w+", s).group(0) for s, _ in cases] == [
        "trend", "warmup", "autocorr", "step", "bimodal", "outliers"]
    for summary, body in cases:
        assert "runs may not be trusted" in summary
        assert body.index("plot-runs") < body.index('class="warn diag"')
    warm = dict((re.match(r"\w+", s).group(0), b) for s, b in cases)["warmup"]
    assert "<li>new: warm-up: first 4 runs +3.4 % (p 0.00073)</li>" in warm
    # The warm-up of the warmup case ends after run 4 of 30: its dashed mark sits half-way
    # between the x positions of runs 4 and 5, on the new panel only.
    svg = runs[1]
    ticks = {}
    for g in svg.iter(SVG + "g"):
        if g.get("class") == "axis x":
            for t in g.findall(SVG + "g"):
                ticks[t.find(SVG + "text").text] = float(t.find(SVG + "line").get("x1"))
    panels = [g for g in svg.iter(SVG + "g") if (g.get("class") or "").startswith("panel")]
    marks = [[p.get("d") for p in g.iter(SVG + "path") if p.get("class") == "diag-mark"]
             for g in panels]
    assert marks[0] == [] and len(marks[1]) == 1
    x_at = float(re.match(r"M(-?[\d.]+) ", marks[1][0]).group(1))
    per_run = (ticks["10"] - ticks["0"]) / 10
    assert abs(x_at - (ticks["0"] + 4.5 * per_run)) < 0.1
    labels = [t.text for t in panels[1].iter(SVG + "text") if t.get("class") == "diag-label"]
    assert labels == ["warm-up"]
    # The legend of the tests, once, in the footer.
    assert html.count("trend: Mann-Kendall; warm-up: first-runs Mann-Whitney scan") == 1


@requires("tally_report_env_diff_count")
def test_html_environment_warning(source_dir):
    results = tally.load([str(source_dir / "tests/data/diag/env-base.json"),
                          str(source_dir / "tests/data/diag/env-new.json")])
    html, _ = _html(tally.Report(results))
    header = html[html.index("<header>"):html.index("</header>")]
    assert "The configurations were measured differently" in header
    assert ("<li>governor: base <code>performance</code>; new <code>powersave</code></li>"
            in header)
    assert "<li>boost: base <code>off</code>; new <code>on</code></li>" in header
    quiet, _ = _html(tally.Report(results, expect_diff=["governor", "boost"]))
    assert "measured differently" not in quiet
    clean, _ = _html(tally.Report(tally.load(str(source_dir / "tests/data/diag/defects.csv"))))
    assert "measured differently" not in clean


@requires("tally_noise_load")
def test_noise_profile_sets_margins(source_dir):
    # tests/data/noise/loop.json: benchmark loop, margin 2.5 %. The warmup case's change,
    # -0.34 % [-1.02, +0.34] (the text golden diag_table), lies inside +-2.5 %: equivalent;
    # without the profile it is inconclusive.
    results = tally.load(str(source_dir / "tests/data/diag/defects.csv"))
    plain = tally.Report(results)
    with_noise = tally.Report(results, noise=source_dir / "tests/data/noise/loop.json")
    verdicts = {r.case: r.cells[1].comparison.verdict for r in with_noise.rows}
    assert {r.case: r.cells[1].comparison.verdict for r in plain.rows}["warmup"] == \
        "inconclusive"
    assert verdicts["warmup"] == "equivalent"
    import pytest
    with pytest.raises(tally.TallyError) as e:
        tally.Report(results, noise=source_dir / "tests/data/noise/bad-margin.json")
    assert "$.benchmarks[0].margin_pct" in str(e.value)
