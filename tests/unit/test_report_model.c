/* The report model: alignment, missing cases, statistics per row, comparisons, adjustment,
 * filters, geometric mean, CI gating and errors. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "report/report_internal.h"
#include "test_report_common.h"

static void test_alignment(void)
{
    tally_report *r = fixture_report(NULL);
    CHECK_INT(tally_report_config_count(r), 3);
    CHECK_STR(tally_report_config_label(r, 1), "new");
    CHECK(tally_report_config_label(r, 3) == NULL);
    /* Baseline order a, b, c; d (missing from the baseline) after the last lat row. */
    static const char *const expect[][2] = { { "lat", "a" }, { "lat", "b" }, { "lat", "c" },
                                             { "lat", "d" }, { "tput", "x" }, { "tput", "y" } };
    CHECK_INT(tally_report_row_count(r), 6);
    for (size_t i = 0; i < 6; i++) {
        tally_report_row row = { .size = sizeof row };
        CHECK_INT(tally_report_row_at(&row, r, i), TALLY_OK);
        CHECK_STR(row.benchmark, expect[i][0]);
        CHECK_STR(row.case_name, expect[i][1]);
    }
    tally_report_row row = { .size = sizeof row };
    CHECK_INT(tally_report_row_at(&row, r, 6), TALLY_EINVAL);
    CHECK_INT(tally_report_row_at(&row, r, 0), TALLY_OK);
    CHECK_STR(row.unit, "us");
    CHECK_INT(row.statistic, TALLY_STAT_AMEAN); /* lower is better: AMean */
    CHECK_INT(tally_report_row_at(&row, r, 4), TALLY_OK);
    CHECK_INT(row.statistic, TALLY_STAT_HMEAN); /* higher is better: HMean */
    CHECK_INT(row.direction, TALLY_HIGHER_IS_BETTER);

    test_cell cell;
    CHECK_INT(test_cell_get(&cell, r, 1, 1), TALLY_OK); /* lat/b in new: missing */
    CHECK_INT(cell.present, 0);
    CHECK_INT(cell.compared, 0);
    CHECK_INT(test_cell_get(&cell, r, 3, 0), TALLY_OK); /* lat/d in base: missing */
    CHECK_INT(cell.present, 0);
    CHECK_INT(test_cell_get(&cell, r, 3, 1), TALLY_OK); /* ... so no comparison */
    CHECK_INT(cell.present, 1);
    CHECK_INT(cell.compared, 0);
    CHECK_INT(test_cell_get(&cell, r, 0, 3), TALLY_EINVAL);
    tally_report_free(r);
}

