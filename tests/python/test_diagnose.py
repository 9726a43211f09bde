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
