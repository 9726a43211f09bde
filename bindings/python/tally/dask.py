"""tally on Dask: result corpora larger than one machine, with the numbers of one machine.

    import tally.dask
    frame = tally.dask.read("runs/*.csv")                     # a Dask DataFrame, one file a task
    report = tally.dask.report("runs/*.csv", baseline="main") # the same tally.Report as on one
    print(report.text(style="mmtests"))                       # machine, every output format

The files are parsed by the C library on the workers. `report()` keeps the samples where they are
read: each partition adds them to a mergeable accumulator per (label, benchmark, case), the
accumulators meet in a tree reduction, and the order statistics are selected across the
partitions in a few more passes over the samples held on the workers (bucket counts, then only
the samples of the buckets holding the wanted ranks). Only those summaries and the few selected
samples reach the client. Works with the default threaded scheduler and with a
`distributed.Client` (whatever scheduler it is connected to); the library releases the GIL in
every C call. See docs/python.md, "Scaling out".
"""

import glob as _glob
import json
import os

import numpy

from ._native import check, enum_from_name, ffi, lib, new_options
from .errors import TallyError
from .report import Report, _report_options
from .results import Results

__all__ = ["read", "report", "to_results", "COLUMNS"]

#: The columns of read()'s frame. `run` counts a case's samples within its file; `metadata` is the
#: result set's metadata as JSON text; the text columns are pandas categoricals.
COLUMNS = ["label", "benchmark", "case", "run", "value", "unit", "better", "statistic", "file",
           "metadata"]
_TEXT = ["label", "benchmark", "case", "unit", "better", "statistic", "file", "metadata"]
_KEY = ["label", "benchmark", "case"]

# The report shows BAmean-50, -95 and -99; -95 is the summary's own (TALLY_SUMMARY_OPTIONS_INIT).
_REPORT_CUTS = (50.0, 99.0)
_FAN_IN = 8  # partial results merged per task of the tree reduction


def _dask():
    try:
        import dask
        import dask.dataframe  # noqa: F401  (registers the collection)
    except ImportError as exc:
        raise ImportError("tally.dask needs Dask (Debian: apt-get install python3-dask "
                          "python3-distributed)") from exc
    return dask


# ---- files -------------------------------------------------------------------------------

def _expand(paths_or_glob):
    """A sorted list of files: a path, a glob, or a list of either."""
    items = [paths_or_glob] if isinstance(paths_or_glob, (str, bytes, os.PathLike)) \
        else list(paths_or_glob)
    files = []
    for item in items:
        item = os.fsdecode(item)
        if _glob.has_magic(item):
            found = sorted(_glob.glob(item))
            if not found:
                raise FileNotFoundError(f"tally.dask: no file matches {item!r}")
            files += found
        else:
            files.append(item)
    if not files:
        raise ValueError("tally.dask: no files given")
    return files


def _load(path, kind, benchmark):
    """The result sets of one file, parsed by the C library (the GIL is released meanwhile)."""
    results = Results()
    results.load(path, kind=kind, benchmark=benchmark)
    return results


class _Part:
    """The samples one task holds: an array per (label, benchmark, case), in first-seen order,
    and the shape around them (units, directions, statistics, metadata, the file)."""

    __slots__ = ("keys", "arrays", "shape")

    def __init__(self):
        self.keys, self.arrays = [], {}
        # label -> {"meta": dict, "file": str, "benchmarks": {name: [unit, better, stat, file,
        # [cases]]}}
        self.shape = {}

    def add(self, label, meta, file, benchmark, unit, better, stat, case, values):
        entry = self.shape.setdefault(label, {"meta": meta, "file": file, "benchmarks": {}})
        bench = entry["benchmarks"].setdefault(benchmark, [unit, better, stat, file, []])
        key = (label, benchmark, case)
        if key in self.arrays:
            self.arrays[key] = numpy.concatenate([self.arrays[key], values])
        else:
            bench[4].append(case)
            self.keys.append(key)
            self.arrays[key] = values


def _part_of_results(results, source):
    part = _Part()
    for rs in results:
        label, meta = rs.label, rs.metadata
        for b in rs:
            name, unit, better, stat = b.name, b.unit, b.better, b.statistic
            for c in b:
                part.add(label, meta, source, name, unit, better, stat, c.name,
                         numpy.ascontiguousarray(c.samples, dtype=numpy.float64))
    return part