static void test_values(void)
{
    tally_report *r = fixture_report(NULL);
    test_cell cell;
    /* lat/a: base mean (10 + 10.2 + 9.8 + 10) / 4 = 10, new mean 12;
     * pct imp (1 - 12/10) * 100 = -20; Welch p 2.373334543896199e-06 (scipy, fixture). */
    CHECK_INT(test_cell_get(&cell, r, 0, 0), TALLY_OK);
    CHECK_REL(cell.value, 10.0, 1e-12);
    CHECK_INT(cell.summary.n, 4);
    CHECK_INT(test_cell_get(&cell, r, 0, 1), TALLY_OK);
    CHECK_REL(cell.value, 12.0, 1e-12);
    CHECK_INT(cell.compared, 1);
    CHECK_REL(cell.comparison.pct_imp, -20.0, 1e-9);
    CHECK_REL(cell.comparison.ratio, 1.2, 1e-12);
    CHECK_REL(cell.comparison.p_value, 2.373334543896199e-06, 1e-6);
    CHECK_REL(cell.p_adjusted, 2.373334543896199e-06, 1e-6); /* no adjustment by default */
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_REGRESSION);
    /* tput/x: HMean 4 / (1/100 + 1/110 + 1/90 + 1/100) = 99.49748743718592 and
     * 4 / (1/120 + 1/130 + 1/110 + 1/120) = 119.58188153310104 (scipy.stats.hmean);
     * pct imp (119.58188153310104 / 99.49748743718592 - 1) * 100 = 20.1858... */
    CHECK_INT(test_cell_get(&cell, r, 4, 0), TALLY_OK);
    CHECK_REL(cell.value, 99.49748743718592, 1e-12);
    CHECK_INT(test_cell_get(&cell, r, 4, 1), TALLY_OK);
    CHECK_REL(cell.value, 119.58188153310104, 1e-12);
    CHECK_REL(cell.comparison.pct_imp, (119.58188153310104 / 99.49748743718592 - 1) * 100, 1e-9);
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_IMPROVEMENT);
    /* tput/y: one run per side: too few samples, a footnote rather than a verdict. */
    CHECK_INT(test_cell_get(&cell, r, 5, 1), TALLY_OK);
    CHECK_INT(cell.compared, 1);
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_INSUFFICIENT);
    CHECK_REL(cell.comparison.pct_imp, 20.0, 1e-12); /* (60 / 50 - 1) * 100 */

    /* Worst significant regression: lat/a new, 20 %. */
    double worst = -1;
    CHECK_INT(tally_report_worst_regression(&worst, r), TALLY_OK);
    CHECK_REL(worst, 20.0, 1e-9);

    /* Geometric mean of gains over rows present on both sides, each expressed so that > 1 is
     * better: base/new on the lower-is-better rows (lat/a 1/1.2, lat/c 4/3), new/base on the
     * higher-is-better ones (tput/x 119.58188153310104 / 99.49748743718592, tput/y 60/50):
     * (1/1.2 * 4/3 * 1.2018582... * 1.2)^(1/4), by hand. */
    double gm = 0;
    double expect = pow(1 / 1.2 * (4.0 / 3.0) * (119.58188153310104 / 99.49748743718592) * 1.2,
                        0.25);
    tally_gain g = { .size = sizeof g };
    CHECK_INT(tally__report_gain_family(&g, r, 1, NULL, (size_t)-1), TALLY_OK);
    CHECK_REL(g.value, expect, 1e-12);
    /* The rows are in two units (ms, ops/s): no mean over both through the public calls
     * (docs/statistics.md, "Geometric mean of gains"), one per unit instead:
     * lat (1/1.2 * 4/3)^(1/2), tput (1.2018582... * 1.2)^(1/2), by hand. */
    CHECK_INT(tally_report_geomean(&gm, r, 1), TALLY_ENODATA);
    CHECK_INT(tally_report_gain(&g, r, 1, "lat"), TALLY_OK);
    CHECK_REL(g.value, sqrt(1 / 1.2 * (4.0 / 3.0)), 1e-12);
    CHECK_INT(tally_report_gain(&g, r, 1, "tput"), TALLY_OK);
    CHECK_REL(g.value, sqrt(119.58188153310104 / 99.49748743718592 * 1.2), 1e-12);
    CHECK_INT(tally_report_geomean(&gm, r, 0), TALLY_ENODATA);
    CHECK_INT(tally_report_geomean(&gm, r, 9), TALLY_EINVAL);
    tally_report_free(r);
}

static void test_statistic_choice(void)
{
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.statistic = TALLY_STAT_MEDIAN;
    tally_report *r = fixture_report(&o);
    tally_report_row row = { .size = sizeof row };
    test_cell cell;
    CHECK_INT(tally_report_row_at(&row, r, 4), TALLY_OK);
    CHECK_INT(row.statistic, TALLY_STAT_MEDIAN);
    /* tput/x base median of 90, 100, 100, 110 = 100. */
    CHECK_INT(test_cell_get(&cell, r, 4, 0), TALLY_OK);
    CHECK_REL(cell.value, 100.0, 1e-12);
    tally_report_free(r);

    /* A benchmark's preferred statistic wins over the direction's default. */
    tally_results *list = build_fixture();
    for (size_t j = 0; j < 3; j++)
        CHECK_INT(tally_benchmark_set_statistic(
                      tally_resultset_benchmark_find(tally_results_at(list, j), "tput"),
                      TALLY_STAT_AMEAN), TALLY_OK);
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    CHECK_INT(tally_report_row_at(&row, r, 4), TALLY_OK);
    CHECK_INT(row.statistic, TALLY_STAT_AMEAN);
    CHECK_INT(test_cell_get(&cell, r, 4, 0), TALLY_OK);
    CHECK_REL(cell.value, 100.0, 1e-12); /* (100 + 110 + 90 + 100) / 4 */
    tally_report_free(r);
    tally_results_free(list);
}

