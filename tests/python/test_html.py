"""The HTML report: HTML5 that parses without errors, every SVG well-formed XML, nothing
fetched, input labels escaped, and each plot kind checked by its structure (axes, ticks, marks,
labels), not by its pixels. Expected positions come from hand calculations in the comments."""

import math
import re
import xml.etree.ElementTree as ET

import html5lib
import pytest

import tally

from conftest import results_of

SVG = "{http://www.w3.org/2000/svg}"


def parse(html):
    """The document (or fragment) parsed strictly as HTML5 (a parse error raises) and its SVGs
    as XML."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    if html.startswith("<!DOCTYPE"):
        parser.parse(html)
    else:
        parser.parseFragment(html)
    svgs = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    return [ET.fromstring(s) for s in svgs]


def plots(svgs, kind):
    return [s for s in svgs if kind in s.get("class").split()]


def texts(el, cls):
    return [t.text for t in el.iter(SVG + "text") if cls in (t.get("class") or "").split()]


def ticks(svg, axis):
    """(position, label) of every tick of the axis 'x' or 'y' (the first such axis)."""
    for g in svg.iter(SVG + "g"):
        if g.get("class") == f"axis {axis}":
            out = []
            for t in g.findall(SVG + "g"):
                line, label = t.find(SVG + "line"), t.find(SVG + "text")
                pos = float(line.get("x1") if axis == "x" else line.get("y1"))
                out.append((pos, label.text))
            return out
    raise AssertionError(f"no {axis} axis")


def path_of(el, cls):
    return [p.get("d") for p in el.iter(SVG + "path") if p.get("class") == cls]


def dots(d):
    """Coordinates of the dots of a marks path ("Mx yh0" each)."""
    return [(float(x), float(y)) for x, y in re.findall(r"M(-?[\d.]+) (-?[\d.]+)h0", d)]


def test_document_is_html5_with_wellformed_svg_and_no_external_reference():
    r = tally.Report(results_of({"base": {"1": [1, 2, 3, 4, 5], "2": [2, 3, 4, 5, 6]},
                                 "new": {"1": [2, 3, 4, 5, 6], "2": [2, 3, 4, 5, 6]}}))
    html = r.to_html()
    assert html.startswith("<!DOCTYPE html>")
    svgs = parse(html)
    assert {k for s in svgs for k in s.get("class").split()} >= {
        "plot-dist", "plot-runs", "plot-sweep", "plot-change"}
    # Self-contained: no script, no fetched resource; the only URI is the SVG namespace.
    assert "<script" not in html and "<link" not in html and "<img" not in html
    assert "url(" not in html and "@import" not in html and " src=" not in html
    uris = set(re.findall(r"(?:https?|ftp|file)://[^\s\"'<>]+", html))
    assert uris == {"http://www.w3.org/2000/svg"}
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', html))
    # Every plot has a text alternative.
    for s in svgs:
        assert s.get("role") == "img"
        assert s[0].tag == SVG + "title" and s[0].text
        assert s[1].tag == SVG + "desc" and s[1].text
    # Light and dark, and print.
    assert "prefers-color-scheme:dark" in html and "@media print" in html


def test_labels_from_input_stay_text():
    evil = "<script>alert(1)</script>"
    results = results_of({evil: {"<b>&amp;\"'": [1, 2, 3]},
                          "x\x01y": {"<b>&amp;\"'": [1, 2, 4]}},
                         benchmark="</title><script>b</script>", unit="<i>")
    # Metadata shows in the system details, and report.case_label titles the sweep's axis.
    results[0].set_metadata("<script>key", "<script>value")
    results[0].set_metadata("report.case_label", "<script>")
    r = tally.Report(results)
    for html in (r.to_html(), r.to_html(fragment=True),
                 tally.Report(results_of({evil: {"c": [1, 2]}}), summaries_only=True).to_html()):
        svgs = parse(html)
        assert "<script" not in html and "<b>" not in html and "<i>" not in html
        doc = html5lib.parse(html, namespaceHTMLElements=False)
        assert doc.find(".//script") is None
        assert evil in "".join(doc.find(".//body").itertext())
        for s in svgs:
            assert "<script" not in ET.tostring(s, encoding="unicode").replace("&lt;script", "")
    assert "&lt;b&gt;&amp;amp;&quot;&#39;" in r.to_html()
    assert "&lt;script&gt;key" in r.to_html() and "&lt;script&gt;value" in r.to_html()
    assert "x\ufffdy" in r.to_html()  # a control character becomes U+FFFD, not broken XML


def test_distribution_plot_structure():
    # base: 1..5 s; new: 2..6 s. Quartiles of 1,2,3,4,5 (R type 7): Q1 = 2, median 3, Q3 = 4;
    # no sample beyond 1.5 IQR, so the whiskers end at 1 and 5. Shared axis over [1, 6]: nice
    # step 1 (range 5 -> nice 5, 5 / 5 ticks -> 1), ticks 1..6. The unit s: magnitudes of 6 keep
    # "s" (no prefix).
    r = tally.Report(results_of({"base": {"c": [1, 2, 3, 4, 5]}, "new": {"c": [2, 3, 4, 5, 6]}}))
    (svg,) = plots(parse(r.to_html()), "plot-dist")
    t = ticks(svg, "x")
    assert [label for _, label in t] == ["1", "2", "3", "4", "5", "6"]
    x = {label: pos for pos, label in t}
    assert texts(svg, "axis-title") == ["s"]
    series = [g for g in svg.iter(SVG + "g") if "series" in (g.get("class") or "")]
    assert [texts(g, "row-label") for g in series] == [["base"], ["new"]]
    for g, (q1, med, q3, lo, hi, samples) in zip(series, [("2", "3", "4", "1", "5", [1, 2, 3, 4, 5]),
                                                          ("3", "4", "5", "2", "6", [2, 3, 4, 5, 6])]):
        box = g.find(SVG + "rect")
        assert box.get("class") == "box"
        assert float(box.get("x")) == pytest.approx(x[q1], abs=0.1)
        assert float(box.get("x")) + float(box.get("width")) == pytest.approx(x[q3], abs=0.2)
        (median,) = path_of(g, "median")
        assert float(re.match(r"M([\d.]+)", median).group(1)) == pytest.approx(x[med], abs=0.1)
        (whisker,) = path_of(g, "whisker")
        ends = [float(v) for v in re.findall(r"M([\d.]+) ", whisker)]
        assert min(ends) == pytest.approx(x[lo], abs=0.1)
        assert max(ends) == pytest.approx(x[hi], abs=0.1)
        (pts,) = path_of(g, "pts")
        assert [px for px, _ in dots(pts)] == pytest.approx([x[str(v)] for v in samples], abs=0.1)
    assert "base: 5 runs, median 3.000 s, quartiles 2.000 s to 4.000 s" in svg[1].text


def test_distribution_axis_takes_an_si_prefix():
    # 0.0372 s .. 0.0418 s: ticks 0.037 .. 0.042 s, step 0.001 s; magnitude 0.042 s -> ms,
    # labels 37 .. 42.
    r = tally.Report(results_of({"a": {"c": [0.0372, 0.0390, 0.0418]}}), summaries_only=True)
    (svg,) = plots(parse(r.to_html()), "plot-dist")
    assert [label for _, label in ticks(svg, "x")] == ["37", "38", "39", "40", "41", "42"]
    assert texts(svg, "axis-title") == ["ms"]


def test_case_plots_label_values_in_the_tables_prefix():
    # Case "1" near 0.38 s, case "296" near 7.75 s. The table shows the benchmark in one prefix,
    # chosen on its smallest value (0.38 s -> 380 ms), so the plots of case "296" label its runs
    # in ms too: 7.70 .. 7.80 s (nice step 0.02 s for a range of 0.1 s and about 6 ticks) reads
    # 7700 .. 7800, not 7.70 .. 7.80 s beside a table of 7750 ms.
    r = tally.Report(results_of({"a": {"1": [0.37, 0.38, 0.39], "296": [7.70, 7.75, 7.80]}}))
    html = r.to_html()
    assert "<dt>unit</dt><dd>ms</dd>" in html
    dist = plots(parse(html), "plot-dist")
    assert [label for _, label in ticks(dist[1], "x")] == [
        "7700", "7720", "7740", "7760", "7780", "7800"]
    assert texts(dist[1], "axis-title") == ["ms"]
    (panel,) = [g for g in plots(parse(html), "plot-runs")[1].iter(SVG + "g")
                if (g.get("class") or "").startswith("panel")]
    assert texts(panel, "axis-title") == ["ms"]


def test_run_order_plot_structure():
    # Samples 10, 20, 30, 40 (usec) in run order; a panel per configuration; x: runs 1..4
    # (nice step 1 for [1, 4] with about 8 ticks: range 3 -> nice 5, 5 / 7 -> 0.5, raised to
    # whole runs: 1), so the four dots sit on ticks 1..4 and their y rises with the run.
    r = tally.Report(results_of({"a": {"c": [10, 20, 30, 40]}, "b": {"c": [40, 30, 20, 10]}},
                                unit="usec"))
    (svg,) = plots(parse(r.to_html()), "plot-runs")
    assert texts(svg, "panel-label") == ["a", "b"]
    x = {label: pos for pos, label in ticks(svg, "x")}
    assert texts(svg, "axis-title")[0] == "run"
    panels = [g for g in svg.iter(SVG + "g") if (g.get("class") or "").startswith("panel")]
    assert len(panels) == 2
    for g, rising in zip(panels, (True, False)):
        (pts,) = path_of(g, "pts")
        xy = dots(pts)
        assert [px for px, _ in xy] == pytest.approx([x["1"], x["2"], x["3"], x["4"]], abs=0.1)
        ys = [py for _, py in xy]  # SVG y grows downwards
        assert ys == sorted(ys, reverse=rising)
        assert len(path_of(g, "line")) == 1
        # Its own value axis: ticks 10..40 usec; 40e-6 s is below 1 ms, so "µs" (the unit
        # "usec" rewritten with its SI symbol).
        assert texts(g, "axis-title") == ["\u00b5s"]


def test_sweep_plot_is_logarithmic_for_a_geometric_sweep():
    cases = {f"{n}-groups": [n * 0.1, n * 0.1 + 0.01, n * 0.1 + 0.02] for n in (1, 2, 4, 8, 16)}
    r = tally.Report(results_of({"a": cases, "b": cases, "c": cases}))
    (svg,) = plots(parse(r.to_html()), "plot-sweep")
    t = ticks(svg, "x")
    assert [label for _, label in t] == ["1", "2", "4", "8", "16"]
    gaps = [b - a for (a, _), (b, _) in zip(t, t[1:])]
    assert max(gaps) - min(gaps) < 0.5  # equal steps: a log axis
    legend = next(g for g in svg.iter(SVG + "g") if g.get("class") == "legend")
    assert texts(legend, "legend-label") == ["a", "b", "c"]
    series = [g for g in svg.iter(SVG + "g") if (g.get("class") or "").startswith("series")
              and g not in list(legend)]
    assert len(series) == 3
    for g in series:
        assert len(dots(path_of(g, "pts")[0])) == 5
        assert len(path_of(g, "line")) == 1
        # AMean with a mean CI: one interval per case.
        assert len(re.findall(r"V", path_of(g, "ci")[0])) == 5
    # Means 0.11 .. 1.61 s, CIs +-0.025 (t(2) = 4.303 times 0.01 / sqrt(3)): range about 1.55
    # -> nice 2; 2 / 5 = 0.4 -> rounded nice 0.5: ticks 0, 0.5, ..., 2.0 s. The table shows the
    # smallest mean, 0.11 s, as 110 ms, so the plot labels them in ms too: 0, 500, ..., 2000.
    assert [label for _, label in ticks(svg, "y")] == ["0", "500", "1000", "1500", "2000"]
    assert texts(svg, "axis-title")[0] == "AMean (ms)"


def test_sweep_plot_of_named_cases_is_linear_and_unconnected():
    r = tally.Report(results_of({"a": {"Copy": [1, 2], "Scale": [2, 3], "Triad": [3, 4]}},
                                better="higher", unit="MB/s"), summaries_only=True)
    (svg,) = plots(parse(r.to_html()), "plot-sweep")
    # One tick per case; the names are written upright below the axis, in case order.
    assert len(ticks(svg, "x")) == 3
    labels = next(g for g in svg.iter(SVG + "g") if g.get("class") == "case-labels")
    assert texts(labels, "tick-label") == ["Copy", "Scale", "Triad"]
    assert all("rotate(-90" in t.get("transform") for t in labels.iter(SVG + "text"))
    legend = next(g for g in svg.iter(SVG + "g") if g.get("class") == "legend")
    # Named cases have no order: dots per case, no line through them (only the legend's sample).
    assert len(path_of(svg, "line")) == len(path_of(legend, "line")) == 1
    # HMeans 1.333, 2.4, 3.429 MB/s, spanning less than 20x: a linear axis, never below 0.
    assert float(ticks(svg, "y")[0][1]) >= 0


def test_sweep_plot_of_long_named_cases_spanning_decades():
    # go-style names: every one starts with "CRC32/" (left out of the labels, named in the
    # axis title), and poly and size vary (align does not), so the axis is named after them.
    # Means from 1e-7 to 3.4e-5 s span more than two decades: a log axis, labelled in the
    # table's prefix (ns: the smallest mean, 101.5 ns).
    cases = {}
    for k, poly in enumerate(("IEEE", "Castagnoli", "Koopman")):
        for size in (15, 32768):
            base = 1e-7 * 10 ** k * (1 + size / 1000)
            cases[f"CRC32/poly={poly}/size={size}/align=0-8"] = [base, base * 1.01, base * 0.99]
    r = tally.Report(results_of({"base": cases, "new": cases}))
    (svg,) = plots(parse(r.to_html()), "plot-sweep")
    labels = next(g for g in svg.iter(SVG + "g") if g.get("class") == "case-labels")
    shown = labels.findall(SVG + "text")
    assert shown[0].text == "poly=IEEE/size=15/align=0-8"
    # Shortened labels keep the full name as a tooltip; whole ones have none.
    for t in shown:
        full = t.find(SVG + "title")
        if "\u2026" in t.text:
            assert full is not None and full.text.startswith("CRC32/poly=")
        else:
            assert full is not None and full.text == "CRC32/" + t.text
    title = texts(svg, "axis-title")
    assert "poly / size (cases CRC32/\u2026)" in title
    assert title[0] == "AMean, log scale (ns)"
    y = [float(label) for _, label in ticks(svg, "y")]
    assert min(y) > 0 and max(y) / min(y) >= 100


def test_sweep_log_axis_at_the_ends_of_the_double_range():
    # Means of 1.05 and 1.65e308 widgets span far more than 20x: a log axis. Its top margin,
    # 1.65e308 * 1.15, is beyond the largest double (1.80e308) and its exponents were cast from
    # inf: no ticks at all, and undefined behaviour. The axis now ends at the largest double, so
    # it has ticks from 1 (10^0 within [1.05 / 1.15, ...]) up to 1e308, every one inside the plot.
    cases = {"a": [1.0, 1.1], "b": [1.6e308, 1.7e308]}
    r = tally.Report(results_of({"x": cases, "y": cases}, unit="widgets"), summaries_only=True)
    (svg,) = plots(parse(r.to_html()), "plot-sweep")
    assert texts(svg, "axis-title")[0].startswith("AMean, log scale")
    t = ticks(svg, "y")
    assert len(t) >= 2
    assert all(math.isfinite(pos) for pos, _ in t)
    top, bottom = min(pos for pos, _ in t), max(pos for pos, _ in t)
    assert top >= 0 and bottom <= float(svg.get("height"))


def test_sweep_axis_named_after_the_swept_parameter():
    cases = {f"{n}-clients": [n, n + 0.1] for n in (1, 2, 4, 8)}
    r = tally.Report(results_of({"a": cases, "b": cases}))
    (svg,) = plots(parse(r.to_html()), "plot-sweep")
    assert texts(svg, "axis-title")[-1] == "clients"


def test_change_plot_structure():
    # new is slower on "slow" (a significant regression: 1.0 vs 2.0 with tiny spread), equal on
    # "same", and "short" has one sample per side (too few for Welch).
    base = {"slow": [1.0, 1.01, 0.99, 1.0], "same": [1.0, 1.1, 0.9, 1.0], "short": [1.0]}
    new = {"slow": [2.0, 2.01, 1.99, 2.0], "same": [1.0, 1.1, 0.9, 1.0], "short": [1.0]}
    r = tally.Report(results_of({"base": base, "new": new, "other": base}))
    (svg,) = plots(parse(r.to_html()), "plot-change")
    assert texts(svg, "panel-label") == ["new", "other"]
    cases = next(g for g in svg.iter(SVG + "g") if g.get("class") == "cases")
    assert texts(cases, "row-label") == ["slow", "same", "short"]
    panels = [g for g in svg.iter(SVG + "g") if g.get("class") == "panel"]
    marks = [[m.get("class") for m in p if (m.get("class") or "").startswith("mark")]
             for p in panels]
    assert marks == [["mark v-reg", "mark v-none", "mark v-insuf"],
                     ["mark v-none", "mark v-none", "mark v-insuf"]]
    # pct-imp of "slow": (1 - 2/1) * 100 = -100 %; its dot sits on the tick "-100".
    x = {label: pos for pos, label in ticks(panels[0], "x")}
    reg = next(m for m in panels[0] if m.get("class") == "mark v-reg")
    assert float(reg.get("cx")) == pytest.approx(x["-100"], abs=0.1)
    tip = reg.find(SVG + "title").text  # the case, pct-imp, its interval, the verdict
    assert tip.startswith("slow: -100.00% [") and tip.endswith("], regression")
    zero = path_of(panels[0], "zero")[0]
    assert float(re.match(r"M([\d.-]+)", zero).group(1)) == pytest.approx(x["0"], abs=0.1)
    legend = next(g for g in svg.iter(SVG + "g") if g.get("class") == "legend")
    assert texts(legend, "legend-label") == ["significant improvement", "significant regression",
                                             "inconclusive", "too few samples"]


def test_table_carries_the_text_tables_information():
    base = {"a": [1.0, 1.01, 0.99, 1.0], "b": [1.0, 1.1]}
    new = {"a": [2.0, 2.01, 1.99, 2.0]}
    r = tally.Report(results_of({"base": base, "new": new}), adjust="holm")
    html = r.to_html()
    parse(html)
    text = r.text()
    # The same values, deltas, p-values and verdict words as the text table. "a" of base: mean
    # 1, sd sqrt(2e-4 / 3) = 0.0081650, half-width t(0.975, 3) * sd / 2 = 3.182446 * 0.0081650
    # / 2 = 0.012992: two significant digits of it, 3 decimals.
    for word in ("1.000 ± 0.013", "-100.00%", "regression", "missing [2]", "p (adj)",
                 "new has no bench/b", "holm"):
        assert word in text.replace("p (adj)", "p (adj)") or word == "holm"
        assert word in html
    assert '<td class="verdict v-reg">regression</td>' in html


def test_hundreds_of_cases_fold_and_stay_small():
    import random
    rng = random.Random(7)
    configs = {}
    for label in ("a", "b", "c"):
        configs[label] = {f"case-{i}": [1 + rng.random() for _ in range(100)] for i in range(300)}
    html = tally.Report(results_of(configs)).to_html()
    assert len(html.encode()) < 5_000_000
    assert '<details class="table">' in html  # folded: 300 rows
    assert '<details class="case" open>' not in html
    assert html.count('<details class="case">') == 300
    # The summary plots come before the table and the cases.
    assert html.index("plot-change") < html.index('<details class="table">') < \
        html.index('<details class="case">')


def test_no_samples_no_distribution_plots():
    # A report computed without its raw samples still has its tables and the summary plots.
    r = tally.Report(results_of({"a": {"1": [1, 2], "2": [2, 3]}, "b": {"1": [1, 2], "2": [2, 4]}}))
    html = r.to_html()
    assert "plot-dist" in html


def test_fragment_and_save(tmp_path):
    r = tally.Report(results_of({"a": {"c": [1, 2, 3]}, "b": {"c": [1, 2, 4]}}))
    frag = r.to_html(fragment=True)
    assert frag.startswith('<div class="tally-report"><style>') and "<html" not in frag
    assert r._repr_html_() == frag
    r.save(tmp_path / "r.html")
    assert (tmp_path / "r.html").read_text() == r.to_html()
    r.save(tmp_path / "r.md")
    assert (tmp_path / "r.md").read_text() == r.to_markdown()
    with pytest.raises(ValueError, match="extension"):
        r.save(tmp_path / "r.unknown")
    results = results_of({"a": {"c": [1, 2, 3]}})
    assert "plot-dist" in results._repr_html_()


def test_text_histogram():
    r = tally.Report(results_of({"a": {"c": [1, 1, 1, 2]}, "bb": {"c": [2, 2, 2, 2]}}))
    out = r.text(hist=True, width=40)
    # The histograms' block, up to the notes after it (the pairing line is not a histogram).
    tail = out[out.index("Distributions"):out.index("pairing:")].splitlines()
    # "  a  |" + bars + "| n=4": 40 - (2 + 2 + 1 + 2 + 7) = 26 bins over [1, 2]. Heights are
    # relative to the fullest bin of the case: bb's four 2s (last bin, full block). a's three 1s
    # in bin 0: ceil(8 * 3 / 4) = 6 eighths; its one 2 in the last bin: ceil(8 / 4) = 2 eighths.
    a = next(l for l in tail if l.startswith("  a "))
    bb = next(l for l in tail if l.startswith("  bb "))
    assert a == "  a  \u2502\u2586" + " " * 24 + "\u2582\u2502 n=4"
    assert bb == "  bb \u2502" + " " * 25 + "\u2588\u2502 n=4"
    assert all(len(l) <= 40 for l in tail)
    ascii_out = r.text(hist=True, ascii=True, width=40)
    assert "  a  |*" + " " * 24 + ":| n=4" in ascii_out


def test_matplotlib_plots():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    base = {"1": [1.0, 1.1, 0.9, 1.0], "2": [2.0, 2.1, 1.9, 2.0]}
    new = {"1": [1.5, 1.6, 1.4, 1.5], "2": [2.0, 2.1, 1.9, 2.0]}
    r = tally.Report(results_of({"base": base, "new": new}))
    ax = r.plot("distribution", case="1")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["base", "new"]
    # One strip of dots per configuration, at the samples themselves.
    strips = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert sorted(strips[1].get_xdata()) == [1.4, 1.5, 1.5, 1.6]
    ax = r.plot("runs", case="2")
    assert list(ax.get_lines()[0].get_ydata()) == [2.0, 2.1, 1.9, 2.0]
    ax = r.plot("sweep")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2"]
    ax = r.plot("change")
    # "1": (1 - 1.5 / 1) * 100 = -50 %, a significant regression (red, filled).
    marks = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert marks[0].get_xdata()[0] == pytest.approx(-50)
    assert marks[0].get_color() == "#e5534b"
    with pytest.raises(ValueError, match="kind"):
        r.plot("pie")
    with pytest.raises(KeyError):
        r.plot("runs", case="nope")


def _luminance(rgb):
    """WCAG 2 relative luminance of an sRGB colour (components 0 to 1)."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a, b):
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# Pages a notebook's figures land on: white, and the dark themes of JupyterLab, VS Code and
# GitHub. Hand check of the formula: white on black is (1 + 0.05) / (0 + 0.05) = 21.
PAGES = ("#ffffff", "#111111", "#1e1e1e", "#0d1117")


