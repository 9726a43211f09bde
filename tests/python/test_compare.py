"""tally.compare(): tests and ratios against SciPy computed here as the independent oracle."""

import dataclasses

import numpy as np
import pytest
from scipy import stats

import tally

from conftest import requires

pytestmark = requires("tally_compare", "tally_test_from_name", "tally_verdict_name")

BASE = [0.3809, 0.4112, 0.3944, 0.4051, 0.3898, 0.4217, 0.3987, 0.4003, 0.3876, 0.4130]
NEW = [0.4523, 0.4688, 0.4471, 0.4590, 0.4702, 0.4555, 0.4619, 0.4498, 0.4734, 0.4581]


def test_welch_matches_scipy():
    c = tally.compare(BASE, NEW)
    ref = stats.ttest_ind(BASE, NEW, equal_var=False)
    assert c.test == "welch"
    assert abs(c.statistic) == pytest.approx(abs(ref.statistic), rel=1e-10)
    assert c.p_value == pytest.approx(ref.pvalue, rel=1e-6)
    va, vb = np.var(BASE, ddof=1) / len(BASE), np.var(NEW, ddof=1) / len(NEW)
    df = (va + vb) ** 2 / (va ** 2 / (len(BASE) - 1) + vb ** 2 / (len(NEW) - 1))
    assert c.df == pytest.approx(df, rel=1e-10)
    assert c.significant and c.verdict == "regression"


def test_student_matches_scipy():
    c = tally.compare(BASE, NEW, test="student")
    ref = stats.ttest_ind(BASE, NEW, equal_var=True)
    assert abs(c.statistic) == pytest.approx(abs(ref.statistic), rel=1e-10)
    assert c.p_value == pytest.approx(ref.pvalue, rel=1e-6)
    assert c.df == len(BASE) + len(NEW) - 2


def test_mann_whitney_exact_matches_scipy():
    a, b = BASE[:6], [0.3950, 0.4101, 0.4060, 0.4190, 0.4240, 0.4011]
    c = tally.compare(a, b, test="mann-whitney")
    ref = stats.mannwhitneyu(a, b, alternative="two-sided", method="exact")
    assert c.exact
    assert c.p_value == pytest.approx(ref.pvalue, rel=1e-10)


def test_mann_whitney_with_ties_uses_the_normal_approximation():
    a = [1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7]
    b = [3, 4, 4, 5, 5, 5, 6, 6, 7, 8, 8, 9]
    c = tally.compare(a, b, test="mann-whitney")
    ref = stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic",
                             use_continuity=True)
    assert not c.exact
    assert c.p_value == pytest.approx(ref.pvalue, rel=1e-8)


def test_ratio_and_pct_imp_follow_direction():
    # Hand calculation: base mean 2, new mean 3: ratio 1.5; lower is better: (1 - 1.5) * 100 = -50;
    # higher is better: (1.5 - 1) * 100 = +50.
    lower = tally.compare([1, 2, 3], [2, 3, 4])
    assert lower.ratio == pytest.approx(1.5) and lower.pct_imp == pytest.approx(-50.0)
    higher = tally.compare([1, 2, 3], [2, 3, 4], better="higher")
    assert higher.pct_imp == pytest.approx(50.0)
    assert higher.better == "higher" and higher.statistic_name == "amean"


def test_statistic_choice():
    # scipy.stats.hmean of both sides, ratio of the two.
    a, b = [1.0, 2.0, 4.0], [2.0, 2.0, 4.0]
    c = tally.compare(a, b, statistic="hmean", better="higher")
    assert c.base_value == pytest.approx(stats.hmean(a), rel=1e-14)
    assert c.ratio == pytest.approx(stats.hmean(b) / stats.hmean(a), rel=1e-14)


def test_alpha_decides_significance():
    ref = stats.ttest_ind(BASE[:4], NEW[:4], equal_var=False).pvalue
    strict = tally.compare(BASE[:4], NEW[:4], alpha=ref / 2)
    loose = tally.compare(BASE[:4], NEW[:4], alpha=min(0.5, ref * 2))
    assert not strict.significant and loose.significant


def test_result_holds_both_summaries_and_is_frozen():
    c = tally.compare(BASE, NEW)
    assert c.base.n == len(BASE) and c.new.amean == pytest.approx(np.mean(NEW), rel=1e-14)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.verdict = "improvement"
    assert "tally-regression" in c._repr_html_()
    assert "regression" in c._repr_markdown_()


