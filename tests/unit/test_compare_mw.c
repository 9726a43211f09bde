/*
 * Mann-Whitney U against SciPy and R.
 *
 * Expected values: SciPy 1.10.1 (/usr/bin/python3, Debian),
 *   scipy.stats.mannwhitneyu(a, b, alternative='two-sided')      (method='auto', continuity on)
 * pasted with all the digits repr() printed, and R 4.2.2 where noted:
 *   wilcox.test(a, b, exact = ..., correct = TRUE)  -> W (= U of a) and p.value
 *   2 * pwilcox(u, m, n)                              -> exact two-sided tail
 */
#include <math.h>
#include <stddef.h>

#include "check.h"
#include "stats/compare_impl.h"
#include "tally.h"

#define MAXN 64

typedef struct mw_case {
    const char *name;
    double a[MAXN];
    size_t na;
    double b[MAXN];
    size_t nb;
    double u, p;
    int exact;
} mw_case;

static const mw_case cases[] = {
    /* R wilcox.test: W = 0, p = 0.10000000000000001 */
    { "complete separation 3 vs 3 (exact)", { 1.1, 2.2, 3.3 }, 3, { 4.4, 5.5, 6.6 }, 3, 0.0, 0.1, 1 },
    { "n = 2 vs 2 (exact)", { 1.0, 2.0 }, 2, { 3.0, 5.0 }, 2, 0.0, 0.3333333333333333, 1 },
    { "interleaved 4 vs 5 (exact)", { 1.0, 3.0, 5.0, 7.0 }, 4, { 2.0, 4.0, 6.0, 8.0, 10.0 }, 5,
      6.0, 0.4126984126984127, 1 },
    /* R wilcox.test: W = 8, p = 0.010411810411810413 (exact) */
    { "8 vs 8, last exact size", { 0.51, 0.62, 0.48, 0.70, 0.55, 0.66, 0.59, 0.53 }, 8,
      { 0.64, 0.72, 0.69, 0.81, 0.58, 0.77, 0.74, 0.68 }, 8, 8.0, 0.010411810411810413, 1 },
    /* Both sides > 8: SciPy switches to the normal approximation. R wilcox.test(exact=FALSE,
     * correct=TRUE): W = 8, p = 0.004718198728115029; R's default (exact below 50) would give
     * p = 0.0027560674619498144 instead. */
    { "9 vs 9, normal approximation", { 0.51, 0.62, 0.48, 0.70, 0.55, 0.66, 0.59, 0.53, 0.57 }, 9,
      { 0.64, 0.72, 0.69, 0.81, 0.58, 0.77, 0.74, 0.68, 0.79 }, 9, 8.0, 0.004718198728115028, 0 },
    /* Ties force the normal approximation with tie correction. R: W = 3, p = 0.099342247853465279 */
    { "ties, small", { 1.0, 2.0, 2.0, 3.0 }, 4, { 2.0, 3.0, 3.0, 4.0, 5.0 }, 5,
      3.0, 0.09934224785346528, 0 },
    { "5 vs 20 (exact: the smaller side <= 8)", { 10.5, 11.2, 9.8, 10.9, 11.5 }, 5,
      { 12.1, 10.0, 12.5, 13.0, 11.8, 12.2, 12.9, 13.3, 11.1, 12.7, 13.6, 12.4, 11.9, 12.6, 13.1,
        10.7, 12.0, 13.4, 12.8, 11.4 }, 20, 10.0, 0.004253717297195558, 1 },
    /* Every value tied: zero variance of U, p = 1 (SciPy's z = -inf, clipped). */
    { "all identical", { 2.0, 2.0, 2.0 }, 3, { 2.0, 2.0, 2.0, 2.0 }, 4, 6.0, 1.0, 0 },
    /* R wilcox.test(correct=TRUE): W = 53.5, p = 0.015201303821215309 */
    { "rosetta1 (ties, 15 vs 15)",
      { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 }, 15,
      { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 }, 15,
      53.5, 0.015201303821215302, 0 },
    { "n = 1 vs 5 (exact)", { 3.0 }, 1, { 1.0, 2.0, 4.0, 5.0, 6.0 }, 5, 2.0, 1.0, 1 },
};