def test_matplotlib_plots_read_on_light_and_dark_pages():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.colors as mcolors
    import matplotlib.pyplot as plt
    assert _contrast((1, 1, 1), (0, 0, 0)) == pytest.approx(21)
    base = {"1": [1.0, 1.1, 0.9, 1.0], "2": [2.0, 2.1, 1.9, 2.0], "4": [4.0, 4.1, 3.9, 4.0]}
    new = {"1": [1.5, 1.6, 1.4, 1.5], "2": [2.0, 2.1, 1.9, 2.0], "4": [3.0, 3.1, 2.9, 3.0]}
    third = {"1": [1.0, 1.2, 0.8, 1.0], "2": [2.5, 2.6, 2.4, 2.5], "4": [4.0, 4.2, 3.8, 4.0]}
    r = tally.Report(results_of({"base": base, "new": new, "third": third}))
    for kind in ("distribution", "runs", "sweep", "change"):
        ax = r.plot(kind)
        fig = ax.figure
        # "auto": nothing opaque behind the plot, so the page shows through.
        assert mcolors.to_rgba(fig.get_facecolor())[3] == 0
        assert mcolors.to_rgba(ax.get_facecolor())[3] == 0
        texts = [ax.title, ax.xaxis.label, ax.yaxis.label]
        texts += ax.get_xticklabels() + ax.get_yticklabels()
        legend = ax.get_legend()
        if legend is not None:
            texts += legend.get_texts() + [legend.get_title()]
            assert mcolors.to_rgba(legend.get_frame().get_facecolor())[3] == 0
        colours = [t.get_color() for t in texts if t.get_text()]
        colours += [line.get_color() for line in ax.get_lines()]
        colours += [line.get_markerfacecolor() for line in ax.get_lines()
                    if str(line.get_markerfacecolor()) != "none"]
        colours += [s.get_edgecolor() for s in ax.spines.values()]
        colours += [c.get_color()[0] for c in ax.collections if len(c.get_color())]
        assert len(colours) > 5
        for colour in colours:
            for page in PAGES:
                ratio = _contrast(mcolors.to_rgb(colour), mcolors.to_rgb(page))
                assert ratio >= 3, (kind, mcolors.to_hex(colour), page, ratio)
        plt.close(fig)
    # "dark" and "light" paint the background and keep every text readable on it (4.5: the
    # normal-text level).
    for theme, page in (("dark", "#0d1117"), ("light", "#ffffff")):
        ax = r.plot("sweep", theme=theme)
        assert mcolors.to_hex(ax.figure.get_facecolor()) == page
        assert mcolors.to_hex(ax.get_facecolor()) == page
        for t in [ax.title, ax.yaxis.label] + ax.get_xticklabels() + ax.get_legend().get_texts():
            assert _contrast(mcolors.to_rgb(t.get_color()), mcolors.to_rgb(page)) >= 4.5
        plt.close(ax.figure)
    # An Axes of the caller's keeps its background under "auto".
    fig, mine = plt.subplots(facecolor="#fafafa")
    mine.set_facecolor("#fafafa")
    assert r.plot("runs", ax=mine) is mine
    assert mcolors.to_hex(mine.get_facecolor()) == "#fafafa"
    plt.close(fig)
    with pytest.raises(ValueError, match="theme"):
        r.plot("runs", theme="solarized")


