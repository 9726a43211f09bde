/* tally_summarize and its companions: the full summary against R/SciPy, the defined edge cases,
 * options, tally_summary_value, the name helpers, the tally_sample container and thread safety. */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "tally.h"

static const double A[] = { 0.380, 0.412, 0.395, 0.401, 0.388, 0.420, 0.392, 0.405, 0.399, 0.383 };
static const double B[] = { 3, 1, 4, 1, 5, 9, 2 };

/* Every double field is finite: no NaN or Inf ever leaks into a summary. */
static int all_finite(const tally_summary *s)
{
    const double v[] = { s->min, s->max, s->amean, s->hmean, s->gmean, s->median, s->stddev,
                         s->hstddev, s->cv, s->hcv, s->sem, s->mean_ci_low, s->mean_ci_high,
                         s->median_ci_low, s->median_ci_high, s->median_ci_level, s->bamean };
    for (size_t i = 0; i < TALLY__COUNT(v); i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

static void test_full_summary(void)
{
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_summarize(&s, A, 10, NULL), TALLY_OK);
    CHECK_INT(s.n, 10);
    CHECK_INT(s.defined, TALLY_SUMMARY_HMEAN | TALLY_SUMMARY_GMEAN | TALLY_SUMMARY_STDDEV |
                             TALLY_SUMMARY_MEDIAN_CI | TALLY_SUMMARY_CV | TALLY_SUMMARY_HSTDDEV |
                             TALLY_SUMMARY_MEAN_CI);
    CHECK(s.min == 0.380 && s.max == 0.420);
    CHECK_REL(s.amean, 0.3975, 1e-15);                  /* numpy A.mean() */
    CHECK_REL(s.median, 0.397, 1e-15);                  /* R median(A) */
    CHECK_REL(s.stddev, 0.012607317099384955, 1e-14);   /* R sd(A) */
    CHECK_REL(s.hmean, 0.39714319853732827, 1e-14);     /* scipy.stats.hmean(A) */
    CHECK_REL(s.gmean, 0.3973210785136629, 1e-14);      /* scipy.stats.gmean(A) */
    CHECK_REL(s.sem, 0.003986783721804386, 1e-14);      /* scipy.stats.sem(A) */
    /* R: sd(A) / mean(A) * 100 */
    CHECK_REL(s.cv, 100 * 0.012607317099384955 / 0.3975, 1e-14);
    /* R 4.2.2: t.test(A, conf.level = 0.95)$conf.int -> 0.38848126864719290 0.40651873135280708 */
    CHECK_REL(s.mean_ci_low, 0.38848126864719290, 1e-13);
    CHECK_REL(s.mean_ci_high, 0.40651873135280708, 1e-13);
    CHECK(all_finite(&s));

    /* R 4.2.2: t.test(B, conf.level = 0.90)$conf.int -> 1.5002732797155593 5.6425838631415841 */
    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    o.confidence = 0.90;
    CHECK_INT(tally_summarize(&s, B, 7, &o), TALLY_OK);
    CHECK_REL(s.mean_ci_low, 1.5002732797155593, 1e-13);
    CHECK_REL(s.mean_ci_high, 5.6425838631415841, 1e-13);

    /* Nearest-rank median: R quantile(A, .5, type = 1) -> 0.395 */
    o.confidence = 0.95;
    o.percentile_method = TALLY_PERCENTILE_NEAREST_RANK;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_OK);
    CHECK(s.median == 0.395);
}

