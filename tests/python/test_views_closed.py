"""Views (result sets, benchmarks, cases) check their Results: after close() or a `with` block
every use raises ValueError instead of reading or writing freed memory."""

import pytest

import tally


def fill(results):
    rs = results.add("base")
    bench = rs.add_benchmark("lat", "us")
    case = bench.add_case("a", [1.0, 2.0, 3.0])
    return rs, bench, case


USES = {
    "case.name": lambda rs, b, c: c.name,
    "case.samples": lambda rs, b, c: c.samples,
    "case.metadata": lambda rs, b, c: c.metadata,
    "case.set_metadata": lambda rs, b, c: c.set_metadata("k", "v"),
    "len(case)": lambda rs, b, c: len(c),
    "case.append": lambda rs, b, c: c.append([4.0]),
    "case.summary": lambda rs, b, c: c.summary(),
    "benchmark.name": lambda rs, b, c: b.name,
    "benchmark.unit": lambda rs, b, c: b.unit,
    "benchmark.better": lambda rs, b, c: b.better,
    "benchmark.statistic": lambda rs, b, c: b.statistic,
    "benchmark.statistic=": lambda rs, b, c: setattr(b, "statistic", "median"),
    "benchmark.cases": lambda rs, b, c: b.cases,
    "benchmark[case]": lambda rs, b, c: b["a"],
    "benchmark.add_case": lambda rs, b, c: b.add_case("z", [1.0]),
    "len(benchmark)": lambda rs, b, c: len(b),
    "resultset.label": lambda rs, b, c: rs.label,
    "resultset.label=": lambda rs, b, c: setattr(rs, "label", "other"),
    "resultset.metadata": lambda rs, b, c: rs.metadata,
    "resultset.set_metadata": lambda rs, b, c: rs.set_metadata("k", "v"),
    "resultset.benchmarks": lambda rs, b, c: rs.benchmarks,
    "resultset[benchmark]": lambda rs, b, c: rs["lat"],
    "resultset.add_benchmark": lambda rs, b, c: rs.add_benchmark("x"),
    "len(resultset)": lambda rs, b, c: len(rs),
}


@pytest.mark.parametrize("use", sorted(USES))
def test_view_after_close_raises(use):
    results = tally.Results()
    views = fill(results)
    USES[use](*views)  # works while open
    results.close()
    with pytest.raises(ValueError, match="closed"):
        USES[use](*views)


@pytest.mark.parametrize("use", ["case.name", "case.samples", "case.append", "resultset.label"])
def test_view_after_with_block_raises(use):
    with tally.Results() as results:
        views = fill(results)
    with pytest.raises(ValueError, match="closed"):
        USES[use](*views)


def test_views_of_loaded_file_after_close():
    results = tally.loads("benchmark,case,config,value\nb,c,base,1\nb,c,base,2\n", "x.csv")
    case = results["base"]["b"]["c"]
    assert list(case.samples) == [1.0, 2.0]
    results.close()
    with pytest.raises(ValueError, match="closed"):
        case.samples
    assert "closed" in repr(case)
    assert "closed" in repr(results)


def test_view_outlives_dropped_results_variable():
    """Without close(), a view keeps its Results (and the C list) alive."""
    case = fill(tally.Results())[2]
    assert list(case.samples) == [1.0, 2.0, 3.0]
    assert case.name == "a"
