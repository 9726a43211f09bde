/*
 * Mann-Whitney U test (Wilcoxon rank-sum), two-sided.
 *
 * Mann, H. B. & Whitney, D. R. (1947), "On a test of whether one of two random variables is
 * stochastically larger than the other", Ann. Math. Statist. 18, 50-60.
 *
 * Method choice follows scipy.stats.mannwhitneyu(method='auto') of SciPy 1.10: the exact null
 * distribution when there are no ties and min(na, nb) <= 8 (and, tally's addition, na * nb <= 2e6),
 * otherwise the normal approximation with the tie-corrected variance and a continuity correction
 * of 1/2. R's wilcox.test() switches at 50 instead; docs/statistics.md compares the two.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/compare_impl.h"
#include "util/internal.h"

/* Switch point of SciPy 1.10 (_mwu_choose_method): asymptotic once both samples exceed 8. */
#define EXACT_MAX_SMALLER_SIDE 8
/* tally's own bound on top: the exact count keeps up to na*nb/2 + 1 doubles, so beyond 2e6 pairs
 * (8 vs 250000) it would take megabytes for a distribution the normal approximation matches to
 * many digits; those sizes use the approximation. */
#define EXACT_MAX_PAIRS 2e6

typedef struct ranked {
    double value;
    int from_a;
} ranked;

static int by_value(const void *l, const void *r)
{
    double x = ((const ranked *)l)->value, y = ((const ranked *)r)->value;
    return (x > y) - (x < y);
}

/* C(m + n, m) as a double; exact while it fits in 53 bits, within rounding beyond. */
static double binomial(size_t m, size_t n)
{
    if (m > n) {
        size_t s = m;
        m = n;
        n = s;
    }
    double c = 1;
    for (size_t i = 1; i <= m; i++)
        c = c * (double)(n + i) / (double)i;
    return c;
}

double tally__mann_whitney_min_p(size_t na, size_t nb)
{
    return fmin(1.0, 2.0 / binomial(na, nb));
}

/*
 * P(U <= u) under the null hypothesis, for samples of sizes m and n without ties.
 *
 * GSL has no distribution of U, so it is counted here. The number of arrangements with U = k is
 * the coefficient of q^k in the Gaussian binomial coefficient [m+n choose m]_q, built with the
 * recurrence [n+i choose i]_q = [n+i-1 choose i-1]_q * (1 - q^(n+i)) / (1 - q^i), i = 1..m
 * (Andrews, "The Theory of Partitions", 1976, ch. 3). Dividing by (1 - q^i) is a running sum with
 * stride i, multiplying by (1 - q^(n+i)) a shifted difference; both only look at lower powers, so
 * the series can be cut at q^u without changing any kept coefficient: O(m u) time, O(u) memory.
 * The division runs first, so the subtraction only ever removes the smaller, far part of a
 * running sum of non-negative terms and the lower tail keeps its relative precision.
 */
int tally__mann_whitney_cdf(double *out, size_t m, size_t n, size_t u)
{
    if (m > n) {
        size_t s = m;
        m = n;
        n = s;
    }
    if (u >= m * n) {
        *out = 1;
        return TALLY_OK;
    }
    double *c = tally__calloc(u + 1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "Mann-Whitney: out of memory for %zu counts", u + 1);
    c[0] = 1;
    for (size_t i = 1; i <= m; i++) {
        for (size_t k = i; k <= u; k++)
            c[k] += c[k - i];
        size_t shift = n + i;
        for (size_t k = u; k >= shift && k <= u; k--)
            c[k] -= c[k - shift];
    }
    double count = 0;
    for (size_t k = 0; k <= u; k++)
        count += c[k];
    tally__free_mem(c);
    *out = count / binomial(m, n);
    return TALLY_OK;
}

int tally__mann_whitney_is_exact(double tie_term, size_t na, size_t nb)
{
    return tie_term == 0 && (na <= EXACT_MAX_SMALLER_SIDE || nb <= EXACT_MAX_SMALLER_SIDE) &&
           (double)na * (double)nb <= EXACT_MAX_PAIRS;
}

/*
 * The exact distributions of every split k = 1..kmax of the same `total` samples, in one series:
 * [total choose k]_q = [total choose k-1]_q * (1 - q^(total-k+1)) / (1 - q^k), so each k costs
 * one running sum and one shifted difference over the kept coefficients instead of k of each
 * (tally__mann_whitney_cdf builds every k from scratch). The same factors as there, divided
 * before multiplied (every intermediate series is non-negative), cut at the largest u wanted.
 *
 * While C(total, k) < 2^52 the steps run on 64-bit integers: every coefficient of step k, before
 * and after the multiplication, is at most C(total, k - 1) (the division's running sum adds
 * non-negative coefficients of the series of k - 1, which sum to C(total, k - 1)), and their
 * partial sums at most C(total, k); so in doubles every addition and subtraction of those steps
 * would be exact too, and the integers give the same values in any order of the additions, one
 * cycle a carried addition instead of a floating-point latency. The first step beyond the bound
 * converts the (exact) counts and goes on in doubles, as before.
 */