def gain_log(pct, better="lower"):
    """Position of a change on the change plot's axis: the log of the gain, base/new where lower
    is better (pct-imp = (1 - new/base) * 100), new/base where higher is better."""
    return -math.log(1 - pct / 100) if better == "lower" else math.log(1 + pct / 100)


def test_change_plot_intervals_and_equivalence_band():
    # "same" is equal on both sides; with a 10 % margin it is equivalent (TOST), drawn as a
    # diamond; every compared row has the interval its verdict used as a bar whose ends sit on
    # the panel's log-ratio axis at the report's pct_low / pct_high (the test's interval) or,
    # for the equivalent row, at its TOST interval (equivalence_low / high); the band spans
    # -10 .. +10 %.
    base = {"slow": [1.0, 1.01, 0.99, 1.0, 1.0, 1.01], "same": [1.0, 1.01, 0.99, 1.0, 1.0, 1.01]}
    new = {"slow": [2.0, 2.01, 1.99, 2.0, 2.0, 2.01], "same": [1.0, 1.01, 0.99, 1.0, 1.0, 1.01]}
    r = tally.Report(results_of({"base": base, "new": new}), equivalence=10)
    (svg,) = plots(parse(r.to_html()), "plot-change")
    (panel,) = [g for g in svg.iter(SVG + "g") if g.get("class") == "panel"]
    marks = [m.get("class") for m in panel if (m.get("class") or "").startswith("mark")]
    assert marks == ["mark v-reg", "mark v-equiv"]
    t = ticks(panel, "x")
    (p0, v0), (p1, v1) = t[0], t[-1]
    g0, g1 = gain_log(float(v0)), gain_log(float(v1))
    px = lambda v: p0 + (gain_log(v) - g0) * (p1 - p0) / (g1 - g0)  # noqa: E731
    cis = [p for p in panel.iter(SVG + "path") if (p.get("class") or "").startswith("ci")]
    assert len(cis) == 2
    for row, ci in zip(r.rows, cis):
        c = row.cells[1].comparison
        want_lo, want_hi = (c.equivalence_interval if c.verdict == "equivalent"
                            else c.pct_imp_interval)
        lo, hi = (float(v) for v in re.match(r"M(-?[\d.]+) [\d.]+H(-?[\d.]+)", ci.get("d")).groups())
        assert lo == pytest.approx(px(want_lo), abs=0.15)
        assert hi == pytest.approx(px(want_hi), abs=0.15)
    band = panel.find(SVG + "rect")
    assert band.get("class") == "band"
    assert float(band.get("x")) == pytest.approx(px(-10), abs=0.15)
    assert float(band.get("x")) + float(band.get("width")) == pytest.approx(px(10), abs=0.2)


