/* The weighted quantile core through its public entry points: tally_weighted_percentiles()
 * (R types 7 and 1, Harrell-Davis; plain sorted samples and values with counts) and
 * tally_percentile_interval() (the distribution-free order-statistic interval). Every expected
 * value comes from R 4.x; the script is pasted once here and each value names its line:
 *
 *   options(digits=17)
 *   x <- c(2.1, 3.5, 0.7, 9.4, 4.4, 5.0, 1.2, 8.8, 6.3, 2.9, 7.7, 3.1)
 *   p <- c(0.1, 0.5, 0.9, 0.99)
 *   hd <- function(x, p) { x <- sort(x); n <- length(x); i <- 1:n; a <- p*(n+1);
 *                          b <- (1-p)*(n+1); sum((pbeta(i/n, a, b) - pbeta((i-1)/n, a, b))*x) }
 *   quantile(x, p, type=7)   # [A]
 *   quantile(x, p, type=1)   # [B]
 *   sapply(p, function(q) hd(x, q))   # [C]
 *   w <- rep(c(1,2,3,5,8), c(3,0,4,2,1))
 *   quantile(w, p, type=7); quantile(w, p, type=1); sapply(p, function(q) hd(w, q))  # [D] [E] [F]
 *   y <- ((1:50 * 37) %% 101) / 7
 *   # the two-sided interval of scipy.stats.quantile_test(y, p=q).confidence_interval(conf)
 *   # (SciPy >= 1.12: low = x[binom.ppf(a) - 1], high = x[binom.isf(a)], a = (1 - conf) / 2),
 *   # written with R's qbinom, whose ppf and isf are the same quantiles:
 *   ci <- function(x, p, conf) { x <- sort(x); n <- length(x); a <- (1-conf)/2;
 *     l <- qbinom(a, n, p); u <- qbinom(a, n, p, lower.tail=FALSE) + 1;
 *     c(x[l], x[u], pbinom(u-1, n, p) - pbinom(l-1, n, p), l, u) }
 *   ci(y, 0.5, 0.95); ci(y, 0.9, 0.95); ci(y, 0.25, 0.9)   # [G] [H] [I]
 *   quantile(y, 0.9, type=7); hd(y, 0.9)                   # [J]
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "tally.h"

static const double x[] = { 2.1, 3.5, 0.7, 9.4, 4.4, 5.0, 1.2, 8.8, 6.3, 2.9, 7.7, 3.1 };
static const double p[] = { 10, 50, 90, 99 };

static int ascending(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

static void test_plain(void)
{
    double s[TALLY__COUNT(x)], out[4];
    memcpy(s, x, sizeof s);
    qsort(s, TALLY__COUNT(s), sizeof s[0], ascending);
    /* [A] */
    static const double t7[] = { 1.29, 3.95, 8.69, 9.334 };
    CHECK_INT(tally_weighted_percentiles(out, s, NULL, TALLY__COUNT(s), p, 4,
                                         TALLY_PERCENTILE_LINEAR), TALLY_OK);
    for (size_t i = 0; i < 4; i++)
        CHECK_REL(out[i], t7[i], 1e-14);
    /* [B] */
    static const double t1[] = { 1.2, 3.5, 8.8, 9.4 };
    CHECK_INT(tally_weighted_percentiles(out, s, NULL, TALLY__COUNT(s), p, 4,
                                         TALLY_PERCENTILE_NEAREST_RANK), TALLY_OK);
    for (size_t i = 0; i < 4; i++)
        CHECK_REL(out[i], t1[i], 0);
    /* [C] */
    static const double hd[] = { 1.1537697850200392, 4.1468428143549438, 8.8099743012723657,
                                 9.3753397354529664 };
    CHECK_INT(tally_weighted_percentiles(out, s, NULL, TALLY__COUNT(s), p, 4,
                                         TALLY_PERCENTILE_HARRELL_DAVIS), TALLY_OK);
    for (size_t i = 0; i < 4; i++)
        CHECK_REL(out[i], hd[i], 1e-12);
    /* The unsorted samples through tally_percentiles(): the same values. */
    CHECK_INT(tally_percentiles(out, x, TALLY__COUNT(x), p, 4, TALLY_PERCENTILE_HARRELL_DAVIS),
              TALLY_OK);
    for (size_t i = 0; i < 4; i++)
        CHECK_REL(out[i], hd[i], 1e-12);
}

