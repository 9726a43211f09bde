"""Options: the package fills every options struct with tally_*_options_init() (never from the
text of the headers' INIT macros), repeats no default in its signatures, and reaches every field
of the report, render and load options."""

import inspect
import json

import pytest

import tally
from tally import _cdef, report as report_module, results as results_module
from tally._native import ffi, lib, new_options

from conftest import PACKAGE_DIR


def fields(ctype):
    return [name for name, _ in ffi.typeof(ctype).fields]


def test_no_initializer_text_is_parsed():
    assert not hasattr(_cdef, "INITIALIZERS")
    for source in PACKAGE_DIR.glob("*.py"):
        assert "INITIALIZERS" not in source.read_text(encoding="utf-8"), source.name


@pytest.mark.parametrize("ctype", ["tally_summary_options", "tally_compare_options",
                                   "tally_report_options", "tally_render_options",
                                   "tally_load_options", "tally_validate_options"])
def test_options_come_from_the_library_at_the_headers_version(ctype):
    opts = new_options(ctype)
    assert opts.version == getattr(lib, ctype.upper() + "_VERSION")


def test_defaults_are_the_headers():
    # The values written in include/tally/stats.h, compare.h, report.h and validate.h.
    s = new_options("tally_summary_options")
    assert (s.confidence, s.bamean_percent, s.mad_threshold, s.tukey_k) == (0.95, 95.0, 3.5, 1.5)
    c = new_options("tally_compare_options")
    assert c.test == lib.TALLY_TEST_AUTO and c.alpha == 0.05
    assert (c.equivalence_pct, c.power, c.mde_pct) == (0.0, 0.8, 0.0)
    r = new_options("tally_report_options")
    assert r.filter == ffi.NULL and r.confidence == 0.95 and r.alpha == 0.05
    assert new_options("tally_render_options").precision == -1
    assert new_options("tally_validate_options").tolerance == 1e-6


def test_signatures_repeat_no_default():
    # Every option of these functions defaults to None ("the library's default"), or False for
    # to_html's fragment, a choice of output rather than an option with a default.
    for func in (tally.summary, tally.compare, tally.percentiles, tally.outliers,
                 tally.validate, tally.Report.__init__, tally.Report.text,
                 tally.Report.to_markdown, tally.load, tally.Results.load):
        for p in inspect.signature(func).parameters.values():
            if p.kind == p.KEYWORD_ONLY or (p.default is not p.empty and p.name != "name"):
                assert p.default is None, f"{func.__qualname__}({p.name}={p.default!r})"


def test_report_reaches_every_report_option():
    targets = {field for field, _ in report_module._REPORT_OPTIONS.values()}
    assert targets == set(fields("tally_report_options")) - {"version"}, \
        "a tally_report_options field has no Report keyword: add it to _REPORT_OPTIONS in " \
        "bindings/python/tally/report.py and to Report.__init__"
    keywords = set(inspect.signature(tally.Report.__init__).parameters) - {"self", "results"}
    assert keywords == set(report_module._REPORT_OPTIONS)


def test_rendering_reaches_every_render_option():
    targets = {field for field, _ in report_module._RENDER_OPTIONS.values()}
    # `format` is what the method (text, to_json, to_html, ...) chooses.
    assert targets == set(fields("tally_render_options")) - {"version", "format"}, \
        "a tally_render_options field has no rendering keyword: add it to _RENDER_OPTIONS in " \
        "bindings/python/tally/report.py and to the method that renders it"
    offered = set().union(*(inspect.signature(method).parameters for method in (
        tally.Report.text, tally.Report.to_html, tally.Report.to_markdown)))
    assert set(report_module._RENDER_OPTIONS) <= offered


def test_load_reaches_every_load_option():
    targets = {field for field, _ in results_module._LOAD_OPTIONS.values()}
    # direction_given is set together with the direction (better=...), time_range_given with
    # time_start or time_end.
    assert targets == set(fields("tally_load_options")) - {"version", "direction_given",
                                                           "time_range_given"}
    assert set(results_module._LOAD_OPTIONS) <= set(
        inspect.signature(tally.Results.load).parameters)


@pytest.fixture
def results():
    r = tally.Results()
    for label, shift in (("base", 0.0), ("new", 0.5)):
        b = r.add(label).add_benchmark("bench", unit="s")
        b.add_case("x", [1.0 + shift, 1.2 + shift, 0.9 + shift, 1.1 + shift, 1.0 + shift])
    return r


