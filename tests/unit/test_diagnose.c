/* Run-order and shape diagnostics (libstat/stats/diagnose.c, dip.c): each statistic against an
 * independent value (R output pasted with the call that produced it, or a hand calculation), then
 * seeded simulations of each check's false-alarm rate on clean i.i.d. runs and of its detection
 * rate on runs with an injected defect of a stated size (docs/statistics.md, "Diagnostics"). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "test_rng.h"
#include "stats/diag_internal.h"
#include "stats/dip_table.h"
#include "util/count.h"
#include "tally.h"

static int by_double(const void *l, const void *r)
{
    double a = *(const double *)l, b = *(const double *)r;
    return (a > b) - (a < b);
}

/* Sorted copy and its dip. */
static double dip_of(const double *x, size_t n, size_t *lo, size_t *hi)
{
    double *s = malloc(n * sizeof *s), d = -1;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, by_double);
    CHECK_INT(tally__dip(&d, lo, hi, s, n), TALLY_OK);
    free(s);
    return d;
}

/* R 4.2.2, diptest 0.76-0:
 *   set.seed(7); x <- c(rnorm(15), rnorm(15, 5)); print(dip(x, full.result=TRUE), digits=17)
 *   -> dip 0.070853747378603435; dip(x, full.result=TRUE)$lo.hi -> 19 30 (1-based);
 *   dip.test(x)$p.value 0.2613369465
 *   y <- c(3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3,2,3,8,4); dip(y) -> 0.081250000000000003,
 *   dip.test(y)$p.value 0.3250706292
 *   u <- (1:40)/41; dip(u) -> 0.012500000000000044 = 1/(2n), dip.test(u)$p.value 1 */
static const double mix[30] = {
    2.28724716134052386,  -1.19677168222234953, -0.69429251043545903, -0.41229295113680253,
    -0.97067334111948322, -0.94727994522810754, 0.74813934029055118,  -0.11695522588715161,
    0.15265762628223362,  2.18997810732937959,  0.35698623032902249,  2.71675178313072463,
    2.28145192598955715,  0.32402054013851594,  1.89606706680993109,  5.46768051132169752,
    4.10619927691455633,  4.69267170046280491,  4.99517757773242987,  5.98816414949994424,
    5.83975035962407141,  5.70534183090550062,  6.30596472081168713,  3.61200378340714945,
    6.27291686425523665,  5.18419277123576716,  5.75227989574003296,  5.59174505246272702,
    4.01694740422897922,  4.72393604488799390
};

static void test_dip_reference(void)
{
    size_t lo, hi;
    CHECK_REL(dip_of(mix, 30, &lo, &hi), 0.070853747378603435, 1e-14);
    CHECK_INT(lo + 1, 19);
    CHECK_INT(hi + 1, 30);
    const double y[20] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4 };
    CHECK_REL(dip_of(y, 20, NULL, NULL), 0.081250000000000003, 1e-14);
    double u[40];
    for (int i = 0; i < 40; i++)
        u[i] = (i + 1) / 41.0;
    CHECK_REL(dip_of(u, 40, NULL, NULL), 0.0125, 1e-12);
    /* n < 4 and all-equal samples: the minimum 1/(2n) (R: dip(c(1,2,3)) = 1/6; dip(rep(2,9)) = 1/18). */
    const double three[3] = { 1, 2, 3 }, same[9] = { 2, 2, 2, 2, 2, 2, 2, 2, 2 };
    CHECK_REL(dip_of(three, 3, NULL, NULL), 1.0 / 6, 1e-15);
    CHECK_REL(dip_of(same, 9, NULL, NULL), 1.0 / 18, 1e-15);
    /* The dip does not depend on location or scale (exactly: every step compares ratios of
     * differences of the sorted samples). */
    double scaled[30];
    for (int i = 0; i < 30; i++)
        scaled[i] = 1e7 + 3.0 * mix[i];
    CHECK_REL(dip_of(scaled, 30, NULL, NULL), 0.070853747378603435, 1e-9);
}

/* The p-value from the simulated table against R's dip.test (interpolating its own simulated
 * qDiptab): two independent simulations agree within their Monte Carlo error. */
