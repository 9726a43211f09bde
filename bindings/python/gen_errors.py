#!/usr/bin/python3
"""Generate tally/errors.py: the exception classes of the Python package, from the library's one
table of error codes (libstat/util/error_codes.h), checked against the public enum.

Each row X(CODE, "message", Class, Base, "docstring") becomes `class Class(TallyError, Base)`
with the docstring "docstring (CODE).", and BY_CODE_NAME maps CODE to the class. TallyError
itself (the row of TALLY_ERROR) is written by hand in the template, as it has a constructor.
The build fails when the table and the enum of include/tally/common.h disagree (a code in one
and not in the other, or in another order).

Usage: gen_errors.py OUTPUT.py TEMPLATE ERROR_CODES_H COMMON_H
"""

import re
import sys

_ROW = re.compile(r'^X\((TALLY_\w+), "([^"]*)", (\w+), (\w+), "([^"]*)"\)\s*\\?\s*$')
_ENUM = re.compile(r"^\s*(TALLY_\w+)\s*=\s*(-?\d+)\s*,?")


def rows(path):
    with open(path, encoding="utf-8") as f:
        found = [m.groups() for m in map(_ROW.match, f) if m]
    if not found:
        raise SystemExit(f"gen_errors: no X(...) rows in {path}")
    return found


def enum_codes(path):
    """The enumerators of `tally_error_code` in common.h, in order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"typedef enum tally_error_code \{(.*?)\} tally_error_code;", text, re.S)
    if m is None:
        raise SystemExit(f"gen_errors: no tally_error_code enum in {path}")
    return [(e.group(1), int(e.group(2)))
            for e in map(_ENUM.match, m.group(1).splitlines()) if e]


def main(argv):
    if len(argv) != 5:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    out, template, table, header = argv[1:]
    table_rows = rows(table)
    codes = enum_codes(header)
    if [r[0] for r in table_rows] != [c[0] for c in codes]:
        raise SystemExit(f"gen_errors: {table} lists {[r[0] for r in table_rows]} but {header} "
                         f"defines {[c[0] for c in codes]}")
    if [v for _, v in codes] != list(range(0, -len(codes), -1)):
        raise SystemExit(f"gen_errors: {header}: the codes are not 0, -1, -2, ... in order")
    classes, mapping = [], []
    for code, _message, cls, base, doc in table_rows:
        if code == "TALLY_OK":
            continue
        if code != "TALLY_ERROR":
            classes.append(f'class {cls}(TallyError{"" if base == "TallyError" else ", " + base}):\n'
                           f'    """{doc} ({code})."""\n')
        mapping.append(f'    "{code}": {cls},\n')
    generated = ("\n\n".join(classes) +
                 "\n\n# C enumerator name -> class; _native resolves the names to the values in "
                 "the generated cdef.\nBY_CODE_NAME = {\n" + "".join(mapping) + "}\n\n"
                 '__all__ = ["TallyError"] + sorted({cls.__name__ for cls in BY_CODE_NAME.values()}'
                 ' - {"TallyError"})\n')
    with open(template, encoding="utf-8") as f:
        text = f.read()
    if "@ERROR_CLASSES@" not in text:
        raise SystemExit(f"gen_errors: {template} has no @ERROR_CLASSES@")
    with open(out, "w", encoding="utf-8") as f:
        f.write(text.replace("@ERROR_CLASSES@\n", generated))


if __name__ == "__main__":
    main(sys.argv)
