"""`summary()` and `compare()`: descriptive statistics and the comparison of two sample sets."""

import math
import numbers
from dataclasses import dataclass, fields, replace
from typing import Iterable, List, Optional, Sequence, Tuple, Union

from . import _html
from ._native import check, enum_from_name, enum_name, ffi, lib, new_options, new_result, real
from ._samples import as_counts, as_doubles


@dataclass(frozen=True, repr=False)
class Summary:
    """Descriptive statistics of one sample set (docs/statistics.md has the formulas).

    Statistics that are undefined for the samples are None: hmean and gmean need every sample
    > 0, hstddev and hcv also n >= 2; stddev, sem and mean_ci need n >= 2; cv also a non-zero
    mean; median_ci enough samples for the confidence level (n >= 6 at 95 %).
    """

    n: int
    min: float
    max: float
    amean: float
    median: float
    bamean: float
    hmean: Optional[float]
    gmean: Optional[float]
    stddev: Optional[float]
    hstddev: Optional[float]
    cv: Optional[float]
    hcv: Optional[float]
    sem: Optional[float]
    mean_ci: Optional[Tuple[float, float]]
    median_ci: Optional[Tuple[float, float]]
    median_ci_level: Optional[float]
    outliers_mad: int
    outliers_tukey: int
    percentiles: Optional[dict] = None  # {p: value} when summary() was asked for percentiles

    @classmethod
    def _from_c(cls, s):
        flags = s.defined

        def when(flag, value):
            return value if flags & flag else None

        has_sd, has_h = lib.TALLY_SUMMARY_STDDEV, lib.TALLY_SUMMARY_HMEAN
        has_hsd, has_mci = lib.TALLY_SUMMARY_HSTDDEV, lib.TALLY_SUMMARY_MEDIAN_CI
        return cls(
            n=int(s.n), min=s.min, max=s.max, amean=s.amean, median=s.median, bamean=s.bamean,
            hmean=when(has_h, s.hmean), gmean=when(lib.TALLY_SUMMARY_GMEAN, s.gmean),
            stddev=when(has_sd, s.stddev), hstddev=when(has_hsd, s.hstddev),
            cv=when(lib.TALLY_SUMMARY_CV, s.cv), hcv=when(has_hsd, s.hcv), sem=when(has_sd, s.sem),
            mean_ci=when(lib.TALLY_SUMMARY_MEAN_CI, (s.mean_ci_low, s.mean_ci_high)),
            median_ci=when(has_mci, (s.median_ci_low, s.median_ci_high)),
            median_ci_level=when(has_mci, s.median_ci_level),
            outliers_mad=int(s.outliers_mad), outliers_tukey=int(s.outliers_tukey))

    def __repr__(self):
        parts = [f"n={self.n}", f"amean={self.amean:.6g}", f"median={self.median:.6g}"]
        if self.stddev is not None:
            parts.append(f"stddev={self.stddev:.6g}")
        if self.cv is not None:
            parts.append(f"cv={self.cv:.3g}%")
        return f"Summary({', '.join(parts)})"

    def as_dict(self) -> dict:
        """The statistics as a plain dict (CIs as (low, high) tuples)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def _rows(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "percentiles":
                for p, v in (value or {}).items():
                    yield [f"p{p:g}", _html.number(v)]
                continue
            if isinstance(value, tuple):
                value = f"[{_html.number(value[0])}, {_html.number(value[1])}]"
            else:
                value = _html.number(value)
            yield [f.name, value]

    def _repr_html_(self):
        return _html.table(["statistic", "value"], self._rows(),
                           caption=f"Summary of {self.n} samples")

    def _repr_markdown_(self):
        lines = ["| statistic | value |", "| --- | ---: |"]
        lines += [f"| {name} | {value} |" for name, value in self._rows()]
        return "\n".join(lines) + "\n"


def _summary_options(opts, direction=None, confidence=None, percentile_method=None,
                     bamean_percent=None, mad_threshold=None, tukey_k=None):
    """Set the given summary options; None keeps the library's default already in `opts`."""
    if direction is not None:
        opts.direction = enum_from_name("direction", direction, "direction")
    if percentile_method is not None:
        opts.percentile_method = enum_from_name("percentile_method", percentile_method,
                                                "percentile_method")
    for name, value in (("confidence", confidence), ("bamean_percent", bamean_percent),
                        ("mad_threshold", mad_threshold), ("tukey_k", tukey_k)):
        if value is not None:
            setattr(opts, name, real(value, name))


