/*
 * The three layouts of the posts in the product brief, reproduced from raw samples. Each result
 * set below is built so that its statistics are the printed ones (the hand calculation is next
 * to the data); the rendered text is compared byte for byte with blocks copied from the posts
 * into tests/golden/report/ref_*.txt.
 */
#include <math.h>

#include "test_report_common.h"

/* ---- compare-mmtests: hackbench-process-pipes, Mel Gorman, LKML 2021-08 ---------------------
 * Three runs per case. The printed Amean of n = 3 runs is a sum of whole milliseconds over 3
 * (0.5107 = 1.532 / 3), so each case uses runs of whole milliseconds with that sum: q - d,
 * q + r, q + d with q = sum / 3 rounded down and r the remainder. The percentages are
 * 100 - new * 100 / base of those means, e.g. case 4: 100 - 0.666 * 100 / 0.510667 = -30.42.
 * Significance is Welch's t-test at alpha 0.05: the baseline and alwayswake use d = 4 ms,
 * specialcase d = 4 ms where the post marks it (case 7) and d = 20 % of its mean elsewhere. */
typedef struct mm_case {
    const char *name;
    double base[3], alwayswake[3], specialcase[3];
} mm_case;

static const mm_case hackbench[] = {
    /* 1   sums 1140, 1356, 1074 ms -> means 0.3800, 0.4520, 0.3580; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 2.51e-05, 0.65 */
    { "1", { 0.376, 0.380, 0.384 }, { 0.448, 0.452, 0.456 }, { 0.286, 0.358, 0.430 } },
    /* 4   sums 1532, 1998, 1524 ms -> means 0.5107, 0.6660, 0.5080; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 1.29e-06, 0.968 */
    { "4", { 0.506, 0.512, 0.514 }, { 0.662, 0.666, 0.670 }, { 0.406, 0.508, 0.610 } },
    /* 7   sums 1715, 1916, 1593 ms -> means 0.5717, 0.6387, 0.5310; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 3.91e-05, 0.000262 */
    { "7", { 0.567, 0.573, 0.575 }, { 0.634, 0.640, 0.642 }, { 0.527, 0.531, 0.535 } },
    /* 12  sums 1756, 2569, 1637 ms -> means 0.5853, 0.8563, 0.5457; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 1.32e-07, 0.593 */
    { "12", { 0.581, 0.586, 0.589 }, { 0.852, 0.857, 0.860 }, { 0.436, 0.547, 0.654 } },
    /* 21  sums 2308, 3945, 2189 ms -> means 0.7693, 1.3150, 0.7297; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 7.87e-09, 0.684 */
    { "21", { 0.765, 0.770, 0.773 }, { 1.311, 1.315, 1.319 }, { 0.583, 0.731, 0.875 } },
    /* 30  sums 2900, 5559, 2564 ms -> means 0.9667, 1.8530, 0.8547; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 1.24e-09, 0.374 */
    { "30", { 0.962, 0.968, 0.970 }, { 1.849, 1.853, 1.857 }, { 0.683, 0.856, 1.025 } },
    /* 48  sums 3930, 7508, 3943 ms -> means 1.3100, 2.5027, 1.3143; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 3.77e-10, 0.98 */
    { "48", { 1.306, 1.310, 1.314 }, { 2.498, 2.504, 2.506 }, { 1.051, 1.315, 1.577 } },
    /* 79  sums 6190, 10495, 6354 ms -> means 2.0633, 3.4983, 2.1180; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 1.68e-10, 0.844 */
    { "79", { 2.059, 2.064, 2.067 }, { 3.494, 3.499, 3.502 }, { 1.694, 2.118, 2.542 } },
    /* 110 sums 8424, 11978, 8355 ms -> means 2.8080, 3.9927, 2.7850; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 3.88e-10, 0.949 */
    { "110", { 2.804, 2.808, 2.812 }, { 3.988, 3.994, 3.996 }, { 2.228, 2.785, 3.342 } },
    /* 141 sums 10871, 14043, 10999 ms -> means 3.6237, 4.6810, 3.6663; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 6.11e-10, 0.929 */
    { "141", { 3.619, 3.625, 3.627 }, { 4.677, 4.681, 4.685 }, { 2.933, 3.667, 4.399 } },
    /* 172 sums 13944, 17012, 14401 ms -> means 4.6480, 5.6707, 4.8003; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 6.98e-10, 0.809 */
    { "172", { 4.644, 4.648, 4.652 }, { 5.666, 5.672, 5.674 }, { 3.840, 4.801, 5.760 } },
    /* 203 sums 15789, 19500, 16830 ms -> means 5.2630, 6.5000, 5.6100; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 2.92e-10, 0.646 */
    { "203", { 5.259, 5.263, 5.267 }, { 6.496, 6.500, 6.504 }, { 4.488, 5.610, 6.732 } },
    /* 234 sums 18987, 21442, 18471 ms -> means 6.3290, 7.1473, 6.1570; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 1.56e-09, 0.831 */
    { "234", { 6.325, 6.329, 6.333 }, { 7.143, 7.148, 7.151 }, { 4.926, 6.157, 7.388 } },
    /* 265 sums 21272, 23760, 21425 ms -> means 7.0907, 7.9200, 7.1417; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 1.61e-09, 0.956 */
    { "265", { 7.086, 7.092, 7.094 }, { 7.916, 7.920, 7.924 }, { 5.713, 7.143, 8.569 } },
    /* 296 sums 23265, 24777, 23450 ms -> means 7.7550, 8.2590, 7.8167; scipy 1.10.1 ttest_ind(base, new, equal_var=False): p = 1.06e-08, 0.952 */
    { "296", { 7.751, 7.755, 7.759 }, { 8.255, 8.259, 8.263 }, { 6.253, 7.818, 9.379 } },
};