def _part_of_file(path, kind, benchmark):
    results = _load(path, kind, benchmark)
    part = _part_of_results(results, path)
    results.close()
    return part


def _frame_of_file(path, kind, benchmark):
    """One file as a pandas DataFrame with COLUMNS."""
    import pandas
    part = _part_of_file(path, kind, benchmark)
    return _frame_of_part(part, pandas)


def _frame_of_part(part, pandas):
    counts = [len(part.arrays[k]) for k in part.keys]
    values = numpy.concatenate([part.arrays[k] for k in part.keys]) if part.keys \
        else numpy.empty(0)
    run = numpy.concatenate([numpy.arange(n, dtype=numpy.int64) for n in counts]) if counts \
        else numpy.empty(0, dtype=numpy.int64)
    columns = {name: [] for name in _TEXT}
    for label, bench, case in part.keys:
        entry = part.shape[label]
        unit, better, stat, file, _ = entry["benchmarks"][bench]
        row = {"label": label, "benchmark": bench, "case": case, "unit": unit, "better": better,
               "statistic": stat, "file": file,
               "metadata": json.dumps(entry["meta"])}
        for name in _TEXT:
            columns[name].append(row[name])
    repeat = numpy.asarray(counts, dtype=numpy.int64)
    data = {}
    for name in COLUMNS:
        if name == "run":
            data[name] = run
        elif name == "value":
            data[name] = values
        else:
            cat = pandas.Categorical(columns[name])
            codes = numpy.repeat(cat.codes, repeat)
            data[name] = pandas.Categorical.from_codes(codes, cat.categories)
    return pandas.DataFrame(data, columns=COLUMNS)


def _empty_frame():
    import pandas
    from dask.dataframe.utils import clear_known_categories
    data = {name: pandas.Categorical([]) for name in _TEXT}
    data["run"] = numpy.empty(0, dtype=numpy.int64)
    data["value"] = numpy.empty(0, dtype=numpy.float64)
    return clear_known_categories(pandas.DataFrame(data, columns=COLUMNS))


def _glob_escaped(name):
    """A benchmark name as a glob that matches only itself."""
    return "".join("\\" + ch if ch in "*?[\\" else ch for ch in name)


def _frame_of_store(benchmark, url, selection):
    """One benchmark of a store's selection as a pandas DataFrame with COLUMNS."""
    import pandas
    from .store import Store, _scrubbed
    with Store(url) as store:
        results = store.query(**dict(selection, benchmark=_glob_escaped(benchmark)))
    part = _part_of_results(results, _scrubbed(url))
    results.close()
    return _frame_of_part(part, pandas)


def read(paths_or_glob=None, *, kind=None, benchmark=None, store=None, **selection):
    """A Dask DataFrame of every sample of the files: columns `COLUMNS` (label, benchmark, case,
    run, value, then unit, better, statistic, file, metadata), one partition per file, each
    parsed by the C library on a worker (any format tally.load() reads; kind and benchmark as
    there). Parse errors name the file, line and column (tally.ParseError).

    With `store` (a store's location, as for tally.Store) instead of files: the result sets the
    filters `selection` (and `benchmark`, a glob) select as tally.Store.query() does, one
    partition per benchmark, each read from the store by a worker; `file` holds the store's
    location without credentials."""
    _dask()
    import dask.dataframe as dd
    if store is not None:
        if paths_or_glob is not None or kind is not None:
            raise ValueError("tally.dask.read: give files or store=, not both")
        from .store import Store
        location = os.fspath(store)
        with Store(location) as s:
            names = s.benchmarks(benchmark=benchmark, **selection)
        if not names:
            return dd.from_pandas(_empty_frame(), npartitions=1)
        return dd.from_map(_frame_of_store, names, url=location, selection=selection,
                           meta=_empty_frame(), enforce_metadata=False,
                           label="tally-read-store")
    if selection:
        raise TypeError(f"tally.dask.read: {sorted(selection)} apply to store= only")
    if paths_or_glob is None:
        raise TypeError("tally.dask.read: give files or store=")
    files = _expand(paths_or_glob)
    return dd.from_map(_frame_of_file, files, kind=kind, benchmark=benchmark,
                       meta=_empty_frame(), enforce_metadata=False,
                       label="tally-read")


