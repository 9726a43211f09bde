"""Partial sets and failed runs in the CSV and XLSX reports (issue: failures visible in every
format). The journal tests/cli/data/interrupted.json.journal is read by hand: case 0
(1-groups) has slots 0 (warm-up), 1 and 3 ok and slot 2 failed, so 2 samples and 1 failed run;
case 1 (2-groups) failed in all 4 slots; case 2 (4-groups) has its warm-up and one run; 10 of
the 3 x (1 + 3) = 12 runs are in the journal."""

import csv
import io
import os

import openpyxl

import tally

from conftest import requires

pytestmark = requires("tally_report_new", "tally_report_render")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOURNAL = os.path.join("tests", "cli", "data", "interrupted.json.journal")
PARTIAL = f"10 of 12 runs finished (interrupted sweep, from {JOURNAL})"


def report(tmp_path):
    new = tmp_path / "new.csv"
    new.write_text("benchmark,case,config,value,unit,better\n" +
                   "".join(f"hackbench-process-pipes,{c},new,{v},s,lower\n"
                           for c in ("1-groups", "2-groups", "4-groups") for v in (0.1, 0.2)))
    cwd = os.getcwd()
    os.chdir(ROOT)  # the journal's name as given is part of the note
    try:
        results = tally.load([JOURNAL, str(new)])
    finally:
        os.chdir(cwd)
    return tally.Report(results, expect_diff=["*"])


def test_csv_has_failed_runs_and_partial(tmp_path):
    rows = list(csv.DictReader(io.StringIO(report(tmp_path).to_csv())))
    got = {(r["case"], r["configuration"]): (r["failed_runs"], r["partial"]) for r in rows}
    assert got == {
        ("1-groups", "tip"): ("1", PARTIAL),
        ("1-groups", "new"): ("0", ""),
        # 2-groups has no sample in tip (all 4 runs failed): absent, yet its count is there.
        ("2-groups", "tip"): ("4", PARTIAL),
        ("2-groups", "new"): ("0", ""),
        ("4-groups", "tip"): ("0", PARTIAL),
        ("4-groups", "new"): ("0", ""),
    }


def test_xlsx_notes_sheet(tmp_path):
    path = tmp_path / "r.xlsx"
    report(tmp_path).to_xlsx(path)
    wb = openpyxl.load_workbook(path)
    assert "notes" in wb.sheetnames
    notes = [row[0] for row in wb["notes"].iter_rows(values_only=True)]
    # The pairing, by hand: tip lacks 2-groups (every run failed), new has all three cases.
    assert notes == [
        "note",
        "pairing: new against tip: 2 compared, 0 missing in new, 1 new in new",
        "rows pair by benchmark and case name: pair renamed cases with a case map (--case-map "
        "FROM=TO or s/REGEX/REPL/) or by position (--pair-by position)",
        f"partial: tip holds {PARTIAL}",
        "failed runs: tip hackbench-process-pipes/1-groups: 1 failed; computed from the 2 that "
        "succeeded",
        "failed: tip 2-groups: all 4 runs failed, no samples (reasons in its "
        "failed_run.2-groups.N metadata)",
    ]
    # Column A is as wide as the longest note (its character count + 1; libxlsxwriter stores
    # the width with its cell padding, 108.71 for 108), not clipped.
    longest = max(len(n) for n in notes)
    assert longest + 1 <= wb["notes"].column_dimensions["A"].width < longest + 2


def test_notes_sheet_of_a_clean_comparison_states_the_pairing_only(tmp_path):
    data = tmp_path / "a.csv"
    data.write_text("benchmark,case,config,value\nb,1,x,1\nb,1,x,2\nb,1,y,1\nb,1,y,3\n")
    path = tmp_path / "r.xlsx"
    tally.Report(tally.load(str(data))).to_xlsx(path)
    notes = [row[0] for row in openpyxl.load_workbook(path)["notes"].iter_rows(values_only=True)]
    # One case in both configurations, by hand.
    assert notes == ["note", "pairing: y against x: 1 compared, 0 missing in y, 0 new in y"]
