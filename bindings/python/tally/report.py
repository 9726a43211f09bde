"""`Report`: a comparison report over result sets, rendered as text, JSON, CSV, Markdown, XLSX,
HTML with plots (also shown inline in notebooks) or a pandas DataFrame."""

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple, Union

from ._native import (Owner, check, cpath, cstring, enum_from_name, enum_name, enum_of, ffi,
                      fill_options, flag, lib, new_options, new_result, real, take_buffer)
from ._frame import case_index, pandas_module
from .results import PathLike, Results
from .stats import Comparison, Summary

if TYPE_CHECKING:  # names used in annotations only
    import matplotlib.axes
    import pandas


# The report frame's columns and their dtypes (nullable ones where a value can be missing).
_FRAME_TYPES = {
    "label": "object", "present": "bool", "baseline": "bool", "unit": "object",
    "better": "object", "statistic": "object", "n": "Int64", "value": "float64",
    "low": "float64", "high": "float64", "spread": "float64", "cv": "float64",
    "stddev": "float64", "ratio": "float64", "ratio_low": "float64", "ratio_high": "float64",
    "pct_imp": "float64", "pct_imp_low": "float64", "pct_imp_high": "float64",
    "interval_method": "object", "test": "object", "p_value": "float64",
    "p_adjusted": "float64", "significant": "boolean", "verdict": "category",
    "mde_pct": "float64", "runs_needed": "Int64", "runs_target_pct": "float64"}

_VERDICTS = ["baseline", "improvement", "regression", "equivalent", "inconclusive",
             "insufficient", "not-tested", "missing", "identical", "within-noise"]


@dataclass(frozen=True)
class Cell:
    """One configuration's data in a report row. `comparison` is None for the baseline and when
    the case is missing on either side; `present` is False when this configuration lacks it."""

    label: str
    present: bool
    summary: Optional[Summary]
    value: Optional[float]
    comparison: Optional[Comparison]
    p_adjusted: Optional[float]
    #: The run-order and shape checks (docs/statistics.md, "Diagnostics"): {"tested": [...],
    #: "flagged": [...], and per tested check its figures}; None when the cell was not checked.
    diagnostics: Optional[dict] = None
    #: The spread and CV (percent) the tables show: the harmonic SD and CV on HMean rows, the
    #: sample SD otherwise, the CV relative to the row's own statistic; None when undefined.
    spread: Optional[float] = None
    cv: Optional[float] = None
    #: (low, high) of the row's statistic at the report's confidence (the table's "± CI" on
    #: AMean rows, "[low, high]" on Median rows); None where the statistic has none.
    interval: Optional[Tuple[float, float]] = None

    @property
    def verdict(self) -> Optional[str]:
        return self.comparison.verdict if self.comparison else None


@dataclass(frozen=True)
class Row:
    """A (benchmark, case) row with one Cell per configuration, the baseline first."""

    benchmark: str
    case: str
    unit: str
    better: str
    statistic: str
    cells: Tuple[Cell, ...]


def _keys(value, argname):
    keys = [value] if isinstance(value, str) else list(value)
    return ",".join(keys)


# Report(...) keyword -> (tally_report_options field, converter). Every field but `version` is
# here (tests/python/test_report_options.py checks it against the struct); None leaves the
# default tally_report_options_init() wrote. Converters returning str are passed as C strings.
_REPORT_OPTIONS = {
    "statistic": ("statistic", lambda v, name: _statistic(v, name)[0]),
    "percentile": ("percentile", real),
    "test": ("test", enum_of("test")),
    "alpha": ("alpha", real),
    "adjust": ("adjust", enum_of("adjust")),
    "percentile_method": ("percentile_method", enum_of("percentile_method")),
    "confidence": ("confidence", real),
    "filter": ("filter", cstring),
    "summaries_only": ("summaries_only", flag),
    "omit_samples": ("omit_samples", flag),
    "equivalence": ("equivalence_pct", real),
    "power": ("power", real),
    "mde": ("mde_pct", real),
    "expect_diff": ("expect_diff", lambda v, name: cstring(_keys(v, name), name)),
    "noise": ("noise", lambda v, name: _noise_profile(v, name)),
    "case_map": ("case_map", lambda v, name: cstring(_case_map(v, name), name)),
    "pair_by": ("pair_by", enum_of("pair_by")),
    "baseline": ("baseline", cstring),
    "per_run": ("per_run", lambda v, name: _per_run(v, name)),
    "per_run_percentile": ("per_run_percentile", real),
    "independent_requests": ("independent_requests", flag),
    "resamples": ("resamples", lambda v, name: _whole(v, name)),
    "seed": ("seed", lambda v, name: _whole(v, name)),
}


