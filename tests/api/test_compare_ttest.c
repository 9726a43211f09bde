/*
 * Welch's and Student's t-tests against SciPy and R.
 *
 * Every expected value was produced by SciPy 1.10.1 (/usr/bin/python3, Debian):
 *   scipy.stats.ttest_ind(a, b, equal_var=False)   -> welch_t, welch_p
 *   scipy.stats.ttest_ind(a, b, equal_var=True)    -> student_t, student_p
 *   Welch-Satterthwaite df from numpy: vx = np.var(a, ddof=1)/len(a), vy likewise,
 *   (vx + vy)**2 / (vx**2/(len(a)-1) + vy**2/(len(b)-1))          -> welch_df
 * and cross-checked where noted with R 4.2.2: t.test(a, b) (Welch) / t.test(a, b, var.equal=TRUE).
 * The values are pasted with all the digits repr() printed.
 */
#include <math.h>
#include <stddef.h>

#include "check.h"
#include "tally.h"

#define MAXN 200

typedef struct ref_case {
    const char *name;
    double a[MAXN];
    size_t na;
    double b[MAXN];
    size_t nb;
    double welch_t, welch_p, welch_df;
    double student_t, student_p;
} ref_case;

/* Rosetta Code "Welch's t-test" data sets 1-5, plus hand-picked shapes: tiny samples (n = 2, 3),
 * unequal n, unequal variances, negative values, one constant side, near-identical sets, large
 * offsets (1e9), extreme separation (p ~ 1e-20, 1e-31, 1e-78). */
