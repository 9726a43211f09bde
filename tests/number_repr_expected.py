"""Expected strings for test_number_conversion, produced by Python's own float repr (CPython's
dtoa.c, shortest round-trip digits): `/usr/bin/python3 number_repr_expected.py OUT N SEED` writes
N lines "<IEEE bits as 16 hex digits> <repr(x)>" for random finite doubles x: a quarter from
random bit patterns (every exponent, subnormals), a quarter log-uniform over 1e-12..1e12, a
quarter rounded to 6 decimals (benchmark-file shapes), a quarter whole numbers up to 2^63."""
import random
import struct
import sys

out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
lines = []
while len(lines) < n:
    kind = len(lines) % 4
    if kind == 0:
        x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if x != x or x in (float("inf"), float("-inf")):
            continue
    elif kind == 1:
        x = 10.0 ** rng.uniform(-12, 12)
    elif kind == 2:
        x = round(rng.uniform(0, 1000), 6)
    else:
        x = float(rng.getrandbits(rng.randint(1, 63)))
    if rng.random() < 0.5:
        x = -x
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    lines.append("%016x %r\n" % (bits, x))
with open(out, "w") as f:
    f.writelines(lines)
