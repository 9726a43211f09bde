"""Hard cases for test_number_conversion, with the answers of CPython's float() (correctly
rounded, David Gay's dtoa.c: independent of glibc's strtod and of fast_float) and of the grammar
docs/formats.md documents: `/usr/bin/python3 number_hard_cases.py OUT` writes lines
"<expect> <text>", expect = the double's IEEE bits in 16 hex digits, or RANGE (out of range: inf,
or 0 from a non-zero decimal), NONFINITE (nan/inf spelled out), SYNTAX, LONG (over 1024
characters)."""
import random
import re
import struct
import sys
from decimal import Decimal, getcontext

getcontext().prec = 2000
TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")
cases = [
    "4.9e-324", "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
    "1e-323", "1e-310", "2.5e-320", "4.94065645841246544e-324", "2.2250738585072011e-308",
    "2.2250738585072012e-308", "2.2250738585072014e-308", "2.225073858507201e-308",
    "2.2250738585072009e-308", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "1e309", "1e308", "-1e309", "1e-400", "-1e-400", "0e-400",
    "0e999", "0.000e-99999", "-0", "-0.0", "+0", "-0e-5", "0", "00", "1", "-1", "+1",
    "0000000000000000000000000000000000000001.5",
    "1.5000000000000000000000000000000000000000000000000000",
    "0.000000000000000000000000000000000000000000001", "9007199254740993", "9007199254740992",
    "9007199254740995", "9007199254740993.000000000000001", "18014398509481993",
    "123456789012345678901234567890", "1e+0000000000000000000000000000000000005",
    "1e-9999999999999999999", "1e9999999999999999999", "0.1", "0.2", "0.3", "1.", ".5",
    "-.5", "+.5e1", "5.e-1", "1e", "1e+", ".", "-", "+", "", "e5", "1.5.2", "1,5", "0x1p3",
    "0X10", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1_000", " 1", "1 ", "1e5x",
    "7.2057594037927933e16", "3.4028236692093846346e38", "2.9802322387695312500e-8",
    "4.35679e-10", "8.589973e9", "1.0e23", "9.5e-5", "0.30000000000000004",
    "1.7976931348623157e+308", "2.4e-324", "2.5e-324",
]
# Halfway points between neighbouring doubles, written out exactly (Decimal of a double is
# exact), and the same nudged up by one unit in the 800th digit.
halves = [(Decimal(1), Decimal(1) + Decimal(2) ** -52),
          (Decimal(5e-324), Decimal(1e-323)),
          (Decimal(2.2250738585072009e-308), Decimal(2.2250738585072014e-308)),
          (Decimal(1.7976931348623157e308), Decimal(2) ** 1024),
          (Decimal(9007199254740992), Decimal(9007199254740994))]
for lo, hi in halves:
    m, e = format((lo + hi) / 2, "e").split("e")
    cases.append("%se%s" % (m, e))
    pad = 800 - len(m.replace(".", ""))
    if pad > 0:
        cases.append("%s%s%s1e%s" % (m, "" if "." in m else ".", "0" * (pad - 1), e))
rng = random.Random(7)
# Long mantissas: the exact expansion of random doubles, padded with random digits to 800.
for _ in range(40):
    x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
    if x != x or abs(x) == float("inf"):
        continue
    m, e = format(Decimal(x), "e").split("e")
    m = m.replace(".", "")
    sign = "-" if m.startswith("-") else ""
    m = m.lstrip("-")
    m = (m + "".join(rng.choice("0123456789") for _ in range(800)))[:800]
    cases.append("%s%s.%se%d" % (sign, m[0], m[1:], int(e)))
cases.append("1." + "0" * 1100)
cases.append("0." + "0" * 1020 + "1")


def expect(t):
    if not TEXT.match(t):
        low = t.lstrip("+-").lower()
        return "NONFINITE" if low in ("nan", "inf", "infinity") else "SYNTAX"
    if len(t) > 1024:
        return "LONG"
    x = float(t)
    nonzero = any(c in "123456789" for c in t.lower().split("e")[0])
    if x in (float("inf"), float("-inf")) or (x == 0 and nonzero):
        return "RANGE"
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


with open(sys.argv[1], "w") as f:
    for t in cases:
        f.write("%s %s\n" % (expect(t), t))
