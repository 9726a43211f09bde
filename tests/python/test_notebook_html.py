"""What a notebook shows (`_repr_html_`): the report fragment carries the text table's
information (verdict words, missing and too-few-samples notes, the legend, adjusted p-values
labelled, one p format, units) with header and cells aligned alike, and every table reads in
light and dark themes (inherited colours, translucent backgrounds)."""

import re

import html5lib
import pytest

import tally
from tally import _html

from conftest import requires, results_of

pytestmark = requires("tally_report_new", "tally_report_render")

P_FORMAT = re.compile(r"^(<0\.0001|[01]\.\d{4}|-)$")


def fragment_tables(html):
    doc = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [t for t in doc.iter("table") if "compare" in (t.get("class") or "")]


def cell_text(el):
    return "".join(el.itertext()).strip()


@pytest.fixture
def report():
    # "a": a clear regression (means 1.01 and 2.01, n = 5); "gone": missing in "new";
    # "tiny": two runs per side, which Mann-Whitney cannot take below alpha 0.05 (the smallest
    # two-sided exact p of 2 + 2 samples is 2 / C(4, 2) = 1/3): too few samples.
    results = results_of({"base": {"a": [1.0, 1.1, 0.9, 1.0, 1.05], "gone": [1, 2, 3],
                                   "tiny": [1.0, 1.1]},
                          "new": {"a": [2.0, 2.1, 1.9, 2.0, 2.05], "tiny": [1.5, 1.6]}},
                         unit="")
    return tally.Report(results, adjust="holm", test="mann-whitney")


def test_report_fragment_carries_the_tables_information(report):
    html = report._repr_html_()
    assert html == report.to_html(fragment=True)
    # Verdict words, not colour only.
    assert 'class="verdict v-reg">regression<' in html
    assert re.search(r'class="verdict v-insuf">insufficient', html)
    # Missing and too-few-samples marks and their notes.
    assert "missing [2]" in html and "new has no bench/gone" in html
    assert "[1] too few samples for the test to reach alpha" in html
    # The legend: test, alpha, adjustment; the adjusted p labelled as adjusted.
    assert "<dt>test</dt><dd>mann-whitney</dd>" in html
    assert "<dt>alpha</dt><dd>0.05</dd>" in html and "<dt>adjustment</dt><dd>holm" in html
    assert ">p (adj)</th>" in html and ">p</th>" not in html
    # An empty unit is named, never printed as "(, lower)".
    assert "<dt>unit</dt><dd>(none)</dd>" in html and "(, " not in html


def test_report_fragment_p_values_share_one_format(report):
    (table,) = fragment_tables(report._repr_html_())
    header = [cell_text(th) for th in table.find("thead").iter("th")]
    col = header.index("p (adj)")
    ps = []
    for tr in table.find("tbody").iter("tr"):
        cells = list(tr)
        if len(cells) > col:
            ps.append(cell_text(cells[col]))
    assert ps and all(P_FORMAT.match(p) or p == "" for p in ps), ps
    unadjusted = tally.Report(results_of({"a": {"x": [1.0, 1.1, 0.9, 1.0, 1.05]},
                                          "b": {"x": [2.0, 2.1, 1.9, 2.0, 2.05]}}))
    assert ">p</th>" in unadjusted._repr_html_()


def test_report_fragment_header_and_cells_align_alike(report):
    (table,) = fragment_tables(report._repr_html_())
    left = lambda el: bool({"key", "verdict"} & set((el.get("class") or "").split()))
    header = [left(th) for th in table.find("thead").iter("th")]
    rows = 0
    for tr in table.find("tbody").iter("tr"):
        cells = list(tr)
        assert len(cells) == len(header)
        # Empty cells (a missing case's comparison) have nothing to align.
        assert [left(c) for c in cells if cell_text(c)] == \
            [h for h, c in zip(header, cells) if cell_text(c)]
        rows += 1
    assert rows == 3


def test_report_fragment_follows_the_notebook_theme(report):
    style = re.search(r"<style>(.*?)</style>", report._repr_html_(), re.S).group(1)
    # The notebook's own text colour (JupyterLab, VS Code), a transparent background, and the
    # accent palette of a dark notebook theme even when the system is light.
    assert "var(--jp-content-font-color1" in style and "var(--vscode-editor-foreground" in style
    assert re.search(r"\.tally-report\{[^}]*background:transparent", style)
    assert "[data-jp-theme-light=false] .tally-report" in style
    assert "body.vscode-dark .tally-report" in style
    # The host's zebra rows are reset (JupyterLab colours odd rows with its layout colour).
    assert ".tally-report tbody tr:nth-child(odd)" in style


def test_package_tables_inherit_colours_and_format_p_alike():
    # Translucent backgrounds only: a fixed light background would glare in a dark theme.
    assert not re.search(r"background:\s*#", _html.STYLE)
    assert "color: inherit" in _html.STYLE
    assert [_html.pvalue(p) for p in (1.2e-10, 1.662e-05, 0.0004987, 0.04321, 1.0, None)] == \
        ["<0.0001", "<0.0001", "0.0005", "0.0432", "1.0000", "\u2014"]
    # A comparison's table: the key column left-aligned like its header, the p as above.
    c = tally.compare([1.0, 1.1, 0.9, 1.0, 1.05], [2.0, 2.1, 1.9, 2.0, 2.05], better="lower")
    html = c._repr_html_()
    assert '<td class="tally-key">p</td><td>&lt;0.0001</td>' in html
    assert '<th class="tally-key" scope="col"></th>' in html
    assert 'class="tally-regression">regression<' in html and "p=<0.0001" in repr(c)
