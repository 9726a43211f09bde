"""Exceptions raised by tally: one `TallyError` hierarchy mirroring the C library's error codes.

Every class also derives from the built-in exception a Python caller would expect (ValueError for
bad data, OSError for files, MemoryError for allocation failures), so generic handlers work too.
"""


class TallyError(Exception):
    """A tally failure. Attributes mirror the C library's `tally_error`:

    code      the negative `tally_error_code` (e.g. -7 for a parse error)
    message   the full message, prefixed with `file:line:col: ` when a location is known
    file, line, column, json_path   the location of an input error, else None
    """

    def __init__(self, message, code=-1, file=None, line=None, column=None, json_path=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.json_path = json_path

    def __reduce__(self):
        # Pickled with its location, so an error raised in another process (a Dask worker)
        # arrives whole.
        return (type(self), (self.message, self.code, self.file, self.line, self.column,
                             self.json_path))


class OutOfMemory(TallyError, MemoryError):
    """An allocation inside the library failed (TALLY_ENOMEM)."""


class InvalidArgument(TallyError, ValueError):
    """An argument or option is invalid (TALLY_EINVAL)."""


class DomainError(TallyError, ValueError):
    """A statistic is undefined for these values, e.g. HMean of x <= 0 (TALLY_EDOMAIN)."""


class NotEnoughData(TallyError, ValueError):
    """Too few samples for the requested statistic (TALLY_ENODATA)."""


class NonFiniteError(TallyError, ValueError):
    """NaN or infinity in the input (TALLY_ENONFINITE)."""


class ParseError(TallyError, ValueError):
    """Malformed input; `file`, `line`, `column` or `json_path` say where (TALLY_EPARSE)."""


class TallyIOError(TallyError, OSError):
    """Reading or writing a file failed (TALLY_EIO)."""


class FormatError(TallyError, ValueError):
    """The input is not of the expected, or of any known, format (TALLY_EFORMAT)."""


class NotFound(TallyError, LookupError):
    """A named file, benchmark, case or label does not exist (TALLY_ENOTFOUND)."""


class AlreadyExists(TallyError, ValueError):
    """A duplicate label, benchmark or case where names must be unique (TALLY_EEXISTS)."""


class LimitExceeded(TallyError, ValueError):
    """A size limit was exceeded: nesting depth, line length, count (TALLY_ELIMIT)."""


class NumericalError(TallyError, ArithmeticError):
    """A numerical routine failed to converge or overflowed (TALLY_ENUMERIC)."""


class XlsxError(TallyError, OSError):
    """The spreadsheet writer reported an error (TALLY_EXLSX)."""


class RunError(TallyError, RuntimeError):
    """A workload could not be started or failed (TALLY_ERUN)."""


class Interrupted(TallyError):
    """An operation was cancelled by a callback (TALLY_EINTERRUPTED)."""


class MismatchError(TallyError, ValueError):
    """Inconsistent data, e.g. one benchmark with different units (TALLY_EMISMATCH)."""


class BusyError(TallyError, OSError):
    """A file is in use by another process, e.g. a locked run journal (TALLY_EBUSY)."""


# C enumerator name -> class; _native resolves the names to the values in the generated cdef.
BY_CODE_NAME = {
    "TALLY_ERROR": TallyError,
    "TALLY_ENOMEM": OutOfMemory,
    "TALLY_EINVAL": InvalidArgument,
    "TALLY_EDOMAIN": DomainError,
    "TALLY_ENODATA": NotEnoughData,
    "TALLY_ENONFINITE": NonFiniteError,
    "TALLY_EPARSE": ParseError,
    "TALLY_EIO": TallyIOError,
    "TALLY_EFORMAT": FormatError,
    "TALLY_ENOTFOUND": NotFound,
    "TALLY_EEXISTS": AlreadyExists,
    "TALLY_ELIMIT": LimitExceeded,
    "TALLY_ENUMERIC": NumericalError,
    "TALLY_EXLSX": XlsxError,
    "TALLY_ERUN": RunError,
    "TALLY_EINTERRUPTED": Interrupted,
    "TALLY_EMISMATCH": MismatchError,
    "TALLY_EBUSY": BusyError,
}

__all__ = ["TallyError"] + sorted({cls.__name__ for cls in BY_CODE_NAME.values()} - {"TallyError"})
