/**
 * @file tally/resultset.h
 * @brief The data model: result sets, benchmarks, cases and their raw samples.
 *
 * A ::tally_results is an ordered list of result sets (the first is the baseline of a
 * comparison). A ::tally_resultset is one configuration: a label, metadata and benchmarks. A
 * ::tally_benchmark has a unit, a direction, a preferred statistic and cases. A ::tally_case holds
 * the raw samples in run order.
 *
 * Ownership: a list owns its result sets, a result set its benchmarks, a benchmark its cases.
 * Pointers returned by accessors are borrowed and stay valid until the owner is freed or the
 * item is removed. Handles are not thread-safe; independent handles may be used from different
 * threads.
 */
#ifndef TALLY_RESULTSET_H
#define TALLY_RESULTSET_H

#include "common.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tally_results tally_results;     /**< Ordered list of result sets. */
typedef struct tally_resultset tally_resultset; /**< One configuration. */
typedef struct tally_benchmark tally_benchmark; /**< One benchmark of a result set. */
typedef struct tally_case tally_case;           /**< One row: a parameter value or sub-metric. */

/* ---- list of result sets ---------------------------------------------------------------- */

/** Create an empty list. @return ::TALLY_OK or ::TALLY_ENOMEM. */
TALLY_API int tally_results_new(tally_results **out);

/** Free a list and every result set in it; NULL is accepted. */
TALLY_API void tally_results_free(tally_results *r);

/** @return the number of result sets. */
TALLY_API size_t tally_results_count(const tally_results *r);

/** @return the result set at index i (borrowed), or NULL when out of range. */
TALLY_API tally_resultset *tally_results_at(const tally_results *r, size_t i);

/** @return the result set labelled `label` (borrowed), or NULL. */
TALLY_API tally_resultset *tally_results_find(const tally_results *r, const char *label);

/**
 * Append a result set; the list takes ownership on success only.
 * @return ::TALLY_OK, ::TALLY_EEXISTS when the label is taken, ::TALLY_ENOMEM.
 */
TALLY_API int tally_results_add(tally_results *r, tally_resultset *rs);

/**
 * Record a note on the list: what loading split, merged or dropped that a reader of the output
 * must know (a file split into configurations by a key, a metric declared exact that varies).
 * The loaders add them; tally_results_merge() moves them along with the result sets; the
 * command prints each on standard error.
 * @param note the text, copied; without a trailing newline.
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL argument), ::TALLY_ENOMEM.
 */
TALLY_API int tally_results_note_add(tally_results *r, const char *note);

/** @return the number of notes of the list (0 for NULL). */
TALLY_API size_t tally_results_note_count(const tally_results *r);

/** @return note i (borrowed, valid until the list changes or is freed), or NULL when out of
 *  range. */
TALLY_API const char *tally_results_note_at(const tally_results *r, size_t i);

/**
 * Move every result set of `from` to the end of `into`, all or nothing, and its notes after
 * those of `into`.
 * @return ::TALLY_OK (from is left empty), ::TALLY_EEXISTS (nothing moved), ::TALLY_ENOMEM.
 */
TALLY_API int tally_results_merge(tally_results *into, tally_results *from);

/**
 * Add the runs of `from` to `into`, two result sets of one configuration (`tally merge`, `tally
 * run --append`): benchmarks are unioned; a case present in both gets `from`'s samples after
 * its own (run order), a new case is added. Provenance goes to the metadata: result-set
 * `merged.N` = `source` (N counts merges from 1), and a case that received samples
 * `samples.N` = "6-10 from SOURCE" (1-based sample numbers); `from`'s result-set metadata keys
 * that `into` lacks are added, those with another value are kept as `merged.N.KEY`. A case's
 * `failed_runs` counts are added up.
 * @param into the result set that grows (its label is kept).
 * @param from the result set whose runs are added (unchanged).
 * @param source names `from` in metadata and messages (a file name); NULL: its label.
 * @return ::TALLY_OK; ::TALLY_EMISMATCH (`into` unchanged) when a benchmark of both has
 * another unit or direction, the message naming the benchmark and `source`; ::TALLY_ENOMEM.
 * Thread safety: `into` must not be used by another thread meanwhile.
 */
/**
 * The result-set metadata keys that say where runs were recorded: "host", "kernel", "boot_id"
 * (the keys `tally run` records and `tally run --resume` checks). Runs recorded under different
 * values of one of them are different blocks: `tally merge` refuses to pool them (without
 * `--force`).
 * @param i 0, 1, ...
 * @return the i-th key (static storage), or NULL past the last. Thread-safe.
 */
