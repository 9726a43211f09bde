/**
 * @file tally/validate.h
 * @brief Checking another harness's own summary against statistics recomputed from its raw
 * samples.
 *
 * Importers keep a harness's summary next to the raw samples as case metadata under
 * `reported.<statistic>` (hyperfine: mean, stddev, median, min, max; Google Benchmark: mean,
 * median, stddev, cv; pytest-benchmark: mean, median, stddev, min, max, q1, q3, iqr; JMH: mean
 * (its score), score_error; criterion.rs: mean, median, stddev, median_abs_dev and the bounds of
 * their intervals, and the slope with its interval under linear sampling; nanobench: median,
 * median_abs_pct_error; Catch2: the bounds of the mean's interval; BenchmarkDotNet: bdn_mean,
 * bdn_median, bdn_stddev, bdn_min, bdn_max of its Result rows).
 * tally_validate() recomputes each of those statistics from the case's samples with
 * tally_summarize() and lists every comparison, flagging the ones whose relative difference
 * exceeds a tolerance.
 *
 * Statistics understood (the harnesses' definitions: docs/importers.md, "Validation of a
 * harness's own summary"):
 * - `mean`: arithmetic mean;
 * - `median`: median (mean of the two middle samples when n is even, as every harness does);
 * - `stddev`: sample standard deviation with n - 1; a reported value equal to the population SD
 *   (divided by n) instead is named so in the note;
 * - `min`, `max`: extreme samples;
 * - `cv`: coefficient of variation as a *fraction* stddev / mean (Google Benchmark's definition;
 *   tally's own CV is a percentage, so it is divided by 100 before comparing);
 * - `q1`, `q3`, `iqr`: pytest-benchmark's quartiles (medians of the halves for even n, its
 *   weighted hinges for odd n) and their difference;
 * - `score_error`: JMH's half-width of the 99.9 % Student-t interval of the mean,
 *   t(0.9995, n - 1) stddev / sqrt(n), undefined for n <= 2;
 * - `median_abs_dev`: criterion's 1.4826 median |x - median|;
 * - `median_abs_pct_error`: nanobench's median of |x - median| / x, a fraction;
 * - `slope`: criterion's least-squares slope through the origin of times on iters, for its
 *   linear sampling (iters d, 2d, ..., nd) sum(i^2 x_i) / sum(i^2) of the samples x_i;
 *   `slope_other_iters` (a slope over other iteration counts) is listed as not recomputable;
 * - `bdn_mean`, `bdn_median`, `bdn_stddev` (n - 1), `bdn_min`, `bdn_max`: BenchmarkDotNet's
 *   Statistics of its Result rows, rebuilt from the samples by its rule (the median overhead
 *   `benchmarkdotnet.overhead` subtracted, at least 0, the `benchmarkdotnet.upper_outliers`
 *   largest left out: its default RemoveUpper outliers, above Q3 + 1.5 IQR);
 * - `<statistic>.lower`, `<statistic>.upper` (mean, median, stddev, median_abs_dev, slope): a
 *   bootstrap interval, which cannot be recomputed; the recomputed statistic must lie inside it. For a
 *   summary-only case (tally_case_set_summary()) the case's own mean and SD are checked against
 *   such bounds; its order statistics cannot be recomputed.
 * Other `reported.*` keys are ignored.
 *
 * The relative difference is |reported - recomputed| / |recomputed| (the absolute difference
 * when recomputed is 0); for an interval bound, the relative distance by which the recomputed
 * value lies outside it, 0 inside. A statistic tally cannot recompute or a reported value that
 * is not a finite number is listed as a disagreement with recomputed (or reported) NaN and a
 * note saying why.
 */
#ifndef TALLY_VALIDATE_H
#define TALLY_VALIDATE_H

#include "common.h"
#include "resultset.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options for tally_validate(). Initialise with ::TALLY_VALIDATE_OPTIONS_INIT. */
typedef struct tally_validate_options {
    unsigned int version; /**< ::TALLY_VALIDATE_OPTIONS_VERSION. */
    double tolerance;     /**< Largest relative difference still agreeing, >= 0; default 1e-6. */
} tally_validate_options;