static void reference_cases(void)
{
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        const mw_case *c = &cases[i];
        double u = NAN, p = NAN;
        int exact = -1;
        fprintf(stderr, "case %s\n", c->name);
        CHECK_INT(tally_mann_whitney(&u, &p, &exact, c->a, c->na, c->b, c->nb), TALLY_OK);
        CHECK_ABS(u, c->u, 0);
        CHECK_REL(p, c->p, 1e-12);
        CHECK_INT(exact, c->exact);
    }
}

/* Generated sets; the same formulas in Python and R (see the comments). */
static void generated(void)
{
    static double a[50], b[60], s1[30], s2[30], t3[40];
    double u, p;
    int exact;

    /* a = [100 + ((i*7) % 13)/4.0 for i in range(50)], b = [100.5 + ((i*5) % 11)/4.0 for i in
     * range(60)]: many ties. SciPy: U = 1227.0, p = 0.10073842855940353; R wilcox.test(a, b,
     * correct=TRUE): W = 1227, p = 0.10073842855940354 */
    for (int i = 0; i < 50; i++)
        a[i] = 100 + ((i * 7) % 13) / 4.0;
    for (int i = 0; i < 60; i++)
        b[i] = 100.5 + ((i * 5) % 11) / 4.0;
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, a, 50, b, 60), TALLY_OK);
    CHECK_ABS(u, 1227.0, 0);
    CHECK_REL(p, 0.10073842855940353, 1e-12);
    CHECK_INT(exact, 0);

    /* Extreme separation, 30 vs 30 without ties: [1.0 + k*0.01 for k in range(30)] vs
     * [2.0 + k*0.01 ...]. SciPy: U = 0.0, p = 3.019859359162157e-11; R (exact=FALSE,
     * correct=TRUE): p = 3.0198593591621506e-11 */
    for (int k = 0; k < 30; k++) {
        s1[k] = 1.0 + k * 0.01;
        s2[k] = 2.0 + k * 0.01;
    }
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, s1, 30, s2, 30), TALLY_OK);
    CHECK_ABS(u, 0, 0);
    CHECK_REL(p, 3.019859359162157e-11, 1e-9);
    CHECK_INT(exact, 0);
    /* The other way round U is n1*n2 and p the same. */
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, s2, 30, s1, 30), TALLY_OK);
    CHECK_ABS(u, 900, 0);
    CHECK_REL(p, 3.019859359162157e-11, 1e-9);

    /* 3 vs 40, exact: [5.05, 5.55, 4.75] vs [5.0 + 0.1*k for k in range(40)].
     * SciPy: U = 7.0, p = 0.005023904059638603 */
    const double three[] = { 5.05, 5.55, 4.75 };
    for (int k = 0; k < 40; k++)
        t3[k] = 5.0 + 0.1 * k;
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, three, 3, t3, 40), TALLY_OK);
    CHECK_ABS(u, 7, 0);
    CHECK_REL(p, 0.005023904059638603, 1e-12);
    CHECK_INT(exact, 1);
}

/* The counted null distribution against R's pwilcox (the same exact distribution, computed by R's
 * own recursion): two-sided tails 2 * pwilcox(u, m, n), R 4.2.2, print(digits = 17). */
static void exact_distribution(void)
{
    static const struct {
        size_t m, n, u;
        double two_sided;
    } ref[] = {
        { 8, 300, 0, 1.0913159701127372e-15 },  /* 2 * pwilcox(0, 8, 300) */
        { 8, 300, 50, 2.9321695748183045e-10 }, /* 2 * pwilcox(50, 8, 300) */
        { 8, 300, 400, 0.0006297721024887303 },
        { 8, 300, 1000, 0.42930428497349571 },
        { 3, 7, 5, 0.26666666666666666 },
        { 6, 8, 17, 0.41358641358641363 },
        { 1, 49, 3, 0.16 },
        { 8, 60, 200, 0.4593205231814298 },
        { 8, 8, 0, 0.0001554001554001554 },
    };
    for (size_t i = 0; i < TALLY__COUNT(ref); i++) {
        double cdf = NAN;
        CHECK_INT(tally__mann_whitney_cdf(&cdf, ref[i].m, ref[i].n, ref[i].u), TALLY_OK);
        CHECK_REL(2 * cdf, ref[i].two_sided, 1e-12);
        /* The distribution is symmetric in the two sizes. */
        CHECK_INT(tally__mann_whitney_cdf(&cdf, ref[i].n, ref[i].m, ref[i].u), TALLY_OK);
        CHECK_REL(2 * cdf, ref[i].two_sided, 1e-12);
    }
    double cdf;
    CHECK_INT(tally__mann_whitney_cdf(&cdf, 3, 4, 12), TALLY_OK);
    CHECK_ABS(cdf, 1, 0); /* u = m*n covers everything */

    /* Smallest attainable p = 2 / C(na + nb, na), by hand: 2/C(4,2) = 1/3, 2/C(6,3) = 0.1,
     * 2/C(7,3) = 2/35, 2/C(8,4) = 1/35, 2/C(2,1) = 1 (capped). */
    CHECK_REL(tally__mann_whitney_min_p(2, 2), 1.0 / 3, 1e-15);
    CHECK_REL(tally__mann_whitney_min_p(3, 3), 0.1, 1e-15);
    CHECK_REL(tally__mann_whitney_min_p(3, 4), 2.0 / 35, 1e-15);
    CHECK_REL(tally__mann_whitney_min_p(4, 4), 1.0 / 35, 1e-15);
    CHECK_REL(tally__mann_whitney_min_p(1, 1), 1.0, 0);
}

