"""tally.summary(): values against NumPy/SciPy computed here as the independent oracle, input
types, zero-copy, and rejection of bad input before it reaches C."""

import array
import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

import tally
from tally._samples import as_doubles

from conftest import requires

pytestmark = requires("tally_summarize", "tally_direction_from_name")

SAMPLES = [0.3809, 0.4112, 0.3944, 0.4051, 0.3898, 0.4217, 0.3987, 0.4003, 0.3876, 0.4130,
           0.3999, 0.4502]


def rel(expected):
    return pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_values_match_numpy_and_scipy():
    x = np.array(SAMPLES)
    s = tally.summary(x)
    assert s.n == 12
    assert s.min == x.min() and s.max == x.max()
    assert s.amean == rel(np.mean(x))
    assert s.hmean == rel(stats.hmean(x))
    assert s.gmean == rel(stats.gmean(x))
    assert s.median == rel(np.percentile(x, 50))
    assert s.stddev == rel(np.std(x, ddof=1))
    assert s.sem == rel(stats.sem(x))
    assert s.cv == rel(100 * np.std(x, ddof=1) / np.mean(x))
    low, high = stats.t.interval(0.95, len(x) - 1, loc=np.mean(x), scale=stats.sem(x))
    assert s.mean_ci[0] == pytest.approx(low, rel=1e-9)
    assert s.mean_ci[1] == pytest.approx(high, rel=1e-9)
    # mmtests' harmonic SD: sqrt(sum((1/x - 1/H)^2) * H^4 / n), from the brief's definition.
    h = stats.hmean(x)
    assert s.hstddev == rel(math.sqrt(np.sum((1 / x - 1 / h) ** 2) * h ** 4 / len(x)))


def test_confidence_level_is_passed_through():
    x = np.array(SAMPLES)
    s = tally.summary(x, confidence=0.99)
    low, high = stats.t.interval(0.99, len(x) - 1, loc=np.mean(x), scale=stats.sem(x))
    assert s.mean_ci == (pytest.approx(low, rel=1e-9), pytest.approx(high, rel=1e-9))
    if s.median_ci is not None:
        assert s.median_ci[0] <= s.median <= s.median_ci[1]
        assert s.median_ci_level >= 0.99


def test_bamean_keeps_the_best_samples():
    # Hand calculation: best 50 % of [1, 2, 3, 4] is {1, 2} when lower is better (mean 1.5) and
    # {3, 4} when higher is better (mean 3.5).
    assert tally.summary([4, 1, 3, 2], bamean_percent=50).bamean == pytest.approx(1.5)
    assert tally.summary([4, 1, 3, 2], bamean_percent=50, direction="higher").bamean == \
        pytest.approx(3.5)


@pytest.mark.parametrize("convert", [
    list, tuple, lambda v: array.array("d", v), np.array, lambda v: np.array(v, dtype=np.float32),
    lambda v: np.array(v)[::-1], lambda v: memoryview(array.array("d", v)), iter,
])
def test_accepted_input_types_give_the_same_result(convert):
    expected = np.mean(SAMPLES)
    assert tally.summary(convert(SAMPLES)).amean == pytest.approx(expected, rel=1e-6)


def test_integer_inputs():
    # Hand calculation: mean of 1..5 is 3, sample variance 2.5.
    s = tally.summary(np.arange(1, 6))
    assert s.amean == 3.0 and s.stddev == pytest.approx(math.sqrt(2.5), rel=1e-15)
    assert tally.summary(array.array("i", [1, 2, 3, 4, 5])).amean == 3.0


def test_contiguous_float64_is_zero_copy():
    x = np.array(SAMPLES)
    view = as_doubles(x)
    assert int(tally._ffi.cast("uintptr_t", view.ptr)) == x.ctypes.data
    a = array.array("d", SAMPLES)
    address, _ = a.buffer_info()
    assert int(tally._ffi.cast("uintptr_t", as_doubles(a).ptr)) == address
    strided = x[::2]
    assert int(tally._ffi.cast("uintptr_t", as_doubles(strided).ptr)) != strided.ctypes.data


def test_summary_is_frozen_and_displayable():
    s = tally.summary(SAMPLES)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.amean = 1.0
    html = s._repr_html_()
    assert "<table" in html and "amean" in html
    assert "| amean |" in s._repr_markdown_()
    assert s.as_dict()["n"] == 12
    assert repr(s).startswith("Summary(n=12, amean=")


def test_undefined_statistics_are_none():
    one = tally.summary([2.5])
    assert one.n == 1 and one.amean == 2.5 and one.median == 2.5
    assert one.stddev is None and one.cv is None and one.mean_ci is None
    assert one.hmean == 2.5 and one.hstddev is None and one.hcv is None
    negative = tally.summary([-1.0, 2.0, 3.0])
    assert negative.hmean is None and negative.gmean is None
    assert negative.amean == pytest.approx(4 / 3)


def test_identical_samples():
    s = tally.summary([7.0] * 5)
    assert s.amean == 7.0 and s.stddev == 0.0 and s.cv == 0.0