Samples = Iterable[float]


def _counts(counts, n):
    """counts as a cffi uint64_t array of n, or NULL for None."""
    if counts is None:
        return ffi.NULL
    c = [int(v) for v in counts]
    if len(c) != n:
        raise ValueError(f"counts has {len(c)} entries, values {n}")
    if any(v < 0 for v in c):
        raise ValueError("counts must be >= 0")
    return ffi.new("uint64_t[]", c or [0])


def percentiles(samples: Samples, p: Union[float, Sequence[float]], *,
                method: Optional[str] = None,
                counts: Optional[Sequence[int]] = None) -> Union[float, List[float]]:
    """Percentiles p (a number or a sequence of numbers in [0, 100]) of the samples, as a float or
    a list of floats. method: "linear" (R type 7, numpy's default), "nearest-rank" (the
    smallest sample with at least p % of the samples at or below it) or "harrell-davis" ("hd");
    None: the library's default (tally_summary_options_init). counts: a histogram's counts, one
    per sample: `samples` are then its ascending bucket values, each standing for its count of
    values (tally_weighted_percentiles: exactly what the expanded samples give)."""
    x = as_doubles(samples)
    single = isinstance(p, numbers.Real) and not isinstance(p, bool)
    ps = as_doubles([p] if single else p, "p")
    opts = new_options("tally_summary_options")
    _summary_options(opts, percentile_method=method)
    out = ffi.new("double[]", max(ps.n, 1))
    if counts is None:
        check(lib.tally_percentiles(out, x.ptr, x.n, ps.ptr, ps.n, opts.percentile_method))
    else:
        c = _counts(counts, x.n)
        check(lib.tally_weighted_percentiles(out, x.ptr, c, x.n, ps.ptr, ps.n,
                                             opts.percentile_method))
    return out[0] if single else list(out[0:ps.n])


def percentile_interval(samples: Samples, p: float, *, confidence: Optional[float] = None,
                        counts: Optional[Sequence[int]] = None) -> Tuple[float, float, float]:
    """The distribution-free interval of the p-th percentile from order statistics, as
    scipy.stats.quantile_test(...).confidence_interval(): (low, high, level), level the exact
    coverage reached (>= confidence, default 0.95). The samples are sorted here unless counts
    are given (then they are a histogram's ascending values, as for percentiles()). Raises
    tally.NotEnoughData when there are too few values for the level at this p (p99 needs 368
    at 95 %)."""
    values = sorted(float(v) for v in samples) if counts is None else samples
    x = as_doubles(values)
    c = _counts(counts, x.n)
    lo, hi, level = ffi.new("double *"), ffi.new("double *"), ffi.new("double *")
    check(lib.tally_percentile_interval(lo, hi, level, x.ptr, c, x.n, real(p, "p"),
                                        0.95 if confidence is None
                                        else real(confidence, "confidence")))
    return lo[0], hi[0], level[0]


def outliers(samples: Samples, *, mad_threshold: Optional[float] = None,
             tukey_k: Optional[float] = None) -> Tuple[List[bool], List[bool]]:
    """Flag outliers without removing them: (mad, tukey), two lists of bools, one per sample.
    mad: modified z-score |0.6745 (x - median) / MAD| above mad_threshold; tukey: outside
    [Q1 - k IQR, Q3 + k IQR]. None: the thresholds of tally_summary_options_init."""
    x = as_doubles(samples)
    opts = new_options("tally_summary_options")
    _summary_options(opts, mad_threshold=mad_threshold, tukey_k=tukey_k)
    mad = ffi.new("unsigned char[]", max(x.n, 1))
    tukey = ffi.new("unsigned char[]", max(x.n, 1))
    check(lib.tally_outliers(mad, tukey, x.ptr, x.n, opts.mad_threshold, opts.tukey_k))
    return [bool(f) for f in mad[0:x.n]], [bool(f) for f in tukey[0:x.n]]