/* A long sample, so that the hulls pop many vertices, against R 4.2.2, diptest 0.76-0:
 *   n <- 3000; i <- 0:(n-1)
 *   x <- sort(((i * 7919) %% 1009) / 1009 + ifelse(i %% 3 == 0, 1.5, 0) +
 *             ((i * 104729) %% 997) / 4985)
 *   d <- dip(x, full.result = TRUE); print(d$dip, digits = 17) -> 0.045616419485177709
 *   d$lo.hi -> 58 1932 (1-based) */
static void test_dip_long_reference(void)
{
    enum { N = 3000 };
    static double x[N];
    for (int i = 0; i < N; i++)
        x[i] = (double)((i * 7919) % 1009) / 1009 + (i % 3 == 0 ? 1.5 : 0) +
               (double)((i * 104729) % 997) / 4985;
    size_t lo, hi;
    CHECK_REL(dip_of(x, N, &lo, &hi), 0.045616419485177709, 1e-13);
    CHECK_INT(lo + 1, 58);
    CHECK_INT(hi + 1, 1932);
}

static void test_dip_pvalue(void)
{
    CHECK_ABS(tally__dip_pvalue(0.070853747378603435, 30), 0.2613369465, 0.02);
    CHECK_ABS(tally__dip_pvalue(0.081250000000000003, 20), 0.3250706292, 0.02);
    CHECK_REL(tally__dip_pvalue(0.0125, 40), 1.0, 1e-12);
    /* R: library(diptest); data(qDiptab); qDiptab["100", c("0.95", "0.99")] * 10
     *    -> 0.51128 0.59024 (sqrt(n) D_n at P = 0.05 and 0.01 for n = 100). */
    CHECK_ABS(tally__dip_pvalue(0.051128, 100), 0.05, 0.004);
    CHECK_ABS(tally__dip_pvalue(0.059024, 100), 0.01, 0.0015);
    /* qDiptab["72000", "0.99"] * sqrt(72000) = 0.63267: beyond the table, the extrapolated limit
     * must keep the test conservative: p at R's 1 % point is at least 1 %, and not far above. */
    double p = tally__dip_pvalue(0.63267 / sqrt(72000.0), 72000);
    CHECK(p >= 0.0095 && p <= 0.02);
    /* Monotone in the dip and in n's direction of growth. */
    for (size_t n = 10; n < 5000; n = n * 3 / 2) {
        double prev = 1.0;
        for (double v = 0.2; v < 1.0; v += 0.01) {
            double q = tally__dip_pvalue(v / sqrt((double)n), n);
            CHECK(q <= prev + 1e-15 && q > 0);
            prev = q;
        }
    }
    /* Table sanity: columns increase along each row and down each column. */
    for (size_t r = 0; r < TALLY__COUNT(tally__dip_table); r++)
        for (size_t l = 1; l < TALLY__DIP_LEVEL_COUNT; l++) {
            CHECK(tally__dip_table[r].q[l] > tally__dip_table[r].q[l - 1]);
            if (r > 0)
                CHECK(tally__dip_table[r].q[l] >= tally__dip_table[r - 1].q[l]);
        }
}

/* Mann-Kendall against R 4.2.2 (cor.test's tau-b and its normal approximation with continuity
 * correction, which uses the tie-corrected variance of S):
 *   y <- c(3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3,2,3,8,4)
 *   cor.test(seq_along(y), y, method = "kendall", exact = FALSE, continuity = TRUE)
 *   print(r$p.value, digits = 10) -> 0.2009462269; print(r$estimate, digits = 10) -> tau
 *   0.2199928503; print(r$statistic, digits = 10) -> z 1.27886038 */
static void test_trend_reference(void)
{
    const double y[20] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4 };
    tally_diagnostics d = { .size = sizeof d };
    CHECK_INT(tally_diagnose(&d, y, 20, NULL), TALLY_OK);
    CHECK(d.tested & TALLY_DIAG_TREND);
    CHECK_REL(d.trend_p, 0.2009462269, 1e-8);
    CHECK_REL(d.trend_tau, 0.2199928503, 1e-8);
    /* S by hand for a short series without ties: x = 1 3 2 4: pairs (1,3)+ (1,2)+ (1,4)+ (3,2)-
     * (3,4)+ (2,4)+ -> S = 5 - 1 = 4. */
    double s, ties, tied;
    const double x4[4] = { 1, 3, 2, 4 };
    CHECK_INT(tally__kendall_s(&s, &ties, &tied, x4, 4), TALLY_OK);
    CHECK_REL(s, 4, 0);
    CHECK_REL(ties, 0, 0);
    /* With ties: 2 2 1: pairs (2,2)0 (2,1)- (2,1)- -> S = -2; one tie of t = 2: t(t-1)(2t+5) = 18. */
    const double x3[3] = { 2, 2, 1 };
    CHECK_INT(tally__kendall_s(&s, &ties, &tied, x3, 3), TALLY_OK);
    CHECK_REL(s, -2, 0);
    CHECK_REL(ties, 18, 0);
    CHECK_REL(tied, 1, 0);
}