def test_change_axis_is_symmetric_in_the_ratio():
    # "slower" takes twice as long (pct-imp (1 - 2/1) * 100 = -100 %), "faster" half as long
    # (pct-imp (1 - 0.5/1) * 100 = +50 %): on the log-ratio axis both lie equally far from 0,
    # and the ticks are labelled in percent (-100 and 50 among them).
    base = {"slower": [1.0, 1.01, 0.99, 1.0], "faster": [1.0, 1.01, 0.99, 1.0]}
    new = {"slower": [2.0, 2.02, 1.98, 2.0], "faster": [0.5, 0.505, 0.495, 0.5]}
    r = tally.Report(results_of({"base": base, "new": new}))
    (svg,) = plots(parse(r.to_html()), "plot-change")
    (panel,) = [g for g in svg.iter(SVG + "g") if g.get("class") == "panel"]
    x = {label: pos for pos, label in ticks(panel, "x")}
    assert {"-100", "0", "50"} <= set(x)
    assert x["0"] - x["-100"] == pytest.approx(x["50"] - x["0"], abs=0.2)
    slow, fast = [float(m.get("cx")) for m in panel if (m.get("class") or "").startswith("mark")]
    assert slow == pytest.approx(x["-100"], abs=0.3) and fast == pytest.approx(x["50"], abs=0.3)
    assert "log-ratio scale" in " ".join(texts(svg, "axis-title"))