def test_new_report_options_work(results):
    doc = json.loads(tally.Report(results, omit_samples=True).to_json())
    assert all(cell.get("samples") is None for row in doc["rows"] for cell in row["cells"])
    doc = json.loads(tally.Report(results).to_json())
    assert doc["rows"][0]["cells"][0]["samples"] == [1.0, 1.2, 0.9, 1.1, 1.0]
    assert tally.Report(results, percentile_method="nearest-rank").rows
    with pytest.raises(ValueError):
        tally.Report(results, percentile_method="nearest")
    with pytest.raises(TypeError):
        tally.Report(results, omit_samples=1)
    # None and the header's value are the same report.
    assert tally.Report(results).to_json() == tally.Report(results, alpha=0.05, power=0.8,
                                                           confidence=0.95).to_json()


def test_load_options_reach_the_library(tmp_path):
    path = tmp_path / "runs.txt"
    path.write_text("3\n4\n")
    r = tally.load(path, label="tip", benchmark="t", case="1-workers", unit="MB/s")
    assert r["tip"]["t"]["1-workers"].samples.tolist() == [3.0, 4.0]
    # MB/s implies higher is better (docs/formats.md); better= overrides it.
    assert r["tip"]["t"].better == "higher"
    assert tally.load(path, unit="MB/s", better="lower")[0]["values"].better == "lower"
    r = tally.load(path, case_format="{}-clients")
    assert r[0]["values"].cases[0].name == "all-clients"


def test_markdown_options_reach_the_library(source_dir):
    results = tally.load(source_dir / "docs" / "examples" / "hackbench-process-pipes.csv")
    # With Holm's adjustment 6 alwayswake rows (1 group, 172 to 296) and every specialcase row
    # are inconclusive (docs/examples/README.md): those rows fold.
    report = tally.Report(results, adjust="holm")
    assert "<details>" in report.to_markdown(only_changed=True)
    assert "<details>" not in report.to_markdown()
    assert len(report.to_markdown(max_length=3000)) <= 3000 < len(report.to_markdown())
    with pytest.raises(TypeError):
        report.to_markdown(max_length="3000")


def test_only_statistic_reaches_the_library(source_dir):
    report = tally.Report(tally.load(source_dir / "docs" / "examples" /
                                     "hackbench-process-pipes.csv"))
    assert "Stddev" in report.text(style="mmtests")
    only = report.text(style="mmtests", only_statistic=True)
    assert "Amean" in only and "Stddev" not in only and "CoeffVar" not in only


def test_docs_defaults_table_is_the_librarys(source_dir):
    """docs/python.md, "Options and their defaults", lists the values the library sets."""
    text = (source_dir / "docs" / "python.md").read_text(encoding="utf-8")
    table = text[text.index("### Options and their defaults"):]
    table = table[:table.index("\n\n", table.index("| option |"))]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            rows[cells[0].split(",")[0].strip("` ")] = cells[1].replace("`", "")
    s, c = new_options("tally_summary_options"), new_options("tally_compare_options")
    r, v = new_options("tally_report_options"), new_options("tally_validate_options")
    name = lambda kind, value: f'"{tally._native.enum_name(kind, value)}"'
    assert rows["direction"] == name("direction", s.direction)
    assert rows["confidence"] == f"{s.confidence:g}" == f"{r.confidence:g}"
    assert rows["percentile_method"] == name("percentile_method", s.percentile_method)
    assert rows["bamean_percent"] == f"{s.bamean_percent:.1f}"
    assert rows["mad_threshold"] == f"{s.mad_threshold:g}"
    assert rows["tukey_k"] == f"{s.tukey_k:g}"
    assert rows["test"] == name("test", c.test) == name("test", r.test)
    assert rows["alpha"] == f"{c.alpha:g}" == f"{r.alpha:g}"
    assert rows["statistic"].startswith(name("statistic", c.statistic))
    assert name("statistic", r.statistic) in rows["statistic"]
    assert rows["power"] == f"{c.power:g}" == f"{r.power:g}"
    assert rows["adjust"] == name("adjust", r.adjust)
    assert rows["tolerance"] == f"{v.tolerance:g}"
    assert rows["equivalence"] == "none (0)" and c.equivalence_pct == 0 == r.equivalence_pct
    assert rows["precision"].endswith(f"({new_options('tally_render_options').precision})")