/* c[j] -= c[j - shift] for j = top down to shift (shift >= 1): the multiplication by
 * 1 - q^shift of the series cut at q^top. In blocks of at most `shift` from the top down: within
 * a block the sources lie below the targets and have not been changed yet, as in the descending
 * loop. */
#define SUBTRACT_SHIFTED(name, type)                                                        \
    static void name(type *c, size_t shift, size_t top)                                     \
    {                                                                                       \
        size_t end = top + 1; /* the block is [start, end) */                               \
        while (end > shift) {                                                               \
            size_t start = end - shift > shift ? end - shift : shift;                       \
            type *restrict dst = c + start;                                                 \
            const type *restrict src = c + start - shift;                                   \
            size_t i = 0;                                                                   \
            /* Two at a time, both sources read before either target is written: the       \
             * compiler makes one vector subtraction of the pair (SSE2) without checking    \
             * whether the blocks overlap. */                                               \
            for (; i + 2 <= end - start; i += 2) {                                          \
                type s0 = src[i], s1 = src[i + 1];                                          \
                dst[i] -= s0;                                                               \
                dst[i + 1] -= s1;                                                           \
            }                                                                               \
            if (i < end - start)                                                            \
                dst[i] -= src[i];                                                           \
            end = start;                                                                    \
        }                                                                                   \
    }
SUBTRACT_SHIFTED(subtract_shifted, double)
SUBTRACT_SHIFTED(subtract_shifted_count, uint64_t)

/* C(total, k) below which the counts of step k are exact integers in doubles (2^52: a margin of
 * two over 2^53 for binomial()'s rounding). */
#define EXACT_COUNT_LIMIT 4503599627370496.0

/* c[j] += c[j - k] in ascending j (the division by 1 - q^k) on exact integer counts: k chains
 * of carried sums, in registers for k < 4, for k >= 4 four at a time (their sources all lie
 * below the first of them). */
static void divide_counts(uint64_t *c, size_t k, size_t top)
{
    size_t j = k;
    if (k > top)
        return; /* no coefficient of the kept ones has a source k below it */
    if (k == 1) {
        uint64_t a = c[0];
        for (; j <= top; j++)
            c[j] = a += c[j];
    } else if (k == 2) {
        uint64_t a = c[0], b = c[1];
        for (; j + 1 <= top; j += 2) {
            c[j] = a += c[j];
            c[j + 1] = b += c[j + 1];
        }
    } else if (k == 3) {
        uint64_t a = c[0], b = c[1], d = c[2];
        for (; j + 2 <= top; j += 3) {
            c[j] = a += c[j];
            c[j + 1] = b += c[j + 1];
            c[j + 2] = d += c[j + 2];
        }
    } else {
        for (; j + 3 <= top; j += 4) {
            uint64_t s0 = c[j - k], s1 = c[j + 1 - k], s2 = c[j + 2 - k], s3 = c[j + 3 - k];
            c[j] += s0;
            c[j + 1] += s1;
            c[j + 2] += s2;
            c[j + 3] += s3;
        }
    }
    for (; j <= top; j++)
        c[j] += c[j - k];
}

/* How many steps k = 1.. keep their counts exact: C(total, k) below EXACT_COUNT_LIMIT. */
static size_t exact_step_count(size_t total, size_t kmax)
{
    size_t k = 0;
    while (k < kmax && binomial(k + 1, total - k - 1) < EXACT_COUNT_LIMIT)
        k++;
    return k;
}

/* Steps 1..steps of the splits' series on the integers n[0..top] (zeroed), P(U <= u[k - 1])
 * into out[k - 1]; returns the same memory holding the counts as doubles (exact: below 2^53),
 * for the steps after them. */
static double *exact_steps(double *out, uint64_t *n, size_t total, size_t steps, const size_t *u,
                           size_t top)
{
    n[0] = 1;
    for (size_t k = 1; k <= steps; k++) {
        divide_counts(n, k, top);
        size_t shift = total - k + 1;
        if (shift <= top)
            subtract_shifted_count(n, shift, top);
        uint64_t count = 0;
        const size_t last = u[k - 1];
        for (size_t i = 0; i <= last; i++)
            count += n[i];
        out[k - 1] = u[k - 1] >= k * (total - k) ? 1 : (double)count / binomial(k, total - k);
    }
    /* In place, each count replaced by its double through memcpy (which gives the memory the
     * double's type): one allocation of the series, not two. */
    for (size_t i = 0; i <= top; i++) {
        double v = (double)n[i];
        memcpy(&n[i], &v, sizeof v);
    }
    return (double *)(void *)n;
}