static const ref_case cases[] = {
    { "rosetta1",
      { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 }, 15,
      { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 }, 15,
      /* R t.test: t = -2.455356398286006048, df = 24.988529290231415558, p = 0.021378001462866985 */
      -2.455356398286006, 0.021378001462866985, 24.988529290231416,
      -2.455356398286006, 0.020544522734125933 },
    { "rosetta2",
      { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8 }, 10,
      { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8, 20.7, 21.7, 21.5, 22.5, 23.6,
        21.5, 22.5, 23.5, 21.5, 21.8 }, 20,
      -1.5654335235985037, 0.14884169660532834, 9.904741248650831,
      -2.1000496376104434, 0.04485851653088633 },
    { "rosetta3",
      { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 }, 10,
      { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9,
        21.6, 24.3, 20.4, 24.0, 13.2 }, 20,
      -2.2192409158236233, 0.03597227102979685, 24.496223124201244,
      -1.649204532775818, 0.11028197321829222 },
    { "rosetta4",
      { 30.02, 29.99, 30.11, 29.97, 30.01, 29.99 }, 6,
      { 29.89, 29.93, 29.72, 29.98, 30.02, 29.98 }, 6,
      1.9590058081081434, 0.09077332428566114, 7.030559959884322,
      1.9590058081081436, 0.07856577385723071 },
    { "rosetta5 (df ~ 2)",
      { 3.0, 4.0, 1.0, 2.1 }, 4,
      { 490.2, 340.0, 433.9 }, 3,
      -9.559497721932658, 0.01075156114978449, 2.0008523488562844,
      -11.424568320695405, 8.997029649596024e-05 },
    { "n = 2 vs 2",
      { 1.0, 2.0 }, 2,
      { 3.0, 5.0 }, 2,
      /* R t.test: t = -2.23606797749978981, df = 1.47058823529411775, p = 0.19872738893452604 */
      -2.23606797749979, 0.19872738893452604, 1.4705882352941178,
      -2.23606797749979, 0.1548457452714834 },
    { "n = 2 vs 3",
      { 0.38, 0.41 }, 2,
      { 0.45, 0.47, 0.44 }, 3,
      -3.352391998274031, 0.09712190987852566, 1.7087588091471309,
      -3.6556307750696555, 0.03535284700251736 },
    { "n = 3 vs 3",
      { 10.1, 10.4, 10.2 }, 3,
      { 10.9, 11.3, 11.0 }, 3,
      -5.59016994374948, 0.00646393115047285, 3.669724770642205,
      -5.590169943749481, 0.00502399826195295 },
    { "unequal variances",
      { 5.01, 4.99, 5.02, 4.98, 5.00 }, 5,
      { 4.2, 5.9, 6.8, 3.1, 5.5, 7.2, 4.4 }, 7,
      -0.536715612171817, 0.6107655877729998, 6.001920654774959,
      -0.4472817579139338, 0.6642039012588443 },
    { "negative values",
      { -3.5, -2.25, -4.0, -3.0, -2.75 }, 5,
      { -1.5, -0.25, -2.0, -1.0 }, 4,
      -3.982880691662855, 0.006754026703811975, 6.216591509632363,
      -4.033705180090975, 0.004972379681579931 },
    { "one constant side",
      { 2.0, 2.0, 2.0, 2.0 }, 4,
      { 2.5, 2.7, 2.1, 2.9, 2.4 }, 5,
      /* R t.test: t = -3.833490860027325642, df = 4, p = 0.018562564501560457 */
      -3.8334908600273288, 0.01856256450156042, 4.0,
      -3.380821156290477, 0.011745529210126797 },
    { "close means",
      { 100.0, 101.0, 99.0, 100.5, 99.5 }, 5,
      { 100.2, 100.9, 99.3, 100.4, 99.8 }, 5,
      -0.2694079530402038, 0.7948848479312796, 7.493148859539269,
      -0.2694079530402038, 0.794434096208399 },
    { "hackbench-like, p ~ 1e-9",
      { 0.380, 0.375, 0.384, 0.382, 0.379 }, 5,
      { 0.452, 0.449, 0.455, 0.451, 0.453 }, 5,
      -39.63469554454898, 2.010184578754989e-09, 6.925278219395866,
      -39.634695544548975, 1.8058081720562116e-10 },
    { "p ~ 1e-20",
      { 1.00, 1.10, 0.90, 1.05, 0.95, 1.02, 0.98, 1.00, 1.03, 0.97, 1.01, 0.99 }, 12,
      { 2.0, 2.1, 1.9, 2.05, 1.95, 2.02, 1.98, 2.0, 2.03, 1.97 }, 10,
      -43.96835417339435, 3.7006231385497774e-20, 18.47656312198529,
      -44.375105448780786, 1.8690347021870654e-21 },
    { "p ~ 1e-31",
      { 1.00, 1.01, 0.99, 1.00, 1.02, 0.98, 1.01, 0.99, 1.00, 1.00 }, 10,
      { 2.00, 2.01, 1.99, 2.00, 2.02, 1.98, 2.01, 1.99, 2.00, 2.00 }, 10,
      -193.64916731037104, 2.498413109709524e-31, 18.000000000000004,
      -193.64916731037104, 2.4984131097095597e-31 },
    { "identical sets",
      { 1.5, 2.5, 3.5 }, 3,
      { 1.5, 2.5, 3.5 }, 3,
      0.0, 1.0, 4.0,
      0.0, 1.0 },
    { "rosetta1 reversed (sign of t)",
      { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 }, 15,
      { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 }, 15,
      2.455356398286006, 0.021378001462866985, 24.988529290231416,
      2.455356398286006, 0.020544522734125933 },
    { "offset 1e9",
      { 1e9 + 1, 1e9 + 3, 1e9 + 2, 1e9 + 5 }, 4,
      { 1e9 + 7, 1e9 + 9, 1e9 + 8, 1e9 + 6, 1e9 + 10 }, 5,
      /* R t.test: t = -4.7353699764178216469, df = 6.3023536511768272206, p = 0.0028123252393820316 */
      -4.735369976417822, 0.0028123252393820295, 6.302353651176825,
      -4.7819103574478135, 0.002007834473629734 },
    { "variance ratio ~ 100",
      { 0.1, 0.2, 0.15, 0.12, 0.18, 0.11, 0.16 }, 7,
      { 0.5, 2.5, 1.0, 0.2, 3.0, 1.7 }, 6,
      -2.9342612144839566, 0.03239686531936129, 5.009601389845552,
      -3.193038560612396, 0.008560100322551323 },
};

/* Generated sets, identical formulas in Python (exactly representable values):
 *   a = [100 + ((i*7) % 13)/4.0 for i in range(50)];  b = [100.5 + ((i*5) % 11)/4.0 for i in range(60)]
 *   a2 = [10 + ((i*3) % 17)/8.0 for i in range(200)]; b2 = [10.05 + ((i*11) % 19)/8.0 for i in range(150)]
 *   a3 = [5.0 + 0.001*k for k in range(-10, 11)];     b3 = [6.0 + 0.001*k for k in range(-10, 11)] */
