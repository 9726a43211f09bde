"""The results store: result sets in SQLite (a file) or PostgreSQL (a postgresql:// URL), keyed
by commit, branch, machine and time (docs/store.md).

    store = tally.Store("results.db")
    store.record("runs.json", meta={"commit": sha, "branch": "main", "machine": "ci1"})
    main = store.query(branch="main", machine="ci1", latest=True)     # tally.Results
    frame = store.query_frame(benchmark="hackbench*")                  # pandas DataFrame

Experimental API (the C library's TALLY_EXPERIMENTAL_API tier): it may change in a minor release.
"""

import os
import re
from typing import Dict, Optional, Sequence, Union

from ._native import Owner, check, cpath, cstring, ffi, lib, new_options
from .results import Results, loads

__all__ = ["Store"]

_TEXT_FILTERS = {"branch": "branch", "commit": "commit", "machine": "machine", "label": "label",
                 "benchmark": "benchmark", "case": "case_name", "since": "since",
                 "until": "until"}


def _scrubbed(url):
    """The URL without user, password and parameters, for repr and messages."""
    return re.sub(r"^(\w+://)[^/?#]*@", r"\1", url.split("?", 1)[0])


class Store(Owner):
    """One open store. `url`: the path of an SQLite file (created when missing) or a
    `postgresql://` URL (credentials from the URL, PGPASSWORD, PGSERVICE or ~/.pgpass; never
    shown). The schema is created or migrated on opening; a store of a newer tally is refused
    (tally.FormatError). Not thread-safe: open one Store per thread or process."""

    _kind = "Store"

    __slots__ = ("_ptr", "_where", "__weakref__")

    def __init__(self, url: Union[str, "os.PathLike"], *, busy_timeout_ms: Optional[int] = None,
                 retries: Optional[int] = None, create: Optional[bool] = None):
        self._ptr = None
        text = os.fspath(url)
        if isinstance(text, bytes):
            text = os.fsdecode(text)
        self._where = _scrubbed(text)
        opts = new_options("tally_store_options")
        if busy_timeout_ms is not None:
            opts.busy_timeout_ms = int(busy_timeout_ms)
        if retries is not None:
            opts.retries = int(retries)
        if create is not None:
            opts.create = 1 if create else 0
        out = ffi.new("tally_store **")
        check(lib.tally_store_open(out, cpath(text, "url"), opts))
        self._ptr = ffi.gc(out[0], lib.tally_store_close)

    @property
    def schema_version(self) -> int:
        """The store's schema version (the current one once opened)."""
        return int(lib.tally_store_schema_version(self._handle()))

    def record(self, source: Union[Results, "os.PathLike", str, Sequence],
               meta: Optional[Dict[str, str]] = None) -> int:
        """Record result sets in one transaction (all or none): a Results, or a file path, or
        a list of paths (read with tally.load: any format tally reads). `meta` stamps every
        result set (a Results given is not changed: its copy is stamped). A set already in the
        store (the same content) is skipped. Returns the number of sets newly stored."""
        if isinstance(source, Results):
            results = loads(source.to_json(), name="<results>") if meta else source
        else:
            from .results import load
            results = load(list(source) if isinstance(source, (list, tuple)) else source)
        for key, value in (meta or {}).items():
            for rs in results:
                rs.set_metadata(cstring(key, "meta key").decode("utf-8"),
                                cstring(value, "meta value").decode("utf-8"))
        added = ffi.new("size_t *")
        check(lib.tally_store_record(added, self._handle(), results._handle()))
        return int(added[0])

    @staticmethod
    def _query(filters):
        q = ffi.new("tally_store_query *")
        check(lib.tally_store_query_init(q, lib.TALLY_STORE_QUERY_VERSION))
        keep = []
        latest = filters.pop("latest", False)
        limit = filters.pop("limit", None)
        ident = filters.pop("id", None)
        for name, value in filters.items():
            if name not in _TEXT_FILTERS:
                raise TypeError(f"unknown filter {name!r} (branch, commit, machine, label, "
                                f"benchmark, case, since, until, id, limit, latest)")
            if value is None:
                continue
            keep.append(ffi.new("char[]", cstring(value, name)))
            setattr(q, _TEXT_FILTERS[name], keep[-1])
        if latest:
            q.limit = 1
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
                raise ValueError("limit must be a whole number > 0")
            q.limit = limit
        if ident is not None:
            q.id = int(ident)
        return q, keep

    def query(self, **filters) -> Results:
        """The result sets matching every filter, oldest first, as a tally.Results: branch,
        commit (4 or more leading characters match), machine, label, benchmark and case
        (globs), since and until (ISO 8601 times, until exclusive), id, limit (the newest N),
        latest=True (the newest one). Each set's metadata has store.id, store.time and
        store.recorded."""
        q, keep = self._query(dict(filters))
        results = Results()
        check(lib.tally_store_select(results._handle(), self._handle(), q))
        return results

    def query_frame(self, **filters) -> "pandas.DataFrame":
        """query() as a tidy pandas DataFrame (Results.to_dataframe())."""
        with self.query(**filters) as results:
            return results.to_dataframe()

    def benchmarks(self, **filters) -> list:
        """The names of the benchmarks query(**filters) would return, sorted."""
        q, keep = self._query(dict(filters))
        out = ffi.new("char **")
        length = ffi.new("size_t *")
        check(lib.tally_store_benchmark_names(out, length, self._handle(), q))
        if out[0] == ffi.NULL:
            return []
        try:
            data = ffi.unpack(out[0], length[0])
        finally:
            lib.tally_free(out[0])
        return [n.decode("utf-8") for n in data.split(b"\0")[:-1]]

    def __repr__(self):
        if self._ptr is None:
            return f"<tally.Store {self._where} (closed)>"
        return f"<tally.Store {self._where} schema {self.schema_version}>"