static void test_counts(void)
{
    /* A histogram: value 2 has an empty bucket; the sample it stands for is w of the script. */
    static const double v[] = { 1, 2, 3, 5, 8 };
    static const uint64_t c[] = { 3, 0, 4, 2, 1 };
    static const double t7[] = { 1, 3, 5.3, 7.73 };         /* [D] */
    static const double t1[] = { 1, 3, 5, 8 };              /* [E] */
    static const double hd[] = { 1.0702874477005322, 3.0015372441863817, 6.7519717416844580,
                                 7.9300745027116566 };      /* [F] */
    double out[4];
    CHECK_INT(tally_weighted_percentiles(out, v, c, 5, p, 4, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    for (size_t i = 0; i < 4; i++)
        CHECK_REL(out[i], t7[i], 1e-14);
    CHECK_INT(tally_weighted_percentiles(out, v, c, 5, p, 4, TALLY_PERCENTILE_NEAREST_RANK),
              TALLY_OK);
    for (size_t i = 0; i < 4; i++)
        CHECK_REL(out[i], t1[i], 0);
    CHECK_INT(tally_weighted_percentiles(out, v, c, 5, p, 4, TALLY_PERCENTILE_HARRELL_DAVIS),
              TALLY_OK);
    for (size_t i = 0; i < 4; i++)
        CHECK_REL(out[i], hd[i], 1e-12);
}

static void test_interval(void)
{
    double y[50], lo, hi, level;
    for (int i = 1; i <= 50; i++)
        y[i - 1] = (double)((i * 37) % 101) / 7;
    qsort(y, 50, sizeof y[0], ascending);
    /* [G]: [x_(18), x_(33)], level 0.96716086243573152 */
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, y, NULL, 50, 50, 0.95), TALLY_OK);
    CHECK_REL(lo, 36.0 / 7, 1e-15);
    CHECK_REL(hi, 66.0 / 7, 1e-15);
    CHECK_REL(level, 0.96716086243573152, 1e-12);
    /* [H]: [x_(41), x_(50)], level 0.97030828908808842 */
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, y, NULL, 50, 90, 0.95), TALLY_OK);
    CHECK_REL(lo, 83.0 / 7, 1e-15);
    CHECK_REL(hi, 100.0 / 7, 1e-15);
    CHECK_REL(level, 0.97030828908808842, 1e-12);
    /* [I]: [x_(8), x_(19)], level 0.92601099367430462 */
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, y, NULL, 50, 25, 0.90), TALLY_OK);
    CHECK_REL(lo, 16.0 / 7, 1e-15);
    CHECK_REL(hi, 37.0 / 7, 1e-15);
    CHECK_REL(level, 0.92601099367430462, 1e-12);
    /* p5 of 50 values: 0.95^50 = 0.077 > 0.025, no lower bound (R's qbinom gives rank 0); the
     * least n is 72 (0.95^71 = 0.0262, 0.95^72 = 0.0249, by hand). */
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, y, NULL, 50, 5, 0.95), TALLY_ENODATA);
    CHECK(strstr(tally_error_last()->message, "at least 72") != NULL);
    /* p99 needs 368 values at 95 %: 0.99^367 = 0.02502, 0.99^368 = 0.02477 (by hand). */
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, y, NULL, 50, 99, 0.95), TALLY_ENODATA);
    CHECK(strstr(tally_error_last()->message, "at least 368") != NULL);
    /* [J] */
    double out;
    const double p90 = 90;
    CHECK_INT(tally_weighted_percentiles(&out, y, NULL, 50, &p90, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_OK);
    CHECK_REL(out, 12.9, 1e-14);
    CHECK_INT(tally_weighted_percentiles(&out, y, NULL, 50, &p90, 1,
                                         TALLY_PERCENTILE_HARRELL_DAVIS), TALLY_OK);
    CHECK_REL(out, 13.007845617776615, 1e-12);
}

/* A histogram gives what the samples it stands for give: the interval of 10^6 values as 1000
 * buckets of 1000 equals the interval of the ranks (order statistics l and u of the expanded
 * sample fall in buckets floor((l-1)/1000)). The ranks, by R:
 *   n <- 1e6; a <- 0.025; qbinom(a, n, 0.99); qbinom(a, n, 0.99, lower.tail=FALSE) + 1
 * give 989805 and 990196. */
static void test_big_histogram(void)
{
    static double v[1000];
    static uint64_t c[1000];
    for (size_t i = 0; i < 1000; i++) {
        v[i] = (double)i;
        c[i] = 1000;
    }
    double lo, hi, level;
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, v, c, 1000, 99, 0.95), TALLY_OK);
    CHECK_REL(lo, (989805 - 1) / 1000, 0);
    CHECK_REL(hi, (990196 - 1) / 1000, 0);
    CHECK(level >= 0.95 && level < 0.951);
    double out, p99 = 99;
    CHECK_INT(tally_weighted_percentiles(&out, v, c, 1000, &p99, 1, TALLY_PERCENTILE_HARRELL_DAVIS),
              TALLY_OK);
    /* Rank 0.99 (n + 1) = 990000.99 lies inside bucket 989 (ranks 989001..990000 end there,
     * 990001.. in bucket 990): the Beta weight is spread over buckets 989 and 990, by hand. */
    CHECK(out > 989 && out < 990);
}

static void test_errors(void)
{
    static const double v[] = { 1, 3, 2 };
    static const uint64_t zero[] = { 0, 0, 0 };
    double out, p50 = 50, bad = 101;
    CHECK_INT(tally_weighted_percentiles(&out, v, NULL, 3, &p50, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "not ascending at index 2") != NULL);
    CHECK_INT(tally_weighted_percentiles(&out, v, zero, 2, &p50, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_ENODATA);
    CHECK_INT(tally_weighted_percentiles(&out, v, NULL, 2, &bad, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_EINVAL);
    CHECK_INT(tally_weighted_percentiles(&out, v, NULL, 2, &p50, 1, (tally_percentile_method)7),
              TALLY_EINVAL);
    const double inf[] = { 1, INFINITY };
    CHECK_INT(tally_weighted_percentiles(&out, inf, NULL, 2, &p50, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_ENONFINITE);
    static const uint64_t huge[] = { UINT64_C(1) << 53, 1 };
    CHECK_INT(tally_weighted_percentiles(&out, v, huge, 2, &p50, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_EINVAL);
    double lo, hi, level;
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, v, NULL, 2, 0, 0.95), TALLY_EINVAL);
    CHECK_INT(tally_percentile_interval(&lo, &hi, &level, v, NULL, 2, 50, 1), TALLY_EINVAL);
}

int main(void)
{
    test_plain();
    test_counts();
    test_interval();
    test_big_histogram();
    test_errors();
    return check_summary();
}