def test_change_plot_labels_long_cases_without_their_common_prefix():
    names = [f"CRC32/poly=Castagnoli/size={s}/align=1-8/very/long/tail/of/the/name" for s in
             (15, 40, 512)]
    base = {n: [1.0, 1.01, 0.99] for n in names}
    r = tally.Report(results_of({"base": base, "new": base}))
    (svg,) = plots(parse(r.to_html()), "plot-change")
    cases = next(g for g in svg.iter(SVG + "g") if g.get("class") == "cases")
    # The common prefix is cut at its last separator ("/", not "="): "CRC32/poly=Castagnoli/".
    assert texts(cases, "prefix-label") == ["CRC32/poly=Castagnoli/\u2026"]
    labels = [t for t in cases.iter(SVG + "text") if t.get("class") == "row-label"]
    for t, name in zip(labels, names):
        # 240 px at 11 px x 0.6 = 6.6 px per character: at most 35 characters with the "…".
        assert "\u2026" in t.text and len(t.text) <= 36
        assert t.find(SVG + "title").text == name
        assert float(t.get("x")) > 0  # inside the plot, not past its left edge


def test_identical_and_within_noise_have_classes_legend_and_styles():
    # Two constant, equal samples: identical (v-same); its style and the legend's word.
    base = {"const": [1.0, 1.0, 1.0]}
    r = tally.Report(results_of({"base": base, "new": base}))
    html = r.to_html()
    (svg,) = plots(parse(html), "plot-change")
    legend = next(g for g in svg.iter(SVG + "g") if g.get("class") == "legend")
    assert "no change (identical)" in texts(legend, "legend-label")
    assert '<td class="verdict v-same">' in html
    assert ".tally-report td.v-same{" in html and ".tally-report svg.plot .v-same{" in html
    assert ".tally-report td.v-noise{" in html and ".tally-report svg.plot .v-noise{" in html


