"""Read back the spreadsheets written by test_report_xlsx and check them cell by cell:
report.xlsx (the fixture of test_report_common.h) and report_sweep.xlsx (numeric cases, a long
configuration label, a benchmark of 60 cases). Expected values are hand calculations on the
samples, or SciPy's where stated; widths are checked against the text each cell shows."""
import re
import sys
import zipfile

import openpyxl
from openpyxl.utils import get_column_letter

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def close(a, b, rel=1e-9):
    return isinstance(a, (int, float)) and abs(a - b) <= rel * max(abs(a), abs(b))


PCT = "+0.00%;-0.00%;0.00%"
CV = "0.00%"
P = "[<0.0001]0.00E+00;0.0000"


def shown(cell):
    """The text a spreadsheet shows for a cell, for the formats the workbook uses."""
    v, f = cell.value, cell.number_format
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if re.fullmatch(r"0(\.0+)?", f):
        return "%.*f" % (len(f) - 2 if "." in f else 0, v)
    if f == PCT:
        return "%+.2f%%" % (v * 100)
    if f == CV:
        return "%.2f%%" % (v * 100)
    if f == P:
        return "%.2E" % v if v < 0.0001 else "%.4f" % v
    return repr(v)


def check_widths(ws, header_rows, what):
    """Every column at least as wide as the longest text it shows from row `header_rows` on
    (the title spills over empty cells; configuration names span their columns)."""
    for col in ws.iter_cols(min_row=header_rows):
        letter = get_column_letter(col[0].column)
        longest = max((len(shown(c)) for c in col if not isinstance(c, openpyxl.cell.MergedCell)),
                      default=0)
        width = ws.column_dimensions[letter].width
        check(longest == 0 or (width is not None and width >= longest),
              "%s column %s width %r < %d" % (what, letter, width, longest))


def width(ws, first, last):
    return sum(ws.column_dimensions[get_column_letter(k)].width for k in range(first, last + 1))


def check_view(ws, freeze, filter_ref, titles, area, what):
    check(ws.freeze_panes == freeze, "%s freeze %r" % (what, ws.freeze_panes))
    check(ws.auto_filter.ref == filter_ref, "%s filter %r" % (what, ws.auto_filter.ref))
    check(ws.page_setup.orientation == "landscape", "%s orientation" % what)
    check(ws.sheet_properties.pageSetUpPr.fitToPage, "%s fit to page" % what)
    check(ws.page_setup.fitToWidth in (1, None) and ws.page_setup.fitToHeight == 0,
          "%s fit %r x %r" % (what, ws.page_setup.fitToWidth, ws.page_setup.fitToHeight))
    check(ws.print_title_rows == titles, "%s print titles %r" % (what, ws.print_title_rows))
    check(ws.print_area is not None and area in str(ws.print_area),
          "%s print area %r" % (what, ws.print_area))


def chart_files(path):
    with zipfile.ZipFile(path) as z:
        names = sorted((n for n in z.namelist() if re.match(r"xl/charts/chart\d+\.xml$", n)),
                       key=lambda n: int(re.findall(r"\d+", n)[0]))
        drawings = [z.read(n).decode() for n in z.namelist()
                    if re.match(r"xl/drawings/drawing\d+\.xml$", n)]
        return [z.read(n).decode() for n in names], drawings


# ---- report.xlsx: the fixture ----
path = sys.argv[1]
wb = openpyxl.load_workbook(path)
check(wb.sheetnames == ["lat", "tput", "samples", "notes", "metadata"], "sheets: %r" % wb.sheetnames)
# The fixture (tests/test_report_common.h), counted by hand: new lacks lat/b and alone has lat/d;
# alt has every row of base.
notes = [r[0] for r in wb["notes"].iter_rows(min_row=2, values_only=True)]
check(notes[:2] == ["pairing: new against base: 4 compared, 1 missing in new, 1 new in new",
                    "pairing: alt against base: 5 compared, 0 missing in alt, 0 new in alt"],
      "pairing notes %r" % notes)

lat = wb["lat"]
# Row 1: what the numbers are; row 2: each configuration over its columns; row 3: the column
# headers; the cases from row 4. Columns: A case; B base, C CV; D new, E CV, F pct imp, G and
# H its interval, I p, J verdict, K MDE, L runs needed; M alt ... U.
title = lat["A1"].value
# The unit as every format shows it: us with the SI symbol, µs.
check(title.startswith("lat: \u00b5s, lower is better, AMean; "), "title %r" % title)
check("alpha 0.05" in title and "Baseline: base" in title, "title %r" % title)
check([lat[c + "2"].value for c in "BDM"] == ["base", "new", "alt"], "configuration row")
check(lat["D2"].alignment.horizontal == "centerContinuous", "configuration centred across")
check(lat["E2"].alignment.horizontal == "centerContinuous", "configuration spans its columns")
header = [c.value for c in lat[3]]
per = ["pct imp", "low 95%", "high 95%", "p", "verdict", "MDE", "runs needed"]
check(header == ["case", "AMean (\u00b5s)", "CV", "AMean (\u00b5s)", "CV"] + per +
      ["AMean (\u00b5s)", "CV"] + per, "lat header: %r" % header)
