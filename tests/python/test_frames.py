"""DataFrames: the report frame (a (benchmark, case) MultiIndex, typed columns, the table's CV),
the tidy samples frame of Results and its way back (Results.from_dataframe), key completion and
labels for several files. Expected figures are hand calculations (in the comments)."""

import math

import pytest

import tally

from conftest import requires, results_of

pandas = pytest.importorskip("pandas")
pytestmark = requires("tally_report_new", "tally_report_cell_spread",
                      "tally_report_cell_interval")


def test_report_frame_index_types_and_roles():
    results = results_of({"base": {"1": [1.0, 1.1, 0.9, 1.0], "16": [2.0, 2.1, 1.9, 2.0]},
                          "new": {"1": [1.5, 1.6, 1.4, 1.5]}})
    df = tally.Report(results).to_dataframe()
    assert list(df.index.names) == ["benchmark", "case"]
    # Every case of the benchmark is an integer: the index holds ints, sorted numerically.
    assert df.index.get_level_values("case").dtype == "int64"
    assert list(df.sort_index().index.get_level_values("case")) == [1, 1, 16, 16]
    assert str(df["present"].dtype) == "bool" and str(df["significant"].dtype) == "boolean"
    assert str(df["n"].dtype) == "Int64" and df["value"].dtype == "float64"
    assert "label" in df.columns and "config" not in df.columns
    by = df.reset_index().set_index(["case", "label"])
    # The baseline's rows and the missing ones are told apart.
    assert by.loc[(1, "base"), "verdict"] == "baseline" and by.loc[(1, "base"), "baseline"]
    assert by.loc[(16, "new"), "verdict"] == "missing" and not by.loc[(16, "new"), "present"]
    assert by.loc[(16, "base"), "verdict"] == "baseline" and by.loc[(16, "base"), "present"]
    assert by.loc[(1, "new"), "verdict"] == "regression" and by.loc[(1, "new"), "significant"]
    assert pandas.isna(by.loc[(1, "base"), "significant"])
    assert pandas.isna(by.loc[(16, "new"), "value"]) and pandas.isna(by.loc[(16, "new"), "n"])
    # Means 1.0 and 1.5 (hand): pct-imp of a lower-is-better row (1 - 1.5/1.0) * 100 = -50.
    assert by.loc[(1, "new"), "pct_imp"] == pytest.approx(-50.0)
    assert by.loc[(1, "new"), "pct_imp_low"] < -50.0 < by.loc[(1, "new"), "pct_imp_high"]


def test_report_frame_cases_that_are_not_all_numbers_stay_names():
    results = results_of({"a": {"1-groups": [1, 2], "4": [2, 3]}, "b": {"1-groups": [1, 2],
                                                                      "4": [2, 3]}})
    cases = tally.Report(results).to_dataframe().index.get_level_values("case")
    assert list(cases) == ["1-groups", "1-groups", "4", "4"]


def test_report_frame_cv_is_the_tables_cv_on_hmean_and_median_rows():
    # Samples 1, 2, 4 (hand calculation):
    #   mean 7/3, sample SD sqrt(((4/3)^2 + (1/3)^2 + (5/3)^2) / 2) = sqrt(7/3) = 1.527525;
    #   median 2: the Median row's CV is 100 * 1.527525 / 2 = 76.3763 (the summary's cv,
    #   relative to the mean, is 65.4654);
    #   HMean H = 3 / (1 + 1/2 + 1/4) = 12/7 = 1.714286; harmonic SD
    #   sqrt(sum((1/x - 7/12)^2) * H^4 / n) = sqrt((25/144 + 1/144 + 16/144) * (12/7)^4 / 3)
    #   = sqrt(7/24 * 20736/2401 / 3) = 0.916324, CV 100 * 0.916324 / 1.714286 = 53.4522.
    samples = {"a": {"x": [1, 2, 4]}, "b": {"x": [1, 2, 4]}}
    median = tally.Report(results_of(samples), statistic="median")
    df = median.to_dataframe()
    assert df["cv"].tolist() == pytest.approx([76.3763, 76.3763], abs=1e-4)
    assert df["spread"].tolist() == pytest.approx([math.sqrt(7 / 3)] * 2)
    assert df["stddev"].tolist() == pytest.approx([math.sqrt(7 / 3)] * 2)
    # ... and the text table shows the same CV (summaries-only layout, "CV%" column).
    summary = tally.Report(results_of(samples), statistic="median", summaries_only=True)
    assert " 76.38 " in summary.text()
    hmean = tally.Report(results_of(samples), statistic="hmean").to_dataframe()
    hsd = math.sqrt(7 / 24 * (12 / 7) ** 4 / 3)
    assert hmean["spread"].tolist() == pytest.approx([hsd, hsd])
    assert hmean["cv"].tolist() == pytest.approx([100 * hsd / (12 / 7)] * 2)
    assert hmean["cv"].iloc[0] == pytest.approx(53.4522, abs=1e-4)