/* Long series whose values fill the sort's buckets unevenly (integers with many ties, a few
 * hundred per bucket, beside buckets of one value each) and a continuous one, against R 4.2.2:
 *   n <- 3000; i <- 0:(n-1)
 *   x <- ((i * 7919) %% 1009) %/% 4 + ifelse(i %% 7 == 0, 1000, 0)
 *   r <- cor.test(i, x, method = "kendall", exact = FALSE, continuity = TRUE)
 *   print(r$p.value, digits = 17) -> 0.89003004696368482
 *   print(r$estimate, digits = 17) -> tau -0.0016863868398380851
 *   y <- ((i * 7919) %% 1009) / 1009 + i / 30000; the same call on y:
 *   p 1.9764888699018838e-07, tau 0.063348227186840064 */
static void test_trend_ties_reference(void)
{
    enum { N = 3000 };
    static double x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (double)(((i * 7919) % 1009) / 4 + (i % 7 == 0 ? 1000 : 0));
        y[i] = (double)((i * 7919) % 1009) / 1009 + (double)i / 30000;
    }
    tally_diagnostics d = { .size = sizeof d };
    CHECK_INT(tally_diagnose(&d, x, N, NULL), TALLY_OK);
    CHECK_REL(d.trend_p, 0.89003004696368482, 1e-9);
    CHECK_REL(d.trend_tau, -0.0016863868398380851, 1e-12);
    CHECK_INT(tally_diagnose(&d, y, N, NULL), TALLY_OK);
    CHECK_REL(d.trend_p, 1.9764888699018838e-07, 1e-9);
    CHECK_REL(d.trend_tau, 0.063348227186840064, 1e-12);
}

/* Bartels, Pettitt and the warm-up scan by hand. */
static void test_rank_checks_by_hand(void)
{
    tally_diagnostics d = { .size = sizeof d };
    /* x = 1..10 in order: ranks 1..10, sum of squared successive differences 9, sum of squared
     * deviations 82.5, RVN = 9 / 82.5 = 0.109090909; Var = 4 * 8 * 471 / (5 * 10 * 11 * 81)
     * = 15072 / 44550 = 0.338316498; z = (0.109090909 - 2) / sqrt(0.338316498) = -3.2509408;
     * two-sided p = 2 Phi(z) (R: rvn <- 9/82.5; v <- 4*8*471/(5*10*11*81);
     * print(2*pnorm((rvn-2)/sqrt(v)), digits=10) -> 0.001150238052).
     * r1 = 1 - RVN / 2 = 0.945454545. */
    double up[10];
    for (int i = 0; i < 10; i++)
        up[i] = i + 1;
    CHECK_INT(tally_diagnose(&d, up, 10, NULL), TALLY_OK);
    CHECK_REL(d.autocorr_r1, 0.945454545454545, 1e-12);
    CHECK_REL(d.autocorr_p, 0.001150238052, 1e-9);
    CHECK(d.flagged & TALLY_DIAG_AUTOCORR);
    /* Pettitt on 1 2 3 4 5 10 11 12 13 14: ranks equal the positions; U_t = 2 sum_{i<=t} i -
     * 11 t = t (t + 1) - 11 t, largest |U| at t = 5: 30 - 55 = -25, K = 25;
     * p = 2 exp(-6 * 625 / (1000 + 100)) = 2 exp(-3.4090909) (R: print(2*exp(-6*625/1100),
     * digits=10) -> 0.06614250298). */
    const double step[10] = { 1, 2, 3, 4, 5, 10, 11, 12, 13, 14 };
    CHECK_INT(tally_diagnose(&d, step, 10, NULL), TALLY_OK);
    CHECK_INT(d.step_at, 5);
    CHECK_REL(d.step_p, 0.06614250298, 1e-9);
    /* median(10..14) / median(1..5) - 1 = 12 / 3 - 1 = 3. */
    CHECK_REL(d.step_shift, 3.0, 1e-15);
    /* Warm-up: 30 runs, the first 3 the three largest. Mann-Whitney of the first k against the
     * rest, exact (no ties): k = 3 gives U = 81, two-sided p = 2 / C(30, 3) = 2 / 4060 =
     * 4.9261e-4, the smallest over k = 1..10 (k = 1: 2/30, k = 2: 2/435; larger k mix in
     * ordinary runs); Bonferroni over K = 10: 4.9261e-3. */
    double w[30];
    for (int i = 0; i < 30; i++)
        w[i] = 100 + (i * 7) % 27; /* 27 distinct values 100..126 for runs 3..29 */
    w[0] = 200, w[1] = 201, w[2] = 202;
    CHECK_INT(tally_diagnose(&d, w, 30, NULL), TALLY_OK);
    CHECK_INT(d.warmup_runs, 3);
    CHECK_REL(d.warmup_p, 10 * 2.0 / 4060, 1e-9);
    CHECK(d.flagged & TALLY_DIAG_WARMUP);
}