check([lat.cell(row=i, column=1).value for i in range(4, 8)] == ["a", "b", "c", "d"], "cases")
# lat/a: base mean (10 + 10.2 + 9.8 + 10) / 4 = 10; new 12; pct imp (1 - 12/10) * 100 = -20 %,
# stored as the fraction -0.2 under a signed percent format.
check(close(lat["B4"].value, 10.0), "B4 %r" % lat["B4"].value)
# Decimals as every human format shows them: the row's narrowest interval, the half-width
# t(0.975, 3) * sqrt(0.08 / 3) / 2 = 0.2598 of base and new, with 2 significant digits (0.26).
check(lat["B4"].number_format == "0.00", "B4 format %r" % lat["B4"].number_format)
# base CV: sample SD of 10, 10.2, 9.8, 10 is sqrt(0.08 / 3) = 0.16330; / 10 = 1.633 %.
check(close(lat["C4"].value, (0.08 / 3) ** 0.5 / 10), "C4 %r" % lat["C4"].value)
check(lat["C4"].number_format == CV, "C4 format %r" % lat["C4"].number_format)
check(close(lat["D4"].value, 12.0), "D4 %r" % lat["D4"].value)
check(close(lat["F4"].value, -0.20), "F4 %r" % lat["F4"].value)
check(lat["F4"].number_format == PCT, "F4 format %r" % lat["F4"].number_format)
# Welch p of lat/a (scipy 1.10.1 ttest_ind(base, new, equal_var=False)): 2.373334543896199e-06,
# shown 2.37E-06, never 0.0000.
check(close(lat["I4"].value, 2.373334543896199e-06, 1e-6), "I4 %r" % lat["I4"].value)
check(lat["I4"].number_format == P, "I4 format %r" % lat["I4"].number_format)
check(shown(lat["I4"]) == "2.37E-06", "I4 shown %r" % shown(lat["I4"]))
check(lat["J4"].value == "regression", "J4 %r" % lat["J4"].value)
# The interval of pct imp holds the estimate (its values: test_compare_interval.c, against R).
check(lat["G4"].value < -0.20 < lat["H4"].value, "G4:H4 %r %r" % (lat["G4"].value, lat["H4"].value))
check(lat["G4"].number_format == PCT and lat["H4"].number_format == PCT, "interval format")
check(lat["K4"].value > 0 and lat["K4"].number_format == CV, "K4 MDE %r" % lat["K4"].value)
# lat/b is missing from new; lat/d from base and alt: the value empty (a gap in the line chart,
# where text would plot as 0), "missing" in the CV column beside it.
check(lat["D5"].value is None and lat["E5"].value == "missing", "D5:E5 %r %r" %
      (lat["D5"].value, lat["E5"].value))
check(lat["C7"].value == "missing" and lat["N7"].value == "missing", "row d")
check(lat["B7"].value is None and lat["M7"].value is None, "row d values")
# lat/c new: 3 against 4, pct imp (1 - 3/4) * 100 = 25 %, Welch p 0.0290 < 0.05: improvement.
check(close(lat["F6"].value, 0.25) and lat["J6"].value == "improvement", "row c")
check(shown(lat["I6"]) == "0.0290", "I6 shown %r" % shown(lat["I6"]))
check_widths(lat, 3, "lat")
check(width(lat, 2, 3) >= len("base") and width(lat, 4, 12) >= len("new"), "group widths")
check_view(lat, "B4", "A3:U7", "$1:$3", "$A$1:$U$7", "lat")

rules = []
for rng in lat.conditional_formatting:
    for rule in rng.rules:
        rules.append((str(rng.sqref), rule.type, rule.formula))
check(("F4:J7", "expression", ['$J4="regression"']) in rules, "regression rule: %r" % rules)
check(("F4:J7", "expression", ['$J4="improvement"']) in rules, "improvement rule")
check(("O4:S7", "expression", ['$S4="regression"']) in rules, "alt rule")

