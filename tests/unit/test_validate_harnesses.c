/* tally_validate() with the definitions of pytest-benchmark, JMH, criterion.rs and Catch2
 * (docs/importers.md, "Validation of a harness's own summary"). Every expected recomputed value
 * comes from R 4 or a hand calculation pasted next to it; the tampered and population-SD files
 * are described in the READMEs of tests/data/{pytest-benchmark,jmh,criterion,catch2}. */
#include <math.h>

#include "check.h"
#include "import_helpers.h"

static tally_validation *validate_file(const tally__importer *imp, const char *rel)
{
    tally_results *r;
    tally_validation *v = NULL;
    if (import_file(&r, imp, rel, NULL) != TALLY_OK)
        return NULL;
    CHECK_INT(tally_validate(&v, r, NULL), TALLY_OK);
    tally_results_free(r);
    return v;
}

/* The entry of statistic `stat` for case `casename`, or the count when there is none. */
static size_t entry_of(const tally_validation *v, const char *casename, const char *stat)
{
    size_t i = 0;
    for (; i < tally_validation_count(v); i++)
        if (strcmp(tally_validation_case(v, i), casename) == 0 &&
            strcmp(tally_validation_statistic(v, i), stat) == 0)
            break;
    return i;
}

/* One case of samples x with reported.<key> = text, validated. */
static tally_validation *validate_samples(const double *x, size_t n, const char *key,
                                          const char *text)
{
    tally_results *r;
    tally_resultset *rs;
    tally_benchmark *b;
    tally_case *c;
    tally_validation *v = NULL;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_resultset_new(&rs, "x"), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "b", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&c, b, "c"), TALLY_OK);
    CHECK_INT(tally_case_append(c, x, n), TALLY_OK);
    CHECK_INT(tally_case_meta_set(c, key, text), TALLY_OK);
    CHECK_INT(tally_results_add(r, rs), TALLY_OK);
    CHECK_INT(tally_validate(&v, r, NULL), TALLY_OK);
    tally_results_free(r);
    return v;
}

static void test_pytest_quartiles(void)
{
    /* n = 4 (even): medians of the halves, q1 = (1 + 2) / 2, q3 = (3 + 4) / 2 */
    static const double even[] = { 4, 1, 3, 2 };
    tally_validation *v = validate_samples(even, 4, "reported.q1", "1.5");
    CHECK(v && tally_validation_recomputed(v, 0) == 1.5 && tally_validation_agreed(v, 0));
    tally_validation_free(v);
    v = validate_samples(even, 4, "reported.q3", "3.5");
    CHECK(v && tally_validation_recomputed(v, 0) == 3.5);
    tally_validation_free(v);
    /* n = 5 = 4k + 1, k = 1, sorted 0.2 0.3 0.4 0.5 0.7: q1 = 0.2/4 + 3(0.3)/4 = 0.275,
     * q3 = 3(0.5)/4 + 0.7/4 = 0.55, iqr = 0.275 */
    static const double five[] = { 0.2, 0.4, 0.3, 0.7, 0.5 };
    v = validate_samples(five, 5, "reported.iqr", "0.275");
    CHECK(v && fabs(tally_validation_recomputed(v, 0) - 0.275) < 1e-15);
    tally_validation_free(v);
    /* n = 7 = 4k + 3, k = 1, sorted 1..7: q1 = 3(2)/4 + 3/4 = 2.25, q3 = 5/4 + 3(6)/4 = 5.75 */
    static const double seven[] = { 7, 1, 6, 2, 5, 3, 4 };
    v = validate_samples(seven, 7, "reported.q1", "2.25");
    CHECK(v && tally_validation_recomputed(v, 0) == 2.25 && tally_validation_agreed(v, 0));
    tally_validation_free(v);
    v = validate_samples(seven, 7, "reported.q3", "5.75");
    CHECK(v && tally_validation_recomputed(v, 0) == 5.75);
    tally_validation_free(v);
    /* population SD: R sd(c(0.2,0.3,0.4,0.5,0.7)) * sqrt(4/5) -> 0.1720465053408525 */
    v = validate_samples(five, 5, "reported.stddev", "0.1720465053408525");
    CHECK(v && !tally_validation_agreed(v, 0));
    CHECK_STR(v ? tally_validation_note(v, 0) : "",
              "the population SD (divided by n) instead of the sample SD (n - 1)");
    tally_validation_free(v);
}