def test_improvement_verdict():
    c = tally.compare(NEW, BASE)
    assert c.verdict == "improvement" and c.pct_imp > 0
    assert "tally-improvement" in c._repr_html_()


@pytest.mark.parametrize("kwargs, error", [
    ({"test": "bogus"}, ValueError), ({"test": 1}, TypeError), ({"alpha": "0.05"}, TypeError),
    ({"alpha": 2.0}, tally.InvalidArgument), ({"better": "up"}, ValueError),
    ({"statistic": "mode"}, ValueError),
])
def test_bad_options(kwargs, error):
    with pytest.raises(error):
        tally.compare(BASE, NEW, **kwargs)


def test_bad_samples():
    with pytest.raises(TypeError):
        tally.compare(None, NEW)
    with pytest.raises(tally.NonFiniteError, match=r"new\[1\]"):
        tally.compare(BASE, [1.0, float("nan")])
    with pytest.raises(tally.NotEnoughData):
        tally.compare([], NEW)


def test_hmean_of_non_positive_is_a_domain_error():
    with pytest.raises(tally.DomainError):
        tally.compare([-1.0, 1.0, 2.0], [1.0, 2.0, 3.0], statistic="hmean")


def test_zero_baseline_has_no_ratio():
    # Hand calculation: the baseline mean is 0, so new / base does not exist.
    c = tally.compare([0.0, 0.0, 0.0], [1.0, 2.0, 3.0])
    assert c.base_value == 0.0 and c.ratio is None and c.pct_imp is None
    assert "\u2014" in c._repr_html_() and "ratio=\u2014" in repr(c)


def test_constant_samples_are_a_deterministic_difference():
    # Hand calculation: both sides constant, means 1 and 2: t = -inf, so p = 0 and the
    # (lower-is-better) new side is a regression; equal constants give p = 1 and read
    # "identical" (docs/statistics.md, "Verdicts").
    c = tally.compare([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])
    assert c.zero_variance and c.p_value == 0.0 and c.verdict == "regression"
    same = tally.compare([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    assert same.zero_variance and same.p_value == 1.0 and same.verdict == "identical"


def test_p_value_is_none_where_no_test_ran():
    # One run per side: no t-test can run, so no p-value (None, never 1), the same as the JSON's
    # null; with test="none" and on a Min row likewise.
    c = tally.compare([1.0], [3.0])
    assert c.p_value is None and c.verdict == "insufficient" and c.pct_imp_interval is None
    assert tally.compare([1.0, 2.0, 3.0], [2.0, 3.0, 4.0], test="none").p_value is None
    m = tally.compare([1.0, 2.0, 3.0], [2.0, 3.0, 4.0], statistic="min")
    assert m.p_value is None and m.verdict == "not-tested"
    # Mann-Whitney 2 against 3 cannot reach 0.05 (smallest p 2/10 = 0.2, by hand) but has a
    # real p: exact, complete separation, 0.2.
    w = tally.compare([1.0, 2.0], [3.0, 4.0, 5.0], test="mann-whitney")
    assert w.verdict == "insufficient" and w.p_value == pytest.approx(0.2, rel=1e-14)
    assert w.min_p == pytest.approx(0.2, rel=1e-14)


def test_interval_equivalence_and_runs_needed():
    # Fieller interval of the ratio of means holds the point estimate and is not symmetric.
    c = tally.compare([10.0, 10.2, 9.8, 10.0], [12.0, 12.2, 11.8, 12.0])
    lo, hi = c.ratio_interval
    assert c.interval_method == "fieller" and lo < 1.2 < hi
    plo, phi = c.pct_imp_interval
    assert plo < c.pct_imp < phi and c.mde_pct > 0
    # Equal samples, a 5 % margin: equivalent; a 0.1 % margin: inconclusive with runs needed.
    base = [10.0, 10.1, 9.9, 10.05, 9.95, 10.0]
    e = tally.compare(base, base, equivalence=5)
    assert e.verdict == "equivalent" and e.equivalent
    i = tally.compare(base, base, equivalence=0.1)
    assert i.verdict == "inconclusive" and i.runs_needed > len(base)
    assert i.runs_target_pct == 0.1


def test_too_few_samples_is_insufficient_not_a_verdict():
    # One sample per side: a t-test needs n >= 2 on both sides.
    c = tally.compare([1.0], [2.0])
    assert c.verdict == "insufficient" and not c.significant
