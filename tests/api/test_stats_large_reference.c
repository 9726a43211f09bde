/* tally_summarize and tally_summarize_inplace on 200,003 benchmark-like samples (above the size
 * where the histogram selection applies) against numpy 1.24.2 / scipy 1.10.1. The samples come
 * from splitmix64 and only + and * on doubles, one operation per statement (nothing a compiler
 * may fuse), so Python reproduces them bit for bit:
 *
 *   M = (1 << 64) - 1
 *   def rng_splitmix64(state):
 *       state = (state + 0x9E3779B97F4A7C15) & M
 *       z = state
 *       z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
 *       z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
 *       return state, z ^ (z >> 31)
 *   def bench(n, state):
 *       out = []
 *       for _ in range(n):
 *           u = []
 *           for _ in range(6):
 *               state, z = rng_splitmix64(state)
 *               u.append((z >> 11) * 2.0**-53)
 *           t = u[0] + u[1] + u[2] - 1.5
 *           t = 0.05 * t
 *           t = 1.0 + t
 *           v = 100.0 * t
 *           p = u[3] * u[3] * u[3] * u[3] * u[3] * u[3] * u[3] * u[3]
 *           p = 20.0 * p
 *           v = v + p
 *           if u[4] < 0.002:
 *               s = 50.0 * u[5]
 *               s = 50.0 + s
 *               v = v + s
 *           out.append(v)
 *       return np.array(out)
 *   x = bench(200003, 20240601)
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_rng.h"
#include "tally.h"


/* Around 100 with a 5 % spread, a long right tail (20 u^8) and 0.2 % of spikes of +50..+100. */
static void bench(double *x, size_t n, uint64_t state)
{
    for (size_t i = 0; i < n; i++) {
        double u[6];
        for (int k = 0; k < 6; k++)
            u[k] = (double)(rng_splitmix64(&state) >> 11) * 0x1.0p-53;
        double t = u[0] + u[1] + u[2] - 1.5;
        t = 0.05 * t;
        t = 1.0 + t;
        double v = 100.0 * t;
        double p = u[3] * u[3] * u[3] * u[3] * u[3] * u[3] * u[3] * u[3];
        p = 20.0 * p;
        v = v + p;
        if (u[4] < 0.002) {
            double s = 50.0 * u[5];
            s = 50.0 + s;
            v = v + s;
        }
        x[i] = v;
    }
}

static void check_reference(const tally_summary *s)
{
    CHECK_INT(s->n, 200003);
    /* repr(x.min()), repr(x.max()) */
    CHECK(s->min == 92.70739723509857);
    CHECK(s->max == 216.0336945459767);
    /* repr(np.mean(x)) */
    CHECK_REL(s->amean, 102.38777581329491, 1e-12);
    /* repr(scipy.stats.hmean(x)) */
    CHECK_REL(s->hmean, 102.09255106803003, 1e-12);
    /* repr(scipy.stats.gmean(x)) */
    CHECK_REL(s->gmean, 102.23150070214903, 1e-12);
    /* repr(np.median(x)): n odd, the 100002nd smallest sample, exact */
    CHECK(s->median == 101.1713827857455);
    /* repr(np.std(x, ddof=1)) */
    CHECK_REL(s->stddev, 6.083974931676047, 1e-12);
    /* med = np.median(x); mad = np.median(np.abs(x - med)) -> 2.341430741894868;
     * int(np.sum(np.abs(0.6745 * (x - med) / mad) > 3.5)) -> 10880
     * (the score nearest the cut is 3.5001048266134904: no rounding can move a sample across) */
    CHECK_INT(s->outliers_mad, 10880);
    /* q1, q3 = np.percentile(x, [25, 75]) -> 99.03897569690774, 103.8497102057075;
     * iqr = q3 - q1; int(np.sum((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr))) -> 15360
     * (fences 91.82287393370811 and 111.06581196890713; nearest samples 92.70739723509857 and
     * 111.0659675478087) */
    CHECK_INT(s->outliers_tukey, 15360);
}

static void test_generator(void)
{
    double x[3];
    bench(x, 3, 20240601);
    /* [repr(v) for v in x[:3]] */
    CHECK(x[0] == 100.30581661286699);
    CHECK(x[1] == 99.4313384731082);
    CHECK(x[2] == 101.68230981013173);
}

static void test_summary_matches_numpy(void)
{
    const size_t n = 200003;
    double *x = malloc(n * sizeof *x), *copy = malloc(n * sizeof *copy);
    tally_summary s = { .size = sizeof s }, t = { .size = sizeof t };
    bench(x, n, 20240601);
    memcpy(copy, x, n * sizeof *x);

    CHECK_INT(tally_summarize(&s, x, n, NULL), TALLY_OK);
    check_reference(&s);
    CHECK(memcmp(x, copy, n * sizeof *x) == 0);

    CHECK_INT(tally_summarize_inplace(&t, copy, n, NULL), TALLY_OK);
    check_reference(&t);
    CHECK(memcmp(&s, &t, sizeof s) == 0);
    free(x);
    free(copy);
}

/* tally_summarize_with_percentiles: the summary of tally_summarize plus percentiles selected
 * with it. numpy 1.24.2 on x = bench(200003, 20240601):
 *   [repr(v) for v in np.percentile(x, [90, 99, 0, 100, 37.5])]
 *   -> 109.14651805197167, 119.75437235875502, 92.70739723509857, 216.0336945459767,
 *      100.12814683317457
 *   [repr(v) for v in np.percentile(x, [90, 99], method="inverted_cdf")]
 *   -> 109.14664240726464, 119.7543839450519
 * numpy interpolates as a + (b - a) g, tally as R does, (1 - g) a + g b: equal to 1e-13. */
static void test_summary_with_percentiles(void)
{
    const size_t n = 200003;
    double *x = malloc(n * sizeof *x), pct[5];
    static const double p[5] = { 90, 99, 0, 100, 37.5 };
    tally_summary s = { .size = sizeof s };
    CHECK(x != NULL);
    if (x == NULL)
        return;
    bench(x, n, 20240601);
    CHECK_INT(tally_summarize_with_percentiles(&s, pct, x, n, p, 5, NULL), TALLY_OK);
    check_reference(&s);
    CHECK_REL(pct[0], 109.14651805197167, 1e-13);
    CHECK_REL(pct[1], 119.75437235875502, 1e-13);
    CHECK(pct[2] == 92.70739723509857);
    CHECK(pct[3] == 216.0336945459767);
    CHECK_REL(pct[4], 100.12814683317457, 1e-13);

    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    o.percentile_method = TALLY_PERCENTILE_NEAREST_RANK;
    CHECK_INT(tally_summarize_with_percentiles(&s, pct, x, n, p, 2, &o), TALLY_OK);
    CHECK(pct[0] == 109.14664240726464);
    CHECK(pct[1] == 119.7543839450519);

    /* count 0 is tally_summarize; bad percentages and NULL outputs fail with nothing written. */
    CHECK_INT(tally_summarize_with_percentiles(&s, NULL, x, n, NULL, 0, NULL), TALLY_OK);
    check_reference(&s);
    static const double bad[1] = { 100.5 };
    CHECK_INT(tally_summarize_with_percentiles(&s, pct, x, n, bad, 1, NULL), TALLY_EINVAL);
    CHECK_INT(s.n, 0);
    CHECK_INT(tally_summarize_with_percentiles(&s, NULL, x, n, p, 1, NULL), TALLY_EINVAL);
    free(x);
}

int main(void)
{
    test_generator();
    test_summary_matches_numpy();
    test_summary_with_percentiles();
    return check_summary();
}
