"""Helpers the DataFrame views share: pandas imported on demand, case names as numbers."""

import math


def pandas_module(what):
    try:
        import pandas
    except ImportError as exc:
        raise ImportError(f"{what} needs pandas (Debian: apt-get install python3-pandas)") \
            from exc
    return pandas


def _number(name: str):
    """The number a case name spells exactly, or None: "16" -> 16, "0.5" -> 0.5; "016",
    "1e3", "16.0x" and "1-groups" spell none (the name must be how Python writes the number, so
    that str() of it gives the name back)."""
    try:
        if str(int(name)) == name:
            return int(name)
    except ValueError:
        pass
    try:
        value = float(name)
    except ValueError:
        return None
    return value if math.isfinite(value) and repr(value) == name else None


def case_values(benchmarks, cases):
    """The cases of a frame: a benchmark whose case names all spell integers gets ints, one whose
    names all spell other numbers floats, any other keeps its names. Returns the values and the
    dtype that keeps each as it is (int64, float64, else object)."""
    kinds = {}
    numbers = [_number(c) for c in cases]
    for bench, num in zip(benchmarks, numbers):
        kind = "str" if num is None else type(num).__name__
        kinds[bench] = kind if kinds.get(bench, kind) == kind else "str"
    values = [c if kinds[b] == "str" else num for b, c, num in zip(benchmarks, cases, numbers)]
    used = set(kinds.values())
    dtype = "int64" if used == {"int"} else "float64" if used == {"float"} else "object"
    return values, dtype


def case_index(pandas, keys):
    """A (benchmark, case) MultiIndex with the cases of case_values()."""
    benchmarks = [b for b, _ in keys]
    values, dtype = case_values(benchmarks, [c for _, c in keys])
    return pandas.MultiIndex.from_arrays(
        [pandas.Index(benchmarks, dtype="object"), pandas.Index(values, dtype=dtype)],
        names=["benchmark", "case"])


def case_name(value) -> str:
    """A case read back from a frame as its name (the inverse of case_values())."""
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalars
        value = value.item()
    if isinstance(value, float):
        return repr(value)
    return str(value)