/* tally__mann_whitney_cdf_splits(total, kmax, u) against want[0..kmax) within rel. */
static void check_splits(size_t total, size_t kmax, const size_t *u, const double *want,
                         double rel)
{
    double out[8];
    CHECK_INT(tally__mann_whitney_cdf_splits(out, total, kmax, u), TALLY_OK);
    for (size_t k = 0; k < kmax; k++)
        CHECK_REL(out[k], want[k], rel);
}

/* The splits' series (every k of one pooled sample from one series) against exact rational
 * values: Mann & Whitney's (1947) recursion g(k, n, u) = g(k - 1, n, u - n) + g(k, n - 1, u) on
 * Python integers, P = sum_{v <= u} g(k, 600 - k, v) / C(600, k) printed with %.17g
 * (fractions.Fraction, k = 1..8, u = k(600 - k) / 10 and k(600 - k) / 2 - 1, integer division).
 * C(600, 8) > 2^53: the counts are rounded, as for the warm-up scan of long series. */
static void exact_splits(void)
{
    static const size_t tail_u[8] = { 59, 119, 179, 238, 297, 356, 415, 473 };
    static const double tail_p[8] = { 0.10000000000000001,    0.020367278797996661,
                                      0.004713122763133651,   0.0011413471471984258,
                                      0.0002874750740067509,  7.4520573174537074e-05,
                                      1.9766386249654074e-05, 5.2595598921615252e-06 };
    static const size_t centre_u[8] = { 298, 597, 894, 1191, 1486, 1781, 2074, 2367 };
    static const double centre_p[8] = { 0.49833333333333335, 0.4991652754590985,
                                        0.49874791318864775, 0.49944304467154621,
                                        0.49899838830259791, 0.49953974243671007,
                                        0.49914399715568741, 0.49959817532506373 };
    double out[8];
    check_splits(600, 8, tail_u, tail_p, 1e-13);
    check_splits(600, 8, centre_u, centre_p, 1e-13);
    /* Fewer splits than wanted k: the same values for the first ones. */
    check_splits(600, 3, centre_u, centre_p, 1e-13);
    /* The warm-up scan's p-values equal tally_mann_whitney_from_ranks on each split: first
     * runs with ranks from a seeded shuffle of 1..n (no ties: exact for k <= 8), and with a
     * tie term (normal approximation for every k). */
    const size_t sizes[2] = { 40, 3000 };
    for (int s = 0; s < 2; s++) {
        size_t n = sizes[s];
        double rank[3000];
        for (size_t i = 0; i < n; i++)
            rank[i] = (double)(i + 1);
        unsigned long long state = 12345 + (unsigned long long)s;
        for (size_t i = n - 1; i > 0; i--) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t j = (size_t)((state >> 33) % (i + 1));
            double t = rank[i];
            rank[i] = rank[j];
            rank[j] = t;
        }
        for (int tied = 0; tied < 2; tied++) {
            double tie_term = tied ? 6 : 0, p[10];
            CHECK_INT(tally__mann_whitney_splits(p, rank, tie_term, n, 10), TALLY_OK);
            double sum = 0;
            for (size_t k = 1; k <= 10; k++) {
                double u, want;
                int exact;
                sum += rank[k - 1];
                CHECK_INT(tally_mann_whitney_from_ranks(&u, &want, &exact, sum, tie_term, k, n - k),
                          TALLY_OK);
                CHECK_INT(exact, !tied && k <= 8);
                CHECK_REL(p[k - 1], want, 1e-12);
            }
        }
    }
    CHECK_INT(tally__mann_whitney_splits(out, centre_p, 0, 3, 3), TALLY_EINVAL);

    /* u = k (total - k) covers everything: 1 (k = 1: 0..9 against 10 - 1 = 9). */
    const size_t all[1] = { 9 };
    CHECK_INT(tally__mann_whitney_cdf_splits(out, 10, 1, all), TALLY_OK);
    CHECK_ABS(out[0], 1, 0);
}