static void test_mmtests_hackbench(void)
{
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *sets[3] = { new_set(list, "5.14.0-rc3-vanilla"),
                                 new_set(list, "5.14.0-rc3-alwayswake-v1r1"),
                                 new_set(list, "5.14.0-rc3-specialcase-v1r1") };
    for (size_t i = 0; i < TALLY__COUNT(hackbench); i++) {
        const mm_case *c = &hackbench[i];
        const double *runs[3] = { c->base, c->alwayswake, c->specialcase };
        for (int j = 0; j < 3; j++)
            add_samples(sets[j], "hackbench-process-pipes", "s", TALLY_LOWER_IS_BETTER, c->name,
                        runs[j], 3);
    }
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    /* The post shows the benchmark, the header and the Amean rows: only_statistic. */
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.style = TALLY_STYLE_MMTESTS;
    o.only_statistic = 1;
    char *text = NULL;
    CHECK_INT(tally_report_render(&text, NULL, r, &o), TALLY_OK);
    check_golden(text, "ref_mmtests_hackbench.txt");
    tally_free(text);
    text = render(r, TALLY_FORMAT_TEXT, TALLY_STYLE_MMTESTS);
    check_golden(text, "mmtests_hackbench_full.txt");
    tally_free(text);
    tally_report_free(r);
    tally_results_free(list);
}

/* ---- AMD normalized layout: EEVDF eligibility, K Prateek Nayak, LKML 2024-04 -----------------
 * Each case has the baseline's CV, the new configuration's pct imp and CV as printed. Runs:
 * - AMean and Median rows: m - d, m, m + d. Their mean and median are m and their sample SD is
 *   sqrt((d^2 + 0 + d^2) / 2) = d, so CV = 100 d / m and d = CV * m / 100.
 * - HMean rows (stream): 1/x = 1/H - e, 1/H, 1/H + e. Their harmonic mean is H; the harmonic
 *   SD sqrt(sum((1/x - 1/H)^2) * H^4 / n) = e H^2 sqrt(2/3), so CV = 100 e H sqrt(2/3) and
 *   e = CV / (100 H sqrt(2/3)).
 * The baseline's centre is 100; the new centre is 100 * ratio with ratio = 1 - pct/100 when
 * lower is better and 1 + pct/100 when higher is better (e.g. 5.11 -> 0.9489, printed 0.95). */