int tally__mann_whitney_cdf_splits(double *out, size_t total, size_t kmax, const size_t *u)
{
    size_t top = 0;
    for (size_t k = 1; k <= kmax; k++)
        top = u[k - 1] > top ? u[k - 1] : top;
    size_t steps = exact_step_count(total, kmax);
    _Static_assert(sizeof(uint64_t) == sizeof(double), "a count and a double share a slot");
    void *series = tally__calloc(top + 1, sizeof(double));
    if (series == NULL)
        return tally__error(TALLY_ENOMEM, "Mann-Whitney: out of memory for %zu counts", top + 1);
    double *c = series;
    if (steps)
        c = exact_steps(out, series, total, steps, u, top);
    else
        c[0] = 1;
    for (size_t k = steps + 1; k <= kmax; k++) {
        /* c[j] += c[j - k] in ascending j; for k >= 4 four at a time, whose sources all lie
         * below the first of them (the same additions, so the same sums). */
        size_t j = k;
        if (k >= 4)
            for (; j + 3 <= top; j += 4) {
                c[j] += c[j - k];
                c[j + 1] += c[j + 1 - k];
                c[j + 2] += c[j + 2 - k];
                c[j + 3] += c[j + 3 - k];
            }
        if (k < 4 && k <= top) {
            /* Carried in registers: each of the k chains waits only on its own addition, not
             * on a store and a reload. */
            double acc[3] = { c[0], k > 1 ? c[1] : 0, k > 2 ? c[2] : 0 };
            for (; j + k - 1 <= top; j += k)
                for (size_t r = 0; r < k; r++)
                    c[j + r] = acc[r] += c[j + r];
        }
        for (; j <= top; j++)
            c[j] += c[j - k];
        size_t shift = total - k + 1;
        if (shift <= top)
            subtract_shifted(c, shift, top);
        /* Four partial sums of the non-negative counts (one chain of additions would wait on
         * each). */
        double part[4] = { 0, 0, 0, 0 };
        size_t last = u[k - 1], i = 0;
        for (; i + 3 <= last; i += 4) {
            part[0] += c[i];
            part[1] += c[i + 1];
            part[2] += c[i + 2];
            part[3] += c[i + 3];
        }
        for (; i <= last; i++)
            part[0] += c[i];
        double count = (part[0] + part[1]) + (part[2] + part[3]);
        out[k - 1] = u[k - 1] >= k * (total - k) ? 1 : count / binomial(k, total - k);
    }
    tally__free_mem(c);
    return TALLY_OK;
}

int tally__mann_whitney_splits(double *p, const double *rank, double tie_term, size_t n,
                               size_t kmax)
{
    if (kmax == 0)
        return TALLY_OK;
    if (kmax >= n)
        return tally__error(TALLY_EINVAL, "Mann-Whitney: %zu splits of %zu samples", kmax, n);
    tally__ensure_init();
    size_t *u = tally__reallocarray(NULL, kmax, sizeof(*u));
    if (u == NULL)
        return tally__error(TALLY_ENOMEM, "Mann-Whitney: out of memory for %zu splits", kmax);
    /* The exact splits are a prefix: the smaller side and the pair count grow with k <= n / 2. */
    size_t exact = 0;
    double rank_sum = 0;
    int rc = TALLY_OK;
    for (size_t k = 1; k <= kmax && rc == TALLY_OK; k++) {
        rank_sum += rank[k - 1];
        if (exact == k - 1 && 2 * k <= n && tally__mann_whitney_is_exact(tie_term, k, n - k)) {
            double dk = (double)k, dr = (double)(n - k);
            double u_a = rank_sum - dk * (dk + 1) / 2;
            u[k - 1] = (size_t)(dk * dr - fmax(u_a, dk * dr - u_a));
            exact = k;
        } else {
            double u_a;
            rc = tally_mann_whitney_from_ranks(&u_a, &p[k - 1], NULL, rank_sum, tie_term, k, n - k);
        }
    }
    if (rc == TALLY_OK && exact > 0)
        rc = tally__mann_whitney_cdf_splits(p, n, exact, u);
    for (size_t k = 1; rc == TALLY_OK && k <= exact; k++) {
        double pv = 2 * p[k - 1];
        if (!isfinite(pv))
            rc = tally__error(TALLY_ENUMERIC, "Mann-Whitney: p-value is not finite");
        p[k - 1] = fmin(1.0, pv);
    }
    tally__free_mem(u);
    return rc;
}