def _part_of_frame(frame):
    """A pandas partition of a frame with at least label, benchmark, case and value."""
    part = _Part()
    if len(frame) == 0:
        return part
    missing = [c for c in _KEY + ["value"] if c not in frame.columns]
    if missing:
        raise ValueError(f"tally.dask: the frame lacks the columns {missing}")
    groups = frame.groupby(_KEY, sort=False, observed=True)
    index = groups.ngroup().to_numpy()
    order = numpy.argsort(index, kind="stable")
    sizes = numpy.bincount(index)
    values = frame["value"].to_numpy(dtype=numpy.float64)[order]
    starts = numpy.concatenate([[0], numpy.cumsum(sizes)])
    firsts = order[starts[:-1]]
    col = {c: frame[c].to_numpy() if c in frame.columns else None
           for c in ("unit", "better", "statistic", "file", "metadata")}
    labels, benches, cases = (frame[c].to_numpy() for c in _KEY)
    for g, at in enumerate(firsts):
        meta = col["metadata"][at] if col["metadata"] is not None else None
        part.add(str(labels[at]), json.loads(meta) if meta else {},
                 str(col["file"][at]) if col["file"] is not None else "<frame>",
                 str(benches[at]),
                 str(col["unit"][at]) if col["unit"] is not None else "",
                 str(col["better"][at]) if col["better"] is not None else "lower",
                 str(col["statistic"][at]) if col["statistic"] is not None else "default",
                 str(cases[at]),
                 numpy.ascontiguousarray(values[starts[g]:starts[g + 1]]))
    return part


# ---- the work on the partitions ------------------------------------------------------------

def _bytes_and_free(out, length):
    ptr = out[0]
    data = ffi.unpack(ptr, length[0])
    lib.tally_free(ptr)
    return data


_DOUBLES = ffi.typeof("double[]")


def _c_doubles(values):
    return ffi.from_buffer(_DOUBLES, values) if len(values) else ffi.NULL


def _accumulate(part):
    """Round 0 of one partition: its shape and an accumulator per case."""
    accs = {}
    acc = ffi.new("tally_accumulator **")
    out, length = ffi.new("unsigned char **"), ffi.new("size_t *")
    for key in part.keys:
        values = part.arrays[key]
        check(lib.tally_accumulator_new(acc))
        a = ffi.gc(acc[0], lib.tally_accumulator_free)
        code = lib.tally_accumulator_add(a, _c_doubles(values), len(values))
        if code < 0:
            label, bench, case = key
            err = _error(code)
            raise type(err)(f"{bench}/{case} in '{label}' "
                            f"({part.shape[label]['benchmarks'][bench][3]}): {err.message}",
                            code=code)
        check(lib.tally_accumulator_serialize(out, length, a))
        accs[key] = _bytes_and_free(out, length)
    return part.shape, accs


def _error(code):
    from ._native import error_from_last
    return error_from_last(code)


def _merge_shapes(into, other):
    for label, entry in other.items():
        mine = into.setdefault(label, {"meta": entry["meta"], "file": entry["file"],
                                       "benchmarks": {}})
        for name, (unit, better, stat, file, cases) in entry["benchmarks"].items():
            bench = mine["benchmarks"].get(name)
            if bench is None:
                mine["benchmarks"][name] = [unit, better, stat, file, list(cases)]
                continue
            if bench[0] != unit or bench[1] != better:
                from .errors import MismatchError
                raise MismatchError(
                    f"{file}: benchmark '{name}' of '{label}' has unit '{unit}' and {better} is "
                    f"better, but '{bench[0]}' and {bench[1]} is better in {bench[3]}", code=-17)
            if bench[2] == "default":
                bench[2] = stat
            seen = set(bench[4])
            bench[4].extend(c for c in cases if c not in seen)
    return into