TALLY_API const char *tally_run_env_key_at(size_t i);

TALLY_API int tally_resultset_merge_runs(tally_resultset *into, const tally_resultset *from,
                                         const char *source);

/* ---- result set ------------------------------------------------------------------------- */

/** Create an empty result set. @return ::TALLY_OK, ::TALLY_EINVAL (empty label), ::TALLY_ENOMEM. */
TALLY_API int tally_resultset_new(tally_resultset **out, const char *label);

/** Free a result set that no list owns; NULL is accepted. */
TALLY_API void tally_resultset_free(tally_resultset *rs);

/** @return the label (borrowed). */
TALLY_API const char *tally_resultset_label(const tally_resultset *rs);

/** Rename. @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENOMEM. */
TALLY_API int tally_resultset_set_label(tally_resultset *rs, const char *label);

/** Set (or replace) a metadata value. @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENOMEM. */
TALLY_API int tally_resultset_meta_set(tally_resultset *rs, const char *key, const char *value);

/** @return the metadata value for key (borrowed), or NULL. */
TALLY_API const char *tally_resultset_meta_get(const tally_resultset *rs, const char *key);

/** @return the number of metadata entries. */
TALLY_API size_t tally_resultset_meta_count(const tally_resultset *rs);

/** The i-th metadata entry, in insertion order. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_resultset_meta_at(const char **key, const char **value,
                                      const tally_resultset *rs, size_t i);

/** @return the number of benchmarks. */
TALLY_API size_t tally_resultset_benchmark_count(const tally_resultset *rs);

/** @return the i-th benchmark (borrowed), or NULL. */
TALLY_API tally_benchmark *tally_resultset_benchmark_at(const tally_resultset *rs, size_t i);

/** @return the benchmark named `name` (borrowed), or NULL. */
TALLY_API tally_benchmark *tally_resultset_benchmark_find(const tally_resultset *rs,
                                                          const char *name);

/**
 * Add a benchmark.
 * @param out receives the new benchmark (borrowed); may be NULL.
 * @param unit unit such as "s" or "MB/s"; NULL or "" for none.
 * @return ::TALLY_OK, ::TALLY_EEXISTS (name taken), ::TALLY_EINVAL, ::TALLY_ENOMEM.
 */
TALLY_API int tally_resultset_benchmark_add(tally_benchmark **out, tally_resultset *rs,
                                            const char *name, const char *unit,
                                            tally_direction direction);

/* ---- benchmark -------------------------------------------------------------------------- */

/** @return the benchmark's name (borrowed). */
TALLY_API const char *tally_benchmark_name(const tally_benchmark *b);

/** @return the unit (borrowed), "" when none. */
TALLY_API const char *tally_benchmark_unit(const tally_benchmark *b);

/** @return the direction. */
TALLY_API tally_direction tally_benchmark_direction(const tally_benchmark *b);

/** @return the preferred statistic (::TALLY_STAT_DEFAULT when none was set). */
TALLY_API tally_statistic tally_benchmark_statistic(const tally_benchmark *b);

/** Set the preferred statistic. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_benchmark_set_statistic(tally_benchmark *b, tally_statistic stat);

/** @return the number of cases. */
TALLY_API size_t tally_benchmark_case_count(const tally_benchmark *b);

/** @return the i-th case (borrowed), or NULL. */
TALLY_API tally_case *tally_benchmark_case_at(const tally_benchmark *b, size_t i);

/** @return the case named `name` (borrowed), or NULL. */
TALLY_API tally_case *tally_benchmark_case_find(const tally_benchmark *b, const char *name);

/**
 * Add a case.
 * @param out receives the new case (borrowed); may be NULL.
 * @return ::TALLY_OK, ::TALLY_EEXISTS, ::TALLY_EINVAL, ::TALLY_ENOMEM.
 */
TALLY_API int tally_benchmark_case_add(tally_case **out, tally_benchmark *b, const char *name);

/* ---- case ------------------------------------------------------------------------------- */

/** @return the case's name (borrowed). */
TALLY_API const char *tally_case_name(const tally_case *c);

/** @return the number of samples. */
TALLY_API size_t tally_case_sample_count(const tally_case *c);

/** @return the samples in run order (borrowed; valid until the next append). */
TALLY_API const double *tally_case_samples(const tally_case *c);