/* The splits of 10000 runs, where the first four steps are counted on integers (C(10000, 4) <
 * 2^52 < C(10000, 5)) and the later ones in doubles, against R 4.2.2:
 *   N <- 10000; for (k in 1:6) { u <- (k * (N - k)) %/% 2 - 50 * k
 *     cat(k, u, sprintf("%.17g", pwilcox(u, k, N - k)), "\n") }
 * (R sums its counts in doubles: within 1e-13 of the exact ratios). By hand: k = 1, U uniform
 * on 0..9999: P(U <= 4949) = 4950 / 10000; k = 2, the coefficient of q^j in [10000 choose 2]_q
 * is floor(j / 2) + 1 for j < 9999, so P(U <= 9898) = 4950^2 / C(10000, 2) = 4950 / 10100. */
static void exact_splits_long(void)
{
    static const size_t u[6] = { 4949, 9898, 14845, 19792, 24737, 29682 };
    static const double want[6] = { 0.4949999999999618,  0.49009900990098998,
                                    0.48875000007502301, 0.48670063245034079,
                                    0.48502630240896827, 0.48352785970380496 };
    check_splits(10000, 6, u, want, 1e-12);
    const double by_hand[2] = { 4950.0 / 10000, 4950.0 / 10100 };
    check_splits(10000, 2, u, by_hand, 1e-15);
    /* Every split against tally__mann_whitney_cdf, which builds each k on its own in doubles,
     * for totals on both sides of the switch from integers to doubles (seeded u). */
    static const size_t totals[] = { 12, 97, 600, 2000, 10000, 40000 };
    unsigned long long state = 2026;
    for (size_t t = 0; t < TALLY__COUNT(totals); t++) {
        size_t total = totals[t], kmax = total / 3 < 8 ? total / 3 : 8, v[8];
        for (size_t k = 1; k <= kmax; k++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            v[k - 1] = (size_t)((state >> 33) % (k * (total - k) / 2 + 1));
        }
        double got[8];
        CHECK_INT(tally__mann_whitney_cdf_splits(got, total, kmax, v), TALLY_OK);
        for (size_t k = 1; k <= kmax; k++) {
            double ref;
            CHECK_INT(tally__mann_whitney_cdf(&ref, k, total - k, v[k - 1]), TALLY_OK);
            CHECK_REL(got[k - 1], ref, 1e-12);
        }
    }
}

/* tally's bound on the exact test (docs/statistics.md): exact up to na * nb = 2e6 pairs. */
static void exact_bound(void)
{
    enum { BIG = 250001 };
    static double big[BIG];
    const double eight[] = { 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5 };
    for (int j = 0; j < BIG; j++)
        big[j] = j;
    double u, p;
    int exact = -1;
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, eight, 8, big, BIG - 1), TALLY_OK);
    CHECK_INT(exact, 1);
    CHECK_ABS(u, 36, 0); /* 1 + 2 + ... + 8 samples of big below each, by hand */
    /* By hand: for k <= 36 < n the arrangements with U = k are the partitions of k into at most 8
     * parts; sum over k <= 36 = 40525 (Python, exact integers: p[k] += p[k - part] for parts
     * 1..8), so p = 2 * 40525 / C(250008, 8) = 2.141366161525144e-34. */
    CHECK_REL(p, 2.141366161525144e-34, 1e-12);
    /* One more pair than the bound: the normal approximation. SciPy 1.10.1:
     * mannwhitneyu(eight, np.arange(250001.0), alternative='two-sided', method='asymptotic')
     * -> U = 36.0, p = 9.646667381259255e-07 (with 8 on one side the approximation is far from
     * the exact tail, as it is in SciPy for 9 against any size). */
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, eight, 8, big, BIG), TALLY_OK);
    CHECK_INT(exact, 0);
    CHECK_REL(p, 9.646667381259255e-07, 1e-9);
}