/* The 7 raw p-values of the fixture's comparisons and their adjustments, from R 4.2
 * (options(digits = 17)): p <- c(t.test(la1, la2)$p.value, t.test(la1, la3)$p.value,
 * t.test(lb1, lb3)$p.value, t.test(lc1, lc2)$p.value, t.test(lc1, lc3)$p.value,
 * t.test(1/tx1, 1/tx2)$p.value, t.test(1/tx1, 1/tx3)$p.value) with the samples of
 * build_fixture (tput rows are HMean rows: Welch on 1/x); p.adjust(p, "holm") and
 * p.adjust(p, "BH"):
 *   raw  2.3733345438962052e-06 1 0.5717978342296034 0.029016828792786119 1
 *        0.018242687751529405 0.9116603903686078
 *   holm 1.6613341807273435e-05 1 1 0.1450841439639306 1 0.10945612650917644 1
 *   BH   1.6613341807273435e-05 1 1 0.067705933849834282 1 0.06384940713035292 1 */
static void test_adjustment(void)
{
    /* Holm: lat/c and tput/x lose their significance at alpha 0.05; lat/a keeps it. */
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.adjust = TALLY_ADJUST_HOLM;
    tally_report *r = fixture_report(&o);
    test_cell cell;
    CHECK_INT(test_cell_get(&cell, r, 0, 1), TALLY_OK);
    CHECK_REL(cell.p_adjusted, 1.661334180727339e-05, 1e-6);
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_REGRESSION);
    CHECK_INT(test_cell_get(&cell, r, 2, 1), TALLY_OK);
    CHECK_REL(cell.p_adjusted, 0.1450841439639306, 1e-6);
    CHECK_REL(cell.comparison.p_value, 0.029016828792786123, 1e-6);
    CHECK_INT(cell.comparison.significant, 0);
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_NO_CHANGE);
    CHECK_INT(test_cell_get(&cell, r, 4, 1), TALLY_OK);
    CHECK_REL(cell.p_adjusted, 0.10945612650917644, 1e-12);
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_INCONCLUSIVE);
    char *text = render(r, TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE);
    check_golden(text, "table_holm.txt");
    tally_free(text);
    tally_report_free(r);
}