def summary(samples: Samples, *, direction: Optional[str] = None,
            confidence: Optional[float] = None, percentile_method: Optional[str] = None,
            bamean_percent: Optional[float] = None, mad_threshold: Optional[float] = None,
            tukey_k: Optional[float] = None,
            percentiles: Optional[Sequence[float]] = None) -> "Summary":
    """Summarise samples (list, tuple, array.array, numpy array or any iterable of numbers).

    Every option left at None takes the library's default (tally_summary_options_init; the
    values are listed in docs/python.md).
    direction: "lower" or "higher" is better (decides which samples BAmean keeps).
    confidence: level of the mean and median confidence intervals, in (0, 1).
    percentile_method: "linear" (R type 7, numpy's default) or "nearest-rank".
    bamean_percent: the best share of samples BAmean averages; mad_threshold, tukey_k: the
    outlier rules (see outliers()).
    percentiles: a sequence of percentages in [0, 100] (e.g. (90, 99)), taken in the summary's
    own selection; the result's `percentiles` maps each to its value.
    A histogram is given as a pair `(values, counts)`: bucket values strictly ascending and their
    whole counts (a run of 10^8 requests in its buckets, as Case.histograms holds them); the
    summary is that of the requests it stands for (tally_histogram_summarize, n the total count).
    Raises NotEnoughData for no samples, NonFiniteError for NaN/inf, TypeError for non-numbers.
    """
    opts = new_options("tally_summary_options")
    _summary_options(opts, direction, confidence, percentile_method, bamean_percent,
                     mad_threshold, tukey_k)
    out = new_result("tally_summary")
    if _is_histogram(samples):
        values = as_doubles(samples[0], "values")
        counts = as_counts(samples[1], values.n)
        check(lib.tally_histogram_summarize(out, values.ptr, counts, values.n, opts))
        if percentiles is None:
            return Summary._from_c(out)
        ps = as_doubles(percentiles, "percentiles")
        got = ffi.new("double[]", max(ps.n, 1))
        check(lib.tally_weighted_percentiles(got, values.ptr, counts, values.n, ps.ptr, ps.n,
                                             opts.percentile_method))
        return replace(Summary._from_c(out),
                       percentiles={ps.ptr[i]: got[i] for i in range(ps.n)})
    x = as_doubles(samples)
    if percentiles is None:
        check(lib.tally_summarize(out, x.ptr, x.n, opts))
        return Summary._from_c(out)
    ps = as_doubles(percentiles, "percentiles")
    values = ffi.new("double[]", max(ps.n, 1))
    check(lib.tally_summarize_with_percentiles(out, values, x.ptr, x.n, ps.ptr, ps.n, opts))
    return replace(Summary._from_c(out), percentiles={ps.ptr[i]: values[i] for i in range(ps.n)})


def _is_histogram(samples) -> bool:
    """A pair (values, counts) of two sequences, which no sequence of numbers can be."""
    return (isinstance(samples, tuple) and len(samples) == 2 and
            all(not isinstance(part, (str, bytes, numbers.Number)) and hasattr(part, "__len__")
                for part in samples))


