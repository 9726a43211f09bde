/* Percentile rows of tally_compare(): the Price-Bonett construction on the log ratio of two
 * percentiles, with each side's standard error from its order-statistic interval
 * (docs/statistics.md, "Percentile rows"). Checked against R on fixed data, and its coverage by
 * seeded simulation on lognormal and Pareto-tailed data, n = 10, 30, 100 runs, p50 and p99. */
#include <math.h>
#include <stdint.h>

#define TEST_RNG_SEED 0x32a7c0ffeeULL
#include "check.h"
#include "tally.h"
#include "test_rng.h"

static int compare_pct(tally_comparison *c, const double *b, size_t nb, const double *n_,
                       size_t nn, double p, tally_percentile_method method)
{
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.percentile = p;
    so.percentile_method = method;
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.statistic = TALLY_STAT_PERCENTILE;
    o.summary = &so;
    c->size = sizeof *c;
    return tally_compare(c, b, nb, n_, nn, &o);
}

/*
 * The p90 of y (50 values) against the p90 of 1.1 y + 0.3, in R:
 *   y <- ((1:50 * 37) %% 101) / 7;  z <- 1.1 * y + 0.3
 *   side <- function(x, p, conf) { x <- sort(x); n <- length(x); a <- (1-conf)/2
 *     l <- qbinom(a, n, p); u <- qbinom(a, n, p, lower.tail=FALSE) + 1
 *     L <- pbinom(u-1, n, p) - pbinom(l-1, n, p)
 *     c(log(quantile(x, p, type=7)), log(x[u] / x[l]) / (2 * qnorm((1 + L) / 2))) }
 *   b <- side(y, 0.9, 0.95); n <- side(z, 0.9, 0.95)
 *   D <- n[1] - b[1]; se <- sqrt(b[2]^2 + n[2]^2)
 *   exp(D + c(-1, 1) * qnorm(0.975) * se); 2 * pnorm(-abs(D / se))
 * gives ratio 1.1232558139534887 (exp(D); (1.1 * 12.9 + 0.3) / 12.9 by hand), interval
 * [0.9986730301314336, 1.2633800908934767] and p 0.052644469515680477.
 */
