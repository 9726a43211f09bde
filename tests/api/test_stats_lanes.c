/* The moment kernels sum, multiply and compare in four independent lanes (sample i in lane
 * i % 4) and take the samples past the last group of four behind a test; the product of the
 * first pass has a range limit (2^-120 .. 2^120) beyond which it is taken again sample by
 * sample, and a zero extreme is looked up again so that its sign is the first one's. These
 * tests reach each path: every length 1 to 9, data far outside the product's range, a long
 * NumAcc4-style set where plain summation visibly loses digits, signed zeros, and the Welch
 * test (whose pivot moments run in the same lanes) for lengths 2 to 9.
 *
 * Expected values: exact rational arithmetic on the doubles the decimal literals become
 * (Python 3.11 fractions.Fraction of each float), square roots, logarithms and the exponential
 * taken with mpmath at 50 digits, rounded to 17 significant digits:
 *   a = [Fraction(v) for v in X[:n]]; mean = sum(a) / n;
 *   sd = sqrt(sum((v - mean)**2 for v in a) / (n - 1)); hmean = n / sum(1 / v for v in a);
 *   gmean = exp(fsum(log(v) for v in a) / n); H = hmean; hsd = sqrt(sum((1/v - 1/H)**2) H^4 / n);
 *   Welch: se2 = va / na + vb / nb, t = (ma - mb) / sqrt(se2),
 *          df = se2^2 / ((va/na)^2 / (na-1) + (vb/nb)^2 / (nb-1)). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "tally.h"

static const double X[] = { 0.371, 0.396, 0.373, 0.462, 0.461, 0.433, 0.362, 0.372, 0.340 };
static const double Y[] = { 0.452, 0.431, 0.467, 0.445, 0.470, 0.428, 0.455, 0.449, 0.441 };

/* n, mean, sd, hmean, gmean, hsd of X[0..n) (sd and hsd undefined for n = 1). */
static const double PREFIX[9][6] = {
    { 1, 0.371, 0, 0.371, 0.371, 0 },
    { 2, 0.3835, 0.017677669529663704, 0.38309256844850066, 0.38329623008842652,
      0.012486719962467438 },
    { 3, 0.38, 0.013892443989449817, 0.37966823631026751, 0.37983295520346768,
      0.011104646315778167 },
    { 4, 0.4005, 0.0425401770878621, 0.39737187670520159, 0.39889167793005458,
      0.033778207285268817 },
    { 5, 0.4126, 0.045708861285313168, 0.40865247990526106, 0.41060493582434186,
      0.039487169520769277 },
    { 6, 0.41600000000000004, 0.04172289539329696, 0.41251845425259194, 0.41425534508473673,
      0.037754268778124301 },
    { 7, 0.4082857142857143, 0.043211550484078862, 0.40445513606454824, 0.4063520646706334,
      0.038781431940959903 },
    { 8, 0.40375, 0.0420127531658118, 0.40009188453534257, 0.40189030478404258,
      0.037289809937030399 },
    { 9, 0.39666666666666667, 0.044676615807377358, 0.39238625399023256, 0.39449153047058157,
      0.040005168615780166 },
};

static void test_every_length(void)
{
    for (size_t k = 0; k < 9; k++) {
        const double *e = PREFIX[k];
        size_t n = (size_t)e[0];
        tally_summary s = { .size = sizeof s };
        CHECK_INT(tally_summarize(&s, X, n, NULL), TALLY_OK);
        CHECK_INT((int)s.n, (int)n);
        /* Within one ulp: the compensated sum rounded once, then divided by n. */
        CHECK_REL(s.amean, e[1], 2.5e-16);
        CHECK_REL(s.hmean, e[3], 1e-15);
        CHECK_REL(s.gmean, e[4], 1e-15);
        if (n >= 2) {
            CHECK_REL(s.stddev, e[2], 1e-15);
            CHECK_REL(s.hstddev, e[5], 1e-15);
        }
        double lo = X[0], hi = X[0];
        for (size_t i = 1; i < n; i++) {
            lo = X[i] < lo ? X[i] : lo;
            hi = X[i] > hi ? X[i] : hi;
        }
        CHECK(s.min == lo && s.max == hi);
    }
}

/* {2^400, 2^-400, 2^300, 2^-300, 2, 8}: the product is 2^4 (by hand), gmean 2^(2/3) =
 * 1.5874010519681995; hmean 6 / (2^-400 + 2^400 + 2^-300 + 2^300 + 1/2 + 1/8) =
 * 2.323555148909591e-120 (mpmath). {1e-310, 3e-320, 1e-300, 5, 7} (two subnormals, whose
 * reciprocals overflow unless scaled): gmean 2.5365118338934355e-186, hmean
 * 1.4999833003240345e-319 (mpmath on the exact doubles). */
static void test_outside_product_range(void)
{
    const double wide[] = { 0x1p400, 0x1p-400, 0x1p300, 0x1p-300, 2, 8 };
    const double tiny[] = { 1e-310, 3e-320, 1e-300, 5.0, 7.0 };
    double v = 0;
    CHECK_INT(tally_gmean(&v, wide, 6), TALLY_OK);
    CHECK_REL(v, 1.5874010519681995, 1e-15);
    CHECK_INT(tally_hmean(&v, wide, 6), TALLY_OK);
    CHECK_REL(v, 2.323555148909591e-120, 1e-15);
    CHECK_INT(tally_gmean(&v, tiny, 5), TALLY_OK);
    CHECK_REL(v, 2.5365118338934355e-186, 1e-13); /* exp(-427.3 +- 2^-53 427.3) */
    CHECK_INT(tally_hmean(&v, tiny, 5), TALLY_OK);
    CHECK_REL(v, 1.4999833003240345e-319, 1e-9); /* a subnormal result: 1e-319 has 5 digits */
}