def _merge_accs(into, other):
    acc_a, acc_b = ffi.new("tally_accumulator **"), ffi.new("tally_accumulator **")
    out, length = ffi.new("unsigned char **"), ffi.new("size_t *")
    for key, data in other.items():
        mine = into.get(key)
        if mine is None:
            into[key] = data
            continue
        check(lib.tally_accumulator_deserialize(acc_a, mine, len(mine)))
        a = ffi.gc(acc_a[0], lib.tally_accumulator_free)
        check(lib.tally_accumulator_deserialize(acc_b, data, len(data)))
        b = ffi.gc(acc_b[0], lib.tally_accumulator_free)
        check(lib.tally_accumulator_merge(a, b))
        check(lib.tally_accumulator_serialize(out, length, a))
        into[key] = _bytes_and_free(out, length)
    return into


def _merge_round0(*pieces):
    """Shapes in partition order (first seen first), accumulators merged."""
    shape, accs = {}, {}
    for piece_shape, piece_accs in pieces:
        _merge_shapes(shape, piece_shape)
        _merge_accs(accs, piece_accs)
    return shape, accs


def _scan(part, requests):
    """One round on one partition: its answer to each open request for a case it holds."""
    answers = {}
    out, length = ffi.new("unsigned char **"), ffi.new("size_t *")
    for key, request in requests.items():
        values = part.arrays.get(key)
        if values is None:
            continue
        check(lib.tally_partition_scan(out, length, request, len(request), _c_doubles(values),
                                       len(values)))
        answers[key] = _bytes_and_free(out, length)
    return answers


def _merge_answers(*pieces):
    merged = {}
    out, length = ffi.new("unsigned char **"), ffi.new("size_t *")
    for piece in pieces:
        for key, data in piece.items():
            mine = merged.get(key)
            if mine is None:
                merged[key] = data
                continue
            check(lib.tally_partition_merge(out, length, mine, len(mine), data, len(data)))
            merged[key] = _bytes_and_free(out, length)
    return merged


# ---- Mann-Whitney: pooled ranks where the samples are -----------------------------------------
#
# The test needs, per compared case, the mid-rank sum of the baseline's samples in the pool of
# both sides and the pool's tie term. Each case's samples are gathered on one worker (a shuffle:
# every partition sends its piece of each case to the task of that case's bucket), ranked there,
# and only these two numbers per case reach the client.

_RANK_BUCKETS = 16


def _rank_pieces(part, pairs, buckets):
    """A partition's samples of the compared cases, split by bucket: a list of `buckets` dicts
    {(baseline key, other key): ([baseline arrays], [other arrays])}."""
    out = [{} for _ in range(buckets)]
    for index, (base_key, other_key) in enumerate(pairs):
        a, b = part.arrays.get(base_key), part.arrays.get(other_key)
        if a is None and b is None:
            continue
        out[index % buckets][(base_key, other_key)] = (a, b)
    return out


def _pool_ranks(a, b):
    """(mid-rank sum of a in the pool of a and b, tie term sum(t^3 - t) of the pool): a value
    of a with `lo` smaller and `hi - lo` equal pooled values has mid-rank (lo + hi + 1) / 2.
    Integer sums, so the figures are exact (below 2^53) and equal the library's on one machine."""
    pool = numpy.sort(numpy.concatenate([a, b]), kind="stable")
    lo = numpy.searchsorted(pool, a, side="left")
    hi = numpy.searchsorted(pool, a, side="right")
    rank_sum = float((lo + hi + 1).sum()) / 2
    starts = numpy.flatnonzero(numpy.concatenate([[True], pool[1:] != pool[:-1]]))
    t = numpy.diff(numpy.append(starts, len(pool))).astype(numpy.float64)
    t = t[t > 1]
    return rank_sum, float((t * t * t - t).sum())


def _rank_bucket(*pieces):
    """Every piece of one bucket (partition order, so samples keep file order): the two
    figures of each of its pairs."""
    pooled = {}
    for piece in pieces:
        for pair, (a, b) in piece.items():
            into = pooled.setdefault(pair, ([], []))
            if a is not None:
                into[0].append(a)
            if b is not None:
                into[1].append(b)
    out = {}
    for pair, (a, b) in pooled.items():
        out[pair] = _pool_ranks(numpy.concatenate(a) if a else numpy.empty(0),
                                numpy.concatenate(b) if b else numpy.empty(0))
    return out


