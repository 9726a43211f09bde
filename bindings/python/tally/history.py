"""Performance over commits: tally.history() and the History it returns (docs/history.md).

    h = tally.history("results/*.json", git_order=".")      # or order_by="time"
    h.changes            # DataFrame of the change points, newest first
    h.to_markdown()      # the CI comment; h.to_html() the report with trend plots
    h.gate(3.0, recent=20)   # regressions beyond 3 % in the newest 20 points

The change-point API is experimental (tally/history.h): its names may change.
"""

import glob as _glob
import os
import subprocess
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ._frame import pandas_module
from ._native import (Owner, check, cstring, enum_name, ffi, lib, new_options, new_result,
                      real, take_buffer, text)
from .results import Results

PathLike = Union[str, bytes, "os.PathLike"]

_FORMATS = {"text": "TALLY_FORMAT_TEXT", "json": "TALLY_FORMAT_JSON",
            "csv": "TALLY_FORMAT_CSV", "md": "TALLY_FORMAT_MARKDOWN",
            "markdown": "TALLY_FORMAT_MARKDOWN", "html": "TALLY_FORMAT_HTML"}

_CHANGE_COLUMNS = ["benchmark", "case", "unit", "better", "point", "label", "commit", "before",
                   "before_low", "before_high", "after", "after_low", "after_high", "pct_imp",
                   "pct_imp_low", "pct_imp_high", "p_value", "p_raw", "verdict"]