static void test_bh_and_other_tests(void)
{
    /* Benjamini-Hochberg over the same 7 p-values (R, above): tput/x and lat/c are no longer
     * significant. */
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.adjust = TALLY_ADJUST_BH;
    tally_report *r = fixture_report(&o);
    test_cell cell;
    CHECK_INT(test_cell_get(&cell, r, 0, 1), TALLY_OK);
    CHECK_REL(cell.p_adjusted, 1.661334180727339e-05, 1e-6);
    CHECK_INT(test_cell_get(&cell, r, 4, 1), TALLY_OK);
    CHECK_REL(cell.p_adjusted, 0.06384940713035292, 1e-12);
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_INCONCLUSIVE);
    CHECK_INT(test_cell_get(&cell, r, 2, 1), TALLY_OK);
    CHECK_REL(cell.p_adjusted, 0.06770593384983429, 1e-6);
    CHECK_INT(cell.comparison.verdict, TALLY_VERDICT_NO_CHANGE);
    tally_report_free(r);

    /* mmtests' CI rule has no p-value: nothing to adjust, and the text shows none. */
    o.test = TALLY_TEST_MMTESTS_CI;
    o.adjust = TALLY_ADJUST_HOLM;
    r = fixture_report(&o);
    CHECK_INT(test_cell_get(&cell, r, 0, 1), TALLY_OK);
    CHECK_INT(cell.comparison.test, TALLY_TEST_MMTESTS_CI);
    CHECK(cell.p_adjusted == cell.comparison.p_value);
    for (int style = 0; style < 4; style++) {
        char *text = render(r, TALLY_FORMAT_TEXT, (tally_style)style);
        CHECK(text != NULL && strstr(text, "lat") != NULL);
        tally_free(text);
    }
    tally_report_free(r);

    o.test = TALLY_TEST_MANN_WHITNEY;
    o.adjust = TALLY_ADJUST_NONE;
    r = fixture_report(&o);
    CHECK_INT(test_cell_get(&cell, r, 0, 1), TALLY_OK);
    CHECK_INT(cell.comparison.test, TALLY_TEST_MANN_WHITNEY);
    char *text = render(r, TALLY_FORMAT_JSON, TALLY_STYLE_TABLE);
    CHECK(strstr(text, "\"test\": \"mann-whitney\"") != NULL);
    tally_free(text);
    tally_report_free(r);
}

static void test_filter(void)
{
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.filter = "*/[ab]";
    tally_report *r = fixture_report(&o);
    CHECK_INT(tally_report_row_count(r), 2); /* lat/a, lat/b */
    char *text = render(r, TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE);
    check_golden(text, "table_filter.txt");
    tally_free(text);
    tally_report_free(r);

    tally_results *list = build_fixture();
    o.filter = "nothing/*";
    r = (tally_report *)1;
    CHECK_INT(tally_report_new(&r, list, &o), TALLY_ENODATA);
    CHECK(r == NULL);
    CHECK(strstr(tally_error_last()->message, "nothing/*") != NULL);
    tally_results_free(list);
}

static void test_summaries_only(void)
{
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.summaries_only = 1;
    tally_report *r = fixture_report(&o);
    test_cell cell;
    CHECK_INT(test_cell_get(&cell, r, 0, 1), TALLY_OK);
    CHECK_INT(cell.compared, 0);
    CHECK_REL(cell.value, 12.0, 1e-12);
    double worst = -1;
    CHECK_INT(tally_report_worst_regression(&worst, r), TALLY_OK);
    CHECK(worst == 0);
    char *text = render(r, TALLY_FORMAT_TEXT, TALLY_STYLE_TABLE);
    check_golden(text, "table_summaries.txt");
    tally_free(text);
    tally_report_free(r);
}

/* omit_samples: the text outputs and every statistic are those of a report that keeps its
 * copy; JSON says "samples": null. */
static void test_omit_samples(void)
{
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    tally_report *full = fixture_report(NULL);
    o.omit_samples = 1;
    tally_report *lean = fixture_report(&o);
    static const tally_style styles[] = { TALLY_STYLE_TABLE, TALLY_STYLE_MMTESTS };
    for (size_t k = 0; k < 2; k++) {
        char *a = render(full, TALLY_FORMAT_TEXT, styles[k]), *b = render(lean, TALLY_FORMAT_TEXT,
                                                                          styles[k]);
        CHECK_STR(b, a);
        tally_free(a);
        tally_free(b);
    }
    char *csv_full = render(full, TALLY_FORMAT_CSV, TALLY_STYLE_TABLE);
    char *csv_lean = render(lean, TALLY_FORMAT_CSV, TALLY_STYLE_TABLE);
    CHECK_STR(csv_lean, csv_full);
    char *json = render(lean, TALLY_FORMAT_JSON, TALLY_STYLE_TABLE);
    CHECK(strstr(json, "\"samples\": null") != NULL);
    CHECK(strstr(json, "\"samples\": [") == NULL);
    tally_free(csv_full);
    tally_free(csv_lean);
    tally_free(json);
    tally_report_free(full);
    tally_report_free(lean);

    o.version = TALLY_REPORT_OPTIONS_VERSION + 1; /* the next, unknown version */
    tally_results *list = build_fixture();
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, &o), TALLY_EINVAL);
    tally_results_free(list);
}