def _per_run(value, argname):
    """The per-run statistic of histogram runs ("p99", "median", ...); "default" is the pooled
    level, which None already keeps."""
    return _statistic(value, argname)[0]


def _whole(value, argname):
    """A whole number >= 0 (bool rejected)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{argname} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{argname} must be >= 0, not {value}")
    return value


def _case_map(value, argname):
    """The case_map rules, one per line, from a rule string, a list of rules or a dict
    {FROM: TO} of exact names."""
    rules = ([f"{k}={v}" for k, v in value.items()] if isinstance(value, dict)
             else [value] if isinstance(value, str) else list(value))
    for rule in rules:
        if not isinstance(rule, str) or "\n" in rule:
            raise ValueError(f"{argname}: each rule is a str without a newline, not {rule!r}")
    return "\n".join(rules)


def _noise_profile(path, argname):
    """The noise profile file `path` (tally calibrate -o) loaded, freed when collected."""
    out = ffi.new("tally_noise **")
    check(lib.tally_noise_load(out, cpath(path, argname)))
    return ffi.gc(out[0], lib.tally_noise_free)


def _statistic(value, argname):
    """(enum value, percentile) of a statistic name or "pNN" (tally_statistic_parse)."""
    if not isinstance(value, str):
        raise TypeError(f"{argname} must be a str, not {type(value).__name__}")
    stat = ffi.new("tally_statistic *")
    p = ffi.new("double *")
    check(lib.tally_statistic_parse(stat, p, value.encode()))
    return stat[0], p[0]


def _report_options(**values):
    """tally_report_options from Report's keyword arguments (None: the library's default), and
    the C strings they point to (keep both alive while the options are used). A statistic "pNN"
    also sets the percentile (unless given)."""
    if values.get("statistic") is not None and values.get("percentile") is None:
        p = _statistic(values["statistic"], "statistic")[1]
        values["percentile"] = p if p > 0 else None
    if values.get("per_run") is not None and values.get("per_run_percentile") is None:
        p = _statistic(values["per_run"], "per_run")[1]
        values["per_run_percentile"] = p if p > 0 else None
    opts = new_options("tally_report_options")
    return opts, fill_options(opts, _REPORT_OPTIONS, values)


def _precision(value, argname):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{argname} must be an int, not {type(value).__name__}")
    if not 0 <= value <= 17:
        raise ValueError(f"{argname} must be in [0, 17], not {value}")
    return value


def _length(value, argname):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{argname} must be an int, not {type(value).__name__}")
    return value


def _width(value, argname):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{argname} must be a positive int, not {value!r}")
    return value


# Rendering keyword -> (tally_render_options field, converter), for the methods that take it;
# `format` is chosen by the method itself. The same test checks that every field is reachable.
_RENDER_OPTIONS = {
    "style": ("style", enum_of("style")),
    "color": ("color", flag),
    "precision": ("precision", _precision),
    "hist": ("histogram", flag),
    "ascii": ("ascii", flag),
    "width": ("width", _width),
    "fragment": ("fragment", flag),
    "diagnose": ("diagnose", flag),
    "only_changed": ("only_changed", flag),
    "max_length": ("max_length", _length),
    "only_statistic": ("only_statistic", flag),
    "case_label": ("case_label", cstring),
    "units_text": ("units_text", cstring),
    "case_strip": ("case_strip", cstring),
    "print_ratio": ("print_ratio", flag),
    "system": ("system", flag),
    "fit_width": ("fit_width", _width),
}



@dataclass(frozen=True)
class FormatInfo:
    """An output format as the library's table of renderers describes it (tally_format_info):
    needs_samples, the output shows the raw samples (a report made with omit_samples lacks
    them); file_only, it can only be saved to a file; terminal, colour and width fitting apply."""
    name: str
    needs_samples: bool
    file_only: bool
    terminal: bool


def formats() -> List[FormatInfo]:
    """Every output format, in the library's order (tally_format_count, tally_format_info_at)."""
    out = []
    for i in range(lib.tally_format_count()):
        f = new_result("tally_format_info")
        check(lib.tally_format_info_at(f, i))
        out.append(FormatInfo(ffi.string(f.name).decode(), bool(f.needs_samples),
                              bool(f.file_only), bool(f.terminal)))
    return out