def git_commits(repository: PathLike = ".", rev: str = "HEAD") -> List[str]:
    """The commits of `rev` in the repository, oldest first (git rev-list --reverse)."""
    out = subprocess.run(["git", "-C", os.fsdecode(repository), "rev-list", "--reverse", rev],
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def _count(value, argname, low):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{argname} must be an int >= {low}, not {value!r}")
    return value


class History(Owner):
    """The points (result sets) in order, one series per (benchmark, case), and each series'
    change points. Built by tally.history(); read-only."""

    _kind = "History"

    __slots__ = ("_ptr", "_guard", "_calls", "_closing", "__weakref__")

    def __init__(self, results: Results, *, order_by: Optional[str] = None,
                 commits: Optional[Sequence[str]] = None, filter: Optional[str] = None,
                 recent: Optional[int] = None, alpha: Optional[float] = None,
                 min_segment: Optional[int] = None, min_change: Optional[float] = None,
                 window: Optional[int] = None, confidence: Optional[float] = None):
        opts = new_options("tally_history_options")
        keep = []

        def cs(value, argname):
            keep.append(ffi.new("char[]", cstring(value, argname)))
            return keep[-1]

        if order_by is not None:
            opts.order_by = cs(order_by, "order_by")
        if filter is not None:
            opts.filter = cs(filter, "filter")
        if commits is not None:
            items = [cs(c, "commits") for c in commits]
            array = ffi.new("char *[]", items or [ffi.NULL])
            keep.append(array)
            opts.commit_order = array
            opts.commit_order_count = len(items)
        if recent is not None:
            opts.recent = _count(recent, "recent", 0)
        if min_segment is not None:
            opts.min_segment = _count(min_segment, "min_segment", 2)
        if window is not None:
            opts.window = _count(window, "window", 2)
        if alpha is not None:
            opts.alpha = real(alpha, "alpha")
        if min_change is not None:
            opts.min_change_pct = real(min_change, "min_change")
        if confidence is not None:
            opts.confidence = real(confidence, "confidence")
        out = ffi.new("tally_history **")
        with results._use() as handle:  # the results stay open while the history copies them
            check(lib.tally_history_new(out, handle, opts))
        self._own(out[0], lib.tally_history_free)

    # ---- points and series ----

    @property
    def points(self) -> List[Tuple[str, str]]:
        """(label, commit) of every point, oldest first."""
        h = self._handle()
        return [(text(lib.tally_history_point_label(h, i)),
                 text(lib.tally_history_point_commit(h, i)))
                for i in range(lib.tally_history_point_count(h))]

    def _series(self, i):
        s = new_result("tally_history_series")
        check(lib.tally_history_series_at(s, self._handle(), i))
        return s

    @property
    def series(self) -> List[Dict[str, object]]:
        """Every series: benchmark, case, unit, better, points, changes, outliers, drifting."""
        out = []
        for i in range(lib.tally_history_series_count(self._handle())):
            s = self._series(i)
            out.append({"benchmark": text(s.benchmark), "case": text(s.case_name),
                        "unit": text(s.unit), "better": enum_name("direction", s.direction),
                        "points": int(s.point_count), "changes": int(s.change_count),
                        "outliers": int(s.outlier_count), "drifting": bool(s.drifting)})
        return out

    def _change_row(self, series, k, points):
        s = self._series(series)
        c = new_result("tally_changepoint")
        check(lib.tally_history_series_change_at(c, self._handle(), series, k))
        label, commit = points[c.index]
        return [text(s.benchmark), text(s.case_name), text(s.unit),
                enum_name("direction", s.direction), int(c.index) + 1, label, commit, c.before,
                c.before_low, c.before_high, c.after, c.after_low, c.after_high, c.pct_imp,
                c.pct_imp_low, c.pct_imp_high, c.p_value, c.p_raw,
                enum_name("verdict", c.verdict)]

    def change_rows(self) -> List[list]:
        """The change points, newest first, as lists in the order of the DataFrame's columns."""
        h = self._handle()
        points = self.points
        series, k = ffi.new("size_t *"), ffi.new("size_t *")
        rows = []
        for i in range(lib.tally_history_change_count(h)):
            check(lib.tally_history_change_at(series, k, h, i))
            rows.append(self._change_row(series[0], k[0], points))
        return rows

    @property
    def changes(self) -> "pandas.DataFrame":
        """The change points, newest first: one row each, `point` counted from 1, pct_imp
        positive = better, p_value corrected for the splits tried."""
        pandas = pandas_module("History.changes")
        return pandas.DataFrame(self.change_rows(), columns=_CHANGE_COLUMNS)

    @property
    def trends(self) -> "pandas.DataFrame":
        """The slow-drift check of each series' newest level (Mann-Kendall, Theil-Sen)."""
        pandas = pandas_module("History.trends")
        rows = []
        for i in range(lib.tally_history_series_count(self._handle())):
            s = self._series(i)
            t = new_result("tally_trend")
            check(lib.tally_history_series_trend(t, self._handle(), i))
            rows.append([text(s.benchmark), text(s.case_name), bool(t.tested),
                         int(t.first) + 1 if t.tested else None, int(t.count), t.slope_pct,
                         t.slope_pct_low, t.slope_pct_high, t.total_pct, t.p_value,
                         bool(t.drifting), enum_name("verdict", t.verdict)])
        return pandas.DataFrame(rows, columns=["benchmark", "case", "tested", "first", "count",
                                               "slope_pct", "slope_pct_low", "slope_pct_high",
                                               "total_pct", "p_value", "drifting", "verdict"])

    def gate(self, pct: float, recent: Optional[int] = None) -> Tuple[int, float]:
        """(number, worst pct-imp) of the regressions beyond `pct` percent that start within
        the newest `recent` points (None: the history's own `recent`, else all)."""
        count, worst = ffi.new("size_t *"), ffi.new("double *")
        check(lib.tally_history_gate(count, worst, self._handle(), real(pct, "pct"),
                                     0 if recent is None else _count(recent, "recent", 1)))
        return int(count[0]), float(worst[0])

    # ---- outputs ----

    def render(self, format: str = "text", fragment: bool = False) -> str:
        """The history as text, json, csv, md or html (docs/history.md)."""
        if format not in _FORMATS:
            raise ValueError(f"format must be one of {', '.join(_FORMATS)}, not {format!r}")
        opts = new_options("tally_render_options")
        opts.format = getattr(lib, _FORMATS[format])
        opts.fragment = int(bool(fragment))
        out, length = ffi.new("char **"), ffi.new("size_t *")
        check(lib.tally_history_render(out, length, self._handle(), opts))
        return take_buffer(out, length)

    def text(self) -> str:
        return self.render("text")

    def to_json(self) -> str:
        return self.render("json")

    def to_csv(self) -> str:
        return self.render("csv")

    def to_markdown(self) -> str:
        return self.render("md")

    def to_html(self, fragment: bool = False) -> str:
        return self.render("html", fragment=fragment)

    def write(self, path: PathLike, format: str = "text") -> None:
        """Write render(format) to `path` atomically."""
        if format not in _FORMATS:
            raise ValueError(f"format must be one of {', '.join(_FORMATS)}, not {format!r}")
        opts = new_options("tally_render_options")
        opts.format = getattr(lib, _FORMATS[format])
        check(lib.tally_history_write(self._handle(), os.fsencode(path), opts))

    def __len__(self):
        return int(lib.tally_history_point_count(self._handle()))

    def __repr__(self):
        if self._ptr is None:
            return "<tally.History (closed)>"
        h = self._ptr
        return (f"<tally.History: {lib.tally_history_point_count(h)} points, "
                f"{lib.tally_history_series_count(h)} series, "
                f"{lib.tally_history_change_count(h)} change points>")

    def _repr_html_(self):
        return self.to_html(fragment=True)


def history(sources: Union[Results, PathLike, Sequence[PathLike]], *,
            order_by: Optional[str] = None, git_order: Optional[PathLike] = None,
            commits: Optional[Sequence[str]] = None, kind: Optional[str] = None,
            **options) -> History:
    """The history of `sources`: a Results, a path or glob, or a list of them (loaded in
    order, globs sorted), each result set one point. order_by: a metadata key to sort by;
    git_order: a repository whose commit order (git rev-list HEAD) sorts the points by their
    `commit` metadata or label; commits: that order given directly. Other keywords: filter,
    recent, alpha, min_segment, min_change, window, confidence (docs/history.md).

    Returns a History: `.changes` is the DataFrame of change points (newest first), and the
    object renders the text, JSON, CSV, Markdown and HTML reports.
    """
    if isinstance(sources, Results):
        results = sources
    else:
        paths = [sources] if isinstance(sources, (str, bytes, os.PathLike)) else list(sources)
        results = Results()
        for p in paths:
            name = os.fsdecode(p)
            matched = sorted(_glob.glob(name)) if _glob.has_magic(name) else [name]
            if not matched:
                raise FileNotFoundError(f"{name}: no file matches")
            for m in matched:
                results.load(m, kind=kind)
    if git_order is not None:
        if commits is not None:
            raise ValueError("give git_order or commits, not both")
        commits = git_commits(git_order)
    return History(results, order_by=order_by, commits=commits, **options)


__all__ = ["History", "history", "git_commits"]
