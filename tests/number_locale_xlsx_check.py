"""The XLSX reports test_number_locale wrote under the C locale and under de_DE.UTF-8 hold the
same cells: every worksheet, chart and string part is byte-identical, and no cell value is
written with a decimal comma (libxlsxwriter prints with the locale's decimal mark unless tally
switches the thread to the C locale)."""
import re
import sys
import zipfile

c_path, de_path = sys.argv[1], sys.argv[2]
failures = []
with zipfile.ZipFile(c_path) as c, zipfile.ZipFile(de_path) as de:
    parts = [n for n in c.namelist() if n.startswith("xl/") and n.endswith(".xml")]
    if not any(n.startswith("xl/worksheets/") for n in parts):
        failures.append("no worksheets in %s" % c_path)
    for name in parts:
        a, b = c.read(name), de.read(name)
        if a != b:
            failures.append("%s differs under de_DE" % name)
        for v in re.findall(rb"<v>([^<]*)</v>", b):
            if b"," in v:
                failures.append("%s: cell value %r has a decimal comma" % (name, v))
                break
    checked = len(parts)
for f in failures:
    print(f)
print("%d passed, %d failed" % (checked - len(failures) if not failures else 0, len(failures)))
sys.exit(1 if failures else 0)
