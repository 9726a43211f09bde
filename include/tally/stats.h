/**
 * @file tally/stats.h
 * @brief Descriptive statistics of one set of samples.
 *
 * Definitions and formulas are in docs/statistics.md. All functions are reentrant and
 * thread-safe; they never modify the caller's arrays.
 */
#ifndef TALLY_STATS_H
#define TALLY_STATS_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which way a metric improves. */
typedef enum tally_direction {
    TALLY_LOWER_IS_BETTER = 0,  /**< Times, latencies: smaller is better. */
    TALLY_HIGHER_IS_BETTER = 1  /**< Throughputs, rates: larger is better. */
} tally_direction;

/** The centre statistic a row reports. */
typedef enum tally_statistic {
    TALLY_STAT_DEFAULT = 0, /**< The benchmark's preferred statistic, else AMean. */
    TALLY_STAT_AMEAN = 1,   /**< Arithmetic mean. */
    TALLY_STAT_HMEAN = 2,   /**< Harmonic mean (x > 0 only). */
    TALLY_STAT_GMEAN = 3,   /**< Geometric mean (x > 0 only). */
    TALLY_STAT_MEDIAN = 4,  /**< Median (R type 7). */
    TALLY_STAT_MIN = 5,     /**< Smallest sample. */
    TALLY_STAT_MAX = 6,     /**< Largest sample. */
    TALLY_STAT_BAMEAN = 7   /**< Mean of the best N % of samples (mmtests BAmean-N). */
} tally_statistic;

/** How a percentile is interpolated. */
typedef enum tally_percentile_method {
    TALLY_PERCENTILE_LINEAR = 0,      /**< Linear between closest ranks: R type 7, numpy default. */
    TALLY_PERCENTILE_NEAREST_RANK = 1 /**< Smallest x with at least p % of samples <= x. */
} tally_percentile_method;

/** Options for tally_summarize(). Initialise with ::TALLY_SUMMARY_OPTIONS_INIT. */
typedef struct tally_summary_options {
    unsigned int version;                      /**< ::TALLY_SUMMARY_OPTIONS_VERSION. */
    tally_direction direction;                 /**< Decides "best" for BAmean. */
    tally_percentile_method percentile_method; /**< Method of the reported median; default
                                                    linear (R type 7). Quartiles for Tukey's
                                                    fences are always type 7. */
    double confidence;                         /**< Level of the CIs, in (0, 1); default 0.95. */
    double bamean_percent;                     /**< N of BAmean-N, in (0, 100]; default 95. */
    double mad_threshold;                      /**< Modified z-score cut-off, > 0; default 3.5. */
    double tukey_k;                            /**< Tukey fence factor, >= 0; default 1.5. */
} tally_summary_options;

#define TALLY_SUMMARY_OPTIONS_VERSION 1
#define TALLY_SUMMARY_OPTIONS_INIT \
    { TALLY_SUMMARY_OPTIONS_VERSION, TALLY_LOWER_IS_BETTER, TALLY_PERCENTILE_LINEAR, 0.95, 95.0, 3.5, 1.5 }

/**
 * Fill `opts` with the defaults of options version `version`, as ::TALLY_SUMMARY_OPTIONS_INIT does for the
 * current one. Pass the ::TALLY_SUMMARY_OPTIONS_VERSION your code was written against: a struct of that
 * version is a prefix of today's, and the library reads any version from 1 to the current one.
 * @param opts the struct to fill (only the bytes of that version are written).
 * @param version 1 to ::TALLY_SUMMARY_OPTIONS_VERSION.
 * @return ::TALLY_OK, or ::TALLY_EINVAL for a NULL `opts` or an unknown version. Thread-safe.
 */
TALLY_API int tally_summary_options_init(tally_summary_options *opts, unsigned int version);

/** Flags in tally_summary::defined telling which optional fields hold values. */
typedef enum tally_summary_field {
    TALLY_SUMMARY_HMEAN = 1,     /**< hmean (all samples > 0). */
    TALLY_SUMMARY_GMEAN = 2,     /**< gmean (all samples > 0). */
    TALLY_SUMMARY_STDDEV = 4,    /**< stddev and sem (n >= 2, result within the double range). */
    TALLY_SUMMARY_MEDIAN_CI = 8, /**< median CI (n large enough for the level, e.g. n >= 6 at
                                      95 %). */
    TALLY_SUMMARY_CV = 16,       /**< cv (stddev defined and amean != 0). */
    TALLY_SUMMARY_HSTDDEV = 32,  /**< hstddev and hcv (all samples > 0 and n >= 2). */
    TALLY_SUMMARY_MEAN_CI = 64,  /**< mean_ci_low, mean_ci_high (n >= 2, bounds finite). */
    TALLY_SUMMARY_REPORTED = 128 /**< Made from a harness's (n, mean, SD) alone (a summary-only
                                      case, tally_case_set_summary()): min, max, median, bamean,
                                      the other means and the order statistics are NAN. */
} tally_summary_field;

