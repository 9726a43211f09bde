"""Result sets: building by hand, loading files, views outliving their list, errors."""

import gc

import numpy as np
import pytest

import tally

from conftest import requires


def build():
    results = tally.Results()
    base = results.add("base", {"host": "box1", "kernel": "6.1"})
    bench = base.add_benchmark("hackbench", unit="s", better="lower")
    bench.add_case("1-groups", [0.38, 0.41, 0.39])
    bench.add_case("4-groups", np.array([1.10, 1.05, 1.12]))
    new = results.add("new")
    new.add_benchmark("hackbench", unit="s").add_case("1-groups", (0.45, 0.47, 0.46))
    return results


@requires("tally_direction_from_name", "tally_direction_name")
def test_build_and_navigate():
    results = build()
    assert len(results) == 2 and results.labels == ["base", "new"]
    assert results.benchmarks == ["hackbench"]
    assert results.cases == [("hackbench", "1-groups"), ("hackbench", "4-groups")]
    base = results["base"]
    assert base.metadata == {"host": "box1", "kernel": "6.1"}
    bench = base["hackbench"]
    assert (bench.name, bench.unit, bench.better) == ("hackbench", "s", "lower")
    assert [c.name for c in bench] == ["1-groups", "4-groups"]
    samples = results.samples("new", "hackbench", "1-groups")
    assert isinstance(samples, np.ndarray) and samples.tolist() == [0.45, 0.47, 0.46]
    assert results[-1].label == "new"
    with pytest.raises(KeyError):
        results["missing"]
    with pytest.raises(KeyError):
        base["missing"]
    with pytest.raises(IndexError):
        results[2]


@requires("tally_direction_from_name")
def test_duplicates_and_bad_values_are_errors():
    results = build()
    with pytest.raises(tally.AlreadyExists):
        results.add("base")
    with pytest.raises(tally.AlreadyExists):
        results["base"].add_benchmark("hackbench")
    with pytest.raises(tally.NonFiniteError):
        results["base"]["hackbench"].add_case("bad", [1.0, float("inf")])
    with pytest.raises(TypeError):
        results.add(None)
    with pytest.raises(ValueError):
        results.add("a\0b")


@requires("tally_direction_from_name")
def test_views_keep_their_list_alive():
    case = build()["base"]["hackbench"]["1-groups"]
    gc.collect()
    assert case.samples.tolist() == [0.38, 0.41, 0.39]
    case.append([0.40])
    assert len(case) == 4


@requires("tally_direction_from_name")
def test_closed_results_refuse_use():
    with build() as results:
        assert len(results) == 2
    with pytest.raises(ValueError, match="closed"):
        len(results)
    assert "closed" in repr(results)


@requires("tally_load_file", "tally_input_kind_from_name")
def test_load_csv(csv_file):
    results = tally.load(csv_file)
    assert results.labels == ["base", "new"]
    bench = results["base"]["hackbench"]
    assert bench.unit == "s" and bench.better == "lower"
    assert bench["1-groups"].samples.tolist() == [0.38, 0.41, 0.39, 0.40, 0.42]
    assert results.cases == [("hackbench", "1-groups"), ("hackbench", "4-groups")]
    assert tally.load(str(csv_file), kind="csv").labels == ["base", "new"]


@requires("tally_load_file")
def test_parse_error_carries_the_location(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("benchmark,case,config,value\nhackbench,1,base,0.5\nhackbench,1,base,zero\n")
    with pytest.raises(tally.TallyError) as info:
        tally.load(bad, kind="csv")
    err = info.value
    assert isinstance(err, (tally.ParseError, tally.FormatError))
    assert str(bad) in err.message and ":3:" in err.message
    assert err.file and err.line == 3 and err.column


@requires("tally_load_file")
def test_missing_file_is_an_io_error(tmp_path):
    with pytest.raises(tally.TallyIOError) as info:
        tally.load(tmp_path / "nope.json")
    assert isinstance(info.value, OSError)


@requires("tally_load_file", "tally_input_kind_from_name")
def test_bad_load_arguments():
    with pytest.raises(TypeError):
        tally.load(None)
    with pytest.raises(TypeError):
        tally.load(42)
    with pytest.raises(ValueError):
        tally.load("x.csv", kind="excel")


@requires("tally_load_file", "tally_results_to_json", "tally_direction_name")
def test_json_round_trip(csv_file, tmp_path):
    results = tally.load(csv_file)
    path = tmp_path / "runs.json"
    results.save(path)
    again = tally.load(path)
    assert again.labels == results.labels
    assert again.samples("new", "hackbench", "4-groups").tolist() == \
        results.samples("new", "hackbench", "4-groups").tolist()
    assert '"hackbench"' in results.to_json()


@requires("tally_summarize", "tally_direction_name")
def test_results_html():
    html = build()._repr_html_()
    assert "<table" in html and "hackbench" in html and "1-groups" in html


@requires("tally_summarize", "tally_direction_name", "tally_direction_from_name")
def test_results_html_is_capped_for_large_sets():
    results = tally.Results()
    bench = results.add("big").add_benchmark("many")
    for i in range(250):
        bench.add_case(f"case-{i}", [1.0, 2.0])
    html = results._repr_html_()
    assert "250 cases (first 200 shown)" in html
    assert "case-199" in html and "case-200" not in html


@requires("tally_load_buffer", "tally_input_kind_from_name")
def test_loads_from_text():
    text = "benchmark,case,config,value\nb,c,tip,1.5\nb,c,tip,2.5\n"
    results = tally.loads(text, name="inline.csv", kind="csv")
    assert results.labels == ["tip"]
    assert list(results["tip"]["b"]["c"].samples) == [1.5, 2.5]
    assert tally.loads(text.encode()).labels == ["tip"]
    with pytest.raises(tally.ParseError, match=r"^bad\.csv:2:"):
        tally.loads("benchmark,case,config,value\nb,c,tip,x\n", name="bad.csv", kind="csv")
    with pytest.raises(TypeError):
        tally.loads(None)