/* Every run ties (a counter such as `1 allocs/op`): no check can find anything. Mann-Kendall's
 * S = 0 with zero variance, Bartels' ranks are all equal, Pettitt's U_t = 0 for every t (no
 * change point: step_at 0), every warm-up split has U at its mean, and the dip of one point is
 * its minimum 1/(2n) = 1/24. Each p is 1 and each shift 0 (the fuzzer found the step's median
 * read before the first run when no change point exists). */
static void test_all_tied(void)
{
    double x[12];
    for (int i = 0; i < 12; i++)
        x[i] = 1;
    tally_diagnostics d = { .size = sizeof d };
    CHECK_INT(tally_diagnose(&d, x, 12, NULL), TALLY_OK);
    CHECK_INT(d.flagged, 0);
    CHECK_INT(d.step_at, 0);
    CHECK_REL(d.step_shift, 0, 0);
    CHECK_REL(d.warmup_shift, 0, 0);
    CHECK_REL(d.trend_p, 1, 0);
    CHECK_REL(d.step_p, 1, 0);
    CHECK_REL(d.warmup_p, 1, 0);
    CHECK_REL(d.dip, 1.0 / 24, 1e-15);
}

static void test_arguments(void)
{
    tally_diagnostics d = { .size = sizeof d };
    const double x[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    CHECK_INT(tally_diagnose(NULL, x, 12, NULL), TALLY_EINVAL);
    CHECK_INT(tally_diagnose(&d, NULL, 12, NULL), TALLY_EINVAL);
    CHECK_INT(tally_diagnose(&d, x, 0, NULL), TALLY_ENODATA);
    const double bad[3] = { 1, NAN, 2 };
    CHECK_INT(tally_diagnose(&d, bad, 3, NULL), TALLY_ENONFINITE);
    tally_diagnose_options o = TALLY_DIAGNOSE_OPTIONS_INIT;
    o.alpha = 0.5;
    CHECK_INT(tally_diagnose(&d, x, 12, &o), TALLY_EINVAL);
    o = (tally_diagnose_options)TALLY_DIAGNOSE_OPTIONS_INIT;
    o.checks = 64;
    CHECK_INT(tally_diagnose(&d, x, 12, &o), TALLY_EINVAL);
    o = (tally_diagnose_options)TALLY_DIAGNOSE_OPTIONS_INIT;
    o.version = 2;
    CHECK_INT(tally_diagnose(&d, x, 12, &o), TALLY_EINVAL);
    /* Fewer than TALLY_DIAGNOSE_MIN_RUNS: nothing tested, success. */
    CHECK_INT(tally_diagnose(&d, x, 9, NULL), TALLY_OK);
    CHECK_INT(d.tested, 0);
    CHECK_INT(d.n, 9);
    /* Only the requested checks run. */
    o = (tally_diagnose_options)TALLY_DIAGNOSE_OPTIONS_INIT;
    o.checks = TALLY_DIAG_TREND | TALLY_DIAG_MULTIMODAL;
    CHECK_INT(tally_diagnose(&d, x, 12, &o), TALLY_OK);
    CHECK_INT(d.tested, TALLY_DIAG_TREND | TALLY_DIAG_MULTIMODAL);
    CHECK_STR(tally_diag_check_name(TALLY_DIAG_WARMUP), "warm-up");
    CHECK(tally_diag_check_name((tally_diag_check)3) == NULL);
}

/* ---- seeded simulation ---- */

static uint64_t rng[4];

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next_u64(void) /* xoshiro256** */
{
    uint64_t r = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;
    rng[2] ^= rng[0], rng[3] ^= rng[1], rng[1] ^= rng[2], rng[0] ^= rng[3], rng[2] ^= t;
    rng[3] = rotl(rng[3], 45);
    return r;
}

static void seed(uint64_t z)
{
    for (int i = 0; i < 4; i++)
        rng[i] = rng_splitmix64(&z); /* the seeding xoshiro's authors recommend */
}

static double uniform01(void)
{
    return ((double)(next_u64() >> 11) + 0.5) * 0x1.0p-53;
}

static double gauss(void)
{
    return sqrt(-2 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

/* Kendall's S and its tie terms against the definition counted over all pairs, on seeded
 * series mixing signs, zeros of both signs, magnitudes from 1e-300 to 1e300, rounded values
 * (ties) and clusters, so that the sort meets every kind of bucket. */
static void test_kendall_brute_force(void)
{
    enum { N = 1500 };
    static double x[N];
    seed(314159);
    for (int form = 0; form < 4; form++) {
        size_t n = form == 3 ? 257 : form == 2 ? 128 : N;
        for (size_t i = 0; i < n; i++) {
            double g = gauss();
            switch (form) {
            case 0: x[i] = g * pow(10, (double)(next_u64() % 601) - 300); break;
            case 1: x[i] = round(4 * g) / 4 + (i % 5 == 0 ? -0.0 : 0.0); break;
            case 2: x[i] = next_u64() % 3 ? 100 + 1e-9 * round(10 * g) : g; break;
            default: x[i] = (double)(next_u64() % 2) * (i % 2 ? -0.0 : 0.0); break;
            }
        }
        double s_want = 0, tied_want = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                s_want += (x[j] > x[i]) - (x[j] < x[i]);
                tied_want += x[j] == x[i];
            }
        double s, ties, tied;
        CHECK_INT(tally__kendall_s(&s, &ties, &tied, x, n), TALLY_OK);
        CHECK_REL(s, s_want, 0);
        CHECK_REL(tied, tied_want, 0);
        /* sum t (t - 1) (2t + 5) from the tie groups, counted by a sort of a copy. */
        double *c = malloc(n * sizeof *c), ties_want = 0;
        memcpy(c, x, n * sizeof *c);
        qsort(c, n, sizeof *c, by_double);
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j < n && c[j] == c[i])
                j++;
            double t = (double)(j - i);
            ties_want += t * (t - 1) * (2 * t + 5);
            i = j;
        }
        free(c);
        CHECK_REL(ties, ties_want, 0);
    }
}

