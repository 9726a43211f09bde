"""tally: raw benchmark runs in, trustworthy comparisons out.

    import tally
    s = tally.summary([0.38, 0.41, 0.39])                   # Summary: amean, cv, CIs, ...
    c = tally.compare(base, new, better="lower")            # Comparison: ratio, pct_imp, p_value
    results = tally.load("runs.csv")                        # Results: result sets by label
    report = tally.Report(results, adjust="holm")           # Report: text, JSON, Markdown, XLSX
    print(report.text(style="mmtests"))

    report = tally.dask.report("runs/*.csv")                # the same Report, computed on Dask
    h = tally.history("runs/*.json", git_order=".")         # change points over commits
    store = tally.Store("results.db")                       # results store: record, query

See docs/python.md. The C library does the work; calls release the GIL.
"""

from ._native import ffi as _ffi, lib as _lib, library_path
from .errors import *  # noqa: F401,F403  (the exception hierarchy is part of the API)
from .errors import __all__ as _error_names
from .history import History, history
from .report import Cell, FormatInfo, Report, Row, formats
from .results import Benchmark, Case, Results, ResultSet, load, loads
from .stats import (Comparison, Summary, compare, outliers, percentile_interval, percentiles,
                    summary)
from .store import Store
from .validate import Check, Validation, validate

__version__ = _ffi.string(_lib.tally_version()).decode("ascii")


def __getattr__(name):
    # tally.dask needs Dask, which tally itself does not: imported on first use.
    if name == "dask":
        import importlib
        return importlib.import_module(".dask", __name__)
    raise AttributeError(f"module 'tally' has no attribute {name!r}")

__all__ = ["summary", "percentiles", "percentile_interval", "outliers", "compare", "load", "loads", "validate", "Report", "Summary", "Comparison",
           "Results", "ResultSet", "Benchmark", "Case", "Row", "Cell", "Validation", "Check", "Store",
           "History", "history", "formats", "FormatInfo", "library_path", "__version__"] + list(_error_names)
