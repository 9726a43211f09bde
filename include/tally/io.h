/**
 * @file tally/io.h
 * @brief Reading result sets from files (native formats and other harnesses' files) and writing
 * the native JSON format.
 *
 * Every parse error is reported through tally_error_last() with the file name and `line:col`
 * (text formats) or a JSON path. A failed load leaves the destination list unchanged. The
 * formats, the detection rules and the labelling rules are described in docs/formats.md.
 *
 * Thread safety: the functions here keep no global state; loading into independent lists from
 * different threads is safe.
 */
#ifndef TALLY_IO_H
#define TALLY_IO_H

#include "common.h"
#include "resultset.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Kind of input file. The constants below are the formats of the first releases; every format
 * the library reads has a kind, numbered from 1 without a gap: the formats added since have no
 * constant, follow the last constant in the order of the library's importer registry, and may
 * be numbered differently by another version of the library. Select one by its name with
 * tally_input_kind_from_name() ("fio", as `--from` takes it) and keep its name, not its number;
 * tally_input_kind_name() returns NULL after the last kind.
 */
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
    TALLY_INPUT_TBENCH = 13,     /**< tbench (dbench) output. */
    TALLY_INPUT_JOURNAL = 14     /**< A `tally run` journal (`OUT.json.journal`), complete or interrupted. */
} tally_input_kind;

/** Options for tally_load_file(). Initialise with ::TALLY_LOAD_OPTIONS_INIT. */
typedef struct tally_load_options {
    unsigned int version;  /**< ::TALLY_LOAD_OPTIONS_VERSION. */
    tally_input_kind kind; /**< Format, or ::TALLY_INPUT_AUTO. */
    const char *label;     /**< Label for a file holding one configuration (`tip=file`); NULL: from the file or its name. */
    const char *benchmark; /**< Benchmark name: replaces the fixed name of formats that carry none (plain: "values"; the tools' outputs, see docs/importers.md), or renames the only benchmark of each result set of other formats (more than one: ::TALLY_EINVAL); NULL: keep. */
    const char *case_name; /**< Renames the only case of each benchmark (plain: "all"); a benchmark with several cases is ::TALLY_EINVAL (use `case_format`); NULL: keep. */
    const char *case_format; /**< Renames every case: each `{}` is replaced by the case's name ("{}-workers"); NULL: keep. */
    const char *unit;      /**< Plain files: the unit of the samples (default none). Other formats carry their own: ::TALLY_EINVAL. */
    int direction_given;   /**< Non-zero: plain files take `direction` (default: from the unit, docs/formats.md). Other formats: ::TALLY_EINVAL. */
    tally_direction direction; /**< See `direction_given`. */
    const char *config_key; /**< What separates the configurations of a file that holds several
                                 (docs/importers.md): hyperfine `command` (each command one
                                 configuration, the default), a parameter's name, or `none` (the
                                 file is one configuration, each result a case); go test the
                                 key-line keys, comma-separated (default: every key but `pkg`
                                 that changes within the file), or `none` (refused when a key
                                 changes); pyperf `name` (each benchmark one configuration) or
                                 `none` (the default); `file`, for any format: the file is one
                                 configuration where that pools no samples (hyperfine and pyperf
                                 as `none`; go test still split by changing keys), what the
                                 command uses when it reads several files. Other formats:
                                 ::TALLY_EINVAL. NULL: the format's default. */
    int time_range_given;  /**< Non-zero: latency logs of intervals (HdrHistogram logs, fio
                                histogram logs) keep only the intervals that start from
                                `time_start` to before `time_end`, in seconds since the log's
                                start (docs/importers.md); a note says how many were kept. Other
                                formats: ::TALLY_EINVAL. */
    double time_start;     /**< See `time_range_given`; >= 0. */
    double time_end;       /**< See `time_range_given`; > `time_start`, may be infinity. */
    int interval_runs;     /**< Latency logs of intervals: non-zero makes each interval a run of
                                its own; 0 (the default) pools a log's intervals into one run.
                                Other formats: ::TALLY_EINVAL. */
    size_t runs;            /**< The number of runs each summary of a file summarises, for the
                                 formats that write summaries without saying it (hyperfine
                                 --export-csv: its --runs); 0: not given (such a file is then
                                 refused). Other formats: ::TALLY_EINVAL. */
    const char *samples_path; /**< Any JSON file (docs/importers.md, "JSON paths"): the path of
                                 the sample arrays, e.g. `$.benchmarks[*].stats.data`; reads the
                                 file with the generic JSON reader (kind auto or json). NULL:
                                 none. */
    const char *case_path;  /**< With `samples_path`: the path of the case names, one per sample
                                 array (`$.benchmarks[*].name`); NULL: the arrays are cases
                                 "1", "2", ... */
    const char *unit_path;  /**< With `samples_path`: the path of the unit, one for the file or
                                 one per sample array; NULL: `unit` (or none). */
    const char *columns;    /**< CSV/TSV files of any header (docs/importers.md, "Column
                                 mapping"): `case=COL,value=COL[,config=COL][,benchmark=COL]
                                 [,unit=COL]`, each COL a header name; the unit and direction
                                 may also come from `unit` and `direction`. NULL: the long-form
                                 header. */
} tally_load_options;