static void test_against_r(void)
{
    double y[50], z[50];
    for (int i = 1; i <= 50; i++) {
        y[i - 1] = (double)((i * 37) % 101) / 7;
        z[i - 1] = 1.1 * y[i - 1] + 0.3;
    }
    tally_comparison c;
    CHECK_INT(compare_pct(&c, y, 50, z, 50, 90, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK_REL(c.ratio, 1.1232558139534887, 1e-13);
    CHECK_INT(c.test, TALLY_TEST_PRICE_BONETT);
    CHECK_INT(c.interval, TALLY_INTERVAL_PRICE_BONETT);
    CHECK(c.interval_defined);
    CHECK_REL(c.ratio_low, 0.9986730301314336, 1e-12);
    CHECK_REL(c.ratio_high, 1.2633800908934767, 1e-12);
    CHECK_REL(c.p_value, 0.052644469515680477, 1e-12);
    CHECK_INT(c.verdict, TALLY_VERDICT_INCONCLUSIVE);
    /* The summary's percentile fields (the interval: test_quantile.c, [H]). */
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.percentile = 90;
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_summarize(&s, y, 50, &so), TALLY_OK);
    CHECK(s.defined & TALLY_SUMMARY_PERCENTILE);
    CHECK(s.defined & TALLY_SUMMARY_PERCENTILE_CI);
    CHECK_REL(s.percentile_value, 12.9, 1e-14);
    CHECK_REL(s.percentile_ci_low, 83.0 / 7, 1e-15);
    CHECK_REL(s.percentile_ci_high, 100.0 / 7, 1e-15);
    double v;
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_PERCENTILE), TALLY_OK);
    CHECK_REL(v, 12.9, 1e-14);
    /* Harrell-Davis: hd(y, 0.9) of test_quantile.c's script, 13.007845617776615; the median
     * field stays type 7 (y's median by R: quantile(y, 0.5, type=7) = 7.0714285714285712). */
    so.percentile_method = TALLY_PERCENTILE_HARRELL_DAVIS;
    CHECK_INT(tally_summarize(&s, y, 50, &so), TALLY_OK);
    CHECK_REL(s.percentile_value, 13.007845617776615, 1e-12);
    CHECK_REL(s.median, 7.0714285714285712, 1e-14);
    /* p99 of 50 runs: no distribution-free interval (it needs 368), so no test. */
    CHECK_INT(compare_pct(&c, y, 50, z, 50, 99, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
    CHECK(!c.interval_defined);
    /* A percentile row without its p is refused. */
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.statistic = TALLY_STAT_PERCENTILE;
    c.size = sizeof c;
    CHECK_INT(tally_compare(&c, y, 50, z, 50, &o), TALLY_EINVAL);
}

/* Draws of the two families: lognormal(0, 1) and a Pareto tail (x_m = 1, shape 2.5, by the
 * inverse CDF (1 - U)^(-1/2.5)): heavy enough that its p99 sits far out. */
static double draw(int pareto)
{
    if (pareto)
        return pow(1 - uniform01(), -1 / 2.5);
    return exp(gauss());
}

/* Coverage of the 95 % interval of the ratio of percentiles: new = 1.2 base in distribution,
 * so the true ratio of any percentile is 1.2. 2000 replications per cell: the binomial
 * standard error of a 95 % coverage is 0.49 %, so [93.5 %, 96.5 %] is +-3 of them. */
#define REPS 2000

static void test_coverage(void)
{
    static const size_t sizes[] = { 10, 30, 100 };
    double b[100], c2[100];
    for (int pareto = 0; pareto < 2; pareto++)
        for (size_t k = 0; k < TALLY__COUNT(sizes); k++) {
            size_t n = sizes[k];
            size_t covered = 0, defined = 0, insufficient99 = 0;
            for (int rep = 0; rep < REPS; rep++) {
                for (size_t i = 0; i < n; i++) {
                    b[i] = draw(pareto);
                    c2[i] = 1.2 * draw(pareto);
                }
                tally_comparison c;
                if (compare_pct(&c, b, n, c2, n, 50, TALLY_PERCENTILE_LINEAR) != TALLY_OK)
                    continue;
                if (c.interval_defined) {
                    defined++;
                    covered += c.ratio_low <= 1.2 && 1.2 <= c.ratio_high;
                }
                if (compare_pct(&c, b, n, c2, n, 99, TALLY_PERCENTILE_LINEAR) == TALLY_OK &&
                    c.verdict == TALLY_VERDICT_INSUFFICIENT && !c.interval_defined)
                    insufficient99++;
            }
            double rate = (double)covered / (double)defined;
            printf("%s n=%zu p50: coverage %.2f %% of %zu; p99: no interval in %zu of %d\n",
                   pareto ? "pareto" : "lognormal", n, 100 * rate, defined, insufficient99, REPS);
            CHECK_INT(defined, REPS);
            /* The stated exception: 10 runs are conservative (measured 97.2 % on both
             * families, seed above), since the order-statistic interval behind each side's
             * standard error jumps from 89.1 % ([x_(3), x_(8)]) to 97.9 % ([x_(2), x_(9)]):
             * 10 runs cannot have a tighter distribution-free one at 95 %. */
            double high = n == 10 ? 0.980 : 0.965;
            CHECK(rate >= 0.935 && rate <= high);
            /* The stated exception: p99 of at most 100 runs has no distribution-free interval
             * at 95 % (it needs 368 runs), so every such row is insufficient, never a number
             * with a false level. */
            CHECK_INT(insufficient99, REPS);
        }
}

int main(void)
{
    test_against_r();
    test_coverage();
    return check_summary();
}