typedef struct norm_case {
    const char *name;
    double base_cv, pct, new_cv;
} norm_case;

static const norm_case n_hackbench[] = {
    { "1-groups", 1.94, 5.11, 2.56 }, { "2-groups", 2.41, 2.80, 1.52 },
    { "4-groups", 1.16, 5.01, 1.04 }, { "8-groups", 1.72, 4.37, 1.01 },
    { "16-groups", 2.16, 5.88, 2.30 },
};
static const norm_case n_stream10[] = {
    { "Copy", 5.01, 1.27, 4.63 }, { "Scale", 6.93, 2.66, 5.20 },
    { "Add", 5.94, 3.41, 4.99 }, { "Triad", 6.40, -4.69, 8.29 },
};
static const norm_case n_stream100[] = {
    { "Copy", 2.84, -0.37, 2.44 }, { "Scale", 5.26, 0.21, 3.88 },
    { "Add", 4.98, 0.11, 1.15 }, { "Triad", 1.60, -3.72, 5.26 },
};
static const norm_case n_schbench[] = {
    { "1", 30.01, 3.12, 14.32 }, { "2", 26.14, -22.58, 13.48 }, { "4", 13.22, 0.00, 6.04 },
    { "8", 6.23, 0.00, 13.09 },  { "16", 3.49, -1.69, 3.43 },   { "32", 2.20, 2.13, 2.47 },
    { "64", 7.17, 12.50, 3.18 }, { "128", 2.79, -2.46, 8.29 },  { "256", 13.02, -1.34, 37.58 },
    { "512", 4.27, 21.49, 2.41 },
};

static void centre_runs(double *x, double centre, double cv, tally_statistic stat)
{
    if (stat == TALLY_STAT_HMEAN) {
        double e = cv / (100.0 * centre * sqrt(2.0 / 3.0));
        x[0] = 1.0 / (1.0 / centre - e);
        x[1] = centre;
        x[2] = 1.0 / (1.0 / centre + e);
    } else {
        double d = cv * centre / 100.0;
        x[0] = centre - d;
        x[1] = centre;
        x[2] = centre + d;
    }
}

static void add_norm(tally_resultset *tip, tally_resultset *eie, const char *bench,
                     const char *unit, tally_direction dir, tally_statistic stat,
                     const norm_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        double ratio = dir == TALLY_LOWER_IS_BETTER ? 1 - cases[i].pct / 100 : 1 + cases[i].pct / 100;
        double x[3];
        centre_runs(x, 100.0, cases[i].base_cv, stat);
        add_samples(tip, bench, unit, dir, cases[i].name, x, 3);
        centre_runs(x, 100.0 * ratio, cases[i].new_cv, stat);
        add_samples(eie, bench, unit, dir, cases[i].name, x, 3);
    }
    CHECK_INT(tally_benchmark_set_statistic(tally_resultset_benchmark_find(tip, bench), stat),
              TALLY_OK);
    CHECK_INT(tally_benchmark_set_statistic(tally_resultset_benchmark_find(eie, bench), stat),
              TALLY_OK);
}