@dataclass(frozen=True, repr=False)
class Comparison:
    """The comparison of a baseline with new samples.

    ratio = new_value / base_value of the compared statistic; pct_imp is positive when the new
    samples are better; both are None when the baseline's value is 0 (no ratio exists).
    p_value is None when no test produced one (never 1 in its place).
    verdict is "improvement", "regression", "equivalent", "inconclusive", "insufficient",
    "not-tested", "identical" (both sides constant and equal) or "within-noise" (reports with a
    noise profile). ratio_interval and pct_imp_interval are (low, high) at `confidence`, the
    interval of the test that ran (Hodges-Lehmann for Mann-Whitney) (None when
    there is none), computed by `interval_method`. mde_pct: the change the test detects with
    `power`; runs_needed: runs per side that would resolve runs_target_pct (None when not
    computed). zero_variance is True when a test met two constant samples: p is then 0 (the
    centres differ) or 1 (equal).
    """

    base: Summary
    new: Summary
    statistic_name: str
    better: str
    test: str
    alpha: float
    base_value: float
    new_value: float
    ratio: Optional[float]
    pct_imp: Optional[float]
    statistic: Optional[float]
    df: Optional[float]
    p_value: Optional[float]
    exact: bool
    significant: bool
    verdict: str
    zero_variance: bool
    min_p: Optional[float]
    direction_conflict: bool
    interval_method: str
    confidence: float
    ratio_interval: Optional[Tuple[float, float]]
    pct_imp_interval: Optional[Tuple[float, float]]
    power: float
    mde_pct: Optional[float]
    equivalence_pct: Optional[float]
    equivalence_interval: Optional[Tuple[float, float]]
    equivalent: bool
    runs_needed: Optional[int]
    runs_target_pct: Optional[float]

    @classmethod
    def _from_c(cls, c, base, new, statistic_name, better, alpha):
        """From a filled tally_comparison and the Summary objects of its two sides."""
        has_p = bool(c.p_defined)
        ci = bool(c.interval_defined)
        runs = None
        if c.runs_needed:
            runs = int(c.runs_needed) if c.runs_needed <= 10000000 else math.inf
        return cls(base=base, new=new,
                   statistic_name=statistic_name, better=better,
                   test=enum_name("test", c.test), alpha=alpha, base_value=c.base_value,
                   new_value=c.new_value, ratio=c.ratio if c.ratio_defined else None,
                   pct_imp=c.pct_imp if c.ratio_defined else None,
                   statistic=c.statistic if has_p else None,
                   df=c.df if has_p and c.df > 0 else None,
                   p_value=c.p_value if has_p else None, exact=bool(c.exact),
                   significant=bool(c.significant), verdict=enum_name("verdict", c.verdict),
                   zero_variance=bool(c.zero_variance),
                   min_p=None if math.isnan(c.min_p) else c.min_p,
                   direction_conflict=bool(c.direction_conflict),
                   interval_method=enum_name("interval_method", c.interval),
                   confidence=c.confidence,
                   ratio_interval=(c.ratio_low, c.ratio_high) if ci else None,
                   pct_imp_interval=(c.pct_low, c.pct_high) if ci else None,
                   power=c.power, mde_pct=c.mde_pct if c.mde_defined else None,
                   equivalence_pct=c.equivalence_pct if c.equivalence_pct > 0 else None,
                   equivalence_interval=(c.equivalence_low, c.equivalence_high)
                   if c.equivalence_defined else None,
                   equivalent=bool(c.equivalent), runs_needed=runs,
                   runs_target_pct=c.runs_target_pct if c.runs_target_pct > 0 else None)

    def __repr__(self):
        return (f"Comparison({self.statistic_name} {self.base_value:.6g} -> {self.new_value:.6g}, "
                f"ratio={_html.number(self.ratio, 6)}, pct_imp={_pct(self.pct_imp)}"
                f"{_interval(self.pct_imp_interval)}, {self.test} "
                f"p={'-' if self.p_value is None else _html.pvalue(self.p_value)}, "
                f"verdict={self.verdict!r})")

    def _verdict_class(self):
        return _html.verdict_class(self.verdict)

    def _repr_html_(self):
        cls = self._verdict_class()
        level = f"{self.confidence * 100:g}%"
        rows = [["statistic", self.statistic_name],
                ["base", _html.number(self.base_value)], ["new", _html.number(self.new_value)],
                ["ratio", _html.number(self.ratio)],
                [f"pct_imp (+ = better) [{level} CI]",
                 (_pct(self.pct_imp) + _interval(self.pct_imp_interval), cls)],
                ["test", self.test], ["p", _html.pvalue(self.p_value)],
                ["verdict", (self.verdict, cls)],
                ["MDE", "\u2014" if self.mde_pct is None else f"\u00b1{self.mde_pct:.2f}%"],
                ["runs needed", "\u2014" if self.runs_needed is None
                 else f"~{self.runs_needed} per side for \u00b1{self.runs_target_pct:g}%"]]
        return _html.table(["", "value"], rows,
                           caption=f"{self.statistic_name}, {self.better} is better, "
                                   f"alpha {self.alpha:g}")

    def _repr_markdown_(self):
        return (f"| {self.statistic_name} base | new | ratio | pct_imp | p ({self.test}) "
                f"| verdict |\n"
                f"| ---: | ---: | ---: | ---: | ---: | --- |\n"
                f"| {_html.number(self.base_value)} | {_html.number(self.new_value)} | "
                f"{_html.number(self.ratio)} | {_pct(self.pct_imp)}"
                f"{_interval(self.pct_imp_interval)} | "
                f"{_html.pvalue(self.p_value)} | {self.verdict} |\n")


