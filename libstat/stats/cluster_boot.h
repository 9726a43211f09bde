/* Runs of requests held as histograms on one common bucket grid, and the cluster bootstrap over
 * those runs: the runs, not the requests, are the independent unit (requests of one run share its
 * machine state), so the pooled statistic's uncertainty comes from resampling whole runs with
 * replacement and recomputing the statistic of their pooled requests. The grid is merged once;
 * a resample is then only a weight per run (docs/statistics.md, "Histogram runs"). Internal to
 * the library (cluster_boot.c). */
#ifndef TALLY_CLUSTER_BOOT_H
#define TALLY_CLUSTER_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "tally/stats.h"

/* The fewest runs a side needs for the cluster bootstrap: with 4 runs there are only 35
 * distinct resamples, too few for the tails of a 95 % interval; the coverage simulation of
 * tests/unit/test_cluster_boot.c starts at 10 runs. */
#define TALLY__CLUSTER_MIN_RUNS 5

typedef struct tally__pooled {
    double *value;    /* the common grid: every bucket value of every run, ascending, len */
    size_t len;
    size_t runs;
    uint64_t *cum;    /* runs x len: run r's requests at or below value[g], cum[r * len + g] */
    uint64_t *counts; /* len: the pooled requests of every run in bucket g */
    uint64_t total;   /* every request of every run */
    double *sum;      /* per run: the sum of its requests, of their reciprocals, of their logs */
    double *inv_sum;
    double *log_sum;
    int positive;     /* every value > 0 (the reciprocal and log sums are defined) */
    double resolution; /* the widest resolution of the runs */
} tally__pooled;

/* Merge runs (values[r], counts[r], lens[r], as tally_case_histogram_at gives them) onto one
 * grid. TALLY_ENODATA (no runs), TALLY_ELIMIT (more than 2^53 requests), TALLY_ENOMEM;
 * recorded. */
int tally__pooled_init(tally__pooled *p, const double *const *values,
                       const uint64_t *const *counts, const size_t *lens,
                       const double *resolutions, size_t runs);
void tally__pooled_free(tally__pooled *p);

/* The statistic (TALLY_STAT_PERCENTILE: `percentile` by `method`) of the requests of the runs
 * drawn with weight[r] copies of run r (NULL: each once). Mean, HMean, GMean and type 7 / type 1
 * percentiles (the median is type 7) cost O(runs log len); other statistics and Harrell-Davis
 * summarise the weighted grid. TALLY_EDOMAIN when undefined (HMean of values <= 0, no requests). */
int tally__pooled_statistic(double *out, const tally__pooled *p, const uint64_t *weight,
                            tally_statistic stat, double percentile,
                            tally_percentile_method method);

/* The cluster bootstrap standard error of log(statistic): `resamples` draws of p->runs runs with
 * replacement (SplitMix64 from `seed`), the standard deviation of the log statistic over them,
 * times sqrt(runs / (runs - 1)) (the bootstrap's variance of a mean of `runs` independent units is
 * (runs - 1) / runs of the unbiased one). The interval and test use it with runs - 1 degrees of
 * freedom. TALLY_EDOMAIN when a resample's statistic is not > 0 (no log scale) or runs < 2. */
int tally__cluster_log_se(double *se, const tally__pooled *p, tally_statistic stat,
                          double percentile, tally_percentile_method method, size_t resamples,
                          uint64_t seed);

#endif /* TALLY_CLUSTER_BOOT_H */
