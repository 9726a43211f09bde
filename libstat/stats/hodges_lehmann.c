/*
 * The Hodges-Lehmann estimate of the shift between two samples and its interval, the interval
 * that inverts the Mann-Whitney test (Hodges & Lehmann 1963; Bauer 1972), as R's
 * `wilcox.test(current, base, conf.int = TRUE)` computes it:
 *
 *   exact (no ties, tally__mann_whitney_is_exact): [d_(q), d_(nm - q + 1)] of the nm sorted
 *     differences d = current_j - base_i, q the smallest with P(U <= q) >= (1 - level) / 2
 *     (R's qwilcox), 1 when that is 0;
 *   normal approximation: the set of shifts d for which the continuity-corrected z of the test of
 *     (current - d) against base stays within +-z_{(1+level)/2}. Between two neighbouring
 *     differences the test's U is the count c of differences above d and its variance holds the
 *     ties within each sample only, so the bounds are order statistics of the differences:
 *     d_(nm - C_low) with C_low = floor(nm/2 + 1/2 + z sigma) and d_(nm - C_high) with
 *     C_high = floor(nm/2 - 1/2 - z sigma). R finds the same points with uniroot (to 1e-4).
 *
 * The estimate is the median of the differences. The k-th smallest difference is found without
 * forming the nm differences: a bisection over the doubles (at most 64 steps) for the smallest d
 * with #{fl(current_j - base_i) <= d} >= k, each count one merge-like pass over the two sorted
 * samples (rounding is monotone, so the pairs below d form a staircase); O((nb + nc) * 64) time,
 * O(nb + nc) memory, for any sizes.
 *
 * Because the test is rank-based, the interval of log current - log base is the interval of the
 * ratio of the two samples' locations, and its exclusion of 0 agrees with the test's p for any
 * monotone transformation of both samples.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/compare_impl.h"
#include "util/internal.h"

static int ascending(const void *l, const void *r)
{
    double x = *(const double *)l, y = *(const double *)r;
    return (x > y) - (x < y);
}

/* #{(i, j): fl(c[j] - b[i]) <= d} for ascending b[0..nb) and c[0..nc). For a growing c[j] the
 * first i with c[j] - b[i] <= d can only move right. */
static double count_at_most(const double *b, size_t nb, const double *c, size_t nc, double d)
{
    double count = 0;
    size_t i = 0;
    for (size_t j = 0; j < nc; j++) {
        while (i < nb && c[j] - b[i] > d)
            i++;
        count += (double)(nb - i);
    }
    return count;
}

/* Doubles in their order as unsigned integers (negative values mirrored below the positive). */
static uint64_t key_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

static double double_of(uint64_t k)
{
    uint64_t u = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* The k-th smallest (1-based, 1 <= k <= nb nc) of the differences c[j] - b[i]. */
static double kth_difference(const double *b, size_t nb, const double *c, size_t nc, double k)
{
    double lo = c[0] - b[nb - 1], hi = c[nc - 1] - b[0];
    /* -0 and +0 are one value; their keys would make them two. */
    if (lo == 0)
        lo = 0;
    if (hi == 0)
        hi = 0;
    uint64_t klo = key_of(lo), khi = key_of(hi);
    /* Invariant: count(hi) >= k; the answer lies in [lo, hi]. */
    while (klo < khi) {
        uint64_t mid = klo + (khi - klo) / 2;
        if (count_at_most(b, nb, c, nc, double_of(mid)) >= k)
            khi = mid;
        else
            klo = mid + 1;
    }
    double v = double_of(khi);
    return v == 0 ? 0.0 : v;
}

/* sum(t^3 - t) over the groups of t equal values of an ascending array. */
static double tie_term_of(const double *x, size_t n)
{
    double term = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && x[j] == x[i])
            j++;
        double t = (double)(j - i);
        term += t * t * t - t;
        i = j;
    }
    return term;
}

/* R's qwilcox(p, m, n): the smallest q with P(U <= q) >= p. */
static int wilcox_quantile(size_t *out, double p, size_t m, size_t n)
{
    size_t lo = 0, hi = m * n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        double cdf;
        int rc = tally__mann_whitney_cdf(&cdf, m, n, mid);
        if (rc)
            return rc;
        if (cdf >= p)
            hi = mid;
        else
            lo = mid + 1;
    }
    *out = lo;
    return TALLY_OK;
}

/* The order-statistic ranks (1-based) of the interval's bounds. */
static int bound_ranks(double *klo, double *khi, const double *b, size_t nb, const double *c,
                       size_t nc, double level, int exact)
{
    double nm = (double)nb * (double)nc, alpha = 1 - level;
    if (exact) {
        size_t q;
        int rc = wilcox_quantile(&q, alpha / 2, nb, nc);
        if (rc)
            return rc;
        if (q == 0)
            q = 1;
        *klo = (double)q;
        *khi = nm - (double)q + 1;
        return TALLY_OK;
    }
    double n = (double)(nb + nc);
    double ties = tie_term_of(b, nb) + tie_term_of(c, nc);
    double sigma = sqrt(nm / 12.0 * ((n + 1) - ties / (n * (n - 1))));
    double z = gsl_cdf_ugaussian_Qinv(alpha / 2);
    double c_low = floor(nm / 2 + 0.5 + z * sigma), c_high = floor(nm / 2 - 0.5 - z * sigma);
    *klo = fmax(1, nm - fmin(c_low, nm));
    *khi = fmin(nm, nm - c_high);
    return TALLY_OK;
}

int tally__hodges_lehmann(double *estimate, double *low, double *high, const double *base,
                          size_t nb, const double *current, size_t nc, double level, int exact)
{
    if (nb == 0 || nc == 0)
        return tally__error(TALLY_ENODATA, "Hodges-Lehmann: an empty side");
    double *b = tally__reallocarray(NULL, nb + nc, sizeof(double));
    if (b == NULL)
        return tally__oom();
    double *c = b + nb;
    memcpy(b, base, nb * sizeof(double));
    memcpy(c, current, nc * sizeof(double));
    qsort(b, nb, sizeof(double), ascending);
    qsort(c, nc, sizeof(double), ascending);
    double nm = (double)nb * (double)nc, klo, khi;
    int rc = bound_ranks(&klo, &khi, b, nb, c, nc, level, exact);
    if (rc == TALLY_OK) {
        /* R's median: the middle difference, or the mean of the two middle ones. */
        double mid = floor((nm + 1) / 2);
        double m1 = kth_difference(b, nb, c, nc, mid);
        double m2 = fmod(nm, 2) == 0 ? kth_difference(b, nb, c, nc, mid + 1) : m1;
        *estimate = m1 / 2 + m2 / 2;
        *low = kth_difference(b, nb, c, nc, klo);
        *high = kth_difference(b, nb, c, nc, khi);
    }
    tally__free_mem(b);
    return rc;
}
