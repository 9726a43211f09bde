"""`Report`: a comparison report over result sets, rendered as text, JSON, CSV, Markdown, XLSX,
HTML with plots (also shown inline in notebooks) or a pandas DataFrame."""

from dataclasses import dataclass
from typing import Optional, Tuple

from ._native import (check, cpath, cstring, enum_from_name, enum_name, ffi, lib, new_options,
                      new_result, real, take_buffer)
from .results import Results
from .stats import Comparison, Summary


def _report_options(statistic, test, alpha, adjust, confidence, filter, summaries_only,
                    omit_samples, equivalence=None, power=0.8, mde=None, expect_diff=None):
    """tally_report_options from Report's keyword arguments, and the C strings they point to
    (keep both alive while the options are used)."""
    opts = new_options("tally_report_options")
    opts.statistic = enum_from_name("statistic", statistic, "statistic")
    opts.test = enum_from_name("test", test, "test")
    opts.alpha = real(alpha, "alpha")
    opts.adjust = enum_from_name("adjust", adjust, "adjust")
    opts.confidence = real(confidence, "confidence")
    opts.equivalence_pct = 0.0 if equivalence is None else real(equivalence, "equivalence")
    opts.power = real(power, "power")
    opts.mde_pct = 0.0 if mde is None else real(mde, "mde")
    for name, flag in (("summaries_only", summaries_only), ("omit_samples", omit_samples)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
    opts.summaries_only = int(summaries_only)
    opts.omit_samples = int(omit_samples)
    keep = None
    if filter is not None:
        keep = ffi.new("char[]", cstring(filter, "filter"))
        opts.filter = keep
    if expect_diff is not None:
        keys = [expect_diff] if isinstance(expect_diff, str) else list(expect_diff)
        keep_expect = ffi.new("char[]", cstring(",".join(keys), "expect_diff"))
        opts.expect_diff = keep_expect
        keep = (keep, keep_expect)
    return opts, keep


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

    @property
    def verdict(self):
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


class Report:
    """A comparison report; the first result set is the baseline.

    statistic: "default" (each benchmark's preferred statistic, else AMean when lower is better and
    HMean when higher is better) or a statistic name; test: "auto" (the test of each row's
    statistic), "welch", "student", "mann-whitney", "price-bonett", "mmtests-ci", "none";
    alpha: significance level; adjust: "none", "holm" or "bh"; confidence: level of intervals;
    equivalence: margin in percent for "equivalent" verdicts; power: of the MDE and runs needed;
    mde: effect in percent the runs needed refer to (default: the margin);
    filter: a shell glob on "benchmark/case"; summaries_only: summarise every configuration on
    its own, without comparisons; omit_samples: keep no copy of the raw samples (JSON then
    writes `"samples": null`, XLSX has no samples sheet), as tally.dask.report() does;
    expect_diff: metadata keys (names or shell globs, a string or a list) the configurations are
    meant to differ in, left out of `environment_differences`.
    The report copies what it needs: `results` may be freed afterwards.
    """

    def __init__(self, results, *, statistic="default", test="auto", alpha=0.05, adjust="none",
                 confidence=0.95, filter=None, summaries_only=False, equivalence=None,
                 power=0.8, mde=None, omit_samples=False, expect_diff=None):
        if not isinstance(results, Results):
            raise TypeError(f"results must be a tally.Results, not {type(results).__name__}")
        opts, keep = _report_options(statistic, test, alpha, adjust, confidence, filter,
                                     summaries_only, omit_samples, equivalence, power, mde,
                                     expect_diff)
        out = ffi.new("tally_report **")
        check(lib.tally_report_new(out, results._handle(), opts))
        self._adopt(out[0], opts.alpha)

    @classmethod
    def _from_pointer(cls, ptr, alpha):
        """A Report owning a C report made elsewhere (tally.dask)."""
        self = cls.__new__(cls)
        self._adopt(ptr, alpha)
        return self

    def _adopt(self, ptr, alpha):
        self._ptr = ffi.gc(ptr, lib.tally_report_free)
        self._alpha = alpha
        self._rows = None

    def close(self):
        """Free the C report now; the object is unusable afterwards."""
        if self._ptr is not None:
            ffi.release(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if self._ptr is None:
            raise ValueError("this Report was closed")
        return self._ptr

    # ---- structure -------------------------------------------------------------------------

    @property
    def labels(self):
        r = self._handle()
        return [ffi.string(lib.tally_report_config_label(r, i)).decode("utf-8")
                for i in range(lib.tally_report_config_count(r))]

    @property
    def rows(self):
        """The rows as Row objects (computed once, then cached)."""
        if self._rows is None:
            self._rows = tuple(self._read_rows())
        return self._rows

    def _read_rows(self):
        r = self._handle()
        labels = self.labels
        row = ffi.new("tally_report_row *")
        cell = new_result("tally_report_cell")
        summary = new_result("tally_summary")
        comparison = new_result("tally_comparison")
        for i in range(lib.tally_report_row_count(r)):
            check(lib.tally_report_row_at(row, r, i))
            better = enum_name("direction", row.direction)
            stat = enum_name("statistic", row.statistic)
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
                    diagnostics=self._diagnostics(i, j) if present else None))
            yield Row(benchmark=ffi.string(row.benchmark).decode("utf-8"),
                      case=ffi.string(row.case_name).decode("utf-8"),
                      unit=ffi.string(row.unit).decode("utf-8") if row.unit != ffi.NULL else "",
                      better=better, statistic=stat, cells=tuple(cells))

    _CHECKS = ((1, "trend"), (2, "autocorrelation"), (4, "warm-up"), (8, "step"),
               (16, "multimodal"), (32, "outliers"))

    def _diagnostics(self, row, config):
        d = ffi.new("tally_diagnostics *")
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
    def environment_differences(self):
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

    def geomean(self, label):
        """Geometric mean of gains of configuration `label` (or its index) over the rows present
        in both it and the baseline, each row expressed so that > 1 means better (new/base when
        higher is better, base/new when lower is better)."""
        out = ffi.new("double *")
        check(lib.tally_report_geomean(out, self._handle(), self._config_index(label)))
        return out[0]

    def gain(self, label, benchmark=None):
        """The geometric mean of gains (> 1 = better) of configuration `label` over one
        benchmark's rows or all: a dict with "gain", "interval" ((low, high) at the report's
        confidence, or None) and "rows"."""
        out = ffi.new("tally_gain *")
        name = ffi.NULL if benchmark is None else ffi.new("char[]", cstring(benchmark,
                                                                           "benchmark"))
        check(lib.tally_report_gain(out, self._handle(), self._config_index(label), name))
        return {"gain": out.value,
                "interval": (out.low, out.high) if out.interval_defined else None,
                "rows": int(out.rows)}

    @property
    def worst_regression(self):
        """The largest significant regression as a positive percentage (0.0 when none)."""
        out = ffi.new("double *")
        check(lib.tally_report_worst_regression(out, self._handle()))
        return out[0]

    # ---- rendering by the library ------------------------------------------------------------

    def _render(self, fmt, style="table", color=False, precision=None, **fields):
        opts = new_options("tally_render_options")
        for name, value in fields.items():
            setattr(opts, name, value)
        opts.format = getattr(lib, fmt)
        opts.style = enum_from_name("style", style, "style")
        if not isinstance(color, bool):
            raise TypeError(f"color must be a bool, not {type(color).__name__}")
        opts.color = int(color)
        if precision is not None:
            if isinstance(precision, bool) or not isinstance(precision, int):
                raise TypeError(f"precision must be an int, not {type(precision).__name__}")
            if not 0 <= precision <= 17:
                raise ValueError(f"precision must be in [0, 17], not {precision}")
            opts.precision = precision
        out, length = ffi.new("char **"), ffi.new("size_t *")
        check(lib.tally_report_render(out, length, self._handle(), opts))
        return take_buffer(out, length)

    def text(self, style="table", color=False, precision=None, hist=False, ascii=False,
             width=80):
        """A plain-text table: style "table", "mmtests", "normalized" or "pct". hist: end with
        a compact distribution of every case (block characters, or ASCII with ascii=True)
        within `width` columns."""
        for name, flag in (("hist", hist), ("ascii", ascii)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ValueError(f"width must be a positive int, not {width!r}")
        return self._render("TALLY_FORMAT_TEXT", style, color, precision, histogram=int(hist),
                            ascii=int(ascii), width=width)

    def to_html(self, fragment=False):
        """The self-contained HTML report with its plots (docs/reports.md). fragment=True gives
        an embeddable <div> with its own scoped stylesheet instead of a whole document: what
        notebooks display."""
        if not isinstance(fragment, bool):
            raise TypeError(f"fragment must be a bool, not {type(fragment).__name__}")
        return self._render("TALLY_FORMAT_HTML", fragment=int(fragment))

    # File formats save() knows by the file name's extension.
    _SAVE_FORMATS = {".html": "TALLY_FORMAT_HTML", ".htm": "TALLY_FORMAT_HTML",
                     ".json": "TALLY_FORMAT_JSON", ".csv": "TALLY_FORMAT_CSV",
                     ".md": "TALLY_FORMAT_MARKDOWN", ".txt": "TALLY_FORMAT_TEXT",
                     ".xlsx": "TALLY_FORMAT_XLSX"}

    def save(self, path, format=None):
        """Write the report atomically, in the format its extension names (.html, .json, .csv,
        .md, .txt, .xlsx) or `format` ("html", "json", "csv", "md", "text", "xlsx")."""
        import os
        opts = new_options("tally_render_options")
        if format is None:
            ext = os.path.splitext(os.fspath(path))[1].lower()
            if ext not in self._SAVE_FORMATS:
                raise ValueError(f"cannot tell the format of {os.fspath(path)!r} from its "
                                 f"extension; pass format= (one of html, json, csv, md, text, "
                                 f"xlsx)")
            opts.format = getattr(lib, self._SAVE_FORMATS[ext])
        else:
            opts.format = enum_from_name("format", format, "format")
        check(lib.tally_report_write(self._handle(), cpath(path), opts))

    def to_json(self):
        """The versioned JSON report (docs/report-json.md) as a str."""
        return self._render("TALLY_FORMAT_JSON")

    def to_csv(self):
        return self._render("TALLY_FORMAT_CSV")

    def to_markdown(self):
        """A GitHub-flavoured Markdown table, e.g. for a pull-request comment."""
        return self._render("TALLY_FORMAT_MARKDOWN")

    def to_xlsx(self, path):
        """Write a spreadsheet atomically (a sheet per benchmark, raw samples, a chart)."""
        opts = new_options("tally_render_options")
        opts.format = lib.TALLY_FORMAT_XLSX
        check(lib.tally_report_write(self._handle(), cpath(path), opts))

    # ---- Python-side views -------------------------------------------------------------------

    def to_dataframe(self):
        """A pandas DataFrame with one row per (benchmark, case, configuration)."""
        try:
            import pandas
        except ImportError as exc:
            raise ImportError("Report.to_dataframe() needs pandas (Debian: apt-get install "
                              "python3-pandas)") from exc
        records = []
        for row in self.rows:
            for cell in row.cells:
                s, c = cell.summary, cell.comparison
                records.append({
                    "benchmark": row.benchmark, "case": row.case, "config": cell.label,
                    "unit": row.unit, "better": row.better, "statistic": row.statistic,
                    "n": s.n if s else 0, "value": cell.value,
                    "stddev": s.stddev if s else None, "cv": s.cv if s else None,
                    "ratio": c.ratio if c else None, "pct_imp": c.pct_imp if c else None,
                    "pct_imp_low": c.pct_imp_interval[0] if c and c.pct_imp_interval else None,
                    "pct_imp_high": c.pct_imp_interval[1] if c and c.pct_imp_interval else None,
                    "ratio_low": c.ratio_interval[0] if c and c.ratio_interval else None,
                    "ratio_high": c.ratio_interval[1] if c and c.ratio_interval else None,
                    "interval_method": c.interval_method if c else None,
                    "test": c.test if c else None,
                    "p_value": c.p_value if c else None, "p_adjusted": cell.p_adjusted,
                    "significant": c.significant if c else None,
                    "verdict": c.verdict if c else None,
                    "mde_pct": c.mde_pct if c else None,
                    "runs_needed": c.runs_needed if c else None,
                    "runs_target_pct": c.runs_target_pct if c else None})
        return pandas.DataFrame.from_records(records)

    def plot(self, kind="distribution", benchmark=None, case=None, ax=None):
        """Draw one of the HTML report's plots with matplotlib and return the Axes: "distribution"
        (a case's runs per configuration over a box), "runs" (a case's runs in run order),
        "sweep" (the statistic per case with its interval) or "change" (pct-imp per case, the
        marker telling the verdict). benchmark: its name (default: the first); case: for the
        first two kinds (default: the first case); ax: an existing Axes, else a new figure."""
        from ._plot import plot
        return plot(self, kind, benchmark, case, ax)

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