static void bad_input(void)
{
    const double two[] = { 1.0, 2.0 }, with_nan[] = { 1.0, NAN }, with_inf[] = { -INFINITY, 1.0 };
    double u, p;
    int exact;
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, two, 2, two, 0), TALLY_ENODATA);
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, two, 0, two, 2), TALLY_ENODATA);
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, with_nan, 2, two, 2), TALLY_ENONFINITE);
    CHECK_INT(tally_mann_whitney(&u, &p, &exact, two, 2, with_inf, 2), TALLY_ENONFINITE);
    CHECK_INT(tally_mann_whitney(NULL, &p, &exact, two, 2, two, 2), TALLY_EINVAL);
    /* exact may be NULL */
    CHECK_INT(tally_mann_whitney(&u, &p, NULL, two, 2, two, 2), TALLY_OK);
    CHECK_ABS(u, 2, 0); /* pairs a > b: (2 > 1) + ties 1/2 * 2 = 2, by hand */
    CHECK_ABS(p, 1, 0);
}

/* The test from the pooled mid-rank sum and tie term alone (what a distributed sort gives).
 * a = {1, 2, 4}, b = {3, 5}: pooled order 1a 2a 3b 4a 5b, a's ranks 1 + 2 + 4 = 7, no ties;
 * U = 7 - 3*4/2 = 1. SciPy 1.10: mannwhitneyu([1,2,4], [3,5], alternative='two-sided',
 * method='auto') -> statistic=1.0, pvalue=0.4 (exact: 2 of the C(5,2) = 10 orders have U <= 1).
 * a = {1, 2, 2}, b = {2, 3}: 1a 2a 2a 2b 3b, the three 2s share rank 3: a's ranks 1 + 3 + 3 = 7,
 * tie term 3^3 - 3 = 24; mannwhitneyu([1,2,2], [2,3], ...) -> 1.0, 0.3329216080655659. */
static void from_ranks(void)
{
    double u, p;
    int exact = -1;
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, &exact, 7, 0, 3, 2), TALLY_OK);
    CHECK_ABS(u, 1.0, 0);
    CHECK_REL(p, 0.4, 1e-12);
    CHECK_INT(exact, 1);
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, &exact, 7, 24, 3, 2), TALLY_OK);
    CHECK_ABS(u, 1.0, 0);
    CHECK_REL(p, 0.3329216080655659, 1e-12);
    CHECK_INT(exact, 0);
    /* The sample version gives the same bits: it is this function after the ranking. */
    const double a[] = { 1, 2, 2 }, b[] = { 2, 3 };
    double u2, p2;
    CHECK_INT(tally_mann_whitney(&u2, &p2, NULL, a, 3, b, 2), TALLY_OK);
    CHECK(u2 == u && p2 == p);
    /* Rank sums outside [na(na+1)/2, na(na+1)/2 + na nb] = [6, 12], a negative or infinite tie
     * term, empty sides and NULL outputs are refused. */
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, NULL, 5.5, 0, 3, 2), TALLY_EINVAL);
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, NULL, 12.5, 0, 3, 2), TALLY_EINVAL);
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, NULL, 12, 0, 3, 2), TALLY_OK);
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, NULL, 7, -1, 3, 2), TALLY_EINVAL);
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, NULL, 7, INFINITY, 3, 2), TALLY_EINVAL);
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, NULL, 7, NAN, 3, 2), TALLY_EINVAL);
    CHECK_INT(tally_mann_whitney_from_ranks(&u, &p, NULL, 0, 0, 0, 2), TALLY_ENODATA);
    CHECK_INT(tally_mann_whitney_from_ranks(NULL, &p, NULL, 7, 0, 3, 2), TALLY_EINVAL);
}

int main(void)
{
    from_ranks();
    reference_cases();
    generated();
    exact_distribution();
    exact_splits();
    exact_splits_long();
    exact_bound();
    bad_input();
    return check_summary();
}
