"""Read back the spreadsheet written by test_report_xlsx (the fixture of test_report_common.h)
and check it cell by cell. Expected values are hand calculations on the fixture's samples."""
import sys
import zipfile

import openpyxl

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def close(a, b, rel=1e-9):
    return isinstance(a, (int, float)) and abs(a - b) <= rel * max(abs(a), abs(b))


path = sys.argv[1]
wb = openpyxl.load_workbook(path)
check(wb.sheetnames == ["lat", "tput", "samples", "metadata"], "sheets: %r" % wb.sheetnames)

lat = wb["lat"]
# Columns: A case; B base, C base CV; D new, E CV, F pct imp, G p, H verdict, I and J the pct
# imp interval, K MDE, L runs needed; M alt ... U.
header = [c.value for c in lat[1]]
per = ["pct imp", "p", "verdict", "pct imp low (95%)", "pct imp high (95%)", "MDE",
       "runs needed"]
check(header == ["case", "base", "base CV", "new", "new CV"] + ["new " + x for x in per] +
      ["alt", "alt CV"] + ["alt " + x for x in per], "lat header: %r" % header)
check([lat.cell(row=i, column=1).value for i in range(2, 6)] == ["a", "b", "c", "d"], "cases")
# lat/a: base mean (10 + 10.2 + 9.8 + 10) / 4 = 10; new 12; pct imp (1 - 12/10) * 100 = -20.
check(close(lat["B2"].value, 10.0), "B2 %r" % lat["B2"].value)
check(lat["B2"].number_format == "0.0000", "B2 format %r" % lat["B2"].number_format)
# base CV: sample SD of 10, 10.2, 9.8, 10 is sqrt(0.08 / 3) = 0.16330; 100 * 0.16330 / 10.
check(close(lat["C2"].value, 100 * (0.08 / 3) ** 0.5 / 10), "C2 %r" % lat["C2"].value)
check(close(lat["D2"].value, 12.0), "D2 %r" % lat["D2"].value)
check(close(lat["F2"].value, -20.0), "F2 %r" % lat["F2"].value)
check(lat["F2"].number_format == "0.00", "F2 format")
# Welch p of lat/a (scipy 1.10.1 ttest_ind(base, new, equal_var=False)): 2.373334543896199e-06
check(close(lat["G2"].value, 2.373334543896199e-06, 1e-6), "G2 %r" % lat["G2"].value)
check(lat["H2"].value == "regression", "H2 %r" % lat["H2"].value)
# The interval of pct imp holds the estimate (its values: test_compare_interval.c, against R).
check(lat["I2"].value < -20.0 < lat["J2"].value, "I2:J2 %r %r" % (lat["I2"].value, lat["J2"].value))
check(lat["K2"].value > 0, "K2 MDE %r" % lat["K2"].value)
# lat/b is missing from new; lat/d from base and alt.
check(lat["D3"].value == "missing", "D3 %r" % lat["D3"].value)
check(lat["B5"].value == "missing" and lat["M5"].value == "missing", "row d")
# lat/c new: 3 against 4, pct imp (1 - 3/4) * 100 = 25, Welch p 0.0290 < 0.05: improvement.
check(close(lat["F4"].value, 25.0) and lat["H4"].value == "improvement", "row c")

rules = []
for rng in lat.conditional_formatting:
    for rule in rng.rules:
        rules.append((str(rng.sqref), rule.type, rule.formula))
check(("F2:H5", "expression", ['$H2="regression"']) in rules, "regression rule: %r" % rules)
check(("F2:H5", "expression", ['$H2="improvement"']) in rules, "improvement rule")
check(("O2:Q5", "expression", ['$Q2="regression"']) in rules, "alt rule")

tput = wb["tput"]
# tput/x HMean 4 / (1/100 + 1/110 + 1/90 + 1/100) = 99.49748743718592 (scipy.stats.hmean)
check(close(tput["B2"].value, 99.49748743718592), "tput B2 %r" % tput["B2"].value)
check(tput["B2"].number_format == "0.00", "tput format")
check(tput["H3"].value == "insufficient", "tput/y verdict %r" % tput["H3"].value)

samples = wb["samples"]
rows = list(samples.iter_rows(values_only=True))
check(rows[0] == ("benchmark", "case", "configuration", "run", "value"), "samples header")
# lat: a 3 x 4, b 3 + 3, c 3 x 3, d 2; tput: x 3 x 4, y 3 x 1 -> 44 runs.
check(len(rows) == 45, "samples rows %d" % len(rows))
check(rows[1] == ("lat", "a", "base", 1, 10.0), "first sample %r" % (rows[1],))
check(rows[2] == ("lat", "a", "base", 2, 10.2), "second sample %r" % (rows[2],))

meta = [r for r in wb["metadata"].iter_rows(values_only=True)]
check(("base", "host", "bench-1") in meta, "host metadata")
check(("new", "kernel", '6.1 "patched", v2') in meta, "kernel metadata")
check(("(report)", "test", "auto") in meta, "report options")

with zipfile.ZipFile(path) as z:
    names = z.namelist()
    # A column chart of pct imp per case on each benchmark sheet (openpyxl drops charts on load).
    charts = [n for n in names if n.startswith("xl/charts/chart")]
    check(len(charts) == 2, "charts %r" % charts)
    chart = z.read(charts[0]).decode()
    check("<c:barChart>" in chart and "'lat'!$F$2:$F$5" in chart, "chart series")

for f in failures:
    print("FAILED:", f)
print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
