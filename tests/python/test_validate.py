"""tally.validate(): a harness's reported statistics against the recomputed ones."""

import math

import re

import pytest

import tally

from conftest import requires

pytestmark = requires("tally_validate", "tally_direction_from_name")


def results_with_reported(**reported):
    results = tally.Results()
    case = results.add("run").add_benchmark("cmd", unit="s").add_case("sleep", [1.0, 2.0, 3.0])
    for key, value in reported.items():
        case.set_metadata(f"reported.{key}", value)
    return results


def test_agreement_and_disagreement():
    # Hand calculation for [1, 2, 3]: mean 2, sample stddev 1; a reported stddev of 1.5 differs
    # by |1.5 - 1| / 1 = 0.5.
    checks = tally.validate(results_with_reported(mean="2.0", stddev="1.5"))
    assert [c.statistic for c in checks] == ["mean", "stddev"]
    mean, stddev = checks
    assert mean.agreed and mean.recomputed == 2.0 and mean.rel_diff == 0.0
    assert not stddev.agreed and stddev.recomputed == pytest.approx(1.0)
    assert stddev.rel_diff == pytest.approx(0.5)
    assert (stddev.label, stddev.benchmark, stddev.case) == ("run", "cmd", "sleep")
    assert checks.disagreements == [stddev] and checks.tolerance == 1e-6
    assert re.search(r'class="[^"]*tally-regression">DISAGREES<', checks._repr_html_())


def test_tolerance_and_bad_values():
    assert tally.validate(results_with_reported(stddev="1.5"), tolerance=0.6)[0].agreed
    with pytest.raises(TypeError):
        tally.validate(results_with_reported(), tolerance="1e-6")
    with pytest.raises(TypeError):
        tally.validate([1, 2, 3])
    with pytest.raises(tally.InvalidArgument):
        tally.validate(results_with_reported(), tolerance=-1.0)


def test_unreadable_reported_value_is_a_disagreement_not_an_error():
    check, = results_with_reported(mean="fast").validate()
    assert not check.agreed and math.isnan(check.reported)


def test_nothing_reported():
    assert len(tally.validate(results_with_reported())) == 0
