/* tally_summarize_inplace and tally_percentiles_inplace: the same answers as the copying calls,
 * from the caller's buffer, with no allocation for the samples. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"

/* 1..9 and 100: one clear outlier. */
static const double TEN[] = { 7, 1, 100, 3, 9, 2, 8, 5, 4, 6 };

static int compare_double(const void *a, const void *b)
{
    double l = *(const double *)a, r = *(const double *)b;
    return (l > r) - (l < r);
}

/* Same multiset of values: sort copies of both and compare. */
static int is_permutation(const double *a, const double *b, size_t n)
{
    double *sa = malloc(n * sizeof *sa), *sb = malloc(n * sizeof *sb);
    memcpy(sa, a, n * sizeof *sa);
    memcpy(sb, b, n * sizeof *sb);
    qsort(sa, n, sizeof *sa, compare_double);
    qsort(sb, n, sizeof *sb, compare_double);
    int same = memcmp(sa, sb, n * sizeof *sa) == 0;
    free(sa);
    free(sb);
    return same;
}

static void test_percentiles_inplace(void)
{
    double x[10], out[3];
    static const double p[3] = { 50, 90, 25 };
    memcpy(x, TEN, sizeof x);
    CHECK_INT(tally_percentiles_inplace(out, x, 10, p, 3, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    /* R: quantile(c(1:9, 100), c(.5, .9, .25)) -> 5.50 18.10 3.25 (type 7) */
    CHECK_REL(out[0], 5.5, 1e-15);
    CHECK_REL(out[1], 18.1, 1e-14);
    CHECK_REL(out[2], 3.25, 1e-15);
    CHECK(is_permutation(x, TEN, 10));
    /* Partitioned around the selected ranks: x[4] and x[5] are the 5th and 6th smallest. */
    CHECK(x[4] == 5 && x[5] == 6);

    /* Nearest rank, hand count: 90 % of 10 samples -> the 9th smallest, 9. */
    memcpy(x, TEN, sizeof x);
    CHECK_INT(tally_percentiles_inplace(out, x, 10, p + 1, 1, TALLY_PERCENTILE_NEAREST_RANK),
              TALLY_OK);
    CHECK(out[0] == 9);

    /* Failures leave the buffer alone. */
    static const double bad_p = 101;
    memcpy(x, TEN, sizeof x);
    CHECK_INT(tally_percentiles_inplace(out, x, 10, &bad_p, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_EINVAL);
    CHECK(memcmp(x, TEN, sizeof x) == 0);
    x[3] = NAN;
    CHECK_INT(tally_percentiles_inplace(out, x, 10, p, 1, TALLY_PERCENTILE_LINEAR),
              TALLY_ENONFINITE);
    CHECK_INT(tally_percentiles_inplace(out, x, 0, p, 1, TALLY_PERCENTILE_LINEAR), TALLY_ENODATA);
    memcpy(x, TEN, sizeof x);
    CHECK_INT(tally_percentiles_inplace(out, x, 10, p, 0, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK(memcmp(x, TEN, sizeof x) == 0);
}

static void test_summarize_inplace(void)
{
    double x[10];
    tally_summary s = { .size = sizeof s };
    memcpy(x, TEN, sizeof x);
    CHECK_INT(tally_summarize_inplace(&s, x, 10, NULL), TALLY_OK);
    CHECK_INT(s.n, 10);
    CHECK(s.min == 1 && s.max == 100);
    CHECK_REL(s.amean, 14.5, 1e-15);                /* (45 + 100) / 10 */
    CHECK_REL(s.median, 5.5, 1e-15);                /* R median(c(1:9, 100)) */
    /* numpy 1.24: np.array([1,2,3,4,5,6,7,8,9,100.]).std(ddof=1) -> 30.152390728873666 */
    CHECK_REL(s.stddev, 30.152390728873666, 1e-14);
    /* Hand: |x - 5.5| sorted .5 .5 1.5 1.5 2.5 2.5 3.5 3.5 4.5 94.5 -> MAD 2.5; only 100 has
     * 0.6745 * 94.5 / 2.5 > 3.5. Quartiles 3.25 and 7.75 (type 7), IQR 4.5, fences -3.5 and
     * 14.5: only 100 lies outside. */
    CHECK_INT(s.outliers_mad, 1);
    CHECK_INT(s.outliers_tukey, 1);
    for (size_t i = 0; i < 10; i++)
        CHECK(isfinite(x[i]));

    /* Failures leave the buffer alone and the summary empty. */
    memcpy(x, TEN, sizeof x);
    x[9] = INFINITY;
    double before[10];
    memcpy(before, x, sizeof x);
    CHECK_INT(tally_summarize_inplace(&s, x, 10, NULL), TALLY_ENONFINITE);
    CHECK(memcmp(before, x, sizeof x) == 0);
    CHECK_INT(s.n, 0);
    CHECK_INT(tally_summarize_inplace(&s, x, 0, NULL), TALLY_ENODATA);
    CHECK_INT(tally_summarize_inplace(NULL, x, 10, NULL), TALLY_EINVAL);
}

/* On a large, skewed, tie-rich sample the in-place calls agree with the copying ones bit for
 * bit: the moments are summed in the caller's order before anything is reordered. */
static void test_same_as_copying(void)
{
    const size_t n = 100003;
    double *x = malloc(n * sizeof *x), *work = malloc(n * sizeof *work);
    uint64_t state = 12345;
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        double u = (double)(state >> 11) / 9007199254740992.0;
        x[i] = floor(1000.0 * exp(2.0 * u)) / 10.0; /* 0.1 resolution: many ties */
    }
    static const double p[4] = { 0, 50, 90, 99.9 };
    double a[4], b[4];
    memcpy(work, x, n * sizeof *x);
    CHECK_INT(tally_percentiles(a, x, n, p, 4, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK_INT(tally_percentiles_inplace(b, work, n, p, 4, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(is_permutation(x, work, n));

    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    o.direction = TALLY_HIGHER_IS_BETTER;
    o.percentile_method = TALLY_PERCENTILE_NEAREST_RANK;
    tally_summary s1 = { .size = sizeof s1 }, s2 = { .size = sizeof s2 };
    memcpy(work, x, n * sizeof *x);
    CHECK_INT(tally_summarize(&s1, x, n, &o), TALLY_OK);
    CHECK_INT(tally_summarize_inplace(&s2, work, n, &o), TALLY_OK);
    CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
    free(x);
    free(work);
}

#ifdef TALLY_FAULT_INJECTION
/* The in-place summary allocates nothing; the percentiles only their rank list. */
static void test_allocation_failure(void)
{
    double x[10], out;
    static const double p = 50;
    tally_summary s = { .size = sizeof s };
    memcpy(x, TEN, sizeof x);
    tally_testing_fail_allocation(1);
    CHECK_INT(tally_summarize_inplace(&s, x, 10, NULL), TALLY_OK);
    tally_testing_fail_allocation(0);
    memcpy(x, TEN, sizeof x);
    tally_testing_fail_allocation(1);
    CHECK_INT(tally_percentiles_inplace(&out, x, 10, &p, 1, TALLY_PERCENTILE_LINEAR), TALLY_ENOMEM);
    tally_testing_fail_allocation(0);
    CHECK(memcmp(x, TEN, sizeof x) == 0);
}
#endif

int main(void)
{
    test_percentiles_inplace();
    test_summarize_inplace();
    test_same_as_copying();
#ifdef TALLY_FAULT_INJECTION
    test_allocation_failure();
#endif
    return check_summary();
}