def test_largest_changes_are_ranked_under_the_headline():
    # "x3" is 3x slower (pct-imp -200 %), "x1.2" 1.2x slower (-20 %), "fast" 2x faster (+50 %):
    # regressions first, the largest first, then the improvement; the factor where the change
    # is at least 1.5x ("3.00x slower", "2.00x faster").
    base = {"x3": [1.0, 1.01, 0.99, 1.0], "x1.2": [1.0, 1.01, 0.99, 1.0],
            "fast": [1.0, 1.01, 0.99, 1.0], "flat": [1.0, 1.1, 0.9, 1.0]}
    new = {"x3": [3.0, 3.03, 2.97, 3.0], "x1.2": [1.2, 1.212, 1.188, 1.2],
           "fast": [0.5, 0.505, 0.495, 0.5], "flat": [1.0, 1.1, 0.9, 1.0]}
    html = tally.Report(results_of({"base": base, "new": new})).to_html()
    parse(html)
    items = re.search(r'<ol class="changes">(.*?)</ol>', html).group(1).split("</li>")[:-1]
    assert len(items) == 3
    assert '<span class="v-reg">-200.00% (3.00x slower)</span>' in items[0]
    assert "bench/x3</span>, new" in items[0]
    assert '<span class="v-reg">-20.00%</span>' in items[1]
    assert '<span class="v-imp">+50.00% (2.00x faster)</span>' in items[2]