tput = wb["tput"]
# Bytes in binary prefixes, as the text and HTML show them: MB/s (10^6 B/s) as MiB/s.
check(tput["A1"].value.startswith("tput: MiB/s, higher is better, HMean; "), "tput title")
# tput/x HMean 4 / (1/100 + 1/110 + 1/90 + 1/100) = 99.49748743718592 MB/s (scipy.stats.hmean),
# times 10^6 / 2^20 = 0.95367431640625: 94.88819831579774 MiB/s.
check(close(tput["B4"].value, 99.49748743718592 * 1e6 / 2 ** 20), "tput B4 %r" % tput["B4"].value)
# An HMean row has no interval: 4 significant digits of its largest value (119.58): 1 decimal.
check(tput["B4"].number_format == "0.0", "tput format %r" % tput["B4"].number_format)
check(tput["J5"].value == "insufficient", "tput/y verdict %r" % tput["J5"].value)

samples = wb["samples"]
rows = list(samples.iter_rows(values_only=True))
check(rows[0] == ("benchmark", "case", "configuration", "run", "value", "unit", "better"),
      "samples header %r" % (rows[0],))
# lat: a 3 x 4, b 3 + 3, c 3 x 3, d 2; tput: x 3 x 4, y 3 x 1 -> 44 runs.
check(len(rows) == 45, "samples rows %d" % len(rows))
check(rows[1] == ("lat", "a", "base", 1, 10.0, "\u00b5s", "lower"), "first sample %r" % (rows[1],))
check(rows[2] == ("lat", "a", "base", 2, 10.2, "\u00b5s", "lower"), "second sample %r" % (rows[2],))
check_widths(samples, 1, "samples")
check_view(samples, "B2", "A1:G45", "$1:$1", "$A$1:$G$45", "samples")

meta = [r for r in wb["metadata"].iter_rows(values_only=True)]
check(("base", "host", "bench-1") in meta, "host metadata")
check(("new", "kernel", '6.1 "patched", v2') in meta, "kernel metadata")
check(("(report)", "test", "auto") in meta, "report options")
check_widths(wb["metadata"], 1, "metadata")

charts, drawings = chart_files(path)
# Per benchmark sheet a chart of the values across the cases and one of pct imp (openpyxl drops
# charts on load: read the XML). lat's cases are named (a, b, c, d): horizontal bars, never a
# line joining them, every label shown, the first case on top, the legend above the plot.
check(len(charts) == 4, "charts %d" % len(charts))
line, bars = charts[0], charts[1]
check("<c:barChart>" in line and '<c:barDir val="bar"/>' in line, "named cases as bars")
check("<c:lineChart>" not in line, "no line across named cases")
check('<c:tickLblSkip val="1"/>' in line, "every case labelled")
check('<c:orientation val="maxMin"/>' in line, "first case on top")
check('<c:legendPos val="t"/>' in line and '<c:legendPos val="t"/>' in bars, "legend on top")
# One colour per configuration in both charts, the HTML palette's (palette.h): base C0
# #0072b2, new C1 #d55e00, alt C2 #009e73; the change chart has new and alt only.
colours = lambda xml: [re.search(r'srgbClr val="([0-9A-F]{6})"', ser).group(1)
                       for ser in xml.split("<c:ser>")[1:]]
check(colours(line) == ["0072B2", "D55E00", "009E73"], "value colours %r" % colours(line))
check(colours(bars) == ["D55E00", "009E73"], "change colours %r" % colours(bars))
for col in "BDM":
    check("<c:f>'lat'!$%s$4:$%s$7</c:f>" % (col, col) in line, "line series %s" % col)
check("<c:f>'lat'!$A$4:$A$7</c:f>" in line, "line categories")
check(">case<" in line and ">AMean (\u00b5s)<" in line, "line axis titles")
check("<c:barChart>" in bars, "second chart is a column chart")
check("<c:f>'lat'!$F$4:$F$7</c:f>" in bars and "<c:f>'lat'!$O$4:$O$7</c:f>" in bars,
      "bar series")
check(">pct imp (+ is better)<" in bars and ">case<" in bars, "bar axis titles")
check('<c:tickLblPos val="low"/>' in bars, "category labels off the bars")
check('<c:formatCode>0%</c:formatCode>' in bars or 'formatCode="0%"' in bars, "percent axis")
# new: a regression and c improvement are solid, b (missing) and d (no baseline) pale.
new_series = bars.split("<c:ser>")[1]
points = re.findall(r"<c:dPt>.*?</c:dPt>", new_series, re.S)
check(len(points) == 4, "points %d" % len(points))
pale = ["<a:alpha " in p for p in points]
check(pale == [False, True, False, True], "significant bars solid, others pale: %r" % pale)
# Beside the table: the charts start two columns right of column U (index 20), at row 2.
anchors = re.findall(r"<xdr:from><xdr:col>(\d+)</xdr:col>.*?<xdr:row>(\d+)</xdr:row>",
                     drawings[0], re.S)