static void generated(void)
{
    static double a[50], b[60], a2[200], b2[150], a3[21], b3[21];
    for (int i = 0; i < 50; i++)
        a[i] = 100 + ((i * 7) % 13) / 4.0;
    for (int i = 0; i < 60; i++)
        b[i] = 100.5 + ((i * 5) % 11) / 4.0;
    for (int i = 0; i < 200; i++)
        a2[i] = 10 + ((i * 3) % 17) / 8.0;
    for (int i = 0; i < 150; i++)
        b2[i] = 10.05 + ((i * 11) % 19) / 8.0;
    for (int k = -10; k <= 10; k++) {
        a3[k + 10] = 5.0 + 0.001 * k;
        b3[k + 10] = 6.0 + 0.001 * k;
    }
    double t, df, p;

    CHECK_INT(tally_welch_test(&t, &df, &p, a, 50, b, 60), TALLY_OK);
    CHECK_REL(t, -1.7318486859587403, 1e-10);
    CHECK_REL(df, 97.36874805789574, 1e-10);
    CHECK_REL(p, 0.08646741557059348, 1e-9);
    CHECK_INT(tally_student_test(&t, &df, &p, a, 50, b, 60), TALLY_OK);
    CHECK_REL(t, -1.7556444641876956, 1e-10);
    CHECK_REL(df, 108, 0);
    CHECK_REL(p, 0.08198431921996842, 1e-9);

    /* R t.test(a2, b2): t = -2.444121607311243949, df = 300.925455199283476304,
     * p = 0.015094480295416683; var.equal=TRUE: t = -2.482495847255573374, p = 0.013517464181182387 */
    CHECK_INT(tally_welch_test(&t, &df, &p, a2, 200, b2, 150), TALLY_OK);
    CHECK_REL(t, -2.444121607311194, 1e-10);
    CHECK_REL(df, 300.92545519928336, 1e-10);
    CHECK_REL(p, 0.015094480295418725, 1e-9);
    CHECK_INT(tally_student_test(&t, &df, &p, a2, 200, b2, 150), TALLY_OK);
    CHECK_REL(t, -2.4824958472555223, 1e-10);
    CHECK_REL(df, 348, 0);
    CHECK_REL(p, 0.013517464181184297, 1e-9);

    /* p ~ 1e-78: the upper tail keeps its relative precision. */
    CHECK_INT(tally_welch_test(&t, &df, &p, a3, 21, b3, 21), TALLY_OK);
    CHECK_REL(t, -522.2329678670962, 1e-9);
    CHECK_REL(df, 40.0, 1e-10);
    CHECK_REL(p, 2.6520452841909333e-78, 1e-6);
}

static void reference_cases(void)
{
    for (size_t i = 0; i < TALLY__COUNT(cases); i++) {
        const ref_case *c = &cases[i];
        double t = NAN, df = NAN, p = NAN;
        fprintf(stderr, "case %s\n", c->name);
        CHECK_INT(tally_welch_test(&t, &df, &p, c->a, c->na, c->b, c->nb), TALLY_OK);
        CHECK_ABS(t, c->welch_t, 1e-10 * fmax(1, fabs(c->welch_t)));
        CHECK_REL(df, c->welch_df, 1e-10);
        /* Tiny p-values: relative 1e-6, enough to catch a lost tail (1 - P cancels to 0). */
        CHECK_REL(p, c->welch_p, c->welch_p < 1e-12 ? 1e-6 : 1e-9);
        CHECK_INT(tally_student_test(&t, &df, &p, c->a, c->na, c->b, c->nb), TALLY_OK);
        CHECK_ABS(t, c->student_t, 1e-10 * fmax(1, fabs(c->student_t)));
        CHECK_REL(df, (double)(c->na + c->nb - 2), 0);
        CHECK_REL(p, c->student_p, c->student_p < 1e-12 ? 1e-6 : 1e-9);
    }
}

/* Both sides constant. SciPy 1.10.1 returns t = nan, p = nan here (0/0 or x/0 with numpy's
 * warnings); tally defines the case: different constants are a deterministic difference
 * (p = 0, significant at any alpha), equal constants no difference at all (p = 1). t = +-inf
 * has no JSON form, so t is reported as 0 and df as na + nb - 2. Hand-derived. */