static void test_edge_summaries(void)
{
    tally_summary s = { .size = sizeof s };

    /* n = 0 */
    CHECK_INT(tally_summarize(&s, A, 0, NULL), TALLY_ENODATA);
    CHECK_INT(s.n, 0);
    CHECK_INT(s.defined, 0);

    /* n = 1: centre statistics only; spread and CIs undefined and 0, never NaN. */
    const double one[] = { 2.5 };
    CHECK_INT(tally_summarize(&s, one, 1, NULL), TALLY_OK);
    CHECK_INT(s.defined, TALLY_SUMMARY_HMEAN | TALLY_SUMMARY_GMEAN);
    CHECK(s.amean == 2.5 && s.median == 2.5 && s.hmean == 2.5 && s.gmean == 2.5);
    CHECK(s.bamean == 2.5 && s.min == 2.5 && s.max == 2.5);
    CHECK(s.stddev == 0 && s.cv == 0 && s.hstddev == 0 && s.sem == 0);
    CHECK(s.mean_ci_low == 0 && s.median_ci_low == 0);
    CHECK_INT(s.outliers_mad, 0);
    CHECK_INT(s.outliers_tukey, 0);
    CHECK(all_finite(&s));

    /* All equal: stddev 0, CV 0, both CIs of zero width at the value. */
    double same[8];
    for (int i = 0; i < 8; i++)
        same[i] = 3.3;
    CHECK_INT(tally_summarize(&s, same, 8, NULL), TALLY_OK);
    CHECK(s.defined & TALLY_SUMMARY_STDDEV && s.defined & TALLY_SUMMARY_CV);
    CHECK(s.defined & TALLY_SUMMARY_MEAN_CI && s.defined & TALLY_SUMMARY_MEDIAN_CI);
    CHECK(s.stddev == 0 && s.cv == 0 && s.hstddev == 0 && s.hcv == 0);
    CHECK(s.amean == 3.3 && s.hmean == 3.3 && s.gmean == 3.3 && s.median == 3.3);
    CHECK(s.mean_ci_low == 3.3 && s.mean_ci_high == 3.3);
    CHECK(s.median_ci_low == 3.3 && s.median_ci_high == 3.3);
    CHECK_INT(s.outliers_mad + s.outliers_tukey, 0);

    /* NaN / Inf: nothing computed. */
    const double bad[] = { 1, 2, INFINITY };
    CHECK_INT(tally_summarize(&s, bad, 3, NULL), TALLY_ENONFINITE);
    CHECK_INT(s.n, 0);
    CHECK_INT(s.defined, 0);

    /* Zero or negative: HMean/GMean undefined, the rest defined. CV undefined when amean = 0. */
    const double signs[] = { -1, 0, 1 };
    CHECK_INT(tally_summarize(&s, signs, 3, NULL), TALLY_OK);
    CHECK(!(s.defined & (TALLY_SUMMARY_HMEAN | TALLY_SUMMARY_GMEAN | TALLY_SUMMARY_HSTDDEV)));
    CHECK(s.defined & TALLY_SUMMARY_STDDEV);
    CHECK(!(s.defined & TALLY_SUMMARY_CV));
    CHECK(s.amean == 0 && s.stddev == 1 && s.hmean == 0 && s.cv == 0);
    double v;
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_HMEAN), TALLY_EDOMAIN);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_GMEAN), TALLY_EDOMAIN);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_MEDIAN), TALLY_OK);
    CHECK(v == 0);

    /* Negative mean: CV keeps the sign of the mean (mmtests): sd(-1, -2, -3) = 1, mean -2. */
    const double neg[] = { -1, -2, -3 };
    CHECK_INT(tally_summarize(&s, neg, 3, NULL), TALLY_OK);
    CHECK_REL(s.cv, -50.0, 1e-15);

    /* 1e308 magnitudes: every reported value finite, flags clear where not representable. */
    const double big[] = { 1e308, 1.5e308, 1.7e308, 1.2e308, 1.1e308, 1.6e308 };
    CHECK_INT(tally_summarize(&s, big, 6, NULL), TALLY_OK);
    CHECK(all_finite(&s));
    CHECK_REL(s.amean, 1.35e308, 1e-15);
    CHECK(s.defined & TALLY_SUMMARY_STDDEV);
    const double wide[] = { -1.7e308, 1.7e308 };
    CHECK_INT(tally_summarize(&s, wide, 2, NULL), TALLY_OK);
    CHECK(all_finite(&s));
    CHECK(!(s.defined & (TALLY_SUMMARY_STDDEV | TALLY_SUMMARY_MEAN_CI | TALLY_SUMMARY_CV)));
    CHECK(s.amean == 0 && s.median == 0);
    const double tiny[] = { 5e-324, 1e-320, 1 };
    CHECK_INT(tally_summarize(&s, tiny, 3, NULL), TALLY_OK);
    CHECK(all_finite(&s));
    CHECK(s.defined & TALLY_SUMMARY_HMEAN);
}

