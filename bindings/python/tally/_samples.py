"""Turning Python sequences into C arrays of doubles, zero-copy where the buffer allows it.

Contiguous float64 buffers (numpy arrays, array.array('d'), memoryviews of them) are passed to C
as they are through `ffi.from_buffer`; everything else is converted into a fresh C array. Bad
values are rejected here, before the library sees them: TypeError for non-numbers (None, str,
bool), NonFiniteError (a ValueError) for NaN and infinity.
"""

import array
import math
import numbers

from ._native import ffi
from .errors import NonFiniteError

try:
    import numpy
except ImportError:  # numpy is optional: lists and array.array work without it
    numpy = None

_EMPTY = ffi.new("double[1]")


class Doubles:
    """A C view of samples: `ptr` (double *) and `n`, keeping the source buffer alive."""

    __slots__ = ("ptr", "n", "_keep")

    def __init__(self, ptr, n, keep):
        self.ptr, self.n, self._keep = ptr, n, keep


def _non_finite(argname, index, value):
    return NonFiniteError(f"{argname}[{index}] is {value}: samples must be finite numbers",
                          code=-6)


def _from_numpy(arr, argname):
    if arr.ndim != 1:
        raise ValueError(f"{argname} must be one-dimensional, not of shape {arr.shape}")
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"{argname} must hold real numbers, not dtype {arr.dtype}")
    if arr.dtype != numpy.float64 or not arr.flags.c_contiguous:
        arr = numpy.ascontiguousarray(arr, dtype=numpy.float64)
    finite = numpy.isfinite(arr)
    if not finite.all():
        index = int(numpy.argmin(finite))
        raise _non_finite(argname, index, arr[index])
    if arr.size == 0:
        return Doubles(_EMPTY, 0, None)
    return Doubles(ffi.from_buffer("double[]", arr), arr.size, arr)


def _from_double_buffer(buf, argname):
    view = memoryview(buf)
    if view.ndim != 1:
        raise ValueError(f"{argname} must be one-dimensional")
    values = view.cast("B").cast("d") if view.c_contiguous else None
    if values is None:
        return None
    for i, x in enumerate(values):
        if not math.isfinite(x):
            raise _non_finite(argname, i, x)
    if len(values) == 0:
        return Doubles(_EMPTY, 0, None)
    return Doubles(ffi.from_buffer("double[]", buf), len(values), buf)


def as_doubles(samples, argname="samples"):
    """Convert `samples` (list, tuple, array.array, numpy array, any iterable of real numbers)."""
    if samples is None:
        raise TypeError(f"{argname} must be a sequence of numbers, not None")
    if isinstance(samples, (str, bytes, bytearray)):
        raise TypeError(f"{argname} must be a sequence of numbers, not {type(samples).__name__}")
    if numpy is not None and isinstance(samples, numpy.ndarray):
        return _from_numpy(samples, argname)
    if isinstance(samples, (array.array, memoryview)):
        fmt = samples.typecode if isinstance(samples, array.array) else samples.format
        if fmt == "d":
            converted = _from_double_buffer(samples, argname)
            if converted is not None:
                return converted
    if isinstance(samples, numbers.Number):
        raise TypeError(f"{argname} must be a sequence of numbers, not a single "
                        f"{type(samples).__name__}")
    try:
        items = list(samples)
    except TypeError:
        raise TypeError(f"{argname} must be a sequence of numbers, not "
                        f"{type(samples).__name__}") from None
    for i, x in enumerate(items):
        if type(x) is float:
            if x - x == 0.0:  # finite: inf - inf and nan - nan are nan
                continue
            raise _non_finite(argname, i, x)
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise TypeError(f"{argname}[{i}] must be a real number, not {type(x).__name__}")
        x = float(x)
        if not math.isfinite(x):
            raise _non_finite(argname, i, x)
        items[i] = x
    if not items:
        return Doubles(_EMPTY, 0, None)
    return Doubles(ffi.new("double[]", items), len(items), None)


def to_array(ptr, n):
    """A copy of n doubles at ptr: a numpy array when numpy is available, else a list."""
    if n == 0:
        return numpy.empty(0) if numpy is not None else []
    if numpy is not None:
        raw = ffi.buffer(ptr, n * ffi.sizeof("double"))
        return numpy.frombuffer(raw, dtype=numpy.float64).copy()
    return list(ffi.unpack(ptr, n))


def as_counts(counts, n, argname="counts"):
    """A fresh C array of `n` uint64_t from a sequence of whole numbers (a histogram's counts,
    one per bucket value). TypeError for non-integers, ValueError for a wrong length or a count
    outside 0 to 2^64 - 1; the library refuses zero counts with its own message."""
    if counts is None or isinstance(counts, (str, bytes, bytearray)):
        raise TypeError(f"{argname} must be a sequence of whole numbers")
    items = []
    for i, c in enumerate(counts):
        if isinstance(c, bool) or not isinstance(c, numbers.Integral):
            if isinstance(c, float) and c.is_integer():
                c = int(c)
            else:
                raise TypeError(f"{argname}[{i}] is {c!r}: counts must be whole numbers")
        if not 0 <= int(c) < 2**64:
            raise ValueError(f"{argname}[{i}] is {c}: counts must lie in 0 to 2^64 - 1")
        items.append(int(c))
    if len(items) != n:
        raise ValueError(f"{argname} has {len(items)} counts for {n} values: one count per value")
    return ffi.new("uint64_t[]", items or [0])


def counts_to_array(ptr, n):
    """A copy of n uint64_t at ptr: a numpy uint64 array when numpy is available, else a list."""
    if numpy is not None:
        if n == 0:
            return numpy.empty(0, dtype=numpy.uint64)
        raw = ffi.buffer(ptr, n * ffi.sizeof("uint64_t"))
        return numpy.frombuffer(raw, dtype=numpy.uint64).copy()
    return [int(x) for x in ffi.unpack(ptr, n)] if n else []
