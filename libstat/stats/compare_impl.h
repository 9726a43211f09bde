/*
 * Internal building blocks of the comparison tests, shared by the public array functions and by
 * tally_compare(), which feeds them the moments of the summaries it has already computed (so the
 * samples are never summarised twice).
 */
#ifndef TALLY_COMPARE_IMPL_H
#define TALLY_COMPARE_IMPL_H

#include <stddef.h>

#include "tally/compare.h"

/* The moments a t-test needs. `constant` marks a sample whose values are all equal: its SD is
 * then exactly 0 and its mean exactly that value, whatever rounding the mean's sum produced. The
 * SD rather than the variance, so that samples near 1e200 do not overflow a square. */
typedef struct tally__test_moments {
    double mean;
    double sd; /* sample standard deviation, n - 1 in the denominator */
    size_t n;
    int constant;
    /* With `pivoted`, `centred` is mean - pivot for a pivot both sides of a test share (the first
     * baseline sample): the difference of two centred means keeps the digits that the difference
     * of two large means rounds away (docs/statistics.md, "Moments around a pivot"). */
    double centred;
    int pivoted;
} tally__test_moments;

/* Outcome of a t-type test. zero_variance: both samples constant, t reported as 0 and p as 0
 * (means differ) or 1 (means equal), see docs/statistics.md. */
typedef struct tally__ttest {
    double t;
    double df;
    double p;
    int zero_variance;
} tally__ttest;

/* Welch's and Student's t-tests from moments; both sides need n >= 2 (TALLY_ENODATA). */
int tally__welch_moments(tally__ttest *out, const tally__test_moments *a,
                         const tally__test_moments *b);
int tally__student_moments(tally__ttest *out, const tally__test_moments *a,
                           const tally__test_moments *b);

/* Two-sided p-value of |t| with df degrees of freedom: twice the upper tail of |t|, which keeps
 * full relative precision for tiny p (1 - P would cancel). TALLY_ENUMERIC when GSL fails. */
int tally__t_two_sided_p(double *p, double t, double df);

/* P(U <= u) under the null hypothesis for samples of sizes m and n without ties (the exact
 * distribution, counted). */
int tally__mann_whitney_cdf(double *out, size_t m, size_t n, size_t u);

/* P(U <= u[k - 1]) for k = 1..kmax against total - k samples without ties (k < total), into
 * out[k - 1], from one series for all k (tally__mann_whitney_cdf's distribution). TALLY_ENOMEM. */
int tally__mann_whitney_cdf_splits(double *out, size_t total, size_t kmax, const size_t *u);

/* Whether tally_mann_whitney uses the exact distribution for these sizes and tie term. */
int tally__mann_whitney_is_exact(double tie_term, size_t na, size_t nb);

/* Two-sided Mann-Whitney p-values of the first k of n samples against the other n - k, for
 * k = 1..kmax (kmax < n), into p[k - 1]: the same p-values as tally_mann_whitney_from_ranks with
 * each split's rank sum, from rank[0..kmax) (the mid-ranks of the first runs in the pooled
 * sample) and the pooled tie term; the exact distributions of all splits come from one series.
 * TALLY_ENOMEM, TALLY_ENUMERIC. */
int tally__mann_whitney_splits(double *p, const double *rank, double tie_term, size_t n,
                               size_t kmax);

/* The Hodges-Lehmann estimate of the shift current - base (the median of the nb nc differences)
 * and its interval at `level` that inverts the two-sided Mann-Whitney test: exact (the test's
 * exact distribution) or by the normal approximation with continuity correction, as R's
 * wilcox.test(current, base, conf.int = TRUE, exact = exact) (hodges_lehmann.c). Values finite;
 * pass logs for the ratio of locations. TALLY_ENODATA (an empty side), TALLY_ENOMEM. */
int tally__hodges_lehmann(double *estimate, double *low, double *high, const double *base,
                          size_t nb, const double *current, size_t nc, double level, int exact);

/* The level at which each of count tests must be read for its verdict to be the adjusted one
 * (`method` of tally_adjust_pvalues at `alpha`): rejected by the adjustment exactly when
 * p[i] < levels[i] (adjust.c). TALLY_EINVAL as tally_adjust_pvalues, TALLY_ENOMEM. */
int tally__adjust_levels(double *levels, const double *p, size_t count, tally_adjust method,
                         double alpha);