def test_report_frame_value_interval():
    # AMean of 1, 2, 3, 4, 5: mean 3, SD sqrt(2.5), t(0.975, 4) = 2.776445 (scipy.stats.t.ppf),
    # half-width 2.776445 * sqrt(2.5) / sqrt(5) = 1.963243.
    df = tally.Report(results_of({"a": {"x": [1, 2, 3, 4, 5]}, "b": {"x": [1, 2, 3, 4, 5]}})
                      ).to_dataframe()
    assert df["low"].iloc[0] == pytest.approx(3 - 1.963243, abs=1e-6)
    assert df["high"].iloc[0] == pytest.approx(3 + 1.963243, abs=1e-6)
    # A Median row of 3 samples has no interval (6 needed at 95 %): NaN, not a number.
    df = tally.Report(results_of({"a": {"x": [1, 2, 4]}, "b": {"x": [1, 2, 4]}}),
                      statistic="median").to_dataframe()
    assert df["low"].isna().all() and df["high"].isna().all()


def test_samples_frame_is_tidy_and_reads_back():
    results = results_of({"base": {"1": [0.5, 0.6], "16": [1.5]}, "new": {"1": [0.7]}},
                         unit="ms")
    df = results.to_dataframe()
    assert list(df.columns) == ["label", "benchmark", "case", "run", "value", "unit", "better"]
    assert df["case"].dtype == "int64" and df["run"].dtype == "int64"
    assert df.to_dict("records") == [
        {"label": "base", "benchmark": "bench", "case": 1, "run": 1, "value": 0.5, "unit": "ms",
         "better": "lower"},
        {"label": "base", "benchmark": "bench", "case": 1, "run": 2, "value": 0.6, "unit": "ms",
         "better": "lower"},
        {"label": "base", "benchmark": "bench", "case": 16, "run": 1, "value": 1.5, "unit": "ms",
         "better": "lower"},
        {"label": "new", "benchmark": "bench", "case": 1, "run": 1, "value": 0.7, "unit": "ms",
         "better": "lower"}]
    back = tally.Results.from_dataframe(df)
    assert back.labels == ["base", "new"] and back.cases == [("bench", "1"), ("bench", "16")]
    assert list(back.samples("base", "bench", "1")) == [0.5, 0.6]
    assert back["base"]["bench"].unit == "ms" and back.to_dataframe().equals(df)


def test_from_dataframe_orders_by_run_and_reads_index_levels():
    df = pandas.DataFrame({"label": ["x", "x", "x"], "benchmark": ["b"] * 3,
                           "case": ["0.5", "0.5", "big"], "run": [2, 1, 1],
                           "value": [20.0, 10.0, 5.0]}).set_index(["label", "benchmark"])
    back = tally.Results.from_dataframe(df, unit=None, better=None)
    assert list(back.samples("x", "b", "0.5")) == [10.0, 20.0]
    assert back["x"]["b"].better == "lower" and back["x"]["b"].unit == ""
    # Float cases read back as the names they came from.
    floats = results_of({"a": {"0.5": [1.0], "2.25": [2.0]}}).to_dataframe()
    assert floats["case"].dtype == "float64"
    assert tally.Results.from_dataframe(floats).cases == [("bench", "0.5"), ("bench", "2.25")]


def test_from_dataframe_errors():
    with pytest.raises(KeyError, match="value"):
        tally.Results.from_dataframe(pandas.DataFrame({"label": ["a"], "benchmark": ["b"],
                                                       "case": ["c"]}))
    mixed = pandas.DataFrame({"label": ["a", "a"], "benchmark": ["b", "b"], "case": ["c", "d"],
                              "value": [1.0, 2.0], "unit": ["s", "ms"]})
    with pytest.raises(ValueError, match="several units"):
        tally.Results.from_dataframe(mixed)
    with pytest.raises(tally.NonFiniteError):
        tally.Results.from_dataframe(pandas.DataFrame({"label": ["a"], "benchmark": ["b"],
                                                       "case": ["c"], "value": [math.nan]}))


def test_key_completion_offers_the_labels():
    results = results_of({"tip": {"1": [1.0]}, "patched": {"1": [1.0]}})
    assert results._ipython_key_completions_() == ["tip", "patched"]


def test_load_labels_several_files(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("1.0\n1.1\n")
    b.write_text("2.0\n2.1\n")
    results = tally.load([a, b], labels=["before", "after"], benchmark="t", unit="s")
    assert results.labels == ["before", "after"]
    assert list(results.samples("after", "t", "all")) == [2.0, 2.1]
    assert tally.load([a, b], labels=["x", None]).labels[0] == "x"
    with pytest.raises(ValueError, match="2 files"):
        tally.load([a, b], labels=["x"])
    with pytest.raises(ValueError, match="list of files"):
        tally.load(a, labels=["x"])
    with pytest.raises(ValueError, match="labels="):
        tally.load([a, b], label="x")