static void test_options(void)
{
    tally_summary s = { .size = sizeof s };
    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    CHECK_INT(tally_summarize(NULL, A, 10, NULL), TALLY_EINVAL);
    CHECK_INT(tally_summarize(&s, NULL, 10, NULL), TALLY_EINVAL);
    o.version = 99;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_EINVAL);
    o.version = TALLY_SUMMARY_OPTIONS_VERSION;
    o.confidence = 1;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_EINVAL);
    o.confidence = 0.95;
    o.bamean_percent = 0;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_EINVAL);
    o.bamean_percent = 95;
    o.direction = (tally_direction)5;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_EINVAL);
    o.direction = TALLY_LOWER_IS_BETTER;
    o.mad_threshold = NAN;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_EINVAL);
    o.mad_threshold = 3.5;
    o.percentile_method = (tally_percentile_method)9;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_EINVAL);
}

static void test_summary_value(void)
{
    tally_summary s = { .size = sizeof s };
    double v;
    CHECK_INT(tally_summarize(&s, B, 7, NULL), TALLY_OK);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_DEFAULT), TALLY_OK);
    CHECK(v == s.amean);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_AMEAN), TALLY_OK);
    CHECK(v == s.amean);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_HMEAN), TALLY_OK);
    CHECK(v == s.hmean);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_GMEAN), TALLY_OK);
    CHECK(v == s.gmean);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_MEDIAN), TALLY_OK);
    CHECK(v == 3);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_MIN), TALLY_OK);
    CHECK(v == 1);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_MAX), TALLY_OK);
    CHECK(v == 9);
    CHECK_INT(tally_summary_value(&v, &s, TALLY_STAT_BAMEAN), TALLY_OK);
    CHECK(v == s.bamean);
    CHECK_INT(tally_summary_value(&v, &s, (tally_statistic)42), TALLY_EINVAL);
    CHECK_INT(tally_summary_value(NULL, &s, TALLY_STAT_MIN), TALLY_EINVAL);
    tally_summary empty = { .size = sizeof empty };
    CHECK_INT(tally_summary_value(&v, &empty, TALLY_STAT_MIN), TALLY_ENODATA);
}

static void test_names(void)
{
    static const char *const names[] = { "default", "amean", "hmean", "gmean",     "median",
                                         "min",     "max",   "bamean", "percentile" };
    tally_statistic st;
    tally_direction d;
    for (int i = 0; i < 9; i++) {
        CHECK_STR(tally_statistic_name((tally_statistic)i), names[i]);
        CHECK_INT(tally_statistic_from_name(&st, names[i]), TALLY_OK);
        CHECK_INT(st, i);
    }
    CHECK(tally_statistic_name((tally_statistic)9) == NULL);
    /* pNN through tally_statistic_parse and back through tally_statistic_label (by hand). */
    double pct;
    CHECK_INT(tally_statistic_parse(&st, &pct, "p99.9"), TALLY_OK);
    CHECK_INT(st, TALLY_STAT_PERCENTILE);
    CHECK(pct == 99.9);
    char label[32];
    CHECK_INT(tally_statistic_label(label, sizeof label, st, pct), TALLY_OK);
    CHECK_STR(label, "p99.9");
    CHECK_INT(tally_statistic_parse(&st, &pct, "median"), TALLY_OK);
    CHECK_INT(st, TALLY_STAT_MEDIAN);
    CHECK(pct == 0);
    CHECK_INT(tally_statistic_parse(&st, &pct, "p100"), TALLY_EINVAL);
    CHECK_INT(tally_statistic_parse(&st, &pct, "p0"), TALLY_EINVAL);
    CHECK_INT(tally_statistic_parse(&st, &pct, "p9x"), TALLY_EINVAL);
    CHECK_INT(tally_statistic_parse(&st, &pct, "percentile"), TALLY_EINVAL);
    CHECK(tally_statistic_name((tally_statistic)-1) == NULL);
    CHECK_INT(tally_statistic_from_name(&st, "HMean"), TALLY_OK);
    CHECK_INT(st, TALLY_STAT_HMEAN);
    CHECK_INT(tally_statistic_from_name(&st, "mean"), TALLY_EINVAL);
    CHECK_INT(tally_statistic_from_name(&st, NULL), TALLY_EINVAL);

    CHECK_STR(tally_direction_name(TALLY_LOWER_IS_BETTER), "lower");
    CHECK_STR(tally_direction_name(TALLY_HIGHER_IS_BETTER), "higher");
    CHECK(tally_direction_name((tally_direction)2) == NULL);
    CHECK_INT(tally_direction_from_name(&d, "Higher_Is_Better"), TALLY_OK);
    CHECK_INT(d, TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_direction_from_name(&d, "lower"), TALLY_OK);
    CHECK_INT(d, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_direction_from_name(&d, "up"), TALLY_EINVAL);
}