def _rank_sums(dask, parts, keys, baseline):
    """The rank_sums and tie_terms arrays of tally_report_new_from_partitions_ranked, in the
    order of `keys` (0 where the entry is not read: the baseline, cases it lacks)."""
    present = set(keys)
    pairs = [((baseline, bench, case), (label, bench, case)) for label, bench, case in keys
             if label != baseline and (baseline, bench, case) in present]
    sums, ties = [0.0] * len(keys), [0.0] * len(keys)
    if not pairs:
        return sums, ties
    buckets = min(_RANK_BUCKETS, len(pairs))
    shared = dask.delayed(pairs, traverse=False)
    pieces = [dask.delayed(_rank_pieces, pure=True, nout=buckets)(p, shared, buckets)
              for p in parts]
    tasks = [dask.delayed(_rank_bucket, pure=True)(*[piece[k] for piece in pieces])
             for k in range(buckets)]
    figures = {}
    for done in _compute(dask, tasks):
        figures.update(done)
    index = {key: i for i, key in enumerate(keys)}
    for pair, (rank_sum, tie) in figures.items():
        sums[index[pair[1]]], ties[index[pair[1]]] = rank_sum, tie
    return sums, ties


def _tree(dask, items, merge):
    """A tree reduction of delayed partial results, _FAN_IN at a time."""
    while len(items) > 1:
        items = [dask.delayed(merge, pure=True)(*items[i:i + _FAN_IN])
                 for i in range(0, len(items), _FAN_IN)]
    return items[0]


def _compute(dask, value):
    """dask.compute, with a tally error re-raised as itself: the file and line it names, not the
    scheduler's traceback."""
    try:
        return dask.compute(value)[0]
    except TallyError as exc:
        raise type(exc)(exc.message, code=exc.code, file=exc.file, line=exc.line,
                        column=exc.column, json_path=exc.json_path) from None


# ---- the client's side -----------------------------------------------------------------------

def _partitions(dask, frame_or_files, kind, benchmark):
    """Delayed _Part objects, one per file or per frame partition."""
    if hasattr(frame_or_files, "to_delayed") and hasattr(frame_or_files, "npartitions"):
        return [dask.delayed(_part_of_frame, pure=True)(p) for p in frame_or_files.to_delayed()]
    files = _expand(frame_or_files)
    return [dask.delayed(_part_of_file, pure=True)(f, kind, benchmark) for f in files]


def _order(shape, baseline):
    labels = list(shape)
    if baseline is not None:
        if baseline not in shape:
            from .errors import NotFound
            raise NotFound(f"tally.dask: no configuration labelled {baseline!r} (labels: "
                           f"{', '.join(labels)})", code=-10)
        labels.remove(baseline)
        labels.insert(0, baseline)
    return labels


def _shape_results(shape, labels):
    """The result sets without samples, and the cases in the order the report reads them."""
    results = Results()
    keys = []
    for label in labels:
        entry = shape[label]
        rs = results.add(label, entry["meta"])
        for name, (unit, better, stat, _, cases) in entry["benchmarks"].items():
            b = rs.add_benchmark(name, unit, better)
            if stat != "default":
                b.statistic = stat
            for case in cases:
                b.add_case(case)
                keys.append((label, name, case))
    return results, keys


def _summary_starts(shape, accs, keys, opts):
    """A C partition summary per case, made with the options the report uses for its row."""
    cuts = ffi.new("double[]", list(_REPORT_CUTS))
    acc = ffi.new("tally_accumulator **")
    out = ffi.new("tally_partition_summary **")
    summaries = {}
    for key in keys:
        label, bench, _ = key
        better = shape[label]["benchmarks"][bench][1]
        po = new_options("tally_partition_options")
        po.summary.direction = enum_from_name("direction", better, "better")
        po.summary.percentile_method = opts.percentile_method
        po.summary.confidence = opts.confidence
        po.bamean_percents = cuts
        po.bamean_count = len(_REPORT_CUTS)
        data = accs[key]
        check(lib.tally_accumulator_deserialize(acc, data, len(data)))
        a = ffi.gc(acc[0], lib.tally_accumulator_free)
        check(lib.tally_partition_summary_new(out, a, po))
        summaries[key] = ffi.gc(out[0], lib.tally_partition_summary_free)
    return summaries