check(("22", "1") in anchors, "chart beside the table %r" % anchors)

# ---- report_sweep.xlsx ----
path = sys.argv[2]
wb = openpyxl.load_workbook(path)
check(wb.sheetnames == ["sweep", "many", "samples", "notes", "metadata"],
      "sweep sheets %r" % wb.sheetnames)
sweep = wb["sweep"]
cases = [sweep.cell(row=i, column=1).value for i in range(4, 10)]
check(cases == [1, 2, 4, 8, 16, 110], "numeric cases %r" % cases)
check(all(isinstance(v, (int, float)) for v in cases), "cases stored as numbers")
# case 1: base mean (1 + 1.02 + 0.98 + 1.01) / 4 = 1.0025; patched 1.5 times: -50 %.
check(close(sweep["B4"].value, 1.0025), "sweep B4 %r" % sweep["B4"].value)
check(close(sweep["D4"].value, 1.50375), "sweep D4 %r" % sweep["D4"].value)
check(close(sweep["F4"].value, -0.5), "sweep F4 %r" % sweep["F4"].value)
# Case 1's narrowest half-width: t(0.975, 3) * 0.017078 / 2 = 0.02718 (SD of the noise) -> 0.027,
# 3 decimals; case 110's 110 times that, 2.99 -> 3.0, 1 decimal.
check(sweep["B4"].number_format == "0.000", "sweep B4 format %r" % sweep["B4"].number_format)
check(sweep["B9"].number_format == "0.0", "sweep B9 format %r" % sweep["B9"].number_format)
# CV: sample SD of the noise 1, 1.02, 0.98, 1.01 over its mean: 0.017035662 (statistics.stdev).
check(close(sweep["C4"].value, 0.01703566212129611, 1e-6), "sweep C4 %r" % sweep["C4"].value)
# Welch p (scipy 1.10.1): 3.0748e-07.
check(close(sweep["I4"].value, 3.074812397755012e-07, 1e-5), "sweep I4 %r" % sweep["I4"].value)
check(shown(sweep["I4"]) == "3.07E-07", "sweep I4 shown %r" % shown(sweep["I4"]))
# The configuration names show whole over their columns.
check(width(sweep, 2, 3) >= len("5.14.0-rc3-vanilla"), "baseline label width")
check(width(sweep, 4, 12) >= len("5.14.0-rc3-alwayswake-v1r1"), "patched label width")
check_widths(sweep, 3, "sweep")
check_view(sweep, "B4", "A3:L9", "$1:$3", "$A$1:$L$9", "sweep")
many = wb["many"]
check("No charts: 60 cases" in many["A1"].value, "many title %r" % many["A1"].value)
# many's values are about 1 MB/s = 10^6 / 1024 = 976.6 KiB/s: below 1 MiB/s, hence KiB/s.
check(many["A1"].value.startswith("many: KiB/s, higher is better, HMean"), "many title")
samples = wb["samples"]
check(samples["B2"].value == 1, "samples numeric case %r" % samples["B2"].value)
check(samples.column_dimensions["C"].width >= len("5.14.0-rc3-alwayswake-v1r1"),
      "samples configuration width %r" % samples.column_dimensions["C"].width)
check_widths(samples, 1, "sweep samples")
charts, drawings = chart_files(path)
# The sweep sheet has its two charts; `many` (60 cases) none.
check(len(charts) == 2, "sweep charts %d" % len(charts))
check(len(drawings) == 1, "one sheet with drawings")
check("<c:f>'sweep'!$A$4:$A$9</c:f>" in charts[0], "sweep categories")
# Numeric cases (a sweep) read left to right: a line per configuration, columns of changes.
check("<c:lineChart>" in charts[0], "sweep values as lines")
check('<c:barDir val="col"/>' in charts[1], "sweep changes as columns")
# Every change is -50 %: the value axis still reaches 0, in whole steps of 10 % (nice ticks of
# [-0.5, 0]: span 0.5, step 0.1).
check('<c:max val="0"/>' in charts[1] and '<c:min val="-0.5"/>' in charts[1] and
      '<c:majorUnit val="0.1"/>' in charts[1],
      "bar axis holds 0: %r" % re.findall(r"<c:(?:min|max) val=\"[^\"]*\"/>", charts[1]))

for f in failures:
    print("FAILED:", f)
print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