static void test_errors(void)
{
    tally_report *r = NULL;
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_ENODATA); /* no result sets */
    CHECK_INT(tally_report_new(NULL, list, NULL), TALLY_EINVAL);
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.alpha = 1.5;
    CHECK_INT(tally_report_new(&r, list, &o), TALLY_EINVAL);
    o = (tally_report_options)TALLY_REPORT_OPTIONS_INIT;
    o.version = 99;
    CHECK_INT(tally_report_new(&r, list, &o), TALLY_EINVAL);

    /* The same benchmark with different units. */
    static const double x[2] = { 1, 2 };
    add_samples(new_set(list, "one"), "t", "s", TALLY_LOWER_IS_BETTER, "c", x, 2);
    add_samples(new_set(list, "two"), "t", "ms", TALLY_LOWER_IS_BETTER, "c", x, 2);
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_EMISMATCH);
    CHECK(strstr(tally_error_last()->message, "'t'") != NULL);
    tally_results_free(list);

    /* HMean of a non-positive sample: the message names the case. */
    static const double y[3] = { 1, 0, 2 };
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    add_samples(new_set(list, "one"), "rate", "MB/s", TALLY_HIGHER_IS_BETTER, "zero", y, 3);
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_EDOMAIN);
    CHECK(strstr(tally_error_last()->message, "rate/zero") != NULL);
    tally_results_free(list);
}

static void test_single_config(void)
{
    static const double x[3] = { 1, 2, 3 };
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    add_samples(new_set(list, "only"), "t", "s", TALLY_LOWER_IS_BETTER, "c", x, 3);
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    test_cell cell;
    CHECK_INT(test_cell_get(&cell, r, 0, 0), TALLY_OK);
    CHECK_REL(cell.value, 2.0, 1e-12); /* (1 + 2 + 3) / 3 */
    CHECK_INT(cell.compared, 0);
    double gm;
    CHECK_INT(tally_report_geomean(&gm, r, 0), TALLY_ENODATA);
    tally_report_free(r);
    tally_results_free(list);
}

static void test_names(void)
{
    static const char *const formats[] = { "text", "json", "csv", "md", "xlsx" };
    for (int i = 0; i < 5; i++) {
        tally_format f;
        CHECK_STR(tally_format_name((tally_format)i), formats[i]);
        CHECK_INT(tally_format_from_name(&f, formats[i]), TALLY_OK);
        CHECK_INT(f, i);
    }
    tally_format f;
    CHECK_INT(tally_format_from_name(&f, "markdown"), TALLY_OK);
    CHECK_INT(f, TALLY_FORMAT_MARKDOWN);
    CHECK_INT(tally_format_from_name(&f, "pdf"), TALLY_EINVAL);
    CHECK(tally_format_name((tally_format)9) == NULL);
    static const char *const styles[] = { "table", "mmtests", "normalized", "pct" };
    for (int i = 0; i < 4; i++) {
        tally_style s;
        CHECK_STR(tally_style_name((tally_style)i), styles[i]);
        CHECK_INT(tally_style_from_name(&s, styles[i]), TALLY_OK);
        CHECK_INT(s, i);
    }
    tally_style s;
    CHECK_INT(tally_style_from_name(&s, "fancy"), TALLY_EINVAL);
    CHECK(tally_style_name((tally_style)-1) == NULL);
}

