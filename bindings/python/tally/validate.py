"""`validate()`: another harness's own summary checked against tally's recomputation."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional

from . import _html
from ._native import check, ffi, lib, new_options, real, text

if TYPE_CHECKING:  # names used in annotations only
    from .results import Results


@dataclass(frozen=True)
class Check:
    """One reported statistic of one case: the harness's value and tally's recomputation
    (NaN when it could not be computed; `note` says why)."""

    label: str
    benchmark: str
    case: str
    statistic: str
    reported: float
    recomputed: float
    rel_diff: float
    agreed: bool
    note: str


class Validation(tuple):
    """The checks of tally.validate(), a tuple of Check, with `disagreements` and `tolerance`."""

    tolerance = 0.0

    @property
    def disagreements(self) -> List[Check]:
        return [c for c in self if not c.agreed]

    def _repr_html_(self):
        rows = []
        for c in self:
            cls = None if c.agreed else "tally-regression"
            rows.append([c.label, c.benchmark, c.case, c.statistic, _html.number(c.reported, 6),
                         _html.number(c.recomputed, 6), _html.number(c.rel_diff, 3),
                         ("agrees" if c.agreed else "DISAGREES", cls), c.note])
        return _html.table(["label", "benchmark", "case", "statistic", "reported", "recomputed",
                            "rel. diff", "check", "note"], rows, left=(0, 1, 2, 3, 7, 8),
                           caption=f"{len(self.disagreements)} of {len(self)} disagree "
                                   f"(tolerance {self.tolerance:g})")


def validate(results: "Results", tolerance: Optional[float] = None) -> Validation:
    """Recompute every harness-reported statistic (`reported.*` case metadata, kept by the
    hyperfine and Google Benchmark importers) from the raw samples of `results`. tolerance: the
    relative difference still agreeing (None: the library's default,
    tally_validate_options_init)."""
    from .results import Results
    if not isinstance(results, Results):
        raise TypeError(f"results must be a tally.Results, not {type(results).__name__}")
    opts = new_options("tally_validate_options")
    if tolerance is not None:
        opts.tolerance = real(tolerance, "tolerance")
    out = ffi.new("tally_validation **")
    with results._use() as handle:
        check(lib.tally_validate(out, handle, opts))
    v = out[0]
    try:
        checks = Validation(Check(
            label=text(lib.tally_validation_resultset(v, i)),
            benchmark=text(lib.tally_validation_benchmark(v, i)),
            case=text(lib.tally_validation_case(v, i)),
            statistic=text(lib.tally_validation_statistic(v, i)),
            reported=lib.tally_validation_reported(v, i),
            recomputed=lib.tally_validation_recomputed(v, i),
            rel_diff=lib.tally_validation_rel_diff(v, i),
            agreed=bool(lib.tally_validation_agreed(v, i)),
            note=text(lib.tally_validation_note(v, i)))
            for i in range(lib.tally_validation_count(v)))
        checks.tolerance = lib.tally_validation_tolerance(v)
    finally:
        lib.tally_validation_free(v)
    return checks


__all__ = ["validate", "Validation", "Check"]
