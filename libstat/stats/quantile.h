/* The weighted quantile core: quantiles and their distribution-free intervals of a sample held
 * as ascending values with counts, so that plain samples (every count 1) and histograms (bucket
 * values with request counts) share one implementation. Order statistics index into the
 * cumulative counts: the k-th smallest of the sample is the value whose bucket holds rank k.
 * Definitions in docs/statistics.md ("Percentiles"). Internal to the library (quantile.c). */
#ifndef TALLY_QUANTILE_H
#define TALLY_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

#include "tally/stats.h"

/* A sample as value[0..len) ascending (equal values allowed) with count[0..len) (NULL: every
 * value counts once); n is the total count. cum holds the cumulative counts when count is given
 * (owned, tally__wsample_free), NULL otherwise. */
typedef struct tally__wsample {
    const double *value;
    const uint64_t *count;
    size_t len;
    uint64_t n;
    uint64_t *cum;
} tally__wsample;

/* Check and set up: values finite and ascending, counts summing to at most 2^53 (exact as a
 * double); a zero count is allowed (an empty bucket). TALLY_ENODATA when the total is 0,
 * TALLY_EINVAL (values NULL, not ascending, counts overflowing), TALLY_ENONFINITE, TALLY_ENOMEM;
 * recorded, naming the index. */
int tally__wsample_init(tally__wsample *s, const double *value, const uint64_t *count,
                        size_t len);
void tally__wsample_free(tally__wsample *s);

/* A sorted copy of the plain samples x[0..n) (checked as tally__check_samples does) as a
 * sample with every count 1: *copy receives the copy, which s points into (free both). */
int tally__wsample_sorted_copy(tally__wsample *s, double **copy, const double *x, size_t n);

/* The k-th smallest value, 0-based (k < n): O(1) without counts, O(log len) with them. */
double tally__wsample_at(const tally__wsample *s, uint64_t k);

/* Percentile p (percent, in [0, 100]) by method: linear (R type 7), nearest rank (type 1) or
 * Harrell-Davis (the Beta-weighted mean of all order statistics). TALLY_OK, TALLY_EINVAL (p or
 * method out of range), TALLY_ENUMERIC (the incomplete Beta function failed); recorded. */
int tally__wsample_percentile(double *out, const tally__wsample *s, double p,
                              tally_percentile_method method);

/* The distribution-free interval of the p-th percentile (percent, in (0, 100)) of n values:
 * 0-based ranks lo <= hi of the order statistics [x_(lo+1), x_(hi+1)], equal-tailed (each tail's
 * probability under Binomial(n, p/100) at most (1 - confidence) / 2, the widest such, as
 * scipy.stats.quantile_test's two-sided confidence_interval), and the level they reach (>=
 * confidence). Returns 0 (nothing written) when n is too small for either bound, 1 otherwise.
 * With p = 50 this is the symmetric median interval. */
int tally__percentile_ci_ranks(uint64_t *lo, uint64_t *hi, double *level, uint64_t n, double p,
                               double confidence);

/* The bounds of that interval from the sample; 0 when there is none (nothing written). */
int tally__wsample_percentile_ci(double *lo, double *hi, double *level, const tally__wsample *s,
                                 double p, double confidence);

/* The fewest values whose order statistics bound the p-th percentile at `confidence`:
 * 0 when no n up to 2^32 does. */
uint64_t tally__percentile_ci_min_n(double p, double confidence);

#endif /* TALLY_QUANTILE_H */
