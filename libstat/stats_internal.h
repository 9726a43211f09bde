/* Helpers shared by the descriptive-statistics modules (moments.c, percentile.c, median_ci.c,
 * outliers.c, bamean.c, summary.c). Not exported. */
#ifndef TALLY_STATS_INTERNAL_H
#define TALLY_STATS_INTERNAL_H

#include <stddef.h>

#include "tally/stats.h"

/* TALLY_EINVAL if x is NULL while n > 0, TALLY_ENODATA if n == 0, TALLY_ENONFINITE naming the
 * first NaN or infinite sample; the error is recorded. */
int tally__check_samples(const double *x, size_t n);

/* A power of two s such that |v| * s < 1 for every |v| <= maxabs when maxabs is so large that
 * sums or differences could overflow, else 1. Scaling by a power of two is exact, so results are
 * unchanged for ordinary data. */
double tally__overflow_scale(double maxabs);

/* The largest |x_i| of n >= 1 samples (the argument of tally__overflow_scale). */
double tally__max_magnitude(const double *x, size_t n);

/* Compensated (Neumaier) sum of x[0..n) * scale. */
double tally__scaled_sum(const double *x, size_t n, double scale);

/* Mean of x[0..n) (n >= 1, finite), without overflow for any finite input, clamped to
 * [min, max] so rounding never moves it outside the data. */
double tally__mean(const double *x, size_t n);

/* Moments of one sample set. Pointers may be NULL when a value is not wanted. */
typedef struct tally__moments {
    double min, max, amean;
    double stddev;      /* valid when has_stddev */
    int has_stddev;     /* n >= 2 and the result is finite */
    double hmean, hstddev, gmean;
    int positive;       /* every sample > 0: hmean and gmean valid */
    int has_hstddev;    /* positive, n >= 2 and the result is finite */
} tally__moments;

/* Compute the moments of n >= 1 finite samples in O(n). */
void tally__compute_moments(tally__moments *m, const double *x, size_t n);

/* The 0-based ranks (1 or 2) of the order statistics that percentile p (0..100) needs; returns
 * how many were written. */
size_t tally__percentile_ranks(size_t ranks[2], size_t n, double p, tally_percentile_method method);

/* Percentile p from x once tally__select_ranks() has placed the ranks above. */
double tally__percentile_value(const double *x, size_t n, double p, tally_percentile_method method);

/* Order statistics bounding the distribution-free CI of the median: 0-based ranks lo <= hi and
 * the achieved level. Returns 0 when n is too small to reach `confidence` (then nothing is
 * written), 1 otherwise. */
int tally__median_ci_ranks(size_t *lo, size_t *hi, double *level, size_t n, double confidence);

/* The number of best samples BAmean-N averages: floor(n * percent / 100), at least 1. */
size_t tally__bamean_count(size_t n, double percent);

/* The rank to select so that the best `count` samples sit at one end of the array. */
size_t tally__bamean_rank(size_t n, size_t count, tally_direction direction);

/* BAmean from x once the rank above was selected. */
double tally__bamean_value(const double *x, size_t n, size_t count, tally_direction direction);

/* BAmean-percents[k] of the n >= 1 finite samples x (left untouched) into out[k], for k <
 * count, from one scratch copy and one selection of every cut's rank: the values equal the
 * bamean of tally_summarize() with bamean_percent = percents[k]. TALLY_EINVAL for a NULL
 * pointer, n == 0 or a percentage outside (0, 100]; TALLY_ENOMEM. Errors are recorded. */
int tally__bamean_many(double *out, const double *x, size_t n, const double *percents,
                       size_t count, tally_direction direction);

/* Outlier rules once median and quartiles are known. */
typedef struct tally__outlier_rule {
    double scale;           /* overflow scale applied to samples before comparing */
    double median;          /* scaled */
    double spread;          /* scaled MAD, or the mean absolute deviation when MAD is 0 */
    double factor;          /* 0.6745 with MAD, sqrt(2/pi) with the mean absolute deviation */
    double threshold;       /* modified z-score cut-off */
    double low_fence, high_fence; /* scaled Tukey fences */
} tally__outlier_rule;

/* Prepare the rules. `scratch` holds n doubles whose contents are destroyed; x is the sample. */
void tally__outlier_rule_init(tally__outlier_rule *r, double *scratch, const double *x, size_t n,
                              double maxabs, double median, double q1, double q3,
                              double mad_threshold, double tukey_k);
/* The two halves of tally__outlier_rule_init, for callers that count outliers without keeping
 * the sample: the fences (sets the scale; call first), then the MAD part, which writes the
 * scaled absolute deviations from the median into dev[0..n) in some order (dev may be x). */
void tally__outlier_fences(tally__outlier_rule *r, double maxabs, double q1, double q3,
                           double tukey_k);
void tally__outlier_deviations(tally__outlier_rule *r, double *dev, const double *x, size_t n,
                               double median, double mad_threshold);
int tally__is_mad_outlier(const tally__outlier_rule *r, double v);
/* The same test on a deviation written by tally__outlier_deviations. */
int tally__is_mad_deviation(const tally__outlier_rule *r, double dev);
int tally__is_tukey_outlier(const tally__outlier_rule *r, double v);

/* TALLY_EINVAL unless mad_threshold > 0 and tukey_k >= 0 (both finite); recorded. */
int tally__check_outlier_options(double mad_threshold, double tukey_k);

#endif /* TALLY_STATS_INTERNAL_H */