/**
 * Summary of one sample set. Fields not flagged in `defined` are 0 and must not be shown as
 * numbers (see docs/statistics.md for when each is undefined).
 *
 * A growable result struct: set `size` before a call fills it
 * (`tally_summary s = { .size = sizeof s };`). The library writes only the first `size` bytes
 * (a caller built against an older, shorter header gets the fields it knows) and sets `size` to
 * the number of bytes it filled (less than the caller's when the library is older than the
 * caller's header: the fields beyond are left as they were). New fields are only ever appended.
 */
typedef struct tally_summary {
    size_t size;           /**< Set by the caller to sizeof (tally_summary); on return, the
                                bytes the library filled. */
    size_t n;              /**< Number of samples. */
    unsigned int defined;  /**< Bitwise OR of ::tally_summary_field. */
    double min;            /**< Smallest sample. */
    double max;            /**< Largest sample. */
    double amean;          /**< Arithmetic mean. */
    double hmean;          /**< Harmonic mean n / sum(1/x). */
    double gmean;          /**< Geometric mean exp(mean(log x)). */
    double median;         /**< Median: 50th percentile by the options' method (R type 7). */
    double stddev;         /**< Sample standard deviation (n - 1). */
    double hstddev;        /**< Harmonic SD sqrt(sum((1/x - 1/H)^2) * H^4 / n) (mmtests). */
    double cv;             /**< 100 * stddev / amean. */
    double hcv;            /**< 100 * hstddev / hmean. */
    double sem;            /**< Standard error of the mean, stddev / sqrt(n). */
    double mean_ci_low;    /**< Student-t CI of the mean, lower bound. */
    double mean_ci_high;   /**< Student-t CI of the mean, upper bound. */
    double median_ci_low;  /**< Distribution-free CI of the median, lower bound. */
    double median_ci_high; /**< Distribution-free CI of the median, upper bound. */
    double median_ci_level;/**< Achieved confidence of the median CI (>= requested). */
    double bamean;         /**< BAmean-N: arithmetic mean of the best floor(n N / 100) samples
                                (at least one), best as decided by the options' direction. */
    size_t outliers_mad;   /**< Samples whose modified z-score exceeds the threshold. */
    size_t outliers_tukey; /**< Samples outside Tukey's fences. */
} tally_summary;

/**
 * Summarise n samples in O(n) time. Order statistics come from a histogram selection that
 * reads the samples where they are and copies out only those near the wanted ranks (well under
 * 1 % of them on benchmark data); only when a few extreme outliers squeeze most samples into the
 * wanted buckets, or for fewer than 16384 samples, does it select in a scratch copy
 * (docs/statistics.md, "Order statistics"). Reentrant; thread-safe.
 * @param out receives the summary (its `size` set by the caller); zeroed first, so on failure
 *   it holds n = 0 and no flags.
 * @param x samples; not modified.
 * @param n number of samples; n = 0 fails with ::TALLY_ENODATA. With n = 1 only min, max, amean,
 *   median, bamean (and hmean, gmean for a positive sample) are defined.
 * @param opts options, or NULL for the defaults.
 * @return ::TALLY_OK; ::TALLY_ENONFINITE if a sample is NaN or infinite (nothing computed);
 *   ::TALLY_ENODATA; ::TALLY_EINVAL for bad options or pointers; ::TALLY_ENOMEM.
 */
TALLY_API int tally_summarize(tally_summary *out, const double *x, size_t n,
                              const tally_summary_options *opts);

/**
 * tally_summarize() and tally_percentiles() in one call: the percentiles' order statistics are
 * selected together with the summary's, so they cost almost nothing on top of it (a latency
 * report's p90/p99 next to its mean and median). Reentrant; thread-safe.
 * @param out receives the summary (its `size` set by the caller); zeroed first, so on failure
 *   it holds n = 0 and no flags.
 * @param pct receives count percentiles, by `opts->percentile_method` (the method of the
 *   summary's median); may be NULL when count is 0.
 * @param x samples; not modified.
 * @param n number of samples, as for tally_summarize().
 * @param p count percentages in [0, 100].
 * @param count number of percentiles; 0 makes this tally_summarize().
 * @param opts options, or NULL for the defaults.
 * @return as tally_summarize(); ::TALLY_EINVAL also for a percentage outside [0, 100] or NULL
 *   percentile pointers with count > 0.
 */
