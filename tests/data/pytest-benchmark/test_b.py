import pytest

def work(n):
    return sum(range(n))

@pytest.mark.parametrize("n", [10, 1000])
def test_sum(benchmark, n):
    benchmark.extra_info["kind"] = "range"
    benchmark.pedantic(work, args=(n,), rounds=5, iterations=3)

def test_plain(benchmark):
    benchmark.pedantic(work, args=(100,), rounds=4, iterations=2)