class Report(Owner):
    """A comparison report; the first result set is the baseline.

    Every option left at None takes the library's default (tally_report_options_init; the values
    are listed in docs/python.md).
    statistic: "default" (each benchmark's preferred statistic, else AMean when lower is better and
    HMean when higher is better), a statistic name, or "pNN" for a percentile ("p50", "p99",
    "p99.9": it also sets `percentile`, the p of percentile rows); test: "auto" (the test of
    each row's statistic), "welch", "student", "mann-whitney", "price-bonett", "mmtests-ci", "none";
    alpha: significance level; adjust: "none", "holm", "bh" or "bonferroni"; percentile_method: "linear",
    "nearest-rank" or "harrell-davis" ("hd"); confidence: level of intervals;
    equivalence: margin in percent for "equivalent" verdicts; power: of the MDE and runs needed;
    mde: effect in percent the runs needed refer to (None: the margin);
    filter: a shell glob on "benchmark/case"; summaries_only: summarise every configuration on
    its own, without comparisons; omit_samples: keep no copy of the raw samples (JSON then has
    none, HTML no per-case plots); expect_diff: metadata keys (names or shell globs, a string or
    a list) the configurations are meant to differ in, left out of `environment_differences`;
    noise: a noise profile file (`tally calibrate -o FILE`) whose per-benchmark floors become
    the equivalence margins and the gate's least counted loss;
    case_map: rules pairing a compared configuration's cases with baseline cases of other
    names, "FROM=TO" or "s/REGEX/REPL/" (a str, a list of them, or a dict {FROM: TO});
    pair_by: "name" (the default) or "position" (the i-th case of a benchmark with the
    baseline's i-th). `pairing()` says how the rows paired. baseline: the label of the result
    set the others are compared with (None: the first), as hyperfine's reference command.
    Cases of histogram runs (docs/statistics.md, "Histogram runs"): per_run: a statistic name
    or "pNN" reducing each run to that statistic of its requests (the per-run level: one value
    per run, e.g. per_run="p99", statistic="median" for the median over runs of each run's
    p99); None pools every request (the pooled level), whose interval and test come from a
    cluster bootstrap over runs with `resamples` (default 2000) and `seed` (default 1);
    independent_requests: take pooled requests as independent instead (request-level
    intervals; otherwise a side with fewer than 5 runs gets none and an insufficient verdict).
    The report copies what it needs: `results` may be freed afterwards.
    """

    _kind = "Report"

    def __init__(self, results: Results, *, statistic: Optional[str] = None,
                 test: Optional[str] = None, alpha: Optional[float] = None,
                 adjust: Optional[str] = None, percentile_method: Optional[str] = None,
                 confidence: Optional[float] = None, filter: Optional[str] = None,
                 summaries_only: Optional[bool] = None, omit_samples: Optional[bool] = None,
                 equivalence: Optional[float] = None, power: Optional[float] = None,
                 mde: Optional[float] = None,
                 expect_diff: Union[str, Sequence[str], None] = None,
                 noise: Optional[PathLike] = None,
                 case_map: Union[str, Sequence[str], Dict[str, str], None] = None,
                 pair_by: Optional[str] = None, baseline: Optional[str] = None,
                 percentile: Optional[float] = None, per_run: Optional[str] = None,
                 per_run_percentile: Optional[float] = None,
                 independent_requests: Optional[bool] = None,
                 resamples: Optional[int] = None, seed: Optional[int] = None) -> None:
        if not isinstance(results, Results):
            raise TypeError(f"results must be a tally.Results, not {type(results).__name__}")
        opts, keep = _report_options(
            statistic=statistic, test=test, alpha=alpha, adjust=adjust,
            percentile_method=percentile_method, confidence=confidence, filter=filter,
            summaries_only=summaries_only, omit_samples=omit_samples, equivalence=equivalence,
            power=power, mde=mde, expect_diff=expect_diff, noise=noise, case_map=case_map,
            pair_by=pair_by, baseline=baseline, percentile=percentile, per_run=per_run,
            per_run_percentile=per_run_percentile, independent_requests=independent_requests,
            resamples=resamples, seed=seed)
        out = ffi.new("tally_report **")
        with results._use() as handle:
            check(lib.tally_report_new(out, handle, opts))
        del keep
        self._adopt(out[0], opts.alpha)

    @classmethod
    def _from_pointer(cls, ptr, alpha):
        """A Report owning a C report made elsewhere (tally.dask)."""
        self = cls.__new__(cls)
        self._adopt(ptr, alpha)
        return self

    def _adopt(self, ptr, alpha):
        self._own(ptr, lib.tally_report_free)
        self._alpha = alpha
        self._rows = None


    # ---- structure -------------------------------------------------------------------------

    @property
    def labels(self) -> List[str]:
        r = self._handle()
        return [ffi.string(lib.tally_report_config_label(r, i)).decode("utf-8")
                for i in range(lib.tally_report_config_count(r))]

    @property
    def rows(self) -> Tuple[Row, ...]:
        """The rows as Row objects (computed once, then cached)."""
        if self._rows is None:
            self._rows = tuple(self._read_rows())
        return self._rows

    def _read_rows(self):
        r = self._handle()
        labels = self.labels
        row = new_result("tally_report_row")
        cell = new_result("tally_report_cell")
        summary = new_result("tally_summary")
        comparison = new_result("tally_comparison")
        for i in range(lib.tally_report_row_count(r)):
            check(lib.tally_report_row_at(row, r, i))
            better = enum_name("direction", row.direction)
            stat = enum_name("statistic", row.statistic)
            if row.statistic == lib.TALLY_STAT_PERCENTILE:
                label = ffi.new("char[]", 32)
                check(lib.tally_statistic_label(label, 32, row.statistic, row.percentile))
                stat = ffi.string(label).decode()
            cells = []
            for j, label in enumerate(labels):
                check(lib.tally_report_cell_at(cell, r, i, j))
                present = bool(cell.present)
                compared = present and bool(cell.compared)
                mine = None
                if present:
                    check(lib.tally_report_cell_summary(summary, r, i, j))
                    mine = Summary._from_c(summary)
                compared_with = None
                if compared:
                    # The two sides of a cell's comparison: the baseline's cell and this one.
                    check(lib.tally_report_cell_comparison(comparison, r, i, j))
                    compared_with = Comparison._from_c(comparison, cells[0].summary, mine, stat,
                                                       better, self._alpha)
                cells.append(Cell(
                    label=label, present=present, summary=mine,
                    value=cell.value if present else None,
                    comparison=compared_with,
                    p_adjusted=cell.p_adjusted
                    if compared and comparison.p_defined else None,
                    diagnostics=self._diagnostics(i, j) if present else None,
                    **(self._figures(i, j) if present else {})))
            yield Row(benchmark=ffi.string(row.benchmark).decode("utf-8"),
                      case=ffi.string(row.case_name).decode("utf-8"),
                      unit=ffi.string(row.unit).decode("utf-8") if row.unit != ffi.NULL else "",
                      better=better, statistic=stat, cells=tuple(cells))

    def _figures(self, row, config):
        """The cell's spread, CV and interval as the tables show them."""
        r = self._handle()
        spread, cv = ffi.new("double *"), ffi.new("double *")
        check(lib.tally_report_cell_spread(spread, cv, r, row, config))
        low, high = ffi.new("double *"), ffi.new("double *")
        code = lib.tally_report_cell_interval(low, high, r, row, config)
        if code != lib.TALLY_ENODATA:
            check(code)
        defined = lambda x: None if math.isnan(x) else x
        return {"spread": defined(spread[0]), "cv": defined(cv[0]),
                "interval": (low[0], high[0]) if code == 0 else None}

    _CHECKS = ((1, "trend"), (2, "autocorrelation"), (4, "warm-up"), (8, "step"),
               (16, "multimodal"), (32, "outliers"))

    def _diagnostics(self, row, config):
        d = new_result("tally_diagnostics")
        check(lib.tally_report_cell_diagnostics(d, self._handle(), row, config))
        if d.tested == 0:
            return None
        names = lambda flags: [name for bit, name in self._CHECKS if flags & bit]
        out = {"tested": names(d.tested), "flagged": names(d.flagged)}
        if d.tested & 1:
            out["trend"] = {"p": d.trend_p, "tau": d.trend_tau, "slope_per_run": d.trend_slope}
        if d.tested & 2:
            out["autocorrelation"] = {"p": d.autocorr_p, "lag1": d.autocorr_r1}
        if d.tested & 4:
            out["warm-up"] = {"p": d.warmup_p, "runs": d.warmup_runs, "shift": d.warmup_shift}
        if d.tested & 8:
            out["step"] = {"p": d.step_p, "after_run": d.step_at, "shift": d.step_shift}
        if d.tested & 16:
            out["multimodal"] = {"p": d.dip_p, "dip": d.dip}
        if d.flagged & 32:
            out["outliers"] = {"left_out": d.outliers_left_out,
                               "verdict_without": enum_name("verdict",
                                                            d.verdict_without_outliers)}
        return out

    @property
    def environment_differences(self) -> Dict[str, List[Optional[str]]]:
        """{key: [value per configuration, None where not recorded]} for every environment key
        (the runner's fingerprint, the workload's parameters) whose values differ between the
        configurations, except those given as `expect_diff`."""
        r = self._handle()
        out = {}
        for i in range(lib.tally_report_env_diff_count(r)):
            key = ffi.string(lib.tally_report_env_diff_key(r, i)).decode("utf-8")
            values = []
            for j in range(lib.tally_report_config_count(r)):
                v = lib.tally_report_env_diff_value(r, i, j)
                values.append(ffi.string(v).decode("utf-8") if v != ffi.NULL else None)
            out[key] = values
        return out

    def _config_index(self, label):
        if isinstance(label, int) and not isinstance(label, bool):
            return label
        if label in self.labels:
            return self.labels.index(label)
        raise KeyError(f"no configuration labelled {label!r} in {self.labels}")

    def geomean(self, label: Union[str, int]) -> float:
        """Geometric mean of gains of configuration `label` (or its index) over the rows present
        in both it and the baseline, each row expressed so that > 1 means better (new/base when
        higher is better, base/new when lower is better)."""
        out = ffi.new("double *")
        check(lib.tally_report_geomean(out, self._handle(), self._config_index(label)))
        return out[0]

    def gain(self, label: Union[str, int], benchmark: Optional[str] = None) -> dict:
        """The geometric mean of gains (> 1 = better) of configuration `label` over one
        benchmark's rows or all: a dict with "gain", "interval" ((low, high) at the report's
        confidence, or None) and "rows"."""
        out = new_result("tally_gain")
        name = ffi.NULL if benchmark is None else ffi.new("char[]", cstring(benchmark,
                                                                           "benchmark"))
        check(lib.tally_report_gain(out, self._handle(), self._config_index(label), name))
        return {"gain": out.value,
                "interval": (out.low, out.high) if out.interval_defined else None,
                "rows": int(out.rows)}

    def pairing(self, label: Union[str, int]) -> dict:
        """How the rows of configuration `label` (or its index, >= 1) paired with the
        baseline's: a dict with "compared" (rows in both), "missing" (baseline rows without a
        partner), "new" (rows only it has) and "renamed" (compared rows paired under another
        name by `case_map` or `pair_by`)."""
        out = new_result("tally_pairing")
        check(lib.tally_report_pairing(out, self._handle(), self._config_index(label)))
        return {"compared": int(out.compared), "missing": int(out.missing),
                "new": int(out.added), "renamed": int(out.renamed)}

    @property
    def worst_regression(self) -> float:
        """The largest significant regression as a positive percentage (0.0 when none)."""
        out = ffi.new("double *")
        check(lib.tally_report_worst_regression(out, self._handle()))
        return out[0]

    # ---- rendering by the library ------------------------------------------------------------

    def _render(self, fmt: str, **options) -> str:
        opts = new_options("tally_render_options")
        keep = fill_options(opts, _RENDER_OPTIONS, options)
        opts.format = getattr(lib, fmt)
        out, length = ffi.new("char **"), ffi.new("size_t *")
        check(lib.tally_report_render(out, length, self._handle(), opts))
        del keep
        return take_buffer(out, length)

    def text(self, style: Optional[str] = None, color: Optional[bool] = None,
             precision: Optional[int] = None, hist: Optional[bool] = None,
             ascii: Optional[bool] = None, width: Optional[int] = None,
             diagnose: Optional[bool] = None, only_statistic: Optional[bool] = None,
             case_label: Optional[str] = None, units_text: Optional[str] = None,
             case_strip: Optional[str] = None, print_ratio: Optional[bool] = None,
             system: Optional[bool] = None, fit_width: Optional[int] = None) -> str:
        """A plain-text table: style "table" (the default), "mmtests", "normalized" or "pct".
        color: ANSI colours; precision: decimals of the values (None: the style's own);
        hist: end with a compact distribution of every case (block characters, or ASCII with
        ascii=True) within `width` columns (None: 80); diagnose: the seed layouts end with the
        diagnostics notes too (the table style always shows them); only_statistic: the mmtests
        style prints only the rows of the compared statistic (the posts' Amean block);
        case_label: the first-column label of the normalized and pct styles; units_text: the
        normalized style's "Units : Normalized TEXT"; case_strip: text removed from the end (or
        start) of the case names shown; print_ratio: mmtests Ratio rows and a Gmean row;
        system: start with the recorded system details; fit_width: the columns the text
        styles must fit (blocks of configurations, rows or columns when wider)."""
        return self._render("TALLY_FORMAT_TEXT", style=style, color=color, precision=precision,
                            hist=hist, ascii=ascii, width=width, diagnose=diagnose,
                            only_statistic=only_statistic, case_label=case_label,
                            units_text=units_text, case_strip=case_strip,
                            print_ratio=print_ratio, system=system, fit_width=fit_width)

    def to_html(self, fragment: bool = False) -> str:
        """The self-contained HTML report with its plots (docs/reports.md). fragment=True gives
        an embeddable <div> with its own scoped stylesheet instead of a whole document: what
        notebooks display."""
        return self._render("TALLY_FORMAT_HTML", fragment=fragment)

    # File formats save() knows by the file name's extension (the names come from the library:
    # formats()).
    _SAVE_FORMATS = {".html": "TALLY_FORMAT_HTML", ".htm": "TALLY_FORMAT_HTML",
                     ".json": "TALLY_FORMAT_JSON", ".csv": "TALLY_FORMAT_CSV",
                     ".md": "TALLY_FORMAT_MARKDOWN", ".txt": "TALLY_FORMAT_TEXT",
                     ".xlsx": "TALLY_FORMAT_XLSX"}

    def save(self, path: PathLike, format: Optional[str] = None) -> None:
        """Write the report atomically, in the format its extension names (.html, .json, .csv,
        .md, .txt, .xlsx) or `format` ("html", "json", "csv", "md", "text", "xlsx")."""
        import os
        opts = new_options("tally_render_options")
        if format is None:
            ext = os.path.splitext(os.fspath(path))[1].lower()
            if ext not in self._SAVE_FORMATS:
                raise ValueError(f"cannot tell the format of {os.fspath(path)!r} from its "
                                 f"extension; pass format= (one of "
                                 f"{', '.join(f.name for f in formats())})")
            opts.format = getattr(lib, self._SAVE_FORMATS[ext])
        else:
            opts.format = enum_from_name("format", format, "format")
        check(lib.tally_report_write(self._handle(), cpath(path), opts))

    def to_json(self) -> str:
        """The versioned JSON report (docs/report-json.md) as a str."""
        return self._render("TALLY_FORMAT_JSON")

    def to_csv(self) -> str:
        return self._render("TALLY_FORMAT_CSV")

    def to_markdown(self, only_changed: Optional[bool] = None,
                    max_length: Optional[int] = None, system: Optional[bool] = None) -> str:
        """GitHub-flavoured Markdown for a pull-request comment (docs/reports.md): the headline
        first, then a table per benchmark. only_changed: keep only the rows with a significant
        change (or a missing cell) and fold the others into a <details> block; max_length: the
        most characters the comment may take (None: GitHub's limit, 65,536; negative: no
        limit), rows and notes beyond it left out with a note saying so; system: start with
        the recorded system details, folded."""
        return self._render("TALLY_FORMAT_MARKDOWN", only_changed=only_changed,
                            max_length=max_length, system=system)

    def to_xlsx(self, path: PathLike) -> None:
        """Write a spreadsheet atomically (a sheet per benchmark, raw samples, a chart)."""
        opts = new_options("tally_render_options")
        opts.format = lib.TALLY_FORMAT_XLSX
        check(lib.tally_report_write(self._handle(), cpath(path), opts))

    # ---- Python-side views -------------------------------------------------------------------

    def to_dataframe(self) -> "pandas.DataFrame":
        """The report as a pandas DataFrame: one row per (benchmark, case) and configuration,
        indexed by (benchmark, case), the configuration in the column `label`.

        Cases that are all numbers in a benchmark are numbers in the index (ints when every one
        is an integer). `present` is False where the configuration lacks the case;
        `verdict` is "baseline" on the baseline's rows, "missing" where the case is missing on
        either side, else the comparison's verdict. `significant` is a nullable boolean (NA
        where nothing was tested); `n` an integer; `spread` and `cv` the table's (harmonic on
        HMean rows, relative to the row's own statistic); `low`/`high` the interval of `value`;
        `pct_imp_low`/`pct_imp_high` and `ratio_low`/`ratio_high` the change's interval; NaN
        where a figure is undefined. The columns are listed in docs/python.md.
        """
        pandas = pandas_module("Report.to_dataframe()")
        records = []
        keys = []
        for row in self.rows:
            base_present = row.cells[0].present
            for k, cell in enumerate(row.cells):
                s, c = cell.summary, cell.comparison
                if k == 0:
                    verdict = "baseline" if cell.present else "missing"
                elif not cell.present or not base_present:
                    verdict = "missing"
                else:
                    verdict = c.verdict if c else None
                ci, pct_ci, ratio_ci = cell.interval, c and c.pct_imp_interval, \
                    c and c.ratio_interval
                keys.append((row.benchmark, row.case))
                records.append({
                    "label": cell.label, "present": cell.present, "baseline": k == 0,
                    "unit": row.unit, "better": row.better, "statistic": row.statistic,
                    "n": s.n if s else None, "value": cell.value,
                    "low": ci[0] if ci else None, "high": ci[1] if ci else None,
                    "spread": cell.spread, "cv": cell.cv,
                    "stddev": s.stddev if s else None,
                    "ratio": c.ratio if c else None, "ratio_low": ratio_ci[0] if ratio_ci else None,
                    "ratio_high": ratio_ci[1] if ratio_ci else None,
                    "pct_imp": c.pct_imp if c else None,
                    "pct_imp_low": pct_ci[0] if pct_ci else None,
                    "pct_imp_high": pct_ci[1] if pct_ci else None,
                    "interval_method": c.interval_method if c else None,
                    "test": c.test if c else None,
                    "p_value": c.p_value if c else None, "p_adjusted": cell.p_adjusted,
                    "significant": c.significant if c else None,
                    "verdict": verdict,
                    "mde_pct": c.mde_pct if c else None,
                    "runs_needed": c.runs_needed if c and c.runs_needed != math.inf else None,
                    "runs_target_pct": c.runs_target_pct if c else None})
        columns = list(_FRAME_TYPES)
        frame = pandas.DataFrame.from_records(records, columns=columns)
        frame = frame.astype({k: v for k, v in _FRAME_TYPES.items() if v != "category"})
        frame["verdict"] = pandas.Categorical(frame["verdict"], categories=_VERDICTS)
        frame.index = case_index(pandas, keys)
        return frame

    def plot(self, kind: str = "distribution", benchmark: Optional[str] = None,
             case: Optional[str] = None, ax: Optional["matplotlib.axes.Axes"] = None,
             theme: str = "auto") -> "matplotlib.axes.Axes":
        """Draw one of the HTML report's plots with matplotlib and return the Axes: "distribution"
        (a case's runs per configuration over a box), "runs" (a case's runs in run order),
        "sweep" (the statistic per case with its interval), "change" (pct-imp per case, the
        marker telling the verdict) or "spectrum" (a case's percentiles against 1 / (1 - p),
        HdrHistogram style, with order-statistic bands, by the report's percentile method;
        pooled histogram runs from their merged buckets, banded only with independent_requests).
        benchmark: its name (default: the first); case: for "distribution", "runs" and
        "spectrum" (default: the first case); ax: an existing Axes, else a new figure.
        theme: "auto" (default) draws on a transparent background in colours that read on
        light and dark notebook themes alike (an Axes passed in keeps its own look, only the
        marks take those colours); "light" or "dark" paint an opaque background to match."""
        from ._plot import plot
        return plot(self, kind, benchmark, case, ax, theme)

    def _repr_html_(self):
        # The library's HTML (the same tables and plots as the HTML report), as a fragment.
        return self.to_html(fragment=True)

    def _repr_markdown_(self):
        return self.to_markdown()

    def __repr__(self):
        if self._ptr is None:
            return "<tally.Report (closed)>"
        return f"<tally.Report {self.labels!r}: {lib.tally_report_row_count(self._ptr)} rows>"


__all__ = ["Report", "Row", "Cell"]
