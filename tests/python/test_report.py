"""tally.Report: rows, renderings, XLSX (read back with openpyxl), DataFrame, notebook HTML."""

import json

import numpy as np
import pytest
from scipy import stats

import tally

from conftest import requires

pytestmark = requires("tally_report_new", "tally_report_render", "tally_style_from_name",
                      "tally_load_file")

BASE_1 = [0.38, 0.41, 0.39, 0.40, 0.42]
NEW_1 = [0.45, 0.47, 0.46, 0.48, 0.44]
BASE_4 = [1.10, 1.05, 1.12, 1.08, 1.11]
NEW_4 = [1.09, 1.07, 1.10, 1.06, 1.12]


@pytest.fixture
def report(csv_file):
    return tally.Report(tally.load(csv_file))


def test_rows_hold_summaries_and_comparisons(report):
    assert report.labels == ["base", "new"]
    rows = {r.case: r for r in report.rows}
    assert set(rows) == {"1-groups", "4-groups"}
    row = rows["1-groups"]
    assert (row.benchmark, row.unit, row.better, row.statistic) == ("hackbench", "s", "lower",
                                                                   "amean")
    base, new = row.cells
    assert base.comparison is None and base.value == pytest.approx(np.mean(BASE_1), rel=1e-14)
    assert new.value == pytest.approx(np.mean(NEW_1), rel=1e-14)
    ref = stats.ttest_ind(BASE_1, NEW_1, equal_var=False)
    assert new.comparison.p_value == pytest.approx(ref.pvalue, rel=1e-6)
    assert new.verdict == "regression"
    assert rows["4-groups"].cells[1].verdict == "inconclusive"
    assert report.worst_regression == pytest.approx((np.mean(NEW_1) / np.mean(BASE_1) - 1) * 100,
                                                    rel=1e-9)


def test_geomean_of_ratios(report):
    # Gains, > 1 = better: base/new on these lower-is-better rows.
    expected = stats.gmean([np.mean(BASE_1) / np.mean(NEW_1), np.mean(BASE_4) / np.mean(NEW_4)])
    g = report.gain("new")
    assert g["gain"] == pytest.approx(expected, rel=1e-12) and g["rows"] == 2
    assert g["interval"][0] < g["gain"] < g["interval"][1]
    assert report.geomean("new") == pytest.approx(expected, rel=1e-12)
    assert report.geomean(1) == pytest.approx(expected, rel=1e-12)
    with pytest.raises(KeyError):
        report.geomean("nope")


@pytest.mark.parametrize("style", ["table", "mmtests", "normalized", "pct"])
def test_text_styles(report, style):
    text = report.text(style=style)
    assert "1-groups" in text or " 1 " in text or "1" in text
    assert text.endswith("\n")


def test_bad_style_and_options(report, csv_file):
    with pytest.raises(ValueError):
        report.text(style="fancy")
    with pytest.raises(TypeError):
        report.text(precision="2")
    with pytest.raises(TypeError):
        tally.Report([1, 2, 3])
    with pytest.raises(ValueError):
        tally.Report(tally.load(csv_file), adjust="sidak")
    with pytest.raises(TypeError):
        tally.Report(tally.load(csv_file), alpha="0.05")


def test_machine_formats(report):
    doc = json.loads(report.to_json())
    assert isinstance(doc, dict)
    assert "hackbench" in report.to_csv()
    markdown = report.to_markdown()
    assert markdown.lstrip().startswith("|") or "|" in markdown
    assert report._repr_markdown_() == markdown


def test_xlsx_read_back(report, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    path = tmp_path / "report.xlsx"
    report.to_xlsx(path)
    book = openpyxl.load_workbook(path)
    text = " ".join(str(c.value) for ws in book.worksheets for r in ws.iter_rows() for c in r)
    assert "hackbench" in text


def test_xlsx_to_a_missing_directory_fails_cleanly(report, tmp_path):
    with pytest.raises(tally.TallyError):
        report.to_xlsx(tmp_path / "missing" / "report.xlsx")
    assert not (tmp_path / "missing").exists()


def test_dataframe(report):
    pandas = pytest.importorskip("pandas")
    df = report.to_dataframe()
    assert isinstance(df, pandas.DataFrame)
    assert len(df) == 4
    row = df.loc[("hackbench", "1-groups")].set_index("label").loc["new"]
    assert row.verdict == "regression" and row.value == pytest.approx(np.mean(NEW_1))


def test_dataframe_without_pandas(report, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match="pandas"):
        report.to_dataframe()


def test_html_marks_regressions_and_improvements(csv_file):
    html = tally.Report(tally.load(csv_file))._repr_html_()
    assert "<table" in html and 'class="verdict v-reg">regression<' in html
    assert 'class="verdict v-imp"' not in html
    # Swapping the configurations turns the regression into an improvement.
    swapped = tally.Results()
    loaded = tally.load(csv_file)
    for label in ("new", "base"):
        rs = swapped.add(label)
        bench = rs.add_benchmark("hackbench", unit="s")
        for case in loaded[label]["hackbench"]:
            bench.add_case(case.name, case.samples)
    assert 'class="verdict v-imp">improvement<' in tally.Report(swapped)._repr_html_()


def test_report_outlives_results_and_close(csv_file):
    results = tally.load(csv_file)
    report = tally.Report(results, adjust="holm", test="mann-whitney")
    results.close()
    assert len(report.rows) == 2
    with report:
        assert report.text()
    with pytest.raises(ValueError, match="closed"):
        report.text()


def test_filter_and_summaries_only(csv_file):
    filtered = tally.Report(tally.load(csv_file), filter="hackbench/1-*")
    assert [r.case for r in filtered.rows] == ["1-groups"]
    summaries = tally.Report(tally.load(csv_file), summaries_only=True)
    assert all(c.comparison is None for r in summaries.rows for c in r.cells)


def test_formats_from_the_library_table():
    # The table of include/tally/report.h's documentation: JSON, XLSX and HTML show the raw
    # samples, XLSX is written to files only, text alone is for a terminal.
    got = {f.name: (f.needs_samples, f.file_only, f.terminal) for f in tally.formats()}
    assert got == {"text": (False, False, True), "json": (True, False, False),
                   "csv": (False, False, False), "md": (False, False, False),
                   "xlsx": (True, True, False), "html": (True, False, False)}