TALLY_API int tally_summarize_with_percentiles(tally_summary *out, double *pct, const double *x,
                                               size_t n, const double *p, size_t count,
                                               const tally_summary_options *opts);

/**
 * tally_summarize() that never copies the samples, for samples too large to hold twice: where
 * tally_summarize() would select in a scratch copy, this selects in the caller's buffer. The
 * summary equals tally_summarize()'s bit for bit.
 * Reentrant; thread-safe as long as no other thread uses x.
 * @param out receives the summary (its `size` set by the caller); zeroed first, so on failure
 *   it holds n = 0 and no flags.
 * @param x samples; may be consumed: when the histogram selection applies (the usual case for
 *   n >= 16384) x is left as it was; otherwise it holds n unspecified finite values on return
 *   (the selections and then the absolute deviations from the median), so pass a buffer you no
 *   longer need. Untouched when the call fails.
 * @param n number of samples, as for tally_summarize().
 * @param opts options, or NULL for the defaults.
 * @return as tally_summarize(), but never ::TALLY_ENOMEM: when even the histogram's small
 *   buffers cannot be allocated it selects in x.
 */
TALLY_API int tally_summarize_inplace(tally_summary *out, double *x, size_t n,
                                      const tally_summary_options *opts);

/**
 * Arithmetic mean: compensated summation, never overflows for finite samples.
 * @param out receives the mean.
 * @return ::TALLY_OK, ::TALLY_ENODATA (n = 0), ::TALLY_ENONFINITE, ::TALLY_EINVAL (NULL).
 */
TALLY_API int tally_amean(double *out, const double *x, size_t n);

/**
 * Harmonic mean n / sum(1/x).
 * @param out receives the mean.
 * @return ::TALLY_OK, ::TALLY_ENODATA, ::TALLY_ENONFINITE, ::TALLY_EDOMAIN if any x <= 0,
 *   ::TALLY_EINVAL (NULL).
 */
TALLY_API int tally_hmean(double *out, const double *x, size_t n);

/**
 * Geometric mean exp(mean(log x)).
 * @param out receives the mean.
 * @return ::TALLY_OK, ::TALLY_ENODATA, ::TALLY_ENONFINITE, ::TALLY_EDOMAIN if any x <= 0,
 *   ::TALLY_EINVAL (NULL).
 */
TALLY_API int tally_gmean(double *out, const double *x, size_t n);

/**
 * Sample standard deviation with n - 1 in the denominator (two-pass with correction).
 * @param out receives the standard deviation.
 * @return ::TALLY_OK, ::TALLY_ENODATA if n < 2, ::TALLY_ENONFINITE, ::TALLY_ENUMERIC if the
 *   result exceeds the double range (samples near +-DBL_MAX), ::TALLY_EINVAL (NULL).
 */
TALLY_API int tally_stddev(double *out, const double *x, size_t n);

/**
 * Several percentiles at once, from one selection (the histogram selection of
 * tally_summarize(), with the same scratch-copy fallback).
 * @param out receives count values, out[i] for p[i].
 * @param x samples; not modified.
 * @param n number of samples (>= 1).
 * @param p percentiles in [0, 100].
 * @param count number of percentiles.
 * @param method interpolation method.
 * @return ::TALLY_OK, ::TALLY_ENODATA, ::TALLY_ENONFINITE, ::TALLY_EINVAL (p outside [0, 100],
 *   unknown method, NULL), ::TALLY_ENOMEM.
 */
TALLY_API int tally_percentiles(double *out, const double *x, size_t n, const double *p,
                                size_t count, tally_percentile_method method);

/**
 * tally_percentiles() that never copies the samples: where tally_percentiles() would select in a
 * scratch copy, this selects in the caller's buffer and leaves it reordered (the same n values,
 * partitioned around each percentile's ranks). For samples too large to copy; the results equal
 * tally_percentiles()'s bit for bit.
 * Reentrant; thread-safe as long as no other thread uses x.
 * @param out receives count values, out[i] for p[i].
 * @param x samples; untouched, or reordered (a permutation of the input) when the histogram
 *   selection does not apply; untouched on failure.
 * @param n number of samples (>= 1).
 * @param p percentiles in [0, 100].
 * @param count number of percentiles.
 * @param method interpolation method.
 * @return as tally_percentiles().
 */
