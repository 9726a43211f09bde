/*
 * The error codes of include/tally/common.h, written once. Each row gives the code, the text of
 * tally_strerror(), and the Python exception the package raises for it (class, built-in base,
 * docstring). error.c builds its messages from this table, and bindings/python/gen_errors.py
 * generates tally/errors.py from it at build time, checking it against the header's enum (the
 * header keeps explicit values for cffi). A new code is appended to the enum and here.
 *
 * One row per line, as X(CODE, "message", PythonClass, PythonBase, "docstring"): the Python
 * generator reads the rows as text. TALLY_OK has no exception; TALLY_ERROR is the base class.
 */
#ifndef TALLY_ERROR_CODES_H
#define TALLY_ERROR_CODES_H

#define TALLY__ERROR_CODES(X)                                                                  \
X(TALLY_OK, "success", None, None, "")                                                         \
X(TALLY_ERROR, "error", TallyError, Exception, "A tally failure")                             \
X(TALLY_ENOMEM, "out of memory", OutOfMemory, MemoryError, "An allocation inside the library failed") \
X(TALLY_EINVAL, "invalid argument", InvalidArgument, ValueError, "An argument or option is invalid") \
X(TALLY_EDOMAIN, "value outside the statistic's domain", DomainError, ValueError, "A statistic is undefined for these values, e.g. HMean of x <= 0") \
X(TALLY_ENODATA, "too few samples", NotEnoughData, ValueError, "Too few samples for the requested statistic") \
X(TALLY_ENONFINITE, "non-finite value (NaN or infinity)", NonFiniteError, ValueError, "NaN or infinity in the input") \
X(TALLY_EPARSE, "parse error", ParseError, ValueError, "Malformed input; `file`, `line`, `column` or `json_path` say where") \
X(TALLY_EIO, "input/output error", TallyIOError, OSError, "Reading or writing a file failed") \
X(TALLY_EFORMAT, "unknown or wrong input format", FormatError, ValueError, "The input is not of the expected, or of any known, format") \
X(TALLY_ENOTFOUND, "not found", NotFound, LookupError, "A named file, benchmark, case or label does not exist") \
X(TALLY_EEXISTS, "already exists", AlreadyExists, ValueError, "A duplicate label, benchmark or case where names must be unique") \
X(TALLY_ELIMIT, "limit exceeded", LimitExceeded, ValueError, "A size limit was exceeded: nesting depth, line length, count") \
X(TALLY_ENUMERIC, "numerical failure", NumericalError, ArithmeticError, "A numerical routine failed to converge or overflowed") \
X(TALLY_EXLSX, "spreadsheet writer error", XlsxError, OSError, "The spreadsheet writer reported an error") \
X(TALLY_ERUN, "workload failed", RunError, RuntimeError, "A workload could not be started or failed") \
X(TALLY_EINTERRUPTED, "interrupted", Interrupted, TallyError, "An operation was cancelled by a callback") \
X(TALLY_EMISMATCH, "inconsistent data", MismatchError, ValueError, "Inconsistent data, e.g. one benchmark with different units") \
X(TALLY_EBUSY, "in use by another process", BusyError, OSError, "A file is in use by another process, e.g. a locked run journal")

#endif /* TALLY_ERROR_CODES_H */