static void zero_variance(void)
{
    const double a[] = { 3.0, 3.0, 3.0 }, b[] = { 4.0, 4.0 }, c[] = { 3.0, 3.0, 3.0, 3.0 };
    double t = NAN, df = NAN, p = NAN;
    CHECK_INT(tally_welch_test(&t, &df, &p, a, 3, b, 2), TALLY_OK);
    CHECK_ABS(t, 0, 0);
    CHECK_ABS(df, 3, 0);
    CHECK_ABS(p, 0, 0);
    CHECK_INT(tally_student_test(&t, &df, &p, a, 3, b, 2), TALLY_OK);
    CHECK_ABS(t, 0, 0);
    CHECK_ABS(p, 0, 0);
    CHECK_INT(tally_welch_test(&t, &df, &p, a, 3, c, 4), TALLY_OK);
    CHECK_ABS(t, 0, 0);
    CHECK_ABS(df, 5, 0);
    CHECK_ABS(p, 1, 0);
    CHECK_INT(tally_student_test(&t, &df, &p, a, 3, c, 4), TALLY_OK);
    CHECK_ABS(p, 1, 0);
    /* 0.1 summed three times is not 0.3 exactly: a constant sample still has mean 0.1. */
    const double tenth[] = { 0.1, 0.1, 0.1 }, tenth2[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
    CHECK_INT(tally_welch_test(&t, &df, &p, tenth, 3, tenth2, 7), TALLY_OK);
    CHECK_ABS(p, 1, 0);
}

/* Large magnitudes: t is scale-free, so {1,2,3} vs {4,5,6} times 1e150 gives the same t as the
 * unscaled sets. R: t.test(c(1,2,3), c(4,5,6)): t = -3.674234614174767266,
 * df = 4.000000000000000888, p = 0.021311641128756706; var.equal=TRUE: p = 0.021311641128756727.
 * Samples whose SD is beyond the double range are TALLY_ENUMERIC (from tally_stddev). */
static void huge_values(void)
{
    const double a[] = { 1e150, 2e150, 3e150 }, b[] = { 4e150, 5e150, 6e150 };
    const double edge[] = { 1.7e308, -1.7e308, 1.7e308 };
    double t, df, p;
    CHECK_INT(tally_welch_test(&t, &df, &p, a, 3, b, 3), TALLY_OK);
    CHECK_REL(t, -3.674234614174767266, 1e-13);
    CHECK_REL(df, 4, 1e-13);
    CHECK_REL(p, 0.021311641128756706, 1e-10);
    CHECK_INT(tally_student_test(&t, &df, &p, a, 3, b, 3), TALLY_OK);
    CHECK_REL(t, -3.674234614174767266, 1e-13);
    CHECK_REL(p, 0.021311641128756727, 1e-10);
    /* SD beyond the double range: the moments are taken on values scaled by a power of two, so
     * t is still computed. By hand: edge's deviations from its mean 1.7e308/3 are
     * 1.7e308 * (2/3, 2/3, -4/3), so SD = 1.7e308 * 2/sqrt(3) and SE = 1.7e308 * 2/3; b is
     * negligible beside it: t = (1.7e308/3) / (1.7e308 * 2/3) = 0.5, df = na - 1 = 2. */
    CHECK_INT(tally_welch_test(&t, &df, &p, edge, 3, b, 3), TALLY_OK);
    CHECK_REL(t, 0.5, 1e-12);
    CHECK_REL(df, 2, 1e-12);
}

static void bad_input(void)
{
    const double one[] = { 1.0 }, two[] = { 1.0, 2.0 };
    const double with_nan[] = { 1.0, NAN, 2.0 }, with_inf[] = { 1.0, 2.0, INFINITY };
    double t, df, p;
    CHECK_INT(tally_welch_test(&t, &df, &p, one, 1, two, 2), TALLY_ENODATA);
    CHECK_INT(tally_welch_test(&t, &df, &p, two, 2, one, 1), TALLY_ENODATA);
    CHECK_INT(tally_student_test(&t, &df, &p, one, 1, two, 2), TALLY_ENODATA);
    CHECK_INT(tally_welch_test(&t, &df, &p, two, 2, two, 0), TALLY_ENODATA);
    CHECK_INT(tally_welch_test(&t, &df, &p, with_nan, 3, two, 2), TALLY_ENONFINITE);
    CHECK_INT(tally_student_test(&t, &df, &p, two, 2, with_inf, 3), TALLY_ENONFINITE);
    CHECK_INT(tally_welch_test(NULL, &df, &p, two, 2, two, 2), TALLY_EINVAL);
    CHECK_INT(tally_welch_test(&t, &df, &p, NULL, 2, two, 2), TALLY_EINVAL);
    CHECK(tally_error_last()->message[0] != '\0');
}

int main(void)
{
    reference_cases();
    generated();
    zero_variance();
    huge_values();
    bad_input();
    return check_summary();
}
