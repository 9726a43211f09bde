/* Histogram runs on one grid and the cluster bootstrap over runs (stats/cluster_boot.h): pooled
 * statistics of small histograms computed by hand, resampling weights, and the coverage of the
 * cluster interval by seeded simulation of runs whose requests are NOT independent (each run has
 * its own random level), where the order-statistic interval that takes requests as independent
 * under-covers. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_RNG_SEED 0x32c1b007u
#include "check.h"
#include "test_rng.h"
#include "stats/cluster_boot.h"
#include "stats/quantile.h"
#include "util/internal.h"

/* Run 1: 1 x3, 2 x1, 5 x2, 10 x4; run 2: 2 x2, 3 x2, 4 x1. */
static const double v1[] = { 1, 2, 5, 10 }, v2[] = { 2, 3, 4 };
static const uint64_t c1[] = { 3, 1, 2, 4 }, c2[] = { 2, 2, 1 };

static void test_pooled_by_hand(void)
{
    const double *values[] = { v1, v2 };
    const uint64_t *counts[] = { c1, c2 };
    size_t lens[] = { 4, 3 };
    double res[] = { 0.5, 1 };
    tally__pooled p;
    CHECK_INT(tally__pooled_init(&p, values, counts, lens, res, 2), TALLY_OK);
    /* The grid 1 2 3 4 5 10, pooled counts 3 3 2 1 2 4 (by hand), 15 requests. */
    CHECK_INT((long)p.len, 6);
    CHECK_INT((long)p.total, 15);
    CHECK(p.counts[0] == 3 && p.counts[1] == 3 && p.counts[2] == 2 && p.counts[3] == 1 &&
          p.counts[4] == 2 && p.counts[5] == 4);
    CHECK(p.resolution == 1);
    double x;
    /* Pooled 1 1 1 2 2 2 3 3 4 5 5 10 10 10 10: type 7 p75 h = 14 * 0.75 = 10.5, halfway
     * between x[10] = 5 and x[11] = 10: 7.5; type 1 p75: ceil(15 * 0.75) = 12th = 10; the
     * median x[7] = 3; the mean 69 / 15 = 4.6. */
    CHECK_INT(tally__pooled_statistic(&x, &p, NULL, TALLY_STAT_PERCENTILE, 75,
                                      TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK(x == 7.5);
    CHECK_INT(tally__pooled_statistic(&x, &p, NULL, TALLY_STAT_PERCENTILE, 75,
                                      TALLY_PERCENTILE_NEAREST_RANK), TALLY_OK);
    CHECK(x == 10);
    CHECK_INT(tally__pooled_statistic(&x, &p, NULL, TALLY_STAT_MEDIAN, 0, 0), TALLY_OK);
    CHECK(x == 3);
    CHECK_INT(tally__pooled_statistic(&x, &p, NULL, TALLY_STAT_AMEAN, 0, 0), TALLY_OK);
    CHECK_REL(x, 4.6, 1e-15);
    /* HMean 15 / (3 + 1/2 + 2/5 + 4/10 + 2/2 + 2/3 + 1/4) = 15 / 6.2166... = 2.4128686327077746
     * (by hand: the reciprocal sum is 373/60); GMean exp((2 ln 2 ... ) / 15) by the same sums
     * is left to the summary's own tests. */
    CHECK_INT(tally__pooled_statistic(&x, &p, NULL, TALLY_STAT_HMEAN, 0, 0), TALLY_OK);
    CHECK_REL(x, 15.0 / (373.0 / 60.0), 1e-15);
    /* Run 2 drawn three times, run 1 never: 2 x6, 3 x6, 4 x3; the median is the 8th of 15: 3;
     * p90 type 7: h = 12.6 between x[12] = 4 and x[13] = 4: 4. */
    uint64_t w[] = { 0, 3 };
    CHECK_INT(tally__pooled_statistic(&x, &p, w, TALLY_STAT_MEDIAN, 0, 0), TALLY_OK);
    CHECK(x == 3);
    CHECK_INT(tally__pooled_statistic(&x, &p, w, TALLY_STAT_PERCENTILE, 90,
                                      TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK(x == 4);
    /* Harrell-Davis through the summarised grid equals it on the expanded sample. */
    double hd_pooled, hd_direct;
    static const double pv[] = { 1, 2, 3, 4, 5, 10 };
    static const uint64_t pc[] = { 3, 3, 2, 1, 2, 4 };
    double q = 75;
    CHECK_INT(tally__pooled_statistic(&hd_pooled, &p, NULL, TALLY_STAT_PERCENTILE, 75,
                                      TALLY_PERCENTILE_HARRELL_DAVIS), TALLY_OK);
    CHECK_INT(tally_weighted_percentiles(&hd_direct, pv, pc, 6, &q, 1,
                                         TALLY_PERCENTILE_HARRELL_DAVIS), TALLY_OK);
    CHECK(hd_pooled == hd_direct);
    /* Two runs: the bootstrap needs at least two, and gives a standard error. */
    double se;
    CHECK_INT(tally__cluster_log_se(&se, &p, TALLY_STAT_MEDIAN, 0, 0, 200, 7), TALLY_OK);
    CHECK(se > 0);
    tally__pooled_free(&p);
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One simulated side: `runs` runs of `m` requests each, exp(u + e) with u ~ N(0, tau^2) the
 * run's level and e ~ N(0, sigma^2). Each run is a histogram of its exact values (counts 1). */
static int simulate(tally__pooled *p, size_t runs, size_t m, double tau, double sigma)
{
    double *values = malloc(runs * m * sizeof(double));
    uint64_t *ones = malloc(m * sizeof(uint64_t));
    const double **vp = malloc(runs * sizeof(*vp));
    const uint64_t **cp = malloc(runs * sizeof(*cp));
    size_t *lens = malloc(runs * sizeof(size_t));
    for (size_t i = 0; i < m; i++)
        ones[i] = 1;
    for (size_t r = 0; r < runs; r++) {
        double u = tau * gauss();
        double *x = values + r * m;
        for (size_t i = 0; i < m; i++)
            x[i] = exp(u + sigma * gauss());
        /* Ascending, as a histogram's values are; ties have probability 0. */
        qsort(x, m, sizeof(double), ascending);
        vp[r] = x;
        cp[r] = ones;
        lens[r] = m;
    }
    int rc = tally__pooled_init(p, vp, cp, lens, NULL, runs);
    free(values);
    free(ones);
    free(vp);
    free(cp);
    free(lens);
    return rc;
}

/* Coverage of the pooled percentile's 95 % intervals: the cluster bootstrap's (t with runs - 1
 * df on the log scale) and the order-statistic one that takes every request as independent.
 * The true pooled percentile: with equal runs the requests are lognormal with log-SD
 * sqrt(tau^2 + sigma^2), so it is exp(sqrt(tau^2 + sigma^2) z_p). */
static void coverage(size_t runs, double pct, double *cluster, double *naive)
{
    const size_t reps = 400, m = 200, resamples = 300;
    const double tau = 0.3, sigma = 0.5;
    double truth = exp(sqrt(tau * tau + sigma * sigma) * gsl_cdf_ugaussian_Pinv(pct / 100));
    size_t hit = 0, hit_naive = 0;
    for (size_t k = 0; k < reps; k++) {
        tally__pooled p;
        if (simulate(&p, runs, m, tau, sigma) != TALLY_OK) {
            CHECK(0);
            return;
        }
        double est, se, lo, hi, level;
        tally__wsample w;
        int ok = tally__pooled_statistic(&est, &p, NULL, TALLY_STAT_PERCENTILE, pct,
                                         TALLY_PERCENTILE_LINEAR) == TALLY_OK &&
                 tally__cluster_log_se(&se, &p, TALLY_STAT_PERCENTILE, pct,
                                       TALLY_PERCENTILE_LINEAR, resamples,
                                       0x9e37u + k) == TALLY_OK &&
                 tally__wsample_init(&w, p.value, p.counts, p.len) == TALLY_OK;
        CHECK(ok);
        if (!ok)
            return;
        double q = gsl_cdf_tdist_Qinv(0.025, (double)runs - 1);
        hit += fabs(log(est) - log(truth)) <= q * se;
        if (tally__wsample_percentile_ci(&lo, &hi, &level, &w, pct, 0.95))
            hit_naive += lo <= truth && truth <= hi;
        tally__wsample_free(&w);
        tally__pooled_free(&p);
    }
    *cluster = (double)hit / (double)reps;
    *naive = (double)hit_naive / (double)reps;
}

static void test_coverage(void)
{
    static const struct {
        size_t runs;
        double pct;
    } cases[] = { { 10, 99 }, { 30, 99 }, { 10, 50 }, { 30, 50 } };
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        double cluster = 0, naive = 1;
        coverage(cases[i].runs, cases[i].pct, &cluster, &naive);
        printf("%zu runs, p%g: cluster bootstrap %.1f %%, order statistics of the requests "
               "%.1f %%\n", cases[i].runs, cases[i].pct, 100 * cluster, 100 * naive);
        /* The stated bounds (docs/statistics.md, "Histogram runs"): 400 replications give a
         * standard error of 1.1 points at 95 %. The median's interval lies within [92, 97.5] %;
         * the p99's is the stated exception: the bootstrap's spread of a tail percentile from
         * resampled runs is about 20 % too narrow (measured here: 84-90 % coverage at 10 and 30
         * runs of 200 to 1000 requests), still far above the order-statistic interval that takes
         * the requests as independent (20-70 %). */
        if (cases[i].pct == 50)
            CHECK(cluster >= 0.92 && cluster <= 0.975);
        else
            CHECK(cluster >= 0.80 && cluster <= 0.975);
        CHECK(naive < 0.75);
        CHECK(cluster > naive + 0.15);
    }
}

int main(void)
{
    test_pooled_by_hand();
    test_coverage();
    return check_summary();
}