typedef enum shape { CLEAN_NORMAL, CLEAN_LOGNORMAL, TREND, WARMUP, AUTOCORR, STEP, BIMODAL } shape;

/* One series of n runs around 100 with noise SD 1 (lognormal: sigma 0.5, scale 100). */
static void series(double *x, size_t n, shape kind)
{
    double prev = 0;
    for (size_t i = 0; i < n; i++) {
        double e = gauss();
        switch (kind) {
        case CLEAN_NORMAL: x[i] = 100 + e; break;
        case CLEAN_LOGNORMAL: x[i] = 100 * exp(0.5 * e); break;
        case TREND: x[i] = 100 + e + 2.5 * (double)i / (double)(n - 1); break; /* +2.5 SD over the runs */
        case WARMUP: x[i] = 100 + e + (i < 5 ? 3.0 : 0); break; /* first 5 runs +3 SD */
        case AUTOCORR: prev = 0.6 * prev + e; x[i] = 100 + prev; break; /* AR(1), phi 0.6 */
        case STEP: x[i] = 100 + e + (i >= n / 2 ? 1.5 : 0); break; /* +1.5 SD half-way */
        case BIMODAL: x[i] = 100 + e + (i % 2 ? 6.0 : 0); break; /* two equal modes 6 SD apart */
        }
    }
}

/* Fraction of `reps` series for which `check` fires. */
static double rate(shape kind, size_t n, unsigned check, int reps)
{
    double x[200];
    int fired = 0;
    tally_diagnostics d = { .size = sizeof d };
    for (int r = 0; r < reps; r++) {
        series(x, n, kind);
        if (tally_diagnose(&d, x, n, NULL) != TALLY_OK)
            return -1;
        fired += (d.flagged & check) != 0;
    }
    return (double)fired / reps;
}