def _pct(value):
    return "\u2014" if value is None else f"{value:+.2f}%"


def _interval(bounds):
    """ " [low, high]" of a pct-imp interval, or "" when there is none (never a +-)."""
    return "" if bounds is None else f" [{bounds[0]:+.2f}, {bounds[1]:+.2f}]"


def compare(base: Samples, new: Samples, *, test: Optional[str] = None,
            alpha: Optional[float] = None, better: Optional[str] = None,
            statistic: Optional[str] = None, confidence: Optional[float] = None,
            percentile_method: Optional[str] = None, bamean_percent: Optional[float] = None,
            equivalence: Optional[float] = None, power: Optional[float] = None,
            mde: Optional[float] = None) -> "Comparison":
    """Compare new samples with a baseline.

    Every option left at None takes the library's default (tally_compare_options_init; the
    values are listed in docs/python.md).
    test: "auto" (the test of the statistic: Welch on x, 1/x or log x for amean, hmean, gmean,
    Price-Bonett for median, none for min, max, bamean), "welch", "student", "mann-whitney",
    "price-bonett", "mmtests-ci" or "none".
    alpha: significance level in (0, 1). better: "lower" or "higher".
    statistic: the centre compared by ratio and pct_imp ("amean", "hmean", "gmean", "median",
    "min", "max", "bamean", or "pNN" for a percentile: "p50", "p99", "p99.9", tested by
    Price-Bonett on the log ratio of percentiles). confidence: level of the change's interval.
    equivalence: margin in percent (a non-significant row whose 1 - 2 alpha interval lies
    inside +-margin is "equivalent"); power: of the MDE and runs needed; mde: the effect in
    percent the runs needed refer to (None: the margin).
    """
    xb = as_doubles(base, "base")
    xn = as_doubles(new, "new")
    opts = new_options("tally_compare_options")
    label, pct = None, 0.0
    if statistic is not None:
        if not isinstance(statistic, str):
            raise TypeError(f"statistic must be a str, not {type(statistic).__name__}")
        stat, p = ffi.new("tally_statistic *"), ffi.new("double *")
        check(lib.tally_statistic_parse(stat, p, statistic.encode()))
        opts.statistic, pct = stat[0], p[0]
        if pct > 0:
            label = f"p{pct:g}"
    for name, kind, value in (("test", "test", test), ("direction", "direction", better)):
        if value is not None:
            setattr(opts, name, enum_from_name(kind, value, "better" if kind == "direction"
                                               else name))
    for field, name, value in (("alpha", "alpha", alpha),
                               ("equivalence_pct", "equivalence", equivalence),
                               ("power", "power", power), ("mde_pct", "mde", mde)):
        if value is not None:
            setattr(opts, field, real(value, name))
    # The summaries' direction (which samples BAmean keeps) is the comparison's.
    # `so` is referenced here until both calls have returned (the struct only points to it).
    so = new_options("tally_summary_options")
    so.direction = opts.direction
    _summary_options(so, confidence=confidence, percentile_method=percentile_method,
                     bamean_percent=bamean_percent)
    so.percentile = pct
    opts.summary = so
    out = new_result("tally_comparison")
    check(lib.tally_compare(out, xb.ptr, xb.n, xn.ptr, xn.n, opts))
    sb, sn = new_result("tally_summary"), new_result("tally_summary")
    check(lib.tally_compare_summaries(sb, sn, xb.ptr, xb.n, xn.ptr, xn.n, opts))
    return Comparison._from_c(out, Summary._from_c(sb), Summary._from_c(sn),
                              label or enum_name("statistic", opts.statistic),
                              enum_name("direction", opts.direction), opts.alpha)