/** Version 1: the first released layout. A later version appends fields; a caller's older
 *  struct is then read as a prefix (the later fields take their defaults). */
#define TALLY_LOAD_OPTIONS_VERSION 1
#define TALLY_LOAD_OPTIONS_INIT \
    { TALLY_LOAD_OPTIONS_VERSION, TALLY_INPUT_AUTO, NULL, NULL, NULL, NULL, NULL, 0, \
      TALLY_LOWER_IS_BETTER, NULL, 0, 0.0, 0.0, 0, 0, NULL, NULL, NULL, NULL }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_LOAD_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_LOAD_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_LOAD_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_load_options_init(tally_load_options *opts, unsigned int version);

/**
 * Read a file and append its result sets to `into`, all or nothing.
 *
 * The format is `opts->kind`, or the best match of every known format's detector. Labels: a
 * format that holds one configuration takes `opts->label`, else the file name without directory
 * and extension; a file that names its configurations (CSV, native JSON, and the files of
 * several configurations of hyperfine, go test and pyperf, see `config_key`) keeps its labels,
 * and `opts->label` renames its result set when it holds exactly one (more than one is
 * ::TALLY_EINVAL). Every loaded result set gets the metadata entry `source_file` = `path`.
 * How a file was split is noted on `into` (tally_results_note_at()).
 *
 * @param into destination list; unchanged on failure.
 * @param path file to read ("-" is not special here).
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_EIO, ::TALLY_EPARSE, ::TALLY_EFORMAT, ::TALLY_EEXISTS (a label
 *   already in `into`; the message names both files), ::TALLY_ENONFINITE, ::TALLY_ELIMIT,
 *   ::TALLY_EMISMATCH, ::TALLY_ENODATA (no samples), ::TALLY_EINVAL, ::TALLY_ENOMEM.
 */
TALLY_API int tally_load_file(tally_results *into, const char *path, const tally_load_options *opts);

/**
 * Read from memory; `name` is used in error messages and as the default label.
 * @see tally_load_file()
 */
TALLY_API int tally_load_buffer(tally_results *into, const char *data, size_t len,
                                const char *name, const tally_load_options *opts);

/**
 * Load a command-line input spec: `path`, or `label=path` as benchstat accepts. When `spec`
 * names an existing file as a whole it is a path, even if it contains '='. A label from the
 * spec overrides `opts->label`.
 * @param into destination list; unchanged on failure.
 * @param spec `path` or `label=path`.
 * @param opts options, or NULL for the defaults.
 * @return as tally_load_file(); ::TALLY_EINVAL for an empty label or path.
 */