#define TALLY_VALIDATE_OPTIONS_VERSION 1
#define TALLY_VALIDATE_OPTIONS_INIT { TALLY_VALIDATE_OPTIONS_VERSION, 1e-6 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_VALIDATE_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_VALIDATE_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_VALIDATE_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_validate_options_init(tally_validate_options *opts, unsigned int version);

/** The outcome of tally_validate(): one entry per reported statistic checked. Opaque. */
typedef struct tally_validation tally_validation;

/**
 * Recompute every `reported.*` statistic of every case of every result set in `r`.
 * Entries come in the order of result sets, benchmarks, cases, then the case's metadata order.
 * @param out receives a new list to free with tally_validation_free(); NULL on failure. A list
 *   with no entries means nothing in `r` carried a harness summary.
 * @param r result sets (typically just loaded from a hyperfine or Google Benchmark file); not
 *   modified, and not referenced after the call returns.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK, ::TALLY_EINVAL (NULL argument, bad option version, negative or non-finite
 *   tolerance), ::TALLY_ENOMEM. Disagreements are results, not errors.
 * Thread safety: reentrant; `r` must not be modified during the call.
 */
TALLY_API int tally_validate(tally_validation **out, const tally_results *r,
                             const tally_validate_options *opts);

/** Free a validation list; NULL is accepted. */
TALLY_API void tally_validation_free(tally_validation *v);

/** @return the number of entries (statistics checked); 0 for NULL. */
TALLY_API size_t tally_validation_count(const tally_validation *v);

/** @return the number of entries that did not agree; 0 for NULL. */
TALLY_API size_t tally_validation_disagreements(const tally_validation *v);

/** @return the tolerance the list was computed with; 0 for NULL. */
TALLY_API double tally_validation_tolerance(const tally_validation *v);

/**
 * @return the label of the result set of entry i (owned by the list, valid until it is
 *   freed), or NULL when i is out of range. The same holds for the other string accessors.
 */
TALLY_API const char *tally_validation_resultset(const tally_validation *v, size_t i);

/** @return the benchmark name of entry i, or NULL when out of range. */
TALLY_API const char *tally_validation_benchmark(const tally_validation *v, size_t i);

/** @return the case name of entry i, or NULL when out of range. */
TALLY_API const char *tally_validation_case(const tally_validation *v, size_t i);

/** @return the statistic of entry i ("mean", "median", "stddev", "min", "max", "cv", "q1", "q3",
 *  "iqr", "score_error", "median_abs_dev", "median_abs_pct_error", "slope", "mean lower bound",
 *  "mean of result rows", ...), or NULL. */
TALLY_API const char *tally_validation_statistic(const tally_validation *v, size_t i);

/** @return the harness's value of entry i as read from the file, or NaN (out of range, or the
 *  reported text was not a finite number). */
TALLY_API double tally_validation_reported(const tally_validation *v, size_t i);

/** @return tally's value of entry i from the raw samples, in the reported value's definition
 *  (cv as a fraction), or NaN when it cannot be computed or i is out of range. */
TALLY_API double tally_validation_recomputed(const tally_validation *v, size_t i);

/** @return the relative difference of entry i (see the file comment), or NaN when either value
 *  is NaN or i is out of range. */
TALLY_API double tally_validation_rel_diff(const tally_validation *v, size_t i);

/** @return 1 when entry i agreed within the tolerance, 0 otherwise (also when out of range). */
TALLY_API int tally_validation_agreed(const tally_validation *v, size_t i);

/**
 * @return a short English note on entry i about definitions or why it could not be checked
 *   (e.g. "cv is a fraction (stddev/mean); tally's CV percentage divided by 100"), "" when there
 *   is nothing to say, NULL when out of range.
 */
TALLY_API const char *tally_validation_note(const tally_validation *v, size_t i);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_VALIDATE_H */