def _requests(summaries):
    out, length = ffi.new("unsigned char **"), ffi.new("size_t *")
    requests = {}
    for key, s in summaries.items():
        if lib.tally_partition_summary_done(s):
            continue
        check(lib.tally_partition_summary_request(out, length, s))
        requests[key] = _bytes_and_free(out, length)
    return requests


def report(frame_or_files, baseline=None, *, kind=None, benchmark=None, statistic=None,
           test=None, alpha=None, adjust=None, confidence=None, filter=None,
           summaries_only=None, equivalence=None, power=None, mde=None, _after_round=None):
    """The tally.Report of every sample of `frame_or_files` (a path, a glob, a list of them, or a
    Dask DataFrame with read()'s columns label, benchmark, case, value and optionally unit,
    better, statistic, metadata), computed where the samples are.

    baseline: the label of the baseline configuration (default: the first label met, in file
    order). Labels, benchmarks and cases come in first-seen order, files in sorted order; a
    configuration spread over several files is one result set whose samples follow file order;
    its metadata is that of its first file. The other options are tally.Report's. The result is
    the Report tally.Report gives on the same samples with omit_samples=True (the raw samples
    stay on the workers): order statistics bit for bit, moments within 1e-12 relative
    (docs/statistics.md, "Partitioned samples"). The Mann-Whitney test ranks each compared case
    on one worker (its samples are shuffled there, not to the client) and gives the p-values of
    the single-machine report.
    """
    dask = _dask()
    opts, keep = _report_options(statistic=statistic, test=test, alpha=alpha, adjust=adjust,
                                 confidence=confidence, filter=filter,
                                 summaries_only=summaries_only, omit_samples=True,
                                 equivalence=equivalence, power=power, mde=mde)
    parts = dask.persist(*_partitions(dask, frame_or_files, kind, benchmark))
    round0 = _tree(dask, [dask.delayed(_accumulate, pure=True)(p) for p in parts], _merge_round0)
    shape, accs = _compute(dask, round0)
    if not shape:
        from .errors import NotEnoughData
        raise NotEnoughData("tally.dask.report: the input holds no samples", code=-5)
    labels = _order(shape, baseline)
    results, keys = _shape_results(shape, labels)
    summaries = _summary_starts(shape, accs, keys, opts)
    rounds = 0
    if _after_round:
        _after_round(rounds)
    while True:
        requests = _requests(summaries)
        if not requests:
            break
        shared = dask.delayed(requests, traverse=False)
        answers = _compute(dask, _tree(dask, [dask.delayed(_scan, pure=True)(p, shared)
                                              for p in parts], _merge_answers))
        for key in requests:
            data = answers.get(key)
            if data is None:
                from .errors import MismatchError
                raise MismatchError(f"tally.dask.report: no partition answered for "
                                    f"{key[1]}/{key[2]} in '{key[0]}'", code=-17)
            check(lib.tally_partition_summary_feed(summaries[key], data, len(data)))
        rounds += 1
        if _after_round:
            _after_round(rounds)
    array = ffi.new("tally_partition_summary *[]", [summaries[k] for k in keys])
    out = ffi.new("tally_report **")
    if opts.test == lib.TALLY_TEST_MANN_WHITNEY:
        sums, ties = (([0.0] * len(keys), [0.0] * len(keys)) if summaries_only
                      else _rank_sums(dask, parts, keys, labels[0]))
        check(lib.tally_report_new_from_partitions_ranked(
            out, results._handle(), array, len(keys), ffi.new("double[]", sums),
            ffi.new("double[]", ties), opts))
    else:
        check(lib.tally_report_new_from_partitions(out, results._handle(), array, len(keys),
                                                   opts))
    del keep
    return Report._from_pointer(out[0], opts.alpha)


def to_results(frame, baseline=None):
    """A tally.Results of a (pandas or Dask) frame with read()'s columns, gathered on the client
    in the order report() uses: the single-machine equivalent of report(frame) (for data that
    fits in memory)."""
    if hasattr(frame, "compute"):
        frame = frame.compute()
    part = _part_of_frame(frame)
    labels = _order(part.shape, baseline) if part.shape else []
    results, keys = _shape_results(part.shape, labels)
    for label, bench, case in keys:
        results[label][bench][case].append(part.arrays[(label, bench, case)])
    return results
