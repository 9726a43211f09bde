"""Pairing: the counts of compared, missing and new rows reachable from a Report, and the
case_map and pair_by options. The data are two hyperfine files whose commands differ only in
the build path (tests/data/hyperfine/README.md); the counts are those of the files' commands,
counted by hand."""

import pytest

import tally

from conftest import results_of


def hyperfine(source_dir, *names):
    results = tally.Results()
    for label, name in names:
        results.load(source_dir / "tests" / "data" / "hyperfine" / name, label=label,
                     config_key="file")
    return results


def test_renamed_commands_pair_with_nothing(source_dir):
    report = tally.Report(hyperfine(source_dir, ("main", "pair_main.json"),
                                    ("pr", "pair_pr.json")))
    # main holds ./b1/app small and large, pr ./b2/app small and large: no name in common.
    assert report.pairing("pr") == {"compared": 0, "missing": 2, "new": 2, "renamed": 0}


def test_case_map_regex_pairs_every_row(source_dir):
    report = tally.Report(hyperfine(source_dir, ("main", "pair_main.json"),
                                    ("pr", "pair_pr.json")),
                          case_map=r"s#^\./b2/#./b1/#")
    assert report.pairing("pr") == {"compared": 2, "missing": 0, "new": 0, "renamed": 2}
    assert [row.case for row in report.rows] == ["./b1/app small", "./b1/app large"]
    # pr's runs are about 79 % slower (tests/data/hyperfine/README.md): both rows regress.
    assert [row.cells[1].verdict for row in report.rows] == ["regression", "regression"]
    assert report.worst_regression > 5


def test_case_map_dict_and_position(source_dir):
    exact = tally.Report(hyperfine(source_dir, ("main", "pair_main.json"),
                                   ("pr", "pair_pr_dropped.json")),
                         case_map={"./b2/app small": "./b1/app small"})
    by_position = tally.Report(hyperfine(source_dir, ("main", "pair_main.json"),
                                         ("pr", "pair_pr_dropped.json")), pair_by="position")
    # pr_dropped holds only ./b2/app small: main's large row has no partner.
    for report in (exact, by_position):
        assert report.pairing(1) == {"compared": 1, "missing": 1, "new": 0, "renamed": 1}


def test_pairing_counts_new_rows():
    report = tally.Report(results_of({"base": {"a": [1.0, 1.1, 0.9], "b": [2.0, 2.1, 1.9]},
                                      "new": {"a": [1.0, 1.2, 0.8], "c": [3.0, 3.1, 2.9]}}))
    assert report.pairing("new") == {"compared": 1, "missing": 1, "new": 1, "renamed": 0}


def test_bad_rules_and_modes():
    results = results_of({"base": {"a": [1.0, 1.1]}, "new": {"a": [1.0, 1.2]}})
    with pytest.raises(tally.InvalidArgument, match="case map rule 'nothing'"):
        tally.Report(results, case_map="nothing")
    with pytest.raises(ValueError):
        tally.Report(results, pair_by="column")
    with pytest.raises(ValueError):
        tally.Report(results, case_map=["a=b\nc=d"])
    report = tally.Report(results)
    with pytest.raises(tally.InvalidArgument):
        report.pairing(0)


@pytest.mark.parametrize("rule", [r"s#^(\./)b2(.*)$#\1b1\2#",   # groups
                                  r"s|b2/app|b1/&|",             # & is the match: b1/b2/app
                                  "s/b2/b1/"])
def test_case_map_substitutions(source_dir, rule):
    report = tally.Report(hyperfine(source_dir, ("main", "pair_main.json"),
                                    ("pr", "pair_pr.json")), case_map=rule)
    pairing = report.pairing("pr")
    # The & rule makes ./b1/b2/app small, which main lacks: nothing pairs, by hand.
    expected = 0 if "&" in rule else 2
    assert pairing["compared"] == expected and pairing["renamed"] == expected