/* NumAcc4's pattern, longer: 1000000000.2, then 50001 pairs (1000000000.1, 1000000000.3);
 * n = 100003, not a multiple of four. Exact mean of the doubles 1000000000.2 (rounded), SD
 * 0.099999964237213135 (the doubles are not the decimals, as NIST's note on NumAcc4 says).
 * Plain left-to-right summation gives 1000000000.1985463 (Python float sum), wrong in the 12th
 * digit, and the textbook one-pass SD 1428.25...: the lanes must keep the compensation. */
static void test_long_numacc4(void)
{
    size_t n = 100003;
    double *x = malloc(n * sizeof *x);
    CHECK(x != NULL);
    if (!x)
        return;
    x[0] = 1000000000.2;
    for (size_t i = 1; i < n; i += 2) {
        x[i] = 1000000000.1;
        x[i + 1] = 1000000000.3;
    }
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_summarize(&s, x, n, NULL), TALLY_OK);
    CHECK_REL(s.amean, 1000000000.2, 2.5e-16);
    CHECK_REL(s.stddev, 0.099999964237213135, 1e-13);
    free(x);
}

/* The minimum of {1, 2, 3, -0, 0} is the first zero, -0 (lane 3), although lane 0 also ends
 * at a zero (+0, index 4); likewise the maximum of {-1, -2, -3, 0, -0} is +0. */
static void test_signed_zero_extremes(void)
{
    const double lo[] = { 1, 2, 3, -0.0, 0.0 };
    const double hi[] = { -1, -2, -3, 0.0, -0.0 };
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_summarize(&s, lo, 5, NULL), TALLY_OK);
    CHECK(s.min == 0 && signbit(s.min));
    CHECK_INT(tally_summarize(&s, hi, 5, NULL), TALLY_OK);
    CHECK(s.max == 0 && !signbit(s.max));
}

/* Welch's t and df of X[0..n) against Y[0..n). */
static const double WELCH[8][3] = {
    { 2, -3.5528705726237919, 1.9421369803078417 },
    { 3, -5.3168816771892455, 3.7509190028991941 },
    { 4, -2.1397386716962358, 3.7322627336026154 },
    { 5, -1.8643859358500267, 4.9748816737622415 },
    { 6, -1.7755242817461726, 6.73110353347592 },
    { 7, -2.3739675533262637, 7.6668317961385164 },
    { 8, -2.9072751551664914, 8.7699854144275405 },
    { 9, -3.3238544149230834, 9.6397216218336744 },
};

static void test_welch_lengths(void)
{
    for (size_t k = 0; k < 8; k++) {
        size_t n = (size_t)WELCH[k][0];
        double t = 0, df = 0, p = 0;
        CHECK_INT(tally_welch_test(&t, &df, &p, X, n, Y, n), TALLY_OK);
        CHECK_REL(t, WELCH[k][1], 1e-14);
        CHECK_REL(df, WELCH[k][2], 1e-14);
    }
}

/* Lengths around the first pass's blocks of 32 samples (the vector lanes go back to the
 * scalar ones there for the product's normalisation, and for the samples past the last group
 * of four). Values 0.3 + 0.001 ((37 i) mod 211), i = 0..39; expected values as above (Python
 * fractions and mpmath at 50 digits): n, mean, sd, hmean, gmean. */
static const double BLOCKS_X[] = {
    0.300, 0.337, 0.374, 0.411, 0.448, 0.485, 0.311, 0.348, 0.385, 0.422, 0.459, 0.496, 0.322,
    0.359, 0.396, 0.433, 0.470, 0.507, 0.333, 0.370, 0.407, 0.444, 0.481, 0.307, 0.344, 0.381,
    0.418, 0.455, 0.492, 0.318, 0.355, 0.392, 0.429, 0.466, 0.503, 0.329, 0.366, 0.403, 0.440,
    0.477
};
static const double BLOCKS[8][5] = {
    { 31, 0.39896774193548384, 0.063286377613178721, 0.38922494914753619, 0.39408623359772654 },
    { 32, 0.39874999999999999, 0.062269445725554214, 0.38931107462820586, 0.39402087104165034 },
    { 33, 0.39966666666666667, 0.061514564671032716, 0.39040557046425084, 0.39503771639829433 },
    { 34, 0.40161764705882352, 0.061634314874536217, 0.39227719193256866, 0.3969618568150442 },
    { 35, 0.40451428571428572, 0.063093008575375739, 0.39475994853663177, 0.3996561220369178 },
    { 36, 0.40241666666666664, 0.063445983774726489, 0.39258027455392636, 0.39750217531522003 },
    { 37, 0.40143243243243243, 0.062844402446987427, 0.39181122640954025, 0.39661612131126045 },
    { 40, 0.40432499999999999, 0.061819583445991429, 0.39492995332840103, 0.39964509619276845 },
};

static void test_block_lengths(void)
{
    for (size_t k = 0; k < 8; k++) {
        const double *e = BLOCKS[k];
        size_t n = (size_t)e[0];
        tally_summary s = { .size = sizeof s };
        CHECK_INT(tally_summarize(&s, BLOCKS_X, n, NULL), TALLY_OK);
        CHECK_REL(s.amean, e[1], 2.5e-16);
        CHECK_REL(s.stddev, e[2], 1e-15);
        CHECK_REL(s.hmean, e[3], 1e-15);
        CHECK_REL(s.gmean, e[4], 1e-15);
    }
}

int main(void)
{
    test_every_length();
    test_outside_product_range();
    test_long_numacc4();
    test_signed_zero_extremes();
    test_welch_lengths();
    test_block_lengths();
    return check_summary();
}