static void test_write(void)
{
    tally_report *r = fixture_report(NULL);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_XLSX;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_EINVAL); /* XLSX only to files */
    CHECK(text == NULL);

    o.format = TALLY_FORMAT_CSV;
    size_t len = 0;
    CHECK_INT(tally_report_render(&text, &len, r, &o), TALLY_OK);
    CHECK_INT(len, strlen(text));
    const char *path = TALLY_TEST_TMP "/report_write.csv";
    CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
    char *back = read_text(path);
    CHECK(back && strcmp(back, text) == 0);
    free(back);
    tally_free(text);
    unlink(path);

    /* A directory that does not exist: an error and no file. */
    const char *bad = TALLY_TEST_TMP "/no/such/dir/report.json";
    CHECK_INT(tally_report_write(r, bad, &o), TALLY_EIO);
    CHECK(access(bad, F_OK) != 0);
    o.format = TALLY_FORMAT_XLSX;
    CHECK_INT(tally_report_write(r, bad, &o), TALLY_EIO);
    o.version = 7;
    CHECK_INT(tally_report_write(r, path, &o), TALLY_EINVAL);
    CHECK(access(path, F_OK) != 0);
    tally_report_free(r);
}

#ifdef TALLY_FAULT_INJECTION
/* Every allocation of building, rendering and writing can fail: the result is TALLY_ENOMEM with
 * nothing leaked and no output, and the first N that lets everything through succeeds. */
static void allocation_failures(void)
{
    tally_results *list = build_fixture();
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    ro.adjust = TALLY_ADJUST_BH;
    ro.filter = "*";
    tally_report *r = NULL;
    int rc = TALLY_ENOMEM;
    for (long n = 1; n < 100000 && rc == TALLY_ENOMEM; n++) {
        tally_testing_fail_allocation(n);
        rc = tally_report_new(&r, list, &ro);
        tally_testing_fail_allocation(0);
        CHECK(rc == TALLY_OK || (rc == TALLY_ENOMEM && r == NULL));
    }
    CHECK_INT(rc, TALLY_OK);
    tally_results_free(list);

    static const tally_format formats[] = { TALLY_FORMAT_TEXT, TALLY_FORMAT_TEXT,
                                            TALLY_FORMAT_TEXT, TALLY_FORMAT_TEXT,
                                            TALLY_FORMAT_JSON, TALLY_FORMAT_CSV,
                                            TALLY_FORMAT_MARKDOWN };
    for (int k = 0; k < 7; k++) {
        tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
        o.format = formats[k];
        o.style = k < 4 ? (tally_style)k : TALLY_STYLE_TABLE;
        rc = TALLY_ENOMEM;
        for (long n = 1; n < 100000 && rc == TALLY_ENOMEM; n++) {
            char *text = NULL;
            tally_testing_fail_allocation(n);
            rc = tally_report_render(&text, NULL, r, &o);
            tally_testing_fail_allocation(0);
            CHECK(rc == TALLY_OK || (rc == TALLY_ENOMEM && text == NULL));
            tally_free(text);
        }
        CHECK_INT(rc, TALLY_OK);
    }
    const char *path = TALLY_TEST_TMP "/report_faults.xlsx";
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_XLSX;
    rc = TALLY_ENOMEM;
    for (long n = 1; n < 1000 && rc == TALLY_ENOMEM; n++) {
        tally_testing_fail_allocation(n);
        rc = tally_report_write(r, path, &o);
        tally_testing_fail_allocation(0);
        CHECK(rc == TALLY_OK || (rc == TALLY_ENOMEM && access(path, F_OK) != 0));
    }
    CHECK_INT(rc, TALLY_OK);
    unlink(path);
    tally_report_free(r);
}
#endif

int main(void)
{
    test_alignment();
    test_values();
    test_statistic_choice();
    test_adjustment();
    test_bh_and_other_tests();
    test_filter();
    test_summaries_only();
    test_omit_samples();
    test_errors();
    test_single_config();
    test_names();
    test_write();
#ifdef TALLY_FAULT_INJECTION
    allocation_failures();
#endif
    return check_summary();
}