static void test_sample_container(void)
{
    tally_sample *s = NULL;
    tally_summary sum = { .size = sizeof sum }, direct = { .size = sizeof direct };
    const double bad[] = { 1, NAN };

    CHECK_INT(tally_sample_new(&s), TALLY_OK);
    CHECK_INT(tally_sample_count(s), 0);
    CHECK_INT(tally_sample_summarize(&sum, s, NULL), TALLY_ENODATA);
    for (int i = 0; i < 10; i++)
        CHECK_INT(tally_sample_append(s, &A[i], 1), TALLY_OK);
    CHECK_INT(tally_sample_append(s, bad, 2), TALLY_ENONFINITE);
    CHECK_INT(tally_sample_count(s), 10); /* nothing of the failed append kept */
    CHECK(memcmp(tally_sample_data(s), A, sizeof A) == 0);
    CHECK_INT(tally_sample_summarize(&sum, s, NULL), TALLY_OK);
    CHECK_INT(tally_summarize(&direct, A, 10, NULL), TALLY_OK);
    CHECK(memcmp(&sum, &direct, sizeof sum) == 0);
    static double many[5000];
    for (int i = 0; i < 5000; i++)
        many[i] = i;
    CHECK_INT(tally_sample_append(s, many, 5000), TALLY_OK);
    CHECK_INT(tally_sample_count(s), 5010);
    CHECK(tally_sample_data(s)[5009] == 4999);
    tally_sample_free(s);
    tally_sample_free(NULL);
    CHECK_INT(tally_sample_summarize(&sum, NULL, NULL), TALLY_EINVAL);
}

/* Summaries on several threads at once equal the single-threaded one bit for bit. */
enum { THREADS = 4, ROUNDS = 50, BIG = 2000 };
static double shared_data[BIG];
static tally_summary reference = { .size = sizeof reference };

static void *summarize_many(void *arg)
{
    int *mismatches = arg;
    tally_summary s = { .size = sizeof s };
    for (int r = 0; r < ROUNDS; r++) {
        if (tally_summarize(&s, shared_data, BIG, NULL) != TALLY_OK ||
            memcmp(&s, &reference, sizeof s) != 0)
            (*mismatches)++;
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t t[THREADS];
    int mismatches[THREADS] = { 0 };
    for (int i = 0; i < BIG; i++)
        shared_data[i] = 100.0 + (double)((i * 7919) % 1009) / 7.0;
    CHECK_INT(tally_summarize(&reference, shared_data, BIG, NULL), TALLY_OK);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, summarize_many, &mismatches[i]);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK_INT(mismatches[i], 0);
    }
}

#ifdef TALLY_FAULT_INJECTION
static void test_allocation_failure(void)
{
    tally_summary s = { .size = sizeof s };
    double out[2];
    const double p[] = { 10, 90 };
    unsigned char flags[10];
    tally_testing_fail_allocation(1);
    CHECK_INT(tally_summarize(&s, A, 10, NULL), TALLY_ENOMEM);
    tally_testing_fail_allocation(1);
    CHECK_INT(tally_percentiles(out, A, 10, p, 2, TALLY_PERCENTILE_LINEAR), TALLY_ENOMEM);
    tally_testing_fail_allocation(2);
    CHECK_INT(tally_percentiles(out, A, 10, p, 2, TALLY_PERCENTILE_LINEAR), TALLY_ENOMEM);
    tally_testing_fail_allocation(1);
    CHECK_INT(tally_outliers(flags, NULL, A, 10, 3.5, 1.5), TALLY_ENOMEM);
    tally_testing_fail_allocation(0);
}
#endif

int main(void)
{
    test_full_summary();
    test_edge_summaries();
    test_options();
    test_summary_value();
    test_names();
    test_sample_container();
    test_threads();
#ifdef TALLY_FAULT_INJECTION
    test_allocation_failure();
#endif
    return check_summary();
}
