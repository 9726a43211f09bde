/* Values near the bottom of the double range: subnormal samples give the outlier counts of the
 * same samples at a normal scale (exact: the samples differ by a power of two), and values
 * too small for 17 decimals print in scientific notation in every text layout, never as
 * 0.00000000000000000. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_report_common.h"

/* {8, 9, 10, 11, 12, 72}, by hand: median 10.5; absolute deviations 2.5 1.5 .5 .5 1.5 61.5,
 * MAD (their median) 1.5; modified z-scores 0.6745 * dev / 1.5: 27.66 for 72 (> 3.5), at
 * most 1.13 for the others: 1 outlier. Type 7 quartiles of the sorted six: Q1 = 9 + .25 = 9.25,
 * Q3 = 11 + .75 = 11.75, IQR 2.5, fences 5.75 and 15.5 (k 1.5... 9.25 - 3.75 = 5.5,
 * 11.75 + 3.75 = 15.5): 72 alone outside: 1 outlier. Scaled by 2^-1060 every sample is
 * subnormal (below 2^-1022) and exact (integers below 2^14 times 2^-1060 are multiples of
 * 2^-1074). */
static void test_subnormal_outliers(void)
{
    static const double base[] = { 8, 9, 10, 11, 12, 72 };
    double x[6];
    for (size_t scale = 0; scale < 3; scale++) {
        int exponent = scale == 0 ? 0 : scale == 1 ? -1060 : -1030;
        for (size_t i = 0; i < 6; i++)
            x[i] = ldexp(base[i], exponent);
        if (exponent < 0)
            CHECK(fpclassify(x[0]) == FP_SUBNORMAL);
        tally_summary s = { .size = sizeof s };
        CHECK_INT(tally_summarize(&s, x, 6, NULL), TALLY_OK);
        CHECK_INT(s.outliers_mad, 1);
        CHECK_INT(s.outliers_tukey, 1);
        unsigned char mad[6], tukey[6];
        CHECK_INT(tally_outliers(mad, tukey, x, 6, 3.5, 1.5), TALLY_OK);
        for (size_t i = 0; i < 6; i++) {
            CHECK_INT(mad[i], i == 5);
            CHECK_INT(tukey[i], i == 5);
        }
    }
}

static char *render_as(tally_report *r, tally_format format, tally_style style)
{
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = format;
    o.style = style;
    char *out = NULL;
    size_t len = 0;
    CHECK_INT(tally_report_render(&out, &len, r, &o), TALLY_OK);
    return out;
}

/* Means 1.2125e-18 and 2.2125e-18 (by hand: 4.85e-18 / 4 and 8.85e-18 / 4); the smallest
 * normal double, DBL_MIN = 2.2250738585072014e-308, in a benchmark of its own. */
static void test_tiny_printing(void)
{
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *a = new_set(list, "a"), *b = new_set(list, "b");
    const double xa[] = { 1.1e-18, 1.2e-18, 1.3e-18, 1.25e-18 };
    const double xb[] = { 2.1e-18, 2.2e-18, 2.3e-18, 2.25e-18 };
    const double da[] = { DBL_MIN, DBL_MIN, DBL_MIN, DBL_MIN };
    const double db[] = { 2 * DBL_MIN, 2 * DBL_MIN, 2 * DBL_MIN, 2 * DBL_MIN };
    add_samples(a, "tiny", "", TALLY_LOWER_IS_BETTER, "all", xa, 4);
    add_samples(b, "tiny", "", TALLY_LOWER_IS_BETTER, "all", xb, 4);
    add_samples(a, "least", "", TALLY_LOWER_IS_BETTER, "all", da, 4);
    add_samples(b, "least", "", TALLY_LOWER_IS_BETTER, "all", db, 4);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    static const struct {
        tally_format format;
        tally_style style;
        const char *tiny, *least; /* as printed */
    } cases[] = {
        /* tiny: 3 significant digits (the interval of 1.4e-19 earns 2 digits, raised to the least
         * 3 of the value); least: 4 (no spread: every sample equal) */
        { TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE, "1.21e-18", "2.225e-308" },
        /* the seed layouts: 4 significant digits */
        { TALLY_FORMAT_TEXT, TALLY_STYLE_MMTESTS, "1.212e-18", "2.225e-308" },
        { TALLY_FORMAT_TEXT, TALLY_STYLE_PCT, "1.212e-18", "2.225e-308" },
        { TALLY_FORMAT_TEXT, TALLY_STYLE_NORMALIZED, "1.212e-18", "2.225e-308" },
        { TALLY_FORMAT_MARKDOWN, TALLY_STYLE_TABLE, "1.21e-18", "2.225e-308" },
        { TALLY_FORMAT_HTML, TALLY_STYLE_TABLE, "1.21e-18", "2.225e-308" },
    };
    for (size_t k = 0; k < TALLY__COUNT(cases); k++) {
        char *text = render_as(r, cases[k].format, cases[k].style);
        CHECK(text != NULL && strstr(text, "0.00000000000000") == NULL);
        if (text && cases[k].style != TALLY_STYLE_NORMALIZED) {
            if (!strstr(text, cases[k].tiny) || !strstr(text, cases[k].least))
                fprintf(stderr, "  case %zu: %s\n", k, text);
            CHECK(strstr(text, cases[k].tiny) != NULL);
            CHECK(strstr(text, cases[k].least) != NULL);
        }
        tally_free(text);
    }
    tally_report_free(r);
    tally_results_free(list);
}

int main(void)
{
    test_subnormal_outliers();
    test_tiny_printing();
    return check_summary();
}