TALLY_API int tally_percentiles_inplace(double *out, double *x, size_t n, const double *p,
                                        size_t count, tally_percentile_method method);

/**
 * Flag outliers without removing them.
 * @param mad_flags if not NULL, n bytes set to 1 where |0.6745 (x - median) / MAD| > mad_threshold
 *   (when MAD = 0: |0.7979 (x - median) / MeanAD|, MeanAD the mean absolute deviation from the
 *   median; all samples equal: none), else 0.
 * @param tukey_flags if not NULL, n bytes set to 1 outside [Q1 - k IQR, Q3 + k IQR] (type 7
 *   quartiles), else 0.
 * @param x samples; not modified.
 * @param n number of samples.
 * @param mad_threshold modified z-score cut-off, > 0 (3.5 recommended).
 * @param tukey_k fence factor, >= 0 (1.5 usual, 3 for "far out").
 * @return ::TALLY_OK, ::TALLY_ENODATA, ::TALLY_ENONFINITE, ::TALLY_EINVAL, ::TALLY_ENOMEM.
 */
TALLY_API int tally_outliers(unsigned char *mad_flags, unsigned char *tukey_flags, const double *x,
                             size_t n, double mad_threshold, double tukey_k);

/**
 * The value of one statistic taken from a summary. ::TALLY_STAT_DEFAULT gives the AMean.
 * @param out receives the value.
 * @param s a summary filled by tally_summarize() (its first `size` bytes are read).
 * @param stat the statistic.
 * @return ::TALLY_OK, ::TALLY_EDOMAIN when the statistic is undefined for these samples (HMean or
 *   GMean with a sample <= 0), ::TALLY_ENODATA (empty summary), ::TALLY_EINVAL.
 */
TALLY_API int tally_summary_value(double *out, const tally_summary *s, tally_statistic stat);

/** @return a statistic's name ("amean", "hmean", "gmean", "median", "min", "max", "bamean",
 *  "default"), or NULL for an unknown value. */
TALLY_API const char *tally_statistic_name(tally_statistic stat);

/** Parse a statistic name (case-insensitive). @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_statistic_from_name(tally_statistic *out, const char *name);

/** @return "lower" or "higher", or NULL. */
TALLY_API const char *tally_direction_name(tally_direction direction);

/** Parse "lower"/"higher" (also "lower_is_better", "higher_is_better"). @return ::TALLY_OK or
 *  ::TALLY_EINVAL. */
TALLY_API int tally_direction_from_name(tally_direction *out, const char *name);

/** @return "linear" or "nearest-rank", or NULL for an unknown value. */
TALLY_API const char *tally_percentile_method_name(tally_percentile_method method);

/** Parse "linear" or "nearest-rank" (case-insensitive). @return ::TALLY_OK or ::TALLY_EINVAL. */
TALLY_API int tally_percentile_method_from_name(tally_percentile_method *out, const char *name);

/**
 * A growable container of samples in run order. Not thread-safe; independent containers may be
 * used from different threads.
 */
typedef struct tally_sample tally_sample;

/**
 * Create an empty container.
 * @param out receives the container (NULL on failure); free it with tally_sample_free().
 * @return ::TALLY_OK, ::TALLY_ENOMEM, ::TALLY_EINVAL (out is NULL).
 */
TALLY_API int tally_sample_new(tally_sample **out);

/** Free a container and its samples; NULL is accepted. */
TALLY_API void tally_sample_free(tally_sample *s);

/**
 * Append samples in run order. Appending is amortised O(1) per sample.
 * @param s the container.
 * @param x samples to copy; not modified.
 * @param n number of samples; 0 is a no-op.
 * @return ::TALLY_OK, ::TALLY_ENONFINITE (nothing appended), ::TALLY_ENOMEM (nothing appended),
 *   ::TALLY_EINVAL (s is NULL, or x is NULL with n > 0).
 */
TALLY_API int tally_sample_append(tally_sample *s, const double *x, size_t n);

/** @return the number of samples; 0 for NULL. */
TALLY_API size_t tally_sample_count(const tally_sample *s);

/** @return the samples in run order, owned by the container and valid until the next append or
 *  free; NULL when empty or for NULL. */
TALLY_API const double *tally_sample_data(const tally_sample *s);

/**
 * Summarise the container's samples; see tally_summarize().
 * @return as tally_summarize(); ::TALLY_EINVAL when s is NULL.
 */
TALLY_API int tally_sample_summarize(tally_summary *out, const tally_sample *s,
                                     const tally_summary_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_STATS_H */
