"""Result sets: `load()` and the `Results` / `ResultSet` / `Benchmark` / `Case` wrappers.

A `Results` owns the C list (freed with it); every view obtained from it (result set, benchmark,
case) keeps a reference to its `Results`, so a view stays valid after the list variable is gone.
Samples are returned as copies (numpy arrays, or lists without numpy).
"""

from . import _html
from ._native import (check, cpath, cstring, enum_from_name, enum_name, ffi, lib, new_options,
                      take_buffer, text)
from ._samples import as_doubles, to_array
from .stats import summary as _summary


def _meta(count, at, handle):
    key, value = ffi.new("char **"), ffi.new("char **")
    out = {}
    for i in range(count(handle)):
        check(at(key, value, handle, i))
        out[text(key[0])] = text(value[0])
    return out


class Case:
    """One row of a benchmark: a parameter value or sub-metric and its samples in run order."""

    __slots__ = ("_owner", "_ptr")

    def __init__(self, owner, ptr):
        self._owner, self._ptr = owner, ptr

    @property
    def name(self):
        return text(lib.tally_case_name(self._ptr))

    @property
    def samples(self):
        """A copy of the samples (numpy float64 array, or a list without numpy)."""
        return to_array(lib.tally_case_samples(self._ptr), lib.tally_case_sample_count(self._ptr))

    @property
    def metadata(self):
        return _meta(lib.tally_case_meta_count, lib.tally_case_meta_at, self._ptr)

    def set_metadata(self, key, value):
        """Set a metadata value (e.g. "reported.mean" for a harness's own summary)."""
        check(lib.tally_case_meta_set(self._ptr, cstring(key, "key"), cstring(value, "value")))

    def __len__(self):
        return int(lib.tally_case_sample_count(self._ptr))

    def append(self, samples):
        """Append samples in run order (all or nothing)."""
        x = as_doubles(samples)
        check(lib.tally_case_append(self._ptr, x.ptr, x.n))

    def summary(self, **options):
        """tally.summary() of the samples; options as for tally.summary()."""
        return _summary(self.samples, **options)

    def __repr__(self):
        return f"<tally.Case {self.name!r}: {len(self)} samples>"


class Benchmark:
    """A benchmark of a result set: unit, direction, preferred statistic and cases."""

    __slots__ = ("_owner", "_ptr")

    def __init__(self, owner, ptr):
        self._owner, self._ptr = owner, ptr

    @property
    def name(self):
        return text(lib.tally_benchmark_name(self._ptr))

    @property
    def unit(self):
        return text(lib.tally_benchmark_unit(self._ptr))

    @property
    def better(self):
        """"lower" or "higher"."""
        return enum_name("direction", lib.tally_benchmark_direction(self._ptr))

    @property
    def statistic(self):
        """The preferred statistic's name ("default" when none was set)."""
        return enum_name("statistic", lib.tally_benchmark_statistic(self._ptr))

    @statistic.setter
    def statistic(self, name):
        stat = enum_from_name("statistic", name, "statistic")
        check(lib.tally_benchmark_set_statistic(self._ptr, stat))

    @property
    def cases(self):
        return [Case(self._owner, lib.tally_benchmark_case_at(self._ptr, i))
                for i in range(lib.tally_benchmark_case_count(self._ptr))]

    def __iter__(self):
        return iter(self.cases)

    def __len__(self):
        return int(lib.tally_benchmark_case_count(self._ptr))

    def __getitem__(self, name):
        ptr = lib.tally_benchmark_case_find(self._ptr, cstring(name, "case name"))
        if ptr == ffi.NULL:
            raise KeyError(name)
        return Case(self._owner, ptr)

    def add_case(self, name, samples=()):
        """Add a case with its samples; returns the Case."""
        x = as_doubles(samples)
        out = ffi.new("tally_case **")
        check(lib.tally_benchmark_case_add(out, self._ptr, cstring(name, "name")))
        case = Case(self._owner, out[0])
        check(lib.tally_case_append(out[0], x.ptr, x.n))
        return case

    def __repr__(self):
        return f"<tally.Benchmark {self.name!r} ({self.unit}, {self.better} is better): " \
               f"{len(self)} cases>"


class ResultSet:
    """One configuration: a label, metadata and benchmarks."""

    __slots__ = ("_owner", "_ptr")

    def __init__(self, owner, ptr):
        self._owner, self._ptr = owner, ptr

    @property
    def label(self):
        return text(lib.tally_resultset_label(self._ptr))

    @label.setter
    def label(self, value):
        check(lib.tally_resultset_set_label(self._ptr, cstring(value, "label")))

    @property
    def metadata(self):
        return _meta(lib.tally_resultset_meta_count, lib.tally_resultset_meta_at, self._ptr)

    def set_metadata(self, key, value):
        check(lib.tally_resultset_meta_set(self._ptr, cstring(key, "key"),
                                           cstring(value, "value")))

    @property
    def benchmarks(self):
        return [Benchmark(self._owner, lib.tally_resultset_benchmark_at(self._ptr, i))
                for i in range(lib.tally_resultset_benchmark_count(self._ptr))]

    def __iter__(self):
        return iter(self.benchmarks)

    def __len__(self):
        return int(lib.tally_resultset_benchmark_count(self._ptr))

    def __getitem__(self, name):
        ptr = lib.tally_resultset_benchmark_find(self._ptr, cstring(name, "benchmark name"))
        if ptr == ffi.NULL:
            raise KeyError(name)
        return Benchmark(self._owner, ptr)

    def add_benchmark(self, name, unit="", better="lower"):
        """Add a benchmark; returns the Benchmark."""
        direction = enum_from_name("direction", better, "better")
        out = ffi.new("tally_benchmark **")
        check(lib.tally_resultset_benchmark_add(out, self._ptr, cstring(name, "name"),
                                                cstring(unit, "unit"), direction))
        return Benchmark(self._owner, out[0])

    def __repr__(self):
        return f"<tally.ResultSet {self.label!r}: {len(self)} benchmarks>"