int tally_mann_whitney(double *u, double *p, int *exact, const double *a, size_t na,
                       const double *b, size_t nb)
{
    if (u == NULL || p == NULL || (a == NULL && na) || (b == NULL && nb))
        return tally__error(TALLY_EINVAL, "Mann-Whitney: NULL argument");
    if (na == 0 || nb == 0)
        return tally__error(TALLY_ENODATA, "Mann-Whitney needs at least 1 sample on each side "
                                           "(got %zu and %zu)", na, nb);
    for (size_t i = 0; i < na; i++)
        if (!isfinite(a[i]))
            return tally__error(TALLY_ENONFINITE, "Mann-Whitney: sample %zu of the first set is "
                                                  "not finite", i);
    for (size_t i = 0; i < nb; i++)
        if (!isfinite(b[i]))
            return tally__error(TALLY_ENONFINITE, "Mann-Whitney: sample %zu of the second set is "
                                                  "not finite", i);
    tally__ensure_init();

    size_t total = na + nb;
    ranked *all = tally__reallocarray(NULL, total, sizeof(*all));
    if (all == NULL)
        return tally__error(TALLY_ENOMEM, "Mann-Whitney: out of memory for %zu samples", total);
    for (size_t i = 0; i < na; i++)
        all[i] = (ranked){ a[i], 1 };
    for (size_t i = 0; i < nb; i++)
        all[na + i] = (ranked){ b[i], 0 };
    qsort(all, total, sizeof(*all), by_value);

    /* Mid-ranks: a run of t equal values at 0-based positions i..j-1 shares rank (i + j + 1) / 2;
     * each run adds t^3 - t to the tie term of the variance. */
    double rank_sum_a = 0, tie_term = 0;
    for (size_t i = 0; i < total;) {
        size_t j = i + 1;
        while (j < total && all[j].value == all[i].value)
            j++;
        double rank = (double)(i + j + 1) / 2.0;
        double t = (double)(j - i);
        for (size_t k = i; k < j; k++)
            if (all[k].from_a)
                rank_sum_a += rank;
        tie_term += t * t * t - t;
        i = j;
    }
    tally__free_mem(all);
    return tally_mann_whitney_from_ranks(u, p, exact, rank_sum_a, tie_term, na, nb);
}

int tally_mann_whitney_from_ranks(double *u, double *p, int *exact, double rank_sum_a,
                                  double tie_term, size_t na, size_t nb)
{
    if (u == NULL || p == NULL)
        return tally__error(TALLY_EINVAL, "Mann-Whitney: NULL argument");
    if (na == 0 || nb == 0)
        return tally__error(TALLY_ENODATA, "Mann-Whitney needs at least 1 sample on each side "
                                           "(got %zu and %zu)", na, nb);
    double dna = (double)na, dnb = (double)nb, dn = (double)(na + nb);
    double least = dna * (dna + 1) / 2;
    if (!(rank_sum_a >= least && rank_sum_a <= least + dna * dnb) || !(tie_term >= 0) ||
        !isfinite(tie_term))
        return tally__error(TALLY_EINVAL, "Mann-Whitney: rank sum %g or tie term %g out of range "
                                          "for %zu and %zu samples", rank_sum_a, tie_term, na, nb);
    tally__ensure_init();
    double u_a = rank_sum_a - dna * (dna + 1) / 2;
    double u_big = fmax(u_a, dna * dnb - u_a);
    int is_exact = tally__mann_whitney_is_exact(tie_term, na, nb);
    double pv;
    if (is_exact) {
        /* Two-sided: twice the tail beyond the larger U, i.e. twice P(U <= smaller U) by the
         * symmetry of the null distribution. Without ties U is an integer. */
        size_t u_small = (size_t)(dna * dnb - u_big);
        double cdf = 1;
        int rc = tally__mann_whitney_cdf(&cdf, na, nb, u_small);
        if (rc)
            return rc;
        pv = 2 * cdf;
    } else {
        double sigma = sqrt(dna * dnb / 12.0 * ((dn + 1) - tie_term / (dn * (dn - 1))));
        if (!(sigma > 0)) {
            pv = 1; /* every value tied: no evidence either way */
        } else {
            double z = (u_big - dna * dnb / 2 - 0.5) / sigma;
            pv = 2 * gsl_cdf_ugaussian_Q(z);
        }
    }
    if (!isfinite(pv))
        return tally__error(TALLY_ENUMERIC, "Mann-Whitney: p-value is not finite");
    *u = u_a;
    *p = fmin(1.0, pv);
    if (exact)
        *exact = is_exact;
    return TALLY_OK;
}
