/* HdrHistogram percentile tables (.hgrm) and wrk2's detailed percentile spectrum
 * (formats/import_hgrm.c) as histogram runs. Expected values by hand from the files: a row adds
 * (its TotalCount - the previous row's) requests at its Value, rows of one value merged; the
 * resolution is the widest gap between consecutive row values. */
#include "../check.h"
#include "import_helpers.h"

static void check_run(const tally_case *c, const double *values, const uint64_t *counts, size_t n,
                      double resolution)
{
    const double *v;
    const uint64_t *k;
    size_t got;
    double res;
    CHECK_INT(tally_case_histogram_at(&v, &k, &got, &res, c, 0), TALLY_OK);
    CHECK_INT(got, n);
    for (size_t i = 0; i < n && i < got; i++) {
        CHECK_REL(v[i], values[i], 0);
        CHECK_INT(k[i], counts[i]);
    }
    CHECK_REL(res, resolution, 1e-12);
}

static void test_wrk2(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK(sniffs_as("hgrm/wrk2.txt", &tally__importer_hgrm, 90));
    CHECK_INT(import_file(&r, &tally__importer_hgrm, "hgrm/wrk2.txt", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* TotalCount 1, 10, 50, 60, 99, 100 at 0.5, 0.9, 1.1, 1.1, 2.7, 3.1: counts 1, 9, 40 + 10,
     * 39, 1; gaps 0.4, 0.2, 0, 1.6, 0.4 */
    static const double v[] = { 0.5, 0.9, 1.1, 2.7, 3.1 };
    static const uint64_t k[] = { 1, 9, 50, 39, 1 };
    tally_case *c = find_case(r, "latency", "all");
    check_run(c, v, k, 5, 1.6);
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(tally_results_at(r, 0),
                                                                  "latency")),
              "ms");
    tally_results_free(r);
}

static void test_bare(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK(sniffs_as("hgrm/bare.hgrm", &tally__importer_hgrm, 90));
    CHECK_INT(import_file(&r, &tally__importer_hgrm, "hgrm/bare.hgrm", &o), TALLY_OK);
    if (r == NULL)
        return;
    /* 2, 5 - 2, 8 - 5 at 1, 4, 7; gaps 3, 3 */
    static const double v[] = { 1, 4, 7 };
    static const uint64_t k[] = { 2, 3, 3 };
    check_run(find_case(r, "latency", "all"), v, k, 3, 3);
    tally_results_free(r);
}

static void expect_error(const char *text, int code, const char *message)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(import_text(&r, &tally__importer_hgrm, text, "t.hgrm", &o), code);
    CHECK_STR(last_message(), message);
}

#define HEAD "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"

static void test_errors(void)
{
    expect_error(HEAD "  2.0 0.0 1 1.0\n  1.0 1.0 2\n", TALLY_EPARSE,
                 "t.hgrm:4:3: values must not decrease: 1.0 follows 2");
    expect_error(HEAD "  2.0 0.0 3 1.0\n  3.0 1.0 2\n", TALLY_EPARSE,
                 "t.hgrm:4:11: expected a whole count of at least the previous row's 3, found 2");
    expect_error(HEAD "  2.0 0.0 3 1.0\n#[Max     =        2.000, Total count    =  9]\n",
                 TALLY_EMISMATCH,
                 "t.hgrm:4:45: the footer's total count differs from the last row's 3 (a table "
                 "cut short?)");
    expect_error(HEAD "  2.0 1.5 3 1.0\n", TALLY_EPARSE,
                 "t.hgrm:3:7: expected a fraction from 0 to 1, found 1.5");
}

int main(void)
{
    test_wrk2();
    test_bare();
    test_errors();
    return check_summary();
}