class Results:
    """An ordered list of result sets; the first is the baseline of a comparison.

    Iterating yields ResultSet objects; `results["tip"]` finds one by label, `results[0]` by
    position. `load()` appends the result sets of more files; `add()` builds one by hand.
    """

    __slots__ = ("_ptr", "__weakref__")

    def __init__(self):
        out = ffi.new("tally_results **")
        check(lib.tally_results_new(out))
        self._ptr = ffi.gc(out[0], lib.tally_results_free)

    def close(self):
        """Free the C list now. Views taken from it must not be used afterwards."""
        if self._ptr is not None:
            ffi.release(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if self._ptr is None:
            raise ValueError("this Results was closed")
        return self._ptr

    def load(self, path, kind=None, label=None, benchmark=None):
        """Append the result sets of a file (all or nothing); returns self.

        kind: None to detect, or a format name ("json", "csv", "hyperfine", ...).
        label: label for a file holding one configuration; benchmark: name for formats without one.
        """
        opts = new_options("tally_load_options")
        keep = []
        if kind is not None:
            opts.kind = enum_from_name("input_kind", kind, "kind")
        for field, value in (("label", label), ("benchmark", benchmark)):
            if value is not None:
                keep.append(ffi.new("char[]", cstring(value, field)))
                setattr(opts, field, keep[-1])
        check(lib.tally_load_file(self._handle(), cpath(path), opts))
        return self

    def add(self, label, metadata=None):
        """Append an empty result set; returns the ResultSet to fill."""
        out = ffi.new("tally_resultset **")
        check(lib.tally_resultset_new(out, cstring(label, "label")))
        code = lib.tally_results_add(self._handle(), out[0])
        if code < 0:
            lib.tally_resultset_free(out[0])
            check(code)
        rs = ResultSet(self, out[0])
        for key, value in (metadata or {}).items():
            rs.set_metadata(key, value)
        return rs

    def __len__(self):
        return int(lib.tally_results_count(self._handle()))

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    def __getitem__(self, key):
        if isinstance(key, int) and not isinstance(key, bool):
            n = len(self)
            if not -n <= key < n:
                raise IndexError(key)
            return ResultSet(self, lib.tally_results_at(self._handle(), key % n))
        ptr = lib.tally_results_find(self._handle(), cstring(key, "label"))
        if ptr == ffi.NULL:
            raise KeyError(key)
        return ResultSet(self, ptr)

    @property
    def labels(self):
        return [rs.label for rs in self]

    @property
    def benchmarks(self):
        """Benchmark names across all result sets, in first-seen order."""
        return list(dict.fromkeys(b.name for rs in self for b in rs))

    @property
    def cases(self):
        """(benchmark, case) pairs across all result sets, in first-seen order."""
        return list(dict.fromkeys((b.name, c.name) for rs in self for b in rs for c in b))

    def samples(self, label, benchmark, case):
        """The samples of one case (numpy array or list)."""
        return self[label][benchmark][case].samples

    def validate(self, tolerance=1e-6):
        """tally.validate(self, tolerance): harness-reported statistics checked."""
        from .validate import validate
        return validate(self, tolerance)

    def to_json(self):
        """The native JSON text of these result sets (docs/formats.md)."""
        out, length = ffi.new("char **"), ffi.new("size_t *")
        check(lib.tally_results_to_json(out, length, self._handle()))
        return take_buffer(out, length)

    def save(self, path):
        """Write the native JSON format atomically."""
        check(lib.tally_results_save(self._handle(), cpath(path)))

    def __repr__(self):
        if self._ptr is None:
            return "<tally.Results (closed)>"
        return f"<tally.Results {self.labels!r}>"

    def _repr_html_(self):
        rows = []
        for rs in self:
            for b in rs:
                for c in b:
                    s = c.summary(direction=b.better) if len(c) else None
                    rows.append([rs.label, b.name, c.name, b.unit, b.better, len(c),
                                 _html.number(s.amean if s else None),
                                 _html.number(s.stddev if s else None),
                                 _html.number(s.cv, 2) if s and s.cv is not None else "\u2014"])
        return _html.table(["label", "benchmark", "case", "unit", "better", "n", "amean",
                            "stddev", "cv %"], rows, caption=f"{len(self)} result sets")


def load(path, kind=None, label=None, benchmark=None):
    """Read result sets from a file, or from several files (a list of paths) in order.

    kind: None to detect the format, or a name such as "json", "csv", "hyperfine", "gbench".
    label: label for a file holding one configuration (only with a single path).
    Raises ParseError (with file, line, column), FormatError, TallyIOError, ...
    """
    results = Results()
    if isinstance(path, (list, tuple)):
        if label is not None:
            raise ValueError("label applies to a single file; load the files one by one")
        for p in path:
            results.load(p, kind=kind, benchmark=benchmark)
    else:
        results.load(path, kind=kind, label=label, benchmark=benchmark)
    return results


__all__ = ["Results", "ResultSet", "Benchmark", "Case", "load"]