def test_wide_tables_keep_the_case_column_and_plots_scroll():
    html = tally.Report(results_of({"a": {"c": [1, 2]}, "b": {"c": [1, 2]}})).to_html()
    assert "table.compare th.key:first-child{position:sticky;left:0" in html
    assert '<figure><div class="scroll"><svg' in html
    assert "figure>.scroll>svg.plot{max-width:none}" in html


def test_hmean_cells_carry_their_interval():
    # 1/x of 2, 4, 4, 5: 0.5, 0.25, 0.25, 0.2, mean 0.3, SD 0.1354 (n - 1); t(0.975, 3) =
    # 3.182446; half-width 3.182446 * 0.1354 / 2 = 0.21545; HMean 1 / 0.3 = 3.333, its interval
    # [1 / 0.51545, 1 / 0.08455] = [1.940, 11.827]. SciPy: y = 1 / np.array([2, 4, 4, 5]);
    # h = stats.t.ppf(0.975, 3) * y.std(ddof=1) / 2; 1 / (y.mean() + h), 1 / (y.mean() - h)
    # -> 1.94005, 11.8271.
    r = tally.Report(results_of({"a": {"c": [2, 4, 4, 5]}, "b": {"c": [2, 4, 4, 5]}},
                                better="higher", unit="MB/s"))
    assert r.rows[0].statistic == "hmean"
    html = r.to_html()
    # MB/s (10^6 B/s) shows in MiB/s, times 10^6 / 2^20 = 0.95367431640625: 3.3333 -> 3.179,
    # 1.94005 -> 1.850, 11.82769 (1 / (0.3 - 0.21545)) -> 11.27979, 11.280; the row's 3 decimals.
    assert "<td>3.179 [1.850, 11.280]</td>" in html
