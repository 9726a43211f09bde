/**
 * @file tally/common.h
 * @brief Export macro, error codes, error reporting and library initialisation.
 *
 * Every fallible function of tally returns an `int`: 0 (::TALLY_OK) on success or a negative
 * ::tally_error_code. The thread that saw the failure can then read a message with
 * tally_error_last(). Output parameters come first in every signature.
 */
#ifndef TALLY_COMMON_H
#define TALLY_COMMON_H

#include <stddef.h>

#if defined(TALLY_STATIC_DEFINE)
#define TALLY_API
#elif defined(_WIN32)
#if defined(TALLY_BUILDING_LIBRARY)
#define TALLY_API __declspec(dllexport)
#else
#define TALLY_API __declspec(dllimport)
#endif
#else
#define TALLY_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Error codes returned by tally functions. The list is append-only: a value, once published,
 * keeps its meaning in every later release.
 */
typedef enum tally_error_code {
    TALLY_OK = 0,             /**< Success. */
    TALLY_ERROR = -1,         /**< Generic failure not covered below. */
    TALLY_ENOMEM = -2,        /**< An allocation failed. */
    TALLY_EINVAL = -3,        /**< An argument is invalid (NULL, out of range, bad option version). */
    TALLY_EDOMAIN = -4,       /**< A value lies outside a statistic's domain (HMean/GMean of x <= 0). */
    TALLY_ENODATA = -5,       /**< Too few samples for the requested statistic. */
    TALLY_ENONFINITE = -6,    /**< NaN or infinity in the input. */
    TALLY_EPARSE = -7,        /**< Malformed input; the message names file, line and column or JSON path. */
    TALLY_EIO = -8,           /**< Reading or writing a file failed. */
    TALLY_EFORMAT = -9,       /**< The input is not of the expected (or of any known) format. */
    TALLY_ENOTFOUND = -10,    /**< A named item (file, benchmark, case, label) does not exist. */
    TALLY_EEXISTS = -11,      /**< A duplicate (label, benchmark, case) where names must be unique. */
    TALLY_ELIMIT = -12,       /**< A size limit was exceeded (nesting depth, line length, count). */
    TALLY_ENUMERIC = -13,     /**< A numerical routine failed to converge or overflowed. */
    TALLY_EXLSX = -14,        /**< The spreadsheet writer reported an error. */
    TALLY_ERUN = -15,         /**< A workload could not be started or failed. */
    TALLY_EINTERRUPTED = -16, /**< An operation was cancelled by the caller's callback. */
    TALLY_EMISMATCH = -17,    /**< Inconsistent data, e.g. mixed units within one case. */
    TALLY_EBUSY = -18         /**< A file is in use by another process (a locked run journal). */
} tally_error_code;

/**
 * The last error seen by the calling thread.
 *
 * `file`, `line`, `column` and `json_path` are filled for input errors and empty (NULL or 0)
 * otherwise; `message` always holds the full text, already prefixed with `file:line:col: ` or
 * `file: $.path: ` when a location is known.
 */
typedef struct tally_error {
    int code;              /**< A ::tally_error_code. */
    const char *message;   /**< Human-readable message; never NULL. */
    const char *file;      /**< Input file name, or NULL. */
    unsigned long line;    /**< 1-based line, or 0. */
    unsigned long column;  /**< 1-based column, or 0. */
    const char *json_path; /**< JSON path such as `$.benchmarks[2].cases[0]`, or NULL. */
} tally_error;

/**
 * Initialise the library: turns GSL's abort-on-error handler off. Idempotent and thread-safe;
 * every tally function that needs it calls it too, so calling it explicitly is optional. It is the
 * only process-wide state tally touches (GSL's error handler is process-wide).
 * @return ::TALLY_OK.
 */
TALLY_API int tally_init(void);

/**
 * A static English description of an error code.
 * @param code a ::tally_error_code (any int is accepted).
 * @return a string with static storage; never NULL. Thread-safe.
 */
TALLY_API const char *tally_strerror(int code);

/**
 * The last error recorded on the calling thread.
 * @return a pointer valid until the next tally call on this thread; never NULL. When no error
 * was recorded, `code` is ::TALLY_OK and `message` is an empty string. Thread-local.
 */
TALLY_API const tally_error *tally_error_last(void);

/** Forget the calling thread's last error. Thread-local. */
TALLY_API void tally_error_clear(void);

/**
 * Free memory that a tally function returned to the caller (rendered buffers, strings).
 * @param ptr memory from tally, or NULL.
 */
TALLY_API void tally_free(void *ptr);

/** @return the library's version as "MAJOR.MINOR.PATCH"; static storage. */
TALLY_API const char *tally_version(void);

/** @return the library's version as MAJOR*10000 + MINOR*100 + PATCH. */
TALLY_API int tally_version_number(void);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_COMMON_H */