static void test_normalized(void)
{
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    tally_resultset *tip = new_set(list, "tip"), *eie = new_set(list, "eie");
    /* The post's first-column labels and units are free text: metadata and unit strings. */
    CHECK_INT(tally_resultset_meta_set(tip, "report.stream-10.case_label", "Test"), TALLY_OK);
    CHECK_INT(tally_resultset_meta_set(tip, "report.stream-100.case_label", "Test"), TALLY_OK);
    CHECK_INT(tally_resultset_meta_set(tip, "report.schbench.case_label", "#workers"), TALLY_OK);
    add_norm(tip, eie, "hackbench", "time in seconds", TALLY_LOWER_IS_BETTER, TALLY_STAT_AMEAN,
             n_hackbench, TALLY__COUNT(n_hackbench));
    add_norm(tip, eie, "stream-10", "Bandwidth, MB/s", TALLY_HIGHER_IS_BETTER, TALLY_STAT_HMEAN,
             n_stream10, TALLY__COUNT(n_stream10));
    add_norm(tip, eie, "stream-100", "Bandwidth, MB/s", TALLY_HIGHER_IS_BETTER, TALLY_STAT_HMEAN,
             n_stream100, TALLY__COUNT(n_stream100));
    add_norm(tip, eie, "schbench", "99th percentile latency in us", TALLY_LOWER_IS_BETTER,
             TALLY_STAT_MEDIAN, n_schbench, TALLY__COUNT(n_schbench));
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    char *text = render(r, TALLY_FORMAT_TEXT, TALLY_STYLE_NORMALIZED);
    check_golden(text, "ref_normalized.txt");
    tally_free(text);
    tally_report_free(r);
    tally_results_free(list);
}

/* ---- pct layout: workqueue affinity scopes, tbench NPS1, K Prateek Nayak, LKML 2023-07 ------
 * Each configuration's runs are v - 1, v, v + 1: their AMean is the printed v. The post's pct
 * is (new / base - 1) * 100 truncated toward zero: 459.44 / 450.40 -> 2.0071 -> 2.00,
 * 1621.24 / 1630.13 -> -0.5454 -> -0.54, 5465.09 / 6113.51 -> -10.6063 -> -10.60. */
static const char *const tb_cases[] = { "1", "2", "4", "8", "16", "32", "64", "128", "256", "512",
                                        "1024" };
static const double tb_values[][5] = {
    { 450.40, 459.44, 457.12, 456.36, 456.75 },      { 872.50, 869.68, 890.59, 878.87, 890.14 },
    { 1630.13, 1621.24, 1634.74, 1628.62, 1646.57 }, { 3139.90, 3044.58, 3099.49, 3081.43, 3151.16 },
    { 6113.51, 5555.17, 5465.09, 5661.31, 5742.58 }, { 11024.64, 9574.62, 9282.62, 9542.00, 9916.66 },
    { 19081.96, 15656.53, 15176.12, 16527.77, 15097.97 },
    { 30956.07, 28277.80, 27662.76, 27817.94, 28925.78 },
    { 42829.46, 38646.48, 38355.27, 37073.24, 34391.01 },
    { 42395.69, 36931.34, 39259.49, 36571.62, 36245.55 },
    { 41973.51, 38817.07, 38733.15, 38864.45, 35728.70 },
};

/* The workqueue post's five configurations of one AMean benchmark: runs v - 1, v, v + 1 per
 * case, and the baseline's metadata `meta` (key, value pairs). */
static tally_results *workqueue_list(const char *bench, const char *unit,
                                     const char *const *cases, const double (*values)[5],
                                     size_t count, const char *const (*meta)[2], size_t metas)
{
    static const char *const labels[] = { "base", "cpu", "cache", "numa", "system" };
    tally_results *list;
    CHECK_INT(tally_results_new(&list), TALLY_OK);
    for (int j = 0; j < 5; j++) {
        tally_resultset *rs = new_set(list, labels[j]);
        for (size_t i = 0; i < count; i++) {
            double v = values[i][j], x[3] = { v - 1, v, v + 1 };
            add_samples(rs, bench, unit, TALLY_HIGHER_IS_BETTER, cases[i], x, 3);
        }
        CHECK_INT(tally_benchmark_set_statistic(tally_resultset_benchmark_find(rs, bench),
                                                TALLY_STAT_AMEAN), TALLY_OK);
        for (size_t k = 0; j == 0 && k < metas; k++)
            CHECK_INT(tally_resultset_meta_set(rs, meta[k][0], meta[k][1]), TALLY_OK);
    }
    return list;
}