TALLY_API int tally_load_spec(tally_results *into, const char *spec, const tally_load_options *opts);

/**
 * Detect the kind of an input from its first bytes: the format whose detector is the most
 * certain. Thread-safe.
 * @param out receives the kind; unchanged on failure.
 * @return ::TALLY_OK, ::TALLY_EFORMAT when nothing matches, ::TALLY_EPARSE for UTF-16 text (as
 *         loading refuses it), ::TALLY_EINVAL for NULL arguments.
 */
TALLY_API int tally_detect_kind(tally_input_kind *out, const char *data, size_t len);

/**
 * The short name of an input kind, as the command line's `--from` takes it: "auto",
 * "json" (native), "csv", "tsv", "plain", "hyperfine", "gbench", "pyperf", "gotest", "hackbench",
 * "stream", "schbench", "netperf", "tbench", "journal", then the names of the formats added since
 * (docs/importers.md).
 * @return a string with static storage, or NULL for an unknown value. Thread-safe.
 */
TALLY_API const char *tally_input_kind_name(tally_input_kind kind);

/**
 * Parse a name from tally_input_kind_name() (case-insensitive; "native" is accepted for "json").
 * @param out receives the kind; unchanged on failure.
 * @return ::TALLY_OK or ::TALLY_EINVAL. Thread-safe.
 */
TALLY_API int tally_input_kind_from_name(tally_input_kind *out, const char *name);

/**
 * Serialise result sets as native JSON (docs/formats.md); doubles round-trip exactly.
 * @param out receives a NUL-terminated buffer to release with tally_free(); NULL on failure.
 * @param len receives its length without the NUL; may be NULL.
 * @param r the list to write; not modified.
 * @return ::TALLY_OK, ::TALLY_ENODATA (a case without samples, which the reader would refuse),
 *   ::TALLY_EINVAL, ::TALLY_ENOMEM. Not thread-safe with writers of the same list.
 */
TALLY_API int tally_results_to_json(char **out, size_t *len, const tally_results *r);

/**
 * Write result sets as native JSON, atomically (temporary file, then rename): `path` holds the
 * old contents or the whole new file, never a part.
 * @return ::TALLY_OK, ::TALLY_EIO, ::TALLY_ENODATA, ::TALLY_EINVAL, ::TALLY_ENOMEM.
 */
TALLY_API int tally_results_save(const tally_results *r, const char *path);

/* Experimental API (docs/releasing.md, "API tiers"): may change in any release, without a
 * SONAME bump. Define TALLY_EXPERIMENTAL_API before including tally.h to use it. */
#ifdef TALLY_EXPERIMENTAL_API

/**
 * Serialise result sets as long-form CSV, one row per sample:
 * `benchmark,case,config,value,unit,better` (docs/formats.md, "CSV"), which tally's CSV reader
 * reads back into the same samples (doubles as the shortest text that round-trips; fields with
 * a comma, quote or line break quoted, RFC 4180). Metadata is not part of it.
 * @param out receives a NUL-terminated buffer to release with tally_free(); NULL on failure.
 * @param len receives its length without the NUL; may be NULL.
 * @param r the list to write; not modified.
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENOMEM. Not thread-safe with writers of the list.
 */
TALLY_API int tally_results_to_csv(char **out, size_t *len, const tally_results *r);

/**
 * Write bytes to a file atomically, as every output of tally is written: a temporary file in
 * the same directory, flushed, then renamed over `path`, which holds its old contents or the
 * whole new file, never a part; a failed write leaves no temporary file behind.
 * @param path the file to write; an empty path is ::TALLY_EINVAL.
 * @param data the bytes; may be NULL when `len` is 0.
 * @param len their count.
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_EIO (the message names the path and the cause),
 *   ::TALLY_ENOMEM. Thread-safe for distinct paths.
 */
TALLY_API int tally_file_write(const char *path, const void *data, size_t len);

#endif /* TALLY_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif

#endif /* TALLY_IO_H */