static void test_false_alarms(void)
{
    /* Each check at alpha = 0.01 on clean i.i.d. runs: at most alpha + 1.5 % (the dip test and
     * the Bonferroni-corrected warm-up scan are conservative, so their rates lie well below). */
    static const unsigned checks[] = { TALLY_DIAG_TREND, TALLY_DIAG_AUTOCORR, TALLY_DIAG_WARMUP,
                                       TALLY_DIAG_STEP, TALLY_DIAG_MULTIMODAL };
    static const size_t sizes[] = { 10, 30, 100 };
    seed(20261201);
    for (size_t s = 0; s < 3; s++)
        for (int k = CLEAN_NORMAL; k <= CLEAN_LOGNORMAL; k++)
            for (size_t c = 0; c < 5; c++) {
                double r = rate((shape)k, sizes[s], checks[c], 2000);
                fprintf(stderr, "  false alarms of %s, n = %zu, %s: %.4f\n",
                        tally_diag_check_name((tally_diag_check)checks[c]), sizes[s],
                        k == CLEAN_NORMAL ? "normal" : "lognormal", r);
                CHECK(r >= 0 && r <= 0.025);
            }
}

static void test_detection(void)
{
    /* Injected defects of the sizes docs/statistics.md states, detected in at least 90 % of
     * 2,000 series each. */
    static const struct { shape kind; size_t n; unsigned check; } cases[] = {
        { TREND, 50, TALLY_DIAG_TREND },       { WARMUP, 30, TALLY_DIAG_WARMUP },
        { AUTOCORR, 60, TALLY_DIAG_AUTOCORR }, { STEP, 50, TALLY_DIAG_STEP },
        { BIMODAL, 50, TALLY_DIAG_MULTIMODAL },
    };
    seed(42);
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        double r = rate(cases[i].kind, cases[i].n, cases[i].check, 2000);
        fprintf(stderr, "  detection of %s at n = %zu: %.4f\n",
                tally_diag_check_name((tally_diag_check)cases[i].check), cases[i].n, r);
        CHECK(r >= 0.90);
    }
}

/* tally__popcount64 (Kendall's counting of the earlier runs below a position) on the edge words,
 * each count by hand, then on seeded random words and every single bit and run of low bits
 * against a bit-by-bit count. */
static void test_popcount(void)
{
    static const struct {
        uint64_t w;
        unsigned bits;
    } hand[] = {
        { 0, 0 },
        { 1, 1 },
        { UINT64_C(1) << 63, 1 },
        { UINT64_C(0x8000000000000001), 2 },
        { UINT64_MAX, 64 },
        { UINT64_MAX >> 1, 63 },
        { UINT64_MAX << 8, 56 },
        { UINT64_C(0x5555555555555555), 32 },     /* every other bit */
        { UINT64_C(0xaaaaaaaaaaaaaaaa), 32 },
        { UINT64_C(0xff00ff00ff00ff00), 32 },     /* four full bytes */
        { UINT64_C(0x00000000ffffffff), 32 },
        { UINT64_C(0x0101010101010101), 8 },      /* one bit in each byte */
        /* nibbles 0..f: 0+1+1+2 +1+2+2+3 +1+2+2+3 +2+3+3+4 = 32 */
        { UINT64_C(0x0123456789abcdef), 32 },
    };
    for (size_t i = 0; i < TALLY__COUNT(hand); i++)
        CHECK_INT((int)tally__popcount64(hand[i].w), (int)hand[i].bits);
    seed(2718);
    for (int i = 0; i < 3 * 64 + 1000; i++) {
        uint64_t w = i < 64 ? UINT64_C(1) << i : i < 128 ? (UINT64_C(2) << (i - 64)) - 1
                   : i < 192 ? ~(UINT64_C(1) << (i - 128)) : next_u64();
        int want = 0;
        for (int b = 0; b < 64; b++)
            want += (int)((w >> b) & 1);
        CHECK_INT((int)tally__popcount64(w), want);
    }
}

int main(void)
{
    test_popcount();
    test_dip_reference();
    test_dip_long_reference();
    test_dip_pvalue();
    test_trend_reference();
    test_trend_ties_reference();
    test_kendall_brute_force();
    test_rank_checks_by_hand();
    test_arguments();
    test_all_tied();
    test_false_alarms();
    test_detection();
    return check_summary();
}