@pytest.mark.parametrize("bad, error", [
    (None, TypeError), ("1,2,3", TypeError), (3.0, TypeError), ([1.0, None], TypeError),
    ([1.0, "2"], TypeError), ([True, False], TypeError), (np.array(["a"]), TypeError),
    (np.array([1 + 2j]), TypeError), (np.ones((2, 2)), ValueError),
    ([1.0, float("nan")], tally.NonFiniteError), (np.array([1.0, np.inf]), tally.NonFiniteError),
    (array.array("d", [float("-inf")]), tally.NonFiniteError),
])
def test_bad_samples_are_rejected_before_c(bad, error):
    with pytest.raises(error):
        tally.summary(bad)


def test_non_finite_error_names_the_position():
    with pytest.raises(tally.NonFiniteError, match=r"samples\[2\]") as info:
        tally.summary([1.0, 2.0, float("nan")])
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("empty", [[], (), np.array([]), array.array("d")])
def test_no_samples_is_not_enough_data(empty):
    with pytest.raises(tally.NotEnoughData):
        tally.summary(empty)


@pytest.mark.parametrize("kwargs, error", [
    ({"direction": "sideways"}, ValueError), ({"direction": 1}, TypeError),
    ({"confidence": "0.95"}, TypeError), ({"confidence": float("nan")}, ValueError),
    ({"confidence": 1.5}, tally.InvalidArgument), ({"percentile_method": "nearest"}, ValueError),
])
def test_bad_options(kwargs, error):
    with pytest.raises(error):
        tally.summary(SAMPLES, **kwargs)


def test_percentile_method_nearest_rank():
    # Hand calculation: median of [1, 2, 3, 4] is 2.5 with linear interpolation.
    assert tally.summary([1, 2, 3, 4]).median == 2.5
    assert tally.summary([1, 2, 3, 4], percentile_method="nearest-rank").n == 4


def test_percentiles_match_numpy():
    x = np.array(SAMPLES)
    ps = [0, 10, 25, 50, 75, 90, 99, 100]
    assert tally.percentiles(x, ps) == pytest.approx(np.percentile(x, ps), rel=1e-14)
    # The nearest-rank definition (smallest x with at least p % of the samples <= x) is numpy's
    # "inverted_cdf" method.
    assert tally.percentiles(x, ps[1:], method="nearest-rank") == \
        pytest.approx(np.percentile(x, ps[1:], method="inverted_cdf"), rel=1e-15)
    assert tally.percentiles(SAMPLES, 50) == pytest.approx(np.median(x), rel=1e-15)


def test_bad_percentiles():
    with pytest.raises(tally.InvalidArgument):
        tally.percentiles(SAMPLES, 101)
    with pytest.raises(TypeError):
        tally.percentiles(SAMPLES, None)
    with pytest.raises(tally.NonFiniteError):
        tally.percentiles(SAMPLES, [float("nan")])


def test_outliers_flag_without_removing():
    # Hand calculation: [10, 11, 12, 11, 10, 50]: median 11, MAD 1 -> the modified z-score of 50
    # is 0.6745 * 39 = 26.3 > 3.5; Q1 = 10.25, Q3 = 11.75 (type 7), IQR 1.5, upper fence 14.
    data = [10.0, 11.0, 12.0, 11.0, 10.0, 50.0]
    mad, tukey = tally.outliers(data)
    assert mad == [False] * 5 + [True] and tukey == [False] * 5 + [True]
    assert tally.summary(data).outliers_mad == 1 and tally.summary(data).n == 6


def test_summary_with_percentiles_matches_numpy():
    # numpy is the oracle: np.percentile(x, [90, 99]) (linear, R type 7) and method="inverted_cdf"
    # (nearest rank, R type 1), on 50,000 log-normal samples: above the size where tally's
    # histogram selection applies.
    x = np.random.default_rng(11).lognormal(4.6, 0.05, 50_000)
    s = tally.summary(x, percentiles=(90, 99))
    expected = np.percentile(x, [90, 99])
    assert list(s.percentiles) == [90.0, 99.0]
    assert s.percentiles[90.0] == pytest.approx(expected[0], rel=1e-13)
    assert s.percentiles[99.0] == pytest.approx(expected[1], rel=1e-13)
    assert s.median == pytest.approx(np.median(x), rel=1e-13)
    # (Percentages whose p/100 numpy rounds up, such as 99.9 -> 0.9990000000000001, make numpy
    # take the next rank; 50 and 99 are exact in both.)
    nearest = tally.summary(x, percentile_method="nearest-rank", percentiles=[50, 99])
    assert nearest.percentiles[50.0] == np.percentile(x, 50, method="inverted_cdf")
    assert nearest.percentiles[99.0] == np.percentile(x, 99, method="inverted_cdf")
    assert tally.summary(x).percentiles is None
    assert "p99" in s._repr_html_()
    with pytest.raises(tally.TallyError):
        tally.summary(x, percentiles=[101])
