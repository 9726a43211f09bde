"""Configurations inside one file (docs/importers.md): the split, its notes, --baseline."""

import pytest

import tally

from conftest import SOURCE_DIR

DATA = SOURCE_DIR / "tests" / "data"


def test_hyperfine_commands_are_configurations():
    # hyperfine -n short 'sleep 0.001' -n long 'sleep 0.003' (tests/data/hyperfine/README.md)
    results = tally.load(DATA / "hyperfine" / "names.json")
    assert results.labels == ["short", "long"]
    assert results.notes == [
        f"{DATA / 'hyperfine' / 'names.json'}: 2 configurations by command: 'short', 'long'"]
    # statistics.mean of names.json's "long" times, in ms: 4.9218626
    report = tally.Report(results, baseline="long")
    assert report.labels == ["long", "short"]
    assert report.rows[0].cells[0].value == pytest.approx(4.9218626e-3, rel=1e-12)


def test_config_key_none_reads_one_configuration():
    results = tally.load(DATA / "hyperfine" / "names.json", config_key="none")
    assert results.labels == ["names"]
    assert results.notes == []


def test_gotest_key_lines():
    results = tally.load(DATA / "gotest" / "notes.txt", config_key="note")
    assert results.labels == ["before", "after"]
    with pytest.raises(tally.TallyError, match="key 'note' changes within the file"):
        tally.load(DATA / "gotest" / "notes.txt", config_key="none")


def test_unknown_baseline():
    results = tally.load(DATA / "hyperfine" / "names.json")
    with pytest.raises(tally.TallyError, match="baseline 'nope': no configuration"):
        tally.Report(results, baseline="nope")
