/**
 * @file tally/io.h
 * @brief Reading result sets from files (native formats and other harnesses' files) and writing
 * the native JSON format.
 *
 * Every parse error is reported through tally_error_last() with the file name and `line:col`
 * (text formats) or a JSON path. A failed load leaves the destination list unchanged.
 */
#ifndef TALLY_IO_H
#define TALLY_IO_H

#include "common.h"
#include "resultset.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kind of input file. */
typedef enum tally_input_kind {
    TALLY_INPUT_AUTO = 0,        /**< Detect from the content. */
    TALLY_INPUT_NATIVE_JSON = 1, /**< tally's own JSON result sets (docs/formats.md). */
    TALLY_INPUT_CSV = 2,         /**< Long-form CSV: benchmark,case,config,value[,unit,better]. */
    TALLY_INPUT_TSV = 3,         /**< The same, tab-separated. */
    TALLY_INPUT_PLAIN = 4,       /**< One number per line, `#` comments (ministat style). */
    TALLY_INPUT_HYPERFINE = 5,   /**< hyperfine --export-json. */
    TALLY_INPUT_GBENCH = 6,      /**< Google Benchmark --benchmark_format=json. */
    TALLY_INPUT_PYPERF = 7,      /**< pyperf JSON. */
    TALLY_INPUT_GOTEST = 8,      /**< go test -bench text output. */
    TALLY_INPUT_HACKBENCH = 9,   /**< hackbench (rt-tests) output. */
    TALLY_INPUT_STREAM = 10,     /**< STREAM output. */
    TALLY_INPUT_SCHBENCH = 11,   /**< schbench output. */
    TALLY_INPUT_NETPERF = 12,    /**< netperf TCP_RR output. */
    TALLY_INPUT_TBENCH = 13      /**< tbench (dbench) output. */
} tally_input_kind;

/** Options for tally_load_file(). Initialise with ::TALLY_LOAD_OPTIONS_INIT. */
typedef struct tally_load_options {
    unsigned int version;  /**< ::TALLY_LOAD_OPTIONS_VERSION. */
    tally_input_kind kind; /**< Format, or ::TALLY_INPUT_AUTO. */
    const char *label;     /**< Label for a file holding one configuration (`tip=file`); NULL: from the file or its name. */
    const char *benchmark; /**< Benchmark name for formats that carry none (plain); NULL: file name. */
} tally_load_options;

#define TALLY_LOAD_OPTIONS_VERSION 1
#define TALLY_LOAD_OPTIONS_INIT { TALLY_LOAD_OPTIONS_VERSION, TALLY_INPUT_AUTO, NULL, NULL }

/**
 * Read a file and append its result sets to `into`, all or nothing.
 * @param into destination list; unchanged on failure.
 * @param path file to read ("-" is not special here).
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_EIO, ::TALLY_EPARSE, ::TALLY_EFORMAT, ::TALLY_EEXISTS (a label
 *   already in `into`), ::TALLY_ENONFINITE, ::TALLY_ELIMIT, ::TALLY_EMISMATCH, ::TALLY_ENOMEM.
 */
TALLY_API int tally_load_file(tally_results *into, const char *path, const tally_load_options *opts);

/**
 * Read from memory; `name` is used in error messages and as the default label.
 * @see tally_load_file()
 */
TALLY_API int tally_load_buffer(tally_results *into, const char *data, size_t len,
                                const char *name, const tally_load_options *opts);

/**
 * Detect the kind of an input from its first bytes.
 * @return ::TALLY_OK, ::TALLY_EFORMAT when nothing matches.
 */
TALLY_API int tally_detect_kind(tally_input_kind *out, const char *data, size_t len);

/** @return a short name such as "hyperfine", or NULL for an unknown value. */
TALLY_API const char *tally_input_kind_name(tally_input_kind kind);

/** Parse a name from tally_input_kind_name(). @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_input_kind_from_name(tally_input_kind *out, const char *name);

/**
 * Serialise result sets as native JSON (docs/formats.md); doubles round-trip exactly.
 * @param out receives a NUL-terminated buffer to release with tally_free().
 * @param len receives its length without the NUL; may be NULL.
 */
TALLY_API int tally_results_to_json(char **out, size_t *len, const tally_results *r);

/**
 * Write result sets as native JSON, atomically (temporary file, then rename).
 * @return ::TALLY_OK, ::TALLY_EIO, ::TALLY_ENOMEM.
 */
TALLY_API int tally_results_save(const tally_results *r, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_IO_H */