/* The smallest two-sided p-value Mann-Whitney can produce for samples of these sizes,
 * min(1, 2 / C(na + nb, na)): the exact test's p for complete separation. */
double tally__mann_whitney_min_p(size_t na, size_t nb);

/* tally_compare() for callers that already hold both summaries, made with tally_summarize()
 * from base[0..nb) and current[0..nc) with opts->summary and opts->direction (as tally_compare
 * makes them): everything tally_compare does after summarising, with the same results and
 * errors. The raw samples are still needed by Mann-Whitney unless `ranks` gives what it needs
 * ({mid-rank sum of base in the pooled sample, tie term}, see tally_mann_whitney_from_ranks;
 * NULL otherwise); the other tests accept NULL samples (with their counts). TALLY_EINVAL when a
 * summary's n differs from its side's sample count. */
int tally__compare_summarized(tally_comparison *out, const tally_summary *base_summary,
                              const double *base, size_t nb,
                              const tally_summary *current_summary, const double *current,
                              size_t nc, const double *ranks, const tally_compare_options *opts);

/* The scale on which a t-test sees the samples: x, 1/x (HMean rows) or log x (GMean rows). */
typedef enum tally__scale { TALLY__SCALE_X = 0, TALLY__SCALE_RECIPROCAL = 1, TALLY__SCALE_LOG = 2 }
    tally__scale;

/* Moments of f(x[0..n)) on `scale`, centred on f(pivot) computed once: the mean as far as it
 * rounds, the centred mean and the sample SD from the centred values (three passes; no square
 * of a large value is ever formed). `mul` (a power of two) multiplies every value first so that
 * differences of samples near the double range cannot overflow. x finite, n >= 1, and x > 0
 * for the reciprocal and log scales (the caller has checked). */
void tally__pivot_moments(tally__test_moments *m, const double *x, size_t n, tally__scale scale,
                          double pivot, double mul);

/* tally__pivot_moments on the x scale for samples whose extremes min and max are known (their
 * summary's): the same results, the first pass without the extremes and the equality check. */
void tally__pivot_moments_x(tally__test_moments *m, const double *x, size_t n, double pivot,
                            double mul, double min, double max);

/* Fieller's interval of mc / ma - 1 at `level` (two-sided) for means ma, mc with variances va,
 * vc of the means and df degrees of freedom; d = mc / ma - 1 as computed by the caller (from
 * centred means when it has them). Returns 0, writing nothing, when the interval is unbounded
 * (ma not significantly away from 0, or a mean <= 0); else 1. */
int tally__fieller_interval(double *lo, double *hi, double ma, double va, double mc, double vc,
                            double d, double df, double level);

/* pct-imp bounds (positive = better) from bounds of new / base - 1. */
void tally__pct_bounds(double *plo, double *phi, double lo, double hi, tally_direction dir);

/* Clamp to [0, 1]. */
static inline double tally__clamp_unit(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* P(T <= t) for the noncentral t distribution with df > 0 degrees of freedom and noncentrality
 * delta (Lenth 1989, AS 243), to about 1e-12 absolute. */
int tally__nct_cdf(double *out, double t, double df, double delta);

/* Power of the two-sided level-alpha t test (df finite) or z test (df infinite) when the test
 * statistic's noncentrality is ncp. */
int tally__two_sided_power(double *out, double ncp, double df, double alpha);

/* The smallest noncentrality at which that power reaches `power` (the MDE in standard errors). */
int tally__mde_ncp(double *out, double df, double alpha, double power);

/* Runs per side beyond which tally__runs_needed stops counting. */
#define TALLY__RUNS_NEEDED_MAX ((size_t)10000000)

/* The smallest number of runs n per side at which a true difference `effect` (> 0) is detected
 * with `power` by the two-sided level-alpha test whose difference has variance (vb + vc) / n,
 * with Welch-Satterthwaite df (vb + vc)^2 (n - 1) / (vb^2 + vc^2), or a z test when `normal`.
 * TALLY__RUNS_NEEDED_MAX + 1 when even that many are not enough. */
int tally__runs_needed(size_t *out, double effect, double vb, double vc, int normal,
                       double alpha, double power);

/* The verdict of a compared row from its significance (after any p-value adjustment), its
 * equivalence and its sign (docs/statistics.md, "Verdicts"). */
void tally__comparison_decide(tally_comparison *c, int significant);

#endif /* TALLY_COMPARE_IMPL_H */