/**
 * Set (or replace) a metadata value of a case. Importers keep a harness's own summary here
 * (keys `reported.mean`, `reported.stddev`, ...) and runners keep failed runs (`failed_runs`).
 * @return ::TALLY_OK, ::TALLY_EINVAL, ::TALLY_ENOMEM.
 */
TALLY_API int tally_case_meta_set(tally_case *c, const char *key, const char *value);

/** @return the case's metadata value for key (borrowed), or NULL. */
TALLY_API const char *tally_case_meta_get(const tally_case *c, const char *key);

/** @return the number of metadata entries of a case. */
TALLY_API size_t tally_case_meta_count(const tally_case *c);

/** The i-th metadata entry of a case, in insertion order. @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_case_meta_at(const char **key, const char **value, const tally_case *c,
                                 size_t i);

/**
 * Append samples in run order, all or nothing.
 * @return ::TALLY_OK, ::TALLY_ENONFINITE, ::TALLY_ENOMEM; ::TALLY_EINVAL for a summary-only
 *   case (tally_case_set_summary()).
 */
TALLY_API int tally_case_append(tally_case *c, const double *x, size_t n);

/* Experimental API (docs/releasing.md, "API tiers"): summary-only cases may change in any
 * release. */
#ifdef TALLY_EXPERIMENTAL_API

/**
 * A case known only by a harness's summary: its number of runs, mean and sample standard
 * deviation (or an interval of the mean), without the runs themselves (hyperfine's CSV export,
 * `perf stat -r N`, Catch2's and pytest-benchmark's summaries). Such a case compares by Welch's
 * t-test from the statistics (SciPy's `ttest_ind_from_stats(..., equal_var=False)`); medians,
 * other statistics, other tests and run diagnostics cannot be computed from it, and every report
 * says so (docs/formats.md, "Summary-only cases").
 *
 * Filled by the caller for tally_case_set_summary() and by the library in
 * tally_case_summary_result(); starts with its size like the other result structs
 * (`tally_case_summary s = { .size = sizeof s };`).
 */
typedef struct tally_case_summary {
    size_t size;           /**< Set by the caller to sizeof (tally_case_summary); on return,
                                the bytes the library filled. */
    size_t n;              /**< Number of runs the harness summarised, >= 1. */
    double mean;           /**< Their arithmetic mean. */
    double sd;             /**< Their sample standard deviation (n - 1 denominator); NAN when
                                unknown: then derived from the interval (see `sd_derived`),
                                and with n = 1 left NAN. */
    double interval_low;   /**< The harness's interval of the mean, lower bound; NAN when
                                none. */
    double interval_high;  /**< Upper bound; NAN when none. */
    double interval_level; /**< Its confidence level in (0, 1), e.g. 0.95; 0 when none. */
    int sd_derived;        /**< Set by the library: 1 when `sd` was derived from the interval
                                as a Student-t interval, sd = (high - low) / 2 * sqrt(n) /
                                t(1 - (1 - level) / 2, n - 1). Ignored on input. */
} tally_case_summary;

/**
 * Make `c` a summary-only case: it holds the summary instead of samples.
 * @param c a case without samples.
 * @param s the summary (its `size` set by the caller): n >= 1, a finite mean, and a finite
 *   sd >= 0, or NAN with an interval (finite low <= high, level in (0, 1)) when n >= 2
 *   (the sd is then derived from it), or NAN when n = 1. An interval, when given, must hold the
 *   mean.
 * @return ::TALLY_OK; ::TALLY_EINVAL (NULL, size, a case with samples, a summary that breaks
 *   the rules above: the message says which), ::TALLY_ENONFINITE (a mean or bound not finite).
 * Thread safety: `c` must not be used by another thread meanwhile.
 */
TALLY_API int tally_case_set_summary(tally_case *c, const tally_case_summary *s);

/** @return 1 when `c` is a summary-only case (tally_case_set_summary()), else 0 (also for
 *  NULL). */
TALLY_API int tally_case_is_summary_only(const tally_case *c);

/**
 * The summary of a summary-only case.
 * @param out receives it (its `size` set by the caller).
 * @param c the case.
 * @return ::TALLY_OK; ::TALLY_ENOTFOUND when `c` holds samples instead (tally_summarize() them);
 *   ::TALLY_EINVAL (NULL, size).
 */
TALLY_API int tally_case_summary_result(tally_case_summary *out, const tally_case *c);

#endif /* TALLY_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif

#endif /* TALLY_RESULTSET_H */