static void test_pct_tbench(void)
{
    static const char *const meta[][2] = { { "report.case_label", "Clients" } };
    tally_results *list = workqueue_list("tbench", "MB/s", tb_cases, tb_values,
                                         TALLY__COUNT(tb_cases), meta, TALLY__COUNT(meta));
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    char *text = render(r, TALLY_FORMAT_TEXT, TALLY_STYLE_PCT);
    /* Line 1 is the benchmark, line 2 the header. The post's header was typed by hand: "cpu"
     * stands one column further right than the other names; tally starts every name four
     * columns into its cell. The rows are the post's, byte for byte. */
    char *rows = strchr(strchr(text, '\n') + 1, '\n') + 1;
    CHECK(strncmp(text, "tbench\nClients:     base                    cpu                     cache"
                        "                   numa                    system\n",
                  (size_t)(rows - text)) == 0);
    check_golden(rows, "ref_pct_tbench_rows.txt");
    tally_free(text);
    tally_report_free(r);
    tally_results_free(list);
}

/* ---- pct layout: the same post's netperf table (NPS1) -------------------------------------
 * Runs v - 1, v, v + 1 again (AMean v); pct truncated as above: 103440.72 / 100910.82 ->
 * 2.5070 -> 2.50, 20517.01 / 38917.58 -> -47.2812 -> -47.28. The table has no first-column
 * title, names ending in ':' right-aligned in 11 columns (the two of 12 take the extra column
 * from the gap), six spaces before the first cell and its titles seven columns into their
 * cells, set through the baseline's metadata as the CLI sets them. */
static const char *const np_cases[] = { "1-clients:", "2-clients:", "4-clients:", "8-clients:",
                                        "16-clients:", "32-clients:", "64-clients:",
                                        "128-clients:", "256-clients:" };
static const double np_values[][5] = {
    { 100910.82, 103440.72, 102592.36, 103199.49, 103561.90 },
    { 99777.76, 100414.00, 100305.89, 99890.90, 101512.46 },
    { 97676.17, 96624.28, 95966.77, 97105.22, 97972.11 },
    { 95413.11, 89926.72, 89977.14, 91020.10, 92458.94 },
    { 88961.66, 81295.02, 79144.83, 80216.42, 85439.68 },
    { 82199.83, 77914.00, 75055.66, 76813.94, 80768.87 },
    { 66094.87, 64419.91, 63718.37, 60370.40, 66179.58 },
    { 43833.63, 42936.08, 44554.69, 42666.82, 45543.69 },
    { 38917.58, 24807.28, 20517.01, 21651.40, 23778.87 },
};

static void test_pct_netperf(void)
{
    static const char *const meta[][2] = { { "report.netperf.case_label", "" },
                                           { "report.netperf.case_width", "11" },
                                           { "report.netperf.case_gap", "6" },
                                           { "report.netperf.title_indent", "7" } };
    tally_results *list = workqueue_list("netperf", "trans/s", np_cases, np_values,
                                         TALLY__COUNT(np_cases), meta, TALLY__COUNT(meta));
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    char *text = render(r, TALLY_FORMAT_TEXT, TALLY_STYLE_PCT);
    /* Line 1 is the benchmark; the header and rows are the post's, byte for byte. */
    CHECK(strncmp(text, "netperf\n", 8) == 0);
    check_golden(text + 8, "ref_pct_netperf.txt");
    tally_free(text);
    tally_report_free(r);
    tally_results_free(list);
}

int main(void)
{
    test_mmtests_hackbench();
    test_normalized();
    test_pct_tbench();
    test_pct_netperf();
    return check_summary();
}