static void test_pytest_file(void)
{
    tally_validation *v = validate_file(&tally__importer_pytest, "pytest-benchmark/saved.json");
    if (!v)
        return;
    /* pytest-benchmark's own figures agree: 3 benchmarks x 8 statistics */
    CHECK_INT(tally_validation_count(v), 24);
    CHECK_INT(tally_validation_disagreements(v), 0);
    tally_validation_free(v);
    v = validate_file(&tally__importer_pytest, "pytest-benchmark/tampered-mean.json");
    CHECK_INT(v ? tally_validation_disagreements(v) : 0, 1);
    size_t i = v ? entry_of(v, "n=10", "mean") : 0;
    CHECK(v && i < tally_validation_count(v) && !tally_validation_agreed(v, i));
    tally_validation_free(v);
    v = validate_file(&tally__importer_pytest, "pytest-benchmark/population-sd.json");
    i = v ? entry_of(v, "n=10", "stddev") : 0;
    CHECK(v && i < tally_validation_count(v) && !tally_validation_agreed(v, i));
    CHECK_STR(v ? tally_validation_note(v, i) : "",
              "the population SD (divided by n) instead of the sample SD (n - 1)");
    tally_validation_free(v);
}

static void test_jmh(void)
{
    tally_validation *v = validate_file(&tally__importer_jmh, "jmh/results.json");
    if (!v)
        return;
    CHECK_INT(tally_validation_disagreements(v), 0);
    size_t i = entry_of(v, "size=100", "score_error");
    /* R: x <- c(3524193.154, 3531314.663, 3532453.332, 3440045.307, 3333994.173, 3445535.456);
     * qt(0.9995, 5) * sd(x) / sqrt(6) -> 219244.70943304437 */
    CHECK(i < tally_validation_count(v));
    CHECK_REL(tally_validation_recomputed(v, i), 219244.70943304437, 1e-8);
    tally_validation_free(v);
    v = validate_file(&tally__importer_jmh, "jmh/tampered.json");
    if (!v)
        return;
    /* scoreError from the population SD: R sqrt(5/6) * qt(0.9995, 5) * sd(x) / sqrt(6) ->
     * 200142.12161690684, as written by the fixture (SciPy) */
    i = entry_of(v, "size=100", "score_error");
    CHECK(i < tally_validation_count(v) && !tally_validation_agreed(v, i));
    CHECK_REL(tally_validation_reported(v, i), 200142.12161690684, 1e-8);
    CHECK_STR(tally_validation_note(v, i), "computed from the population SD (divided by n) "
                                           "instead of the sample SD (n - 1)");
    i = entry_of(v, "size=1000", "mean");
    CHECK(i < tally_validation_count(v) && !tally_validation_agreed(v, i));
    tally_validation_free(v);
}

static void test_criterion_mad(void)
{
    /* R: mad(c(105, 99, 104, 99, 102, 99)) -> 2.2239 (constant 1.4826, centre the median) */
    static const double x[] = { 105, 99, 104, 99, 102, 99 };
    tally_validation *v = validate_samples(x, 6, "reported.median_abs_dev", "2.2239");
    CHECK(v && tally_validation_agreed(v, 0));
    CHECK_REL(v ? tally_validation_recomputed(v, 0) : 0, 2.2239, 1e-15);
    tally_validation_free(v);
    /* an interval bound: the recomputed mean (by hand 608 / 6 = 101.333...) lies above 101.4? */
    v = validate_samples(x, 6, "reported.mean.lower", "101.4");
    CHECK(v && !tally_validation_agreed(v, 0));
    /* relative distance outside: (101.4 - 608/6) / (608/6) */
    CHECK_REL(v ? tally_validation_rel_diff(v, 0) : 0, (101.4 - 608.0 / 6) / (608.0 / 6), 1e-12);
    tally_validation_free(v);
    v = validate_samples(x, 6, "reported.mean.upper", "101.4");
    CHECK(v && tally_validation_agreed(v, 0) && tally_validation_rel_diff(v, 0) == 0);
    tally_validation_free(v);
}

static void test_catch2(void)
{
    tally_validation *v = validate_file(&tally__importer_catch2, "catch2/bench.xml");
    CHECK_INT(v ? tally_validation_count(v) : 0, 4);
    CHECK_INT(v ? tally_validation_disagreements(v) : 1, 0);
    tally_validation_free(v);
    /* fib 10's mean edited to 279.5, below its lower bound 280.983 */
    v = validate_file(&tally__importer_catch2, "catch2/tampered.xml");
    CHECK_INT(v ? tally_validation_disagreements(v) : 0, 1);
    CHECK(v && tally_validation_recomputed(v, 0) == 279.5 && !tally_validation_agreed(v, 0));
    tally_validation_free(v);
}

int main(void)
{
    test_pytest_quartiles();
    test_pytest_file();
    test_jmh();
    test_criterion_mad();
    test_catch2();
    return check_summary();
}
